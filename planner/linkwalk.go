package planner

import "fabricplan/planner/fabric"

// Link tiers by index (Link.Tier), in the order a plan lists them.
const (
	LinkServerLeaf = iota
	LinkLeafSpine
	LinkSpineCore
	// LinkTierCount is the number of link tiers.
	LinkTierCount
)

// The planner's short names of the link tiers' indices.
const (
	tierServerLeaf = LinkServerLeaf
	tierLeafSpine  = LinkLeafSpine
	tierSpineCore  = LinkSpineCore
	linkTierCount  = LinkTierCount
)

// linkTierNames are the cable map's tier names by index.
var linkTierNames = [linkTierCount]string{"server_leaf", "leaf_spine", "spine_core"}

// Link is one link of a plan by numbers: what the cable map names (and
// WalkLinks walks), without a string. The walk reuses it: a callback must
// not keep it.
type Link struct {
	// Tier is LinkServerLeaf, LinkLeafSpine or LinkSpineCore.
	Tier  int
	Plane int // from 1
	// Rail is the cable map's rail column: a server link's rail (from
	// 1), a rail leaf's uplinks' rail, 0 otherwise.
	Rail int
	// Pod is the spine's pod (from 0) of leaf_spine and spine_core links.
	Pod int
	// Lower is the server or the lower switch, Upper the upper switch.
	Lower, Upper LinkEnd
}

// LinkEnd is one end of a Link: a device and its port.
type LinkEnd struct {
	// Device numbers the end's device: a server over the whole fabric,
	// a leaf or a core in its plane, a spine in its pod.
	Device int
	// Port is the device's port from 0, as the cable map names it. A
	// server's ports count its NIC ports over the planes (rail*planes +
	// plane-1: U<NIC>/P<port>). A switch's count links: its down links
	// take the first ports, its uplinks start at the next whole cage,
	// and Port / (links a cage) is the port's cage.
	Port int
}

// WalkLinks calls fn once for every link of the plan, in the cable map's
// order: plane by plane; in each, pod by pod, each leaf's server links
// then its uplinks; then, core group by core group, each spine's
// uplinks. It keeps a counter per upper switch of a group, never the
// links, so a million-GPU fabric streams in flat memory. Every walk of
// the links (the cable map, the hall's runs and media, the phases'
// changes) is built on it. The walk stops at fn's first error.
func (p *Plan) WalkLinks(fn func(l *Link) error) error {
	return p.walkLinks(true, fn)
}

// walkLinks is WalkLinks; without servers it leaves the server links
// out (they are counted by unit: countServerLinks).
func (p *Plan) walkLinks(servers bool, fn func(l *Link) error) error {
	w := linkWalk{p: p, lay: p.layout, cages: p.endCages(), fn: fn, noServers: !servers}
	return w.planes()
}

// planes walks every plane's links, the pods' and then the cores'.
func (w *linkWalk) planes() error {
	w.leafDeal = leafSpineDeal(w.cages)
	for plane := 1; plane <= w.p.Planes; plane++ {
		w.l.Plane = plane
		if err := w.pods(); err != nil {
			return err
		}
		if err := w.cores(); err != nil {
			return err
		}
	}
	return nil
}

// linkWalk is the state of one WalkLinks walk.
type linkWalk struct {
	p     *Plan
	lay   fabric.Layout
	cages [linkTierCount][2]int // links a cage carries at each end (endCages)
	fn    func(l *Link) error
	l     Link
	// deal is where the pod's leaf-spine links go (fabric.LeafDeal),
	// leafDeal links a cage at a time.
	deal      fabric.LeafDeal
	leafDeal  int
	noServers bool // leave the server links out
	// upper, when set, takes each switch's uplinks at once in place of
	// fn a link (a walk without servers: upperWalk).
	upper *upperWalk
}

// pods walks one plane's server and leaf-spine links, pod by pod.
func (w *linkWalk) pods() error {
	lay := w.lay
	next, pod := 0, 0 // leaves walked so far in the plane; the pod
	for _, run := range lay.Pods {
		for range run.Count {
			n := run.Spines
			w.deal.Start(run, w.leafDeal)
			k := 0 // leaf of the pod
			for _, ld := range run.Leaves {
				for range ld.Switches {
					g := lay.LeafOf(pod, k, next) // leaf index in the plane
					if !w.noServers {
						if err := w.serverLinks(g, ld.Down); err != nil {
							return err
						}
					}
					if n > 0 {
						if err := w.leafUplinks(g, pod, ld); err != nil {
							return err
						}
					}
					next++
					k++
				}
			}
			pod++
		}
	}
	return nil
}

// serverLinks walks the down links of leaf g: each leaf of a unit takes
// rails/leaves ports of each server of its unit in turn (a rail's leaf
// one port, that rail's; a leaf holding whole servers every port; each
// leaf of a pair half of them).
func (w *linkWalk) serverLinks(g, down int) error {
	l, p := &w.l, w.p
	lpu, spu, rails := w.lay.LeavesPerUnit, w.lay.ServersPerUnit, p.RailsPerPlane
	l.Tier, l.Upper.Device = tierServerLeaf, g
	first := g / lpu * spu
	per := max(rails/max(lpu, 1), 1) // ports of a server on one leaf
	for k := range down {
		server, r := first+k/per, g%lpu*per+k%per
		l.Rail = r + 1
		l.Lower = LinkEnd{server, r*p.Planes + l.Plane - 1}
		l.Upper.Port = k
		if err := w.fn(l); err != nil {
			return err
		}
	}
	return nil
}

// leafUplinks walks the uplinks of leaf g of pod, of leaf run ld, to the
// pod's spines as w.deal deals them (fabric.LeafDeal).
func (w *linkWalk) leafUplinks(g, pod int, ld fabric.Load) error {
	l := &w.l
	l.Tier, l.Pod, l.Lower.Device, l.Rail = tierLeafSpine, pod, g, 0
	if w.lay.LeavesPerUnit > 1 {
		l.Rail = g%w.lay.LeavesPerUnit + 1
	}
	up := upPort(ld.Down, 0, w.cages[tierServerLeaf][1], w.cages[tierLeafSpine][0])
	ll := w.deal.Leaf(ld.Up)
	if w.upper != nil {
		return w.upper.leafUplinks(l.Plane, g, pod, up, ld.Up, &ll)
	}
	for k := range ld.Up {
		x, port := ll.Next()
		l.Lower.Port, l.Upper = up+k, LinkEnd{x, port}
		if err := w.fn(l); err != nil {
			return err
		}
	}
	return nil
}

// cores walks one plane's spine-core links: a core group takes its
// spine indices (spine j alone in reference designs) of every pod that
// has them.
func (w *linkWalk) cores() error {
	l := &w.l
	l.Tier, l.Rail = tierSpineCore, 0
	j, firstCore := 0, 0
	for _, run := range w.lay.CoreGroups {
		n := run.Cores
		for range run.Groups {
			deal, spines := w.lay.DealOf(run), run.SpineCount()
			for k := range spines {
				if err := w.spineUplinks(run, j+k, k, firstCore, &deal); err != nil {
					return err
				}
			}
			j += spines
			firstCore += n
		}
	}
	return nil
}

// spineUplinks walks the uplinks of spine jj (the group's k-th spine
// index) of every pod that has it to core group run, whose first core is
// firstCore, as deal deals them to the cores (fabric.CageDeal: a
// spine's whole cages each to one core cage, its odd links after every
// spine's whole cages).
func (w *linkWalk) spineUplinks(run fabric.CoreRun, jj, k, firstCore int, deal *fabric.CageDeal) error {
	l := &w.l
	pod := 0
	for i, pr := range w.lay.Pods {
		ups := run.UpAt(k, i)
		if ups == 0 {
			pod += pr.Count
			continue
		}
		up := upPort(spineDown(pr, jj), 0, w.cages[tierLeafSpine][1], w.cages[tierSpineCore][0])
		if w.upper != nil {
			if err := w.upper.spineUplinks(l.Plane, pod, pr.Count, jj, up, ups, firstCore, deal); err != nil {
				return err
			}
			pod += pr.Count
			continue
		}
		for range pr.Count {
			l.Pod, l.Lower.Device = pod, jj
			sd := deal.Spine(ups)
			for u := range ups {
				x, port := sd.Link(u)
				l.Lower.Port, l.Upper = up+u, LinkEnd{firstCore + x, port}
				if err := w.fn(l); err != nil {
					return err
				}
			}
			pod++
		}
	}
	return nil
}

// leafSpineDeal is the links a leaf deals a spine at a time
// (fabric.LeafDeal) given each tier's links a cage at each end
// (endCages): a twin-port cage's two where the leaf's and the spine's
// cages carry as many, else one.
func leafSpineDeal(cages [linkTierCount][2]int) int {
	if c := cages[tierLeafSpine]; c[0] > 1 && c[0] == c[1] {
		return c[0]
	}
	return 1
}

// spineDown is the links spine j of a pod of run pr takes from its
// leaves: the pod's uplinks spread over its spines, the first ones
// taking one more.
func spineDown(pr fabric.PodRun, j int) int {
	t := fabric.SumLinks(pr.Leaves, true)
	return fabric.SpineDownAt(fabric.SpreadLinks(t, pr.Spines), j)
}
