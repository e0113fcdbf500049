package planner

import (
	"math/bits"

	"fabricplan/planner/hall"
)

// upperWalk visits a laid-out plan's leaf-spine and spine-core links in
// walk order, each as the bill reads it: its tier, run, end cages and
// racks. It is what a cableWalk gives the survey and the count of a
// plan whose server links are counted by unit (countServerLinks), at a
// fraction of the cost: every switch's place is looked up once, not at
// each of its links, and no cable map row is filled. The cable map
// walks with cableWalk.
type upperWalk struct {
	h    *hall.Hall
	sets *cageSets
	// places are every leaf's, spine's and core's, all planes, by its
	// device number less its tier's first (cableWalk's leafID, spineID,
	// coreID, held in first).
	places [3][]hall.Place
	first  [3]int
	// base is each switch tier's first cage and cages its cages per
	// switch (the sets' grid); lowCage and highCage are each link
	// tier's links a lower and an upper cage carries.
	base, cages       [3]int32
	lowCage, highCage [linkTierCount]cageDivisor
	// visit takes each link; nil: the link is joined into sets and
	// recorded in rec (nil: not recorded), the survey's work done here
	// rather than through a call a link.
	visit func(t int8, run float64, ca, cb, ra, rb int32) error
	rec   *linkRecords
}

// walkUpper calls visit for every leaf-spine and spine-core link of p,
// laid out in its hall with its cage sets' grid, in walk order.
func (p *Plan) walkUpper(sets *cageSets, visit func(t int8, run float64, ca, cb, ra, rb int32) error) error {
	return p.newUpperWalk(sets, visit).walk(p)
}

// surveyUpper joins every leaf-spine and spine-core link of p into sets
// by its run, in walk order, recording each in rec (nil: none).
func (p *Plan) surveyUpper(sets *cageSets, rec *linkRecords) error {
	u := p.newUpperWalk(sets, nil)
	u.rec = rec
	return u.walk(p)
}

func (p *Plan) newUpperWalk(sets *cageSets, visit func(t int8, run float64, ca, cb, ra, rb int32) error) *upperWalk {
	h := p.Hall
	u := &upperWalk{h: h, sets: sets, visit: visit}
	lpp, spp, cpp := h.LeavesPerPlane(), h.SpinesPerPlane(), h.CoresPerPlane()
	u.first = [3]int{p.Servers, p.Servers + lpp*p.Planes, p.Servers + (lpp+spp)*p.Planes}
	g := sets.grid
	for t := range u.base {
		u.base[t], u.cages[t] = int32(g.base[t]), int32(g.cages[t])
		u.lowCage[t], u.highCage[t] = newCageDivisor(sets.port[t].lowCage), newCageDivisor(sets.port[t].highCage)
	}
	for t, n := range [3]int{lpp, spp, cpp} {
		u.places[t] = make([]hall.Place, n*p.Planes)
	}
	for plane := 1; plane <= p.Planes; plane++ {
		for g := range lpp {
			u.places[0][(plane-1)*lpp+g] = h.LeafPlace(plane, g)
		}
		for j := range spp { // spine j of the plane: pod 0 starts at spine 0
			u.places[1][(plane-1)*spp+j] = h.SpinePlace(plane, 0, j)
		}
		for i := range cpp {
			u.places[2][(plane-1)*cpp+i] = h.CorePlace(plane, i)
		}
	}
	return u
}

// walk walks p's upper links.
func (u *upperWalk) walk(p *Plan) error { return p.walkLinks(false, u.link) }

// link visits one upper link l: its ends' switches by tier (0 leaf, 1
// spine, 2 core) and number in all planes.
func (u *upperWalk) link(l *Link) error {
	h, lo := u.h, l.Tier-1 // the lower end's switch tier
	var a, b int
	switch l.Tier {
	case tierLeafSpine:
		a = (l.Plane-1)*h.LeavesPerPlane() + l.Lower.Device
		b = (l.Plane-1)*h.SpinesPerPlane() + h.PodSpine(l.Pod) + l.Upper.Device
	default:
		a = (l.Plane-1)*h.SpinesPerPlane() + h.PodSpine(l.Pod) + l.Lower.Device
		b = (l.Plane-1)*h.CoresPerPlane() + l.Upper.Device
	}
	pa, pb := u.places[lo][a], u.places[lo+1][b]
	run := h.Run(pa, pb)
	// The cages as the grid numbers them (cageSets.endsAt), each
	// switch's tier known.
	ca := u.base[lo] + int32(a)*u.cages[lo] + u.lowCage[l.Tier].of(l.Lower.Port)
	cb := u.base[lo+1] + int32(b)*u.cages[lo+1] + u.highCage[l.Tier].of(l.Upper.Port)
	if u.visit != nil {
		return u.visit(int8(l.Tier), run, ca, cb, pa.Rack, pb.Rack)
	}
	u.sets.join(l.Tier, ca, cb, run)
	if u.rec != nil {
		u.rec.add(l.Tier, run, ca, cb, pa.Rack, pb.Rack)
	}
	return nil
}

// cageDivisor finds the cage of a port: the port over the links a cage
// carries, by a shift when that is a power of two (one link or two a
// cage, as most switches' are), saving a division a link.
type cageDivisor struct {
	links int32
	shift int8 // -1: not a power of two
}

func newCageDivisor(links int) cageDivisor {
	d := cageDivisor{links: int32(max(links, 1)), shift: -1}
	if d.links&(d.links-1) == 0 {
		d.shift = int8(bits.TrailingZeros32(uint32(d.links)))
	}
	return d
}

// of is the cage of port (from 0).
func (d cageDivisor) of(port int) int32 {
	if d.shift >= 0 {
		return int32(port) >> d.shift
	}
	return int32(port) / d.links
}
