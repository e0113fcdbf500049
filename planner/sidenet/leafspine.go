package sidenet

// Group is a set of device ports on leaves of one down:up ratio.
type Group struct {
	Ports    int
	Down, Up int // the ratio
}

// LeafSpine is a network sized by SizeLeafSpine.
type LeafSpine struct {
	Leaves, Spines int
	Uplinks, ISL   int // leaf-spine links; links between paired leaves
	Cores          int // a third tier when the leaves outgrow one spine's reach
	CoreLinks      int // spine-core links
	Down           int // device ports per leaf, first group (for the JCT view)
	Up             int // uplinks per leaf, first group
}

// SizeLeafSpine sizes a network beside the back end: leaves in pairs (a
// server's bonded ports reach two switches, as every NVIDIA RA builds
// them; Ethernet pairs give two ports to the link between them), each
// group's leaves split down:up by its ratio, and when one pair does not
// hold every port, spines in pairs to take the uplinks. A group's ports
// spread evenly over its leaves, and each leaf cables the uplinks its
// ports need at the ratio; the spines (and cores) have a port for every
// uplink port the leaves have at the ratio, cabled or not, so that
// filling a leaf's free ports adds cables, not spines. That is NVIDIA's
// DGX H100 SuperPOD storage fabric (RA-11333-001 Table 8): 254 DGX ports
// on 8 leaves (32 each, 24 uplinks at 4:3), 48 storage ports on 2 (24
// and 24 at 1:1), 240 leaf-spine cables (494 NDR cables less the 254 to
// the DGX), on the 6 spines that the leaves' 8 x 27 + 2 x 32 = 280
// uplink ports need (16 switches, Table 7). The spines are the fewest
// with those ports (no balance search: these networks carry
// north-south traffic, hashed).
func SizeLeafSpine(groups []Group, radix int, ethernet bool) LeafSpine {
	isl := 0
	if ethernet {
		isl = 2
	}
	usable := radix - isl
	total := 0
	for _, g := range groups {
		total += g.Ports
	}
	var n LeafSpine
	if total == 0 {
		return n
	}
	if total <= 2*usable { // one pair holds every port
		n.Leaves, n.ISL = 2, isl
		n.Down, n.Up = usable, 0
		return n
	}
	type sized struct{ leaves, down, up int }
	var gs []sized
	last := -1
	for i, g := range groups {
		if g.Ports == 0 {
			gs = append(gs, sized{})
			continue
		}
		down := usable * g.Down / (g.Down + g.Up)
		up := ceilDiv(down*g.Up, g.Down)
		if down+up > usable {
			down = usable - up
		}
		gs = append(gs, sized{ceilDiv(g.Ports, down), down, up})
		n.Leaves += gs[i].leaves
		if last < 0 {
			n.Down, n.Up = down, up
		}
		last = i
	}
	if n.Leaves%2 == 1 { // the pair's second leaf
		n.Leaves++
		gs[last].leaves++
	}
	capacity := 0 // uplink ports of the leaves at their ratio
	for i, g := range groups {
		if g.Ports == 0 {
			continue
		}
		l := gs[i].leaves
		capacity += l * gs[i].up
		// The ports spread: ports%l leaves take one more than the rest.
		hi, lo := g.Ports%l, l-g.Ports%l
		n.Uplinks += hi*ceilDiv((g.Ports/l+1)*g.Up, g.Down) + lo*ceilDiv(g.Ports/l*g.Up, g.Down)
	}
	n.ISL = n.Leaves / 2 * isl // isl ports a leaf: links a pair
	n.Spines = even(max(2, ceilDiv(capacity, radix)))
	if n.Leaves <= radix {
		return n
	}
	// Past what one spine reaches (a link to every leaf), pods of radix/2
	// leaves get their own spines, half of whose ports go up to cores;
	// a spine sends up the links it takes from below.
	pods := ceilDiv(n.Leaves, radix/2)
	perPod := ceilDiv(capacity, pods)
	spinesPerPod := even(max(2, ceilDiv(perPod, radix/2)))
	n.Spines = pods * spinesPerPod
	n.CoreLinks = n.Uplinks
	n.Cores = even(max(2, ceilDiv(pods*perPod, radix)))
	return n
}

// even rounds n up to an even number (switches come in pairs).
func even(n int) int { return n + n%2 }
