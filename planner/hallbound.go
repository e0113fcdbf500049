package planner

import (
	"math"
	"slices"
	"unsafe"

	"fabricplan/internal/memo"

	"fabricplan/planner/hall"
)

// HallBound bounds from below what p costs once laid out in the hall,
// on base prices (usd) and on every part's low price (lowUSD): p is a
// design priced at one length per tier (FlatLinks), s the scenario
// searched (whose media, not the flat plan's chosen ones, say which
// tiers a medium is forced on). Loosely (not tight), every link runs
// its tier's shortest run; tightly the design's racks are placed and
// each link runs at least to the nearest rack it can end in. Both are
// +Inf when no medium reaches a run the hall must cable.
// Exported for planner/explore.
func (p *Plan) HallBound(s *Scenario, cat *Catalog, tight bool) (usd, lowUSD float64) {
	b := boundInHall(p, s, cat, tight)
	return b.usd, b.lowUSD
}

// hallBound is what a design costs at least once laid out in the hall,
// from its plan priced at one length per tier: NICs and switches (with
// their spares) as planned, and every link at the cheapest medium that
// reaches the shortest run its tier can have in the hall. usd is on
// base prices, lowUSD on every part's low price.
type hallBound struct{ usd, lowUSD float64 }

// shortestRuns are the shortest runs a hall can give each link tier
// (server-leaf, leaf-spine, spine-core), before rounding to the lengths
// sold: a link inside one rack takes the rack slack; a link between two
// racks climbs from the rack top to the tray and back, crosses at least
// one rack's width or depth, and takes the slack. A leaf stands in its
// servers' rack only with top-of-rack placement; the spines and cores
// always stand in network racks of their own.
func shortestRuns(f hall.Facility, k hall.Constants) [3]float64 {
	top := float64(f.RackUnits) * k.UnitM
	between := 2*math.Max(0, f.TrayHeightM-top) + math.Min(f.RackWidthM, f.RackDepthM) + f.SlackM
	first := between
	if f.LeafPlacement == hall.PlaceToR {
		first = f.RackSlackM
	}
	return [3]float64{first, between, between}
}

// boundInHall bounds p's hall cost from below; p is the design priced
// at one length per tier, searched the scenario s (whose media, not the
// flat plan's chosen ones, say which tiers a medium is forced on).
// Loosely (not tight), every link runs its tier's shortest run; tightly
// the design's racks are placed and each link runs at least to the
// nearest rack it can end in (see tierRunBounds).
func boundInHall(p *Plan, s *Scenario, cat *Catalog, tight bool) (b hallBound) {
	for _, l := range p.BOM {
		if l.Category == CatNIC || l.Category == CatSwitch {
			b.usd += l.TotalUSD
			b.lowUSD += float64(l.Qty) * l.UnitLowUSD
		}
	}
	m := newMediaChooser(p, cat)
	md := s.Network.Media
	m.forced = [3]Medium{md.ServerLeaf, md.LeafSpine, md.SpineCore}
	var bins [3][]runBin
	var h *hall.Hall
	f := s.Facility.Resolve(s.hallDefaults(cat), leafInRack(s)) // once: the bound's hot path
	if tight {
		if in := p.layoutInputs(f, cat); p.mayBeCabled(f, in, m) {
			h = p.boundHall(s, cat, f, in, m)
		}
	}
	if h != nil && cabledSurely(h, m) {
		bins = p.tierRunBounds(h)
	} else {
		// The hall may not be laid out (the plan then keeps one length
		// per tier, as p): the bound is p's or the shortest runs'.
		runs := shortestRuns(f, cat.Facility.Constants)
		for _, t := range p.LinkTiers {
			bins[tierIndex(t.Name)] = []runBin{{runs[tierIndex(t.Name)], t.Links}}
		}
		defer func() {
			b.usd, b.lowUSD = math.Min(b.usd, p.Cost.Total), math.Min(b.lowUSD, p.Cost.LowUSD)
		}()
	}
	for t, tb := range bins {
		usd, low, ok := m.binsPrice(t, tb)
		if !ok { // nothing reaches even the shortest run: the hall cannot cable it
			return hallBound{math.Inf(1), math.Inf(1)}
		}
		b.usd += usd
		b.lowUSD += low
	}
	return b
}

// cheapestLink is the least one link of tier t can cost at run metres
// or longer, on base and on low prices (each the cheapest medium for
// that price): the cable, and for optics the fibre and each end's share
// of its module, as the hall prices a link (whole modules per cage cost
// at least that share). false when no medium reaches.
func (m *mediaChooser) cheapestLink(t int, run float64) (usd, low float64, ok bool) {
	usd, low = math.Inf(1), math.Inf(1)
	take := func(u, l float64) {
		usd, low, ok = math.Min(usd, u), math.Min(low, l), true
	}
	s, pt := &m.p.Scenario, m.port[t]
	for _, med := range []Medium{DAC, ACC, AOC} {
		if m.forced[t] != "" && m.forced[t] != med {
			continue
		}
		cb := m.cat.Cables[string(med)]
		if ok, _ := cb.Offered(s.Network.Fabric, pt.gbps, pt.cageLinks); !ok {
			continue
		}
		if l, ok := cb.Sold(run, pt.gbps); ok {
			pp := s.cablePrice(m.cat, cb, l)
			take(pp.USD, pp.LowUSD)
		}
	}
	for _, mm := range []bool{false, true} {
		if m.forced[t] != "" && m.forced[t] != map[bool]Medium{false: Optics, true: Multimode}[mm] {
			continue
		}
		if c, _, found := m.optics(t, run, mm); found {
			take(m.opticsPrice(t, c, func(pp PartPrice) float64 { return pp.USD }), m.opticsPrice(t, c, func(pp PartPrice) float64 { return pp.LowUSD }))
		}
	}
	return usd, low, ok
}

// opticsPrice is what an optical link choice c of tier t costs on the
// price price picks: the fibre and each end's share of its module.
func (m *mediaChooser) opticsPrice(t int, c linkChoice, price func(PartPrice) float64) float64 {
	s := &m.p.Scenario
	part := func(tr *Transceiver) float64 {
		return price(s.partPrice(m.cat, tr.Key, tr.PriceUSD, tr.PriceRangeUSD, &tr.Pricing))
	}
	far := part(c.upper) / float64(c.upper.Links)
	if t == 0 {
		far = part(c.lower) * m.serverModsPerPort
	}
	return price(s.cablePrice(m.cat, c.cable, c.metres)) + part(c.upper)/float64(c.upper.Links) + far
}

// boundHall is the hall p's design would be laid out in, without its
// cables: racks placed as layOut places them (top-of-rack leaves that
// were only the default move to leaf racks when they do not fit); nil
// when it cannot be laid out. A hall whose every run is not surely in
// reach of m's media (cabledSurely) is bounded loosely, from its floor
// alone: it comes without its rack list (see boundFloor). f is s's
// resolved facility and in p's layout inputs in it.
func (p *Plan) boundHall(s *Scenario, cat *Catalog, f hall.Facility, in hall.Inputs, m *mediaChooser) *hall.Hall {
	h := boundFloor(in, f, cat.Facility.Constants, m)
	if h == nil && f.LeafPlacement == hall.PlaceToR && (s.Facility == nil || s.Facility.LeafPlacement == "") {
		f.LeafPlacement = cat.Facility.Defaults.LeafPlacement
		h = boundFloor(p.layoutInputs(f, cat), f, cat.Facility.Constants, m)
	}
	return h
}

// boundFloor is the hall of these inputs for a bound, nil when they
// cannot be laid out: first its floor (hall.NewCounting, which lays the
// rows out as NewGeometry does, with the same width, length and errors,
// in about 40% of its CPU and 30% of its memory, but keeps no rack
// list), and only when every run that floor can hold is in reach of m's
// media (cabledSurely) the racks themselves (hall.NewGeometry), which
// the tight bound then reads. A large hall is mostly not surely cabled:
// at 100,000 GPUs no design of a search is. A top-of-rack hall is laid
// out with its racks at once (NewCounting lays such a hall out in full).
func boundFloor(in hall.Inputs, f hall.Facility, k hall.Constants, m *mediaChooser) *hall.Hall {
	if f.LeafPlacement != hall.PlaceToR {
		floor := keptHall(false, in, f, k)
		if floor == nil || !cabledSurely(floor, m) {
			return floor
		}
	}
	return keptHall(true, in, f, k)
}

// keptHall is the hall of these inputs, with its racks
// (hall.NewGeometry) or its floor alone (hall.NewCounting), nil when
// they cannot be laid out, kept by the inputs and which of the two it
// is (boundHallMemo): a design search bounds hundreds of designs, and
// designs that differ only where the hall does not look (the switch
// model's name and price, its oversubscription when the counts come out
// the same) share one. The hall is read only.
func keptHall(racks bool, in hall.Inputs, f hall.Facility, k hall.Constants) *hall.Hall {
	lay := hall.NewCounting
	if racks {
		lay = hall.NewGeometry
	}
	kept := !hallMemoOff.Load() // off: the cold reference lays every hall out anew
	key := memo.Of(racks, in, f, k)
	if h, ok := boundHallMemo.Get(key); ok && kept {
		return h
	}
	h, err := lay(in, f, k)
	if err != nil {
		h = nil
	}
	if kept {
		boundHallMemo.Put(key, h)
	}
	return h
}

// boundHallMemoCap bounds the halls boundHallMemo keeps,
// boundHallMemoBytes their racks (about 128 bytes each, less for a
// floor): some 8 halls at 100,000 GPUs, one at 1,000,000.
const (
	boundHallMemoCap   = 8
	boundHallMemoBytes = 4 << 20
)

// boundHallMemo keeps recent bound halls by their inputs (keptHall),
// the least recently used let go past boundHallMemoCap halls or
// boundHallMemoBytes bytes.
var boundHallMemo = memo.NewWeighted(boundHallMemoCap, boundHallMemoBytes, boundHallBytes)

// boundHallBytes is what a bound hall holds at most: a Rack a rack (a
// floor's racks, kept by row and slot, hold less).
func boundHallBytes(h *hall.Hall) int {
	if h == nil {
		return 0
	}
	return max(len(h.Racks), h.Figures.Racks) * int(unsafe.Sizeof(hall.Rack{}))
}

// runBin is a number of links whose runs are at least metres.
type runBin struct {
	metres float64
	links  int
}

// tierRunBounds bounds from below the runs of each link tier's links in
// hall h: every link has one end in a source rack (server-leaf: compute
// racks; leaf-spine: racks holding leaves; spine-core: spine racks) and
// the other in a target rack (leaves, spines, cores). A source rack's
// links run at least to its nearest target rack (inside the rack when
// it is one), and it holds at most its devices times their most ports
// of the tier; filling the nearest racks first to the tier's link count
// gives runs no wiring can beat.
func (p *Plan) tierRunBounds(h *hall.Hall) [3][]runBin {
	var out [3][]runBin
	isLeafRack := func(r *hall.Rack) bool {
		return r.Switches > 0 && (r.Kind == hall.RackLeaf || r.Kind == hall.RackCompute)
	}
	tiers := [3]struct {
		source, target func(r *hall.Rack) bool
		perDevice      int
		devices        func(r *hall.Rack) int
	}{
		{func(r *hall.Rack) bool { return r.Nodes > 0 }, isLeafRack, p.ServerPorts, func(r *hall.Rack) int { return r.Nodes }},
		{isLeafRack, func(r *hall.Rack) bool { return r.Kind == hall.RackSpine }, p.maxUplinks(0), func(r *hall.Rack) int { return r.Switches }},
		{func(r *hall.Rack) bool { return r.Kind == hall.RackSpine }, func(r *hall.Rack) bool { return r.Kind == hall.RackCore }, p.maxUplinks(1), func(r *hall.Rack) int { return r.Switches }},
	}
	for i, t := range p.LinkTiers {
		ti := tierIndex(t.Name)
		tt := tiers[ti]
		near := newNearestRacks(h, tt.target)
		var bins []runBin
		for k := range h.Racks {
			r := &h.Racks[k]
			if !tt.source(r) {
				continue
			}
			bins = append(bins, runBin{near.run(h, k), tt.devices(r) * tt.perDevice})
		}
		slices.SortFunc(bins, func(a, b runBin) int { return cmpFloat(a.metres, b.metres) })
		left := p.LinkTiers[i].Links
		for j := range bins {
			bins[j].links = min(bins[j].links, left)
			left -= bins[j].links
		}
		if left > 0 { // a source short of ports: price the rest at the longest
			bins = append(bins, runBin{bins[len(bins)-1].metres, left})
		}
		out[ti] = bins
	}
	return out
}

// maxUplinks is the most ports any switch of tier i (0: leaves) cables
// upward in one plane.
func (p *Plan) maxUplinks(i int) int {
	n := 0
	if i < len(p.tierLoads) {
		for _, l := range p.tierLoads[i] {
			n = max(n, l.Up)
		}
	}
	return n
}

// nearestRacks finds a hall's nearest target rack to any rack: the
// target racks by row, in order across the hall and along each row.
type nearestRacks struct {
	target []bool
	rows   []targetRow // by Y
}

type targetRow struct {
	y  float64
	xs []float64 // sorted
}

func newNearestRacks(h *hall.Hall, target func(r *hall.Rack) bool) *nearestRacks {
	n := &nearestRacks{target: make([]bool, len(h.Racks))}
	byY := map[float64]*targetRow{}
	for k := range h.Racks {
		r := &h.Racks[k]
		if !target(r) {
			continue
		}
		n.target[k] = true
		tr := byY[r.Y]
		if tr == nil {
			tr = &targetRow{y: r.Y}
			byY[r.Y] = tr
		}
		tr.xs = append(tr.xs, r.X)
	}
	for _, tr := range byY {
		slices.Sort(tr.xs)
		n.rows = append(n.rows, *tr)
	}
	slices.SortFunc(n.rows, func(a, b targetRow) int { return cmpFloat(a.y, b.y) })
	return n
}

// run is the shortest run from rack k to a target rack: the rack slack
// inside one, else up from the rack top to the tray, across, down and
// the slack (as Hall.run, with both ports at the rack top).
func (n *nearestRacks) run(h *hall.Hall, k int) float64 {
	f := h.Facility
	if n.target[k] {
		return f.RackSlackM
	}
	r := &h.Racks[k]
	best := math.Inf(1)
	i, _ := slices.BinarySearchFunc(n.rows, r.Y, func(a targetRow, y float64) int { return cmpFloat(a.y, y) })
	for lo, hi := i-1, i; lo >= 0 || hi < len(n.rows); {
		var tr *targetRow
		switch {
		case hi < len(n.rows) && (lo < 0 || n.rows[hi].y-r.Y <= r.Y-n.rows[lo].y):
			tr = &n.rows[hi]
			hi++
		default:
			tr = &n.rows[lo]
			lo--
		}
		dy := math.Abs(tr.y - r.Y)
		if dy >= best {
			break
		}
		j, _ := slices.BinarySearch(tr.xs, r.X)
		for _, x := range tr.xs[max(0, j-1):min(len(tr.xs), j+1)] {
			best = math.Min(best, dy+math.Abs(x-r.X))
		}
	}
	top := float64(f.RackUnits) * h.Constants.UnitM
	return 2*math.Max(0, f.TrayHeightM-top) + best + f.SlackM
}

// binsPrice is the least the links of bins cost on tier t, on base and
// low prices: each at the cheapest medium reaching its run rounded down
// to a decimetre (a link never costs less for a longer run).
func (m *mediaChooser) binsPrice(t int, bins []runBin) (usd, low float64, ok bool) {
	type price struct {
		usd, low float64
		ok       bool
	}
	memo := map[float64]price{}
	for _, b := range bins {
		if b.links == 0 {
			continue
		}
		key := math.Floor(b.metres*10) / 10
		pr, seen := memo[key]
		if !seen {
			pr.usd, pr.low, pr.ok = m.cheapestLink(t, key)
			memo[key] = pr
		}
		if !pr.ok {
			return 0, 0, false
		}
		usd += float64(b.links) * pr.usd
		low += float64(b.links) * pr.low
	}
	return usd, low, true
}

// spanSlack is the share by which a run across the least floor
// (mayBeCabled) must exceed a reach before it counts: room for the
// rounding in the hall's sums of widths and aisles.
const spanSlack = 1e-9

// mayBeCabled reports whether the hall of p's design, planned for
// searched scenario s, might be in reach of m's media on every tier
// (cabledSurely) once laid out: false when some tier's longest reach
// falls short of a run across the least floor its racks need
// (hall.LeastSpanM, whatever the leaf placement), so that the tight
// bound is the loose one without laying the floor out (at 100,000 GPUs,
// every design of a search). f is the resolved facility and in p's
// layout inputs in it.
func (p *Plan) mayBeCabled(f hall.Facility, in hall.Inputs, m *mediaChooser) bool {
	least := (2*f.TrayHeightM + hall.LeastSpanM(in, f) + f.SlackM) * (1 - spanSlack)
	for t := range m.port {
		if float64(m.longestReach(t)) < least {
			return false
		}
	}
	return true
}

// cabledSurely reports whether every run the hall can hold (up from the
// floor to the tray, across the whole hall, down and the slack) is in
// reach of some medium on every tier, so that the hall is laid out and
// not left at one length per tier.
func cabledSurely(h *hall.Hall, m *mediaChooser) bool {
	longest := 2*h.Facility.TrayHeightM + h.WidthM + h.LengthM + h.Facility.SlackM
	for t := range m.port {
		if float64(m.longestReach(t)) < longest {
			return false
		}
	}
	return true
}
