package planner

import "fabricplan/planner/hall"

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
	visit  func(t int8, run float64, ca, cb, ra, rb int32) error
}

// walkUpper calls visit for every leaf-spine and spine-core link of p,
// laid out in its hall with its cage sets' grid, in walk order.
func (p *Plan) walkUpper(sets *cageSets, visit func(t int8, run float64, ca, cb, ra, rb int32) error) error {
	h := p.Hall
	u := &upperWalk{h: h, sets: sets, visit: visit}
	lpp, spp, cpp := h.LeavesPerPlane(), h.SpinesPerPlane(), h.CoresPerPlane()
	u.first = [3]int{p.Servers, p.Servers + lpp*p.Planes, p.Servers + (lpp+spp)*p.Planes}
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
	return p.walkLinks(false, u.link)
}

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
	ca, cb := u.sets.endsAt(l.Tier, u.first[lo]+a, l.Lower.Port, u.first[lo+1]+b, l.Upper.Port)
	return u.visit(int8(l.Tier), run, ca, cb, pa.Rack, pb.Rack)
}
