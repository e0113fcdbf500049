package planner

import (
	"math"
	"math/bits"

	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
)

// upperWalk visits a laid-out plan's leaf-spine and spine-core links in
// walk order, each as the bill reads it: its tier, run, end cages and
// racks. It is what a cableWalk gives the survey and the count of a
// plan whose server links are counted by unit (countServerLinks), at a
// fraction of the cost: it takes each switch's uplinks at once from
// WalkLinks' order (linkWalk.upper), every switch's place and cages
// found once, not at each of its links, and no cable map row is filled.
// The cable map walks with cableWalk.
type upperWalk struct {
	h    *hall.Hall
	sets *cageSets
	// ends are every leaf's, spine's and core's place, all planes, by
	// its device number less its tier's first (cableWalk's leafID,
	// spineID, coreID), as a run reads it (runEnd).
	ends [3][]runEnd
	// rackSlack and slack are the hall's slack inside a rack and
	// between racks (hall.Run's).
	rackSlack, slack float64
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
	u := &upperWalk{h: h, sets: sets, visit: visit, rackSlack: h.Facility.RackSlackM, slack: h.Facility.SlackM}
	lpp, spp, cpp := h.LeavesPerPlane(), h.SpinesPerPlane(), h.CoresPerPlane()
	g := sets.grid
	for t := range u.base {
		u.base[t], u.cages[t] = int32(g.base[t]), int32(g.cages[t])
		u.lowCage[t], u.highCage[t] = newCageDivisor(sets.port[t].lowCage), newCageDivisor(sets.port[t].highCage)
	}
	for t, n := range [3]int{lpp, spp, cpp} {
		u.ends[t] = make([]runEnd, n*p.Planes)
	}
	for plane := 1; plane <= p.Planes; plane++ {
		for g := range lpp {
			u.ends[0][(plane-1)*lpp+g] = newRunEnd(h, h.LeafPlace(plane, g))
		}
		for j := range spp { // spine j of the plane: pod 0 starts at spine 0
			u.ends[1][(plane-1)*spp+j] = newRunEnd(h, h.SpinePlace(plane, 0, j))
		}
		for i := range cpp {
			u.ends[2][(plane-1)*cpp+i] = newRunEnd(h, h.CorePlace(plane, i))
		}
	}
	return u
}

// runEnd is a switch's place as a run reads it: its rack, the rack's
// centre (x, y), its port height h and the drop from the cable tray to
// it (the tray's height less h).
type runEnd struct {
	x, y, h, drop float64
	rack          int32
}

func newRunEnd(h *hall.Hall, pl hall.Place) runEnd {
	x, y := h.RackPos(pl.Rack)
	return runEnd{x: x, y: y, h: pl.H, drop: h.Facility.TrayHeightM - pl.H, rack: pl.Rack}
}

// run is hall.Run between a and b, each end's rack centre and drop
// found once: the same sums in the same order, so the same bits.
func (u *upperWalk) run(a, b *runEnd) float64 {
	if a.rack == b.rack {
		return math.Abs(a.h-b.h) + u.rackSlack
	}
	return a.drop + b.drop + math.Abs(a.x-b.x) + math.Abs(a.y-b.y) + u.slack
}

// walk walks p's upper links, each switch's uplinks at once.
func (u *upperWalk) walk(p *Plan) error {
	w := linkWalk{p: p, lay: p.layout, cages: p.endCages(), noServers: true, upper: u}
	return w.planes()
}

// leafUplinks takes the uplinks of leaf g of plane and pod: count links
// from port up on, to the pod's spines as ll deals them
// (fabric.LeafDeal), as linkWalk.leafUplinks walks them. The leaf's
// place and cages are found once, not at each link.
func (u *upperWalk) leafUplinks(plane, g, pod, up, count int, ll *fabric.LeafLinks) error {
	h := u.h
	a := (plane-1)*h.LeavesPerPlane() + g
	b0 := (plane-1)*h.SpinesPerPlane() + h.PodSpine(pod)
	pa, ca0 := &u.ends[0][a], u.base[0]+int32(a)*u.cages[0]
	low, high := u.lowCage[tierLeafSpine], u.highCage[tierLeafSpine]
	for k := range count {
		x, port := ll.Next()
		b := b0 + x
		pb := &u.ends[1][b]
		cb := u.base[1] + int32(b)*u.cages[1] + high.of(port)
		if err := u.take(tierLeafSpine, u.run(pa, pb), ca0+low.of(up+k), cb, pa.rack, pb.rack); err != nil {
			return err
		}
	}
	return nil
}

// spineUplinks takes the uplinks of spine jj of pods pods from pod on:
// each count links from port up, to a core group whose first core is
// firstCore, as deal deals them (fabric.CageDeal), as
// linkWalk.spineUplinks walks them.
func (u *upperWalk) spineUplinks(plane, pod, pods, jj, up, count, firstCore int, deal *fabric.CageDeal) error {
	h := u.h
	c0 := (plane-1)*h.CoresPerPlane() + firstCore
	low, high := u.lowCage[tierSpineCore], u.highCage[tierSpineCore]
	for range pods {
		a := (plane-1)*h.SpinesPerPlane() + h.PodSpine(pod) + jj
		pa, ca0 := &u.ends[1][a], u.base[1]+int32(a)*u.cages[1]
		sd := deal.Spine(count)
		for k := range count {
			x, port := sd.Link(k)
			b := c0 + x
			pb := &u.ends[2][b]
			cb := u.base[2] + int32(b)*u.cages[2] + high.of(port)
			if err := u.take(tierSpineCore, u.run(pa, pb), ca0+low.of(up+k), cb, pa.rack, pb.rack); err != nil {
				return err
			}
		}
		pod++
	}
	return nil
}

// take is one link of tier t, run metres, between cages ca and cb of
// racks ra and rb (the cages as the grid numbers them: cageSets.endsAt).
func (u *upperWalk) take(t int, run float64, ca, cb, ra, rb int32) error {
	if u.visit != nil {
		return u.visit(int8(t), run, ca, cb, ra, rb)
	}
	u.sets.join(t, ca, cb, run)
	if u.rec != nil {
		u.rec.add(t, run, ca, cb, ra, rb)
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
