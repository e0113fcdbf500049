package phases

import (
	"cmp"
	"fabricplan/planner"
	"slices"
)

// Device identities for comparing phases. A device keeps its identity
// between phases when the cable map would give it the same name: a leaf
// by plane and index with its rail naming, a spine by plane, pod (with
// three tiers) and index, a core by plane and index. A server is its
// index: its name's unit can change with the plan (a single-switch
// fabric counts every server in one unit) but it is the same machine.
func leafKey(plane, g int, rails bool) uint64 {
	k := uint64(plane)<<40 | uint64(g)
	if rails {
		k |= 1 << 62
	}
	return k | 1<<63
}

func spineKey(plane, pod, j int, threeTier bool) uint64 {
	k := uint64(plane)<<48 | uint64(pod)<<24 | uint64(j)
	if threeTier {
		k |= 1 << 62
	}
	return k | 1<<63
}

func coreKey(plane, i int) uint64 { return uint64(plane)<<40 | uint64(i) | 1<<63 }

// spineLowerKey names a spine as the lower end of spine-core links, in
// the order the walk reaches them (core group, then pod), so that a
// plan's lower spines come out sorted.
func spineLowerKey(plane, pod, j int) uint64 {
	return uint64(plane)<<48 | uint64(j)<<24 | uint64(pod) | 1<<63
}

// lowerUpper gives a link's lower and upper device keys (for a server
// link, the server port stands for its lower device).
func lowerUpper(l *planner.Link, serverPorts int, rails, tri bool) (lower, upper uint64) {
	switch l.Tier {
	case planner.LinkServerLeaf:
		return uint64(l.Lower.Device*serverPorts+l.Lower.Port) | 1<<63, leafKey(l.Plane, l.Upper.Device, rails)
	case planner.LinkLeafSpine:
		return leafKey(l.Plane, l.Lower.Device, rails), spineKey(l.Plane, l.Pod, l.Upper.Device, tri)
	}
	return spineLowerKey(l.Plane, l.Pod, l.Lower.Device), coreKey(l.Plane, l.Upper.Device)
}

// Side link tiers, past the fabric's Link.Tier values: a storage node's
// link to a leaf and a leaf pair's peer link (planner.LeafSideLink).
const (
	sideStorage = planner.LinkTierCount + iota
	sidePeer
)

// sideKey is a side link's tier and ends as keys: a storage link's node
// port (its lower end, as a server port is a server link's) and its
// leaf; a peer link's two leaves.
func sideKey(l *planner.LeafSideLink, rails bool) [3]uint64 {
	if l.Tier == planner.CableTierStorage {
		return [3]uint64{sideStorage, uint64(l.Node)<<20 | uint64(l.Port) | 1<<63, leafKey(l.Plane, l.Leaf, rails)}
	}
	return [3]uint64{sidePeer, leafKey(l.Plane, l.Leaf, rails), leafKey(l.Plane, l.Peer, rails)}
}

// linkSet is a plan's links by their ends, for comparing consecutive
// phases: each server port's leaf, and each leaf's and each lower
// spine's upper devices (a multiset: one entry a link). Lower devices
// come in walk order, which is ascending by their keys, so two sets
// compare by merging without a map.
type linkSet struct {
	serverPorts int
	toLeaf      []uint64 // server*serverPorts + port -> leaf key (0: none)
	// For leaf_spine and spine_core: lower device keys ascending, where
	// each one's uppers start in ups, and the upper keys (sorted per
	// lower device).
	lower [planner.LinkTierCount][]uint64
	start [planner.LinkTierCount][]int32
	ups   [planner.LinkTierCount][]uint64
	links [planner.LinkTierCount]int
	// side counts the storage and peer links by sideKey (few: a map).
	side map[[3]uint64]int
	// oversub is the worst leaf's down:up as wired (0 without uplinks).
	oversub float64
}

// uppers returns the upper device keys of lower device i of tier t.
func (ls *linkSet) uppers(t, i int) []uint64 {
	end := len(ls.ups[t])
	if i+1 < len(ls.start[t]) {
		end = int(ls.start[t][i+1])
	}
	return ls.ups[t][ls.start[t][i]:end]
}

// newLinkSet collects the links of p by their ends.
func newLinkSet(p *planner.Plan) *linkSet {
	ls := &linkSet{serverPorts: p.ServerPorts, toLeaf: make([]uint64, p.Servers*p.ServerPorts)}
	rails := railLeaves(p)
	tri := p.Tiers == 3
	ls.ups[planner.LinkLeafSpine] = make([]uint64, 0, p.Links.LeafSpine)
	ls.ups[planner.LinkSpineCore] = make([]uint64, 0, p.Links.SpineCore)
	sortLast := func(t int) {
		if n := len(ls.start[t]); n > 0 {
			slices.Sort(ls.ups[t][ls.start[t][n-1]:])
		}
	}
	var leaf oversubTally
	_ = p.WalkLinks(func(l *planner.Link) error {
		t := l.Tier
		ls.links[t]++
		lower, upper := lowerUpper(l, ls.serverPorts, rails, tri)
		switch t {
		case planner.LinkServerLeaf:
			ls.toLeaf[lower&^(1<<63)] = upper
			leaf.at(upper)
			leaf.down++
			return nil
		case planner.LinkLeafSpine:
			leaf.at(lower)
			leaf.up++
		}
		if n := len(ls.lower[t]); n == 0 || ls.lower[t][n-1] != lower {
			sortLast(t)
			ls.lower[t] = append(ls.lower[t], lower)
			ls.start[t] = append(ls.start[t], int32(len(ls.ups[t])))
		}
		ls.ups[t] = append(ls.ups[t], upper)
		return nil
	})
	sortLast(planner.LinkLeafSpine)
	sortLast(planner.LinkSpineCore)
	ls.side = map[[3]uint64]int{}
	_ = p.WalkSideLinks(func(l *planner.LeafSideLink) error {
		ls.side[sideKey(l, rails)]++
		return nil
	})
	ls.sortLower(planner.LinkLeafSpine) // pods by rail walk leaves out of index order
	ls.oversub = leaf.worstRatio()
	return ls
}

// oversubTally finds the worst leaf's down:up as wired, from a walk's
// links: a leaf's server links, then its uplinks, come together.
type oversubTally struct {
	leaf     uint64 // the key of the leaf being counted (0: none yet)
	down, up int    // its server links and uplinks so far
	worst    float64
}

// at moves the count to the leaf of key.
func (o *oversubTally) at(key uint64) {
	if key != o.leaf {
		o.finish()
		o.leaf, o.down, o.up = key, 0, 0
	}
}

// finish counts the leaf being counted (a leaf without uplinks counts
// none).
func (o *oversubTally) finish() {
	if o.up > 0 {
		o.worst = max(o.worst, float64(o.down)/float64(o.up))
	}
}

// worstRatio is the worst leaf's down / up (0 without uplinks).
func (o *oversubTally) worstRatio() float64 {
	o.finish()
	o.down, o.up = 0, 0
	return o.worst
}

// railLeaves says whether p's leaves are a rail's each (a leaf group
// of more than one leaf): their names carry the rail.
func railLeaves(p *planner.Plan) bool {
	leaves, _ := p.LeafGroup()
	return leaves > 1
}

// tierLinks is the count of tier t (a Link.Tier) in l.
func tierLinks(l *planner.Links, t int) *int {
	switch t {
	case planner.LinkServerLeaf:
		return &l.ServerLeaf
	case planner.LinkLeafSpine:
		return &l.LeafSpine
	}
	return &l.SpineCore
}

// sortLower puts tier t's lower devices in ascending key order, each
// with its uppers, where the walk reached them out of order.
func (ls *linkSet) sortLower(t int) {
	if slices.IsSorted(ls.lower[t]) {
		return
	}
	order := make([]int, len(ls.lower[t]))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ls.lower[t][a], ls.lower[t][b]) })
	lower := make([]uint64, 0, len(order))
	start := make([]int32, 0, len(order))
	ups := make([]uint64, 0, len(ls.ups[t]))
	for _, i := range order {
		lower = append(lower, ls.lower[t][i])
		start = append(start, int32(len(ups)))
		ups = append(ups, ls.uppers(t, i)...)
	}
	ls.lower[t], ls.start[t], ls.ups[t] = lower, start, ups
}

// linkDiff is how the links change from one phase's fabric to the next's,
// the storage and peer links beside the tiers' included.
type linkDiff struct {
	// Kept links join the same two devices in both; Moved are the old
	// phase's other links (their cables are re-plugged, or taken out when
	// the new phase has fewer); Added are the new phase's links not kept.
	Kept, Moved, Added planner.Links
}

// diffLinks compares two phases' links by their ends, the old phase's
// cores under rename (coreRename; nil: their own names).
func diffLinks(old, cur *linkSet, rename map[uint64]uint64) linkDiff {
	var d linkDiff
	kept := [planner.LinkTierCount]int{}
	for i, o := range old.toLeaf {
		if o != 0 && i < len(cur.toLeaf) && cur.toLeaf[i] == o {
			kept[planner.LinkServerLeaf]++
		}
	}
	kept[planner.LinkLeafSpine] = keptUpper(old, cur, planner.LinkLeafSpine, nil)
	kept[planner.LinkSpineCore] = keptUpper(old, cur, planner.LinkSpineCore, rename)
	for t := range planner.LinkTierCount {
		*tierLinks(&d.Kept, t) = kept[t]
		*tierLinks(&d.Moved, t) = old.links[t] - kept[t]
		*tierLinks(&d.Added, t) = cur.links[t] - kept[t]
	}
	// Side links: kept where both phases join the same ends.
	var sideKept, sideOld, sideCur [2]int
	for k, n := range old.side {
		sideOld[k[0]-sideStorage] += n
		sideKept[k[0]-sideStorage] += min(n, cur.side[k])
	}
	for k, n := range cur.side {
		sideCur[k[0]-sideStorage] += n
	}
	d.Kept.Storage, d.Kept.Peer = sideKept[0], sideKept[1]
	d.Moved.Storage, d.Moved.Peer = sideOld[0]-sideKept[0], sideOld[1]-sideKept[1]
	d.Added.Storage, d.Added.Peer = sideCur[0]-sideKept[0], sideCur[1]-sideKept[1]
	for _, l := range []*planner.Links{&d.Kept, &d.Moved, &d.Added} {
		l.Total = l.Sum()
	}
	return d
}

// keptUpper counts the links of tier t (leaf-spine or spine-core) that
// join the same lower and upper devices in old and cur, old's upper
// devices under rename (nil: their own names).
func keptUpper(old, cur *linkSet, t int, rename map[uint64]uint64) int {
	kept := 0
	var buf []uint64
	sharedLowers(old, cur, t, func(i, j int) {
		ups := old.uppers(t, i)
		if rename != nil {
			buf = renamedUppers(rename, ups, buf)
			ups = buf
		}
		kept += commonCount(ups, cur.uppers(t, j))
	})
	return kept
}

// sharedLowers calls f with the index in old and in cur of each lower
// device of tier t both sets hold (their lower lists are sorted).
func sharedLowers(old, cur *linkSet, t int, f func(i, j int)) {
	a, b := old.lower[t], cur.lower[t]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			f(i, j)
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
}

// commonCount is the size of the intersection of two sorted multisets.
func commonCount(a, b []uint64) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}
