package planner

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/hall"
)

// How a search priced a design (Design.Priced).
const (
	// PricedFlat: each tier's links at one length, as the searched
	// scenario prices its plans (layout = "flat", lengths given in
	// network.media, or no facility data).
	PricedFlat = "flat"
	// PricedHall: laid out in the hall; the design's figures are the
	// plan's own (Build of Design.Scenario costs the same). A design
	// whose default hall cannot be cabled is priced flat, as Build
	// then plans it.
	PricedHall = "hall"
	// PricedBound: not laid out, as a cheaper and as fast laid-out
	// design beats it whatever its hall; its cost is a lower bound of
	// its hall cost (every link at least at the shortest run it can
	// have in the hall), its JCT a lower bound too (without the links'
	// propagation delay), its power that of one length per tier.
	PricedBound = "lower bound"
)

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
	if tight {
		h = p.boundHall(s, cat)
	}
	if h != nil && cabledSurely(h, m) {
		bins = p.tierRunBounds(h)
	} else {
		// The hall may not be laid out (the plan then keeps one length
		// per tier, as p): the bound is p's or the shortest runs'.
		runs := shortestRuns(s.Facility.Resolve(cat.Facility.Defaults, leafInRack(s)), cat.Facility.Constants)
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

// hallLayoutLinks is how many links a search walks in the hall at most
// (the sum of the laid-out designs' links): about a second of one core
// (a 100,000-GPU design of some 100,000 links takes about 40 ms of CPU).
// Small clusters lay out every design that can reach the front or tie
// with the pick; a large one stops there and says how many it left
// (SearchResult.Undecided).
const hallLayoutLinks = 3_000_000

// layOutDesigns lays out in the hall the designs that can reach the
// Pareto front, cheapest bound first, workers at a time: a design is
// skipped when a laid-out design costs no more than its bound and is
// at least as fast as its bound days, since its hall can only cost
// more. Designs come bounded loosely (every link at its tier's
// shortest run); a design is bounded tightly (its racks placed) only
// when the loose bound does not settle it. It stops when the next
// design would walk more links than budget has left, and counts the
// designs it did not decide. It returns the designs the hall cannot
// cable (to drop).
func layOutDesigns(ctx context.Context, designs []*Design, cat *Catalog, opt SearchOptions, workers int, budget *int) (dropped map[*Design]bool, laidOut, undecided int, err error) {
	l := &hallLayout{cat: cat, opt: opt, workers: workers, budget: budget, dropped: map[*Design]bool{}, tried: map[*Design]bool{}}
	// First the front of the loose bounds (no design bounded cheaper and
	// as fast): the likeliest front designs, so that a budget that runs
	// out at a large size has still laid out designs across the front's
	// whole range of JCT; then every design by its bound.
	for _, all := range []bool{false, true} {
		q := &boundQueue{}
		best := math.Inf(1)
		for _, d := range byBound(designs) {
			if all || d.boundDays < best {
				best = min(best, d.boundDays)
				heap.Push(q, d)
			}
		}
		if err := l.drain(ctx, q, all); err != nil {
			return nil, 0, 0, err
		}
	}
	return l.dropped, l.laidOut, l.undecided, nil
}

// hallLayout is layOutDesigns' state: the laid-out designs' Pareto
// front, what was tried, and what the budget has left.
type hallLayout struct {
	cat                *Catalog
	opt                SearchOptions
	workers            int
	budget             *int
	laid               []*Design // cheapest first
	dropped, tried     map[*Design]bool
	laidOut, undecided int
	spent              bool // the budget ran out: the rest are only counted
}

// drain lays out q's designs that no laid-out design beats, by bound,
// workers at a time; count says whether the ones the budget leaves out
// are counted undecided (the last pass).
func (l *hallLayout) drain(ctx context.Context, q *boundQueue, count bool) error {
	for q.Len() > 0 {
		var batch []*Design
		for q.Len() > 0 && len(batch) < l.workers {
			if d := heap.Pop(q).(*Design); l.take(d, q, count) {
				*l.budget -= d.Plan.Links.Total
				l.tried[d] = true
				batch = append(batch, d)
			}
		}
		if err := layOutBatch(ctx, batch, l.cat, l.opt); err != nil {
			return err
		}
		l.laidOut += len(batch)
		for _, d := range batch {
			if d.Priced == PricedBound { // the hall cannot cable it
				l.dropped[d] = true
				continue
			}
			l.laid = addToFront(l.laid, d)
		}
	}
	if !count {
		l.spent = false // the last pass counts what the budget leaves
	}
	return nil
}

// take says whether to lay d out now: not when a laid-out design beats
// it, it was tried, or the budget is spent (counted undecided when
// count); a design at its loose bound is bounded tightly and queued
// again.
func (l *hallLayout) take(d *Design, q *boundQueue, count bool) bool {
	switch {
	case l.tried[d] || dominatedBy(l.laid, d.CostUSD, d.boundDays):
		return false
	case l.spent:
		if count {
			l.undecided++
		}
		return false
	case !d.tight:
		d.tighten(l.cat)
		heap.Push(q, d)
		return false
	case l.laidOut > 0 && d.Plan.Links.Total > *l.budget:
		l.spent = true
		if count {
			l.undecided++
		}
		return false
	}
	return true
}

// byBound is designs sorted by bound cost, then bound days.
func byBound(designs []*Design) []*Design {
	out := slices.Clone(designs)
	slices.SortStableFunc(out, func(a, b *Design) int {
		if c := cmpFloat(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmpFloat(a.boundDays, b.boundDays)
	})
	return out
}

// boundQueue orders designs by bound cost, then bound days.
type boundQueue []*Design

func (q boundQueue) Len() int { return len(q) }
func (q boundQueue) Less(i, j int) bool {
	if q[i].CostUSD != q[j].CostUSD {
		return q[i].CostUSD < q[j].CostUSD
	}
	return q[i].boundDays < q[j].boundDays
}
func (q boundQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *boundQueue) Push(x any)   { *q = append(*q, x.(*Design)) }
func (q *boundQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}

// layOutBatch lays the designs out at once, one goroutine each.
func layOutBatch(ctx context.Context, batch []*Design, cat *Catalog, opt SearchOptions) error {
	var wg sync.WaitGroup
	for _, d := range batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ctx.Err() == nil {
				d.layOut(cat, opt.WithFailures)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// layOut prices d in the hall, as Build plans its scenario; d stays a
// bound when the hall cannot cable it or it has no JCT there.
func (d *Design) layOut(cat *Catalog, withFailures bool) {
	hd := evaluate(d.searched, cat, withFailures, d.memo, false)
	if hd == nil {
		return
	}
	hd.ProbCheaper, hd.CostVsPick = d.ProbCheaper, d.CostVsPick
	hd.boundUSD, hd.boundLowUSD = d.boundUSD, d.boundLowUSD
	*d = *hd
}

// dominatedBy reports whether a design of front (a Pareto front,
// cheapest first) costs at most usd and takes at most days.
func dominatedBy(front []*Design, usd, days float64) bool {
	for _, f := range front {
		if f.CostUSD > usd {
			return false
		}
		if f.Days <= days {
			return true
		}
	}
	return false
}

// addToFront adds d to the Pareto front (cheapest first) unless a design
// of it dominates d, dropping the designs d dominates.
func addToFront(front []*Design, d *Design) []*Design {
	if dominatedBy(front, d.CostUSD, d.Days) {
		return front
	}
	out := front[:0:0]
	for _, f := range front {
		if !(d.CostUSD <= f.CostUSD && d.Days <= f.Days) {
			out = append(out, f)
		}
	}
	out = append(out, d)
	slices.SortStableFunc(out, func(a, b *Design) int { return cmpFloat(a.CostUSD, b.CostUSD) })
	return out
}

// bound sets d, priced at one length per tier, to its hall's lower
// bound (PricedBound).
func (d *Design) bound(cat *Catalog) {
	b := boundInHall(d.Plan, &d.searched, cat, false)
	d.CostUSD, d.boundUSD, d.boundLowUSD, d.Priced = b.usd, b.usd, b.lowUSD, PricedBound
}

// tighten bounds d, still at its loose bound, tightly.
func (d *Design) tighten(cat *Catalog) {
	b := boundInHall(d.Plan, &d.searched, cat, true)
	d.CostUSD, d.boundUSD, d.boundLowUSD, d.tight = b.usd, b.usd, b.lowUSD, true
}

// layOut lays out the designs that can reach the Pareto front (see
// layOutDesigns) and drops those the hall cannot cable.
func (r *SearchResult) layOut(ctx context.Context, cat *Catalog, opt SearchOptions, workers int, budget *int) error {
	dropped, n, undecided, err := layOutDesigns(ctx, r.Designs, cat, opt, workers, budget)
	if err != nil {
		return err
	}
	r.LaidOut += n
	r.Undecided = undecided
	r.Designs = slices.DeleteFunc(r.Designs, func(d *Design) bool {
		return dropped[d] || !isFinite(d.CostUSD)
	})
	return nil
}

// layOutTies lays out every design still at its bound that some price
// draw could make cheaper than the pick (its bound on low prices is not
// above the pick's cost on high prices), so that its cost against the
// pick is its hall's; the others are surely dearer (compareCosts).
// The designs stay sorted by cost, then JCT.
func (r *SearchResult) layOutTies(ctx context.Context, cat *Catalog, opt SearchOptions, workers int, budget *int) error {
	pick := r.Pick()
	var todo []*Design
	for _, d := range r.Designs { // by bound: the likeliest ties first
		if d.Priced == PricedBound && !d.tight && d.boundLowUSD <= pick.Plan.Cost.HighUSD {
			d.tighten(cat)
		}
		if d.Priced == PricedBound && d.boundLowUSD <= pick.Plan.Cost.HighUSD && d.Plan.Links.Total <= *budget {
			*budget -= d.Plan.Links.Total
			todo = append(todo, d)
		}
	}
	for i := 0; i < len(todo); i += workers {
		if err := layOutBatch(ctx, todo[i:min(i+workers, len(todo))], cat, opt); err != nil {
			return err
		}
	}
	r.LaidOut += len(todo)
	r.tiesLaid = len(todo)
	r.Designs = slices.DeleteFunc(r.Designs, func(d *Design) bool {
		return slices.Contains(todo, d) && d.Priced == PricedBound // the hall cannot cable it
	})
	slices.SortStableFunc(r.Designs, func(a, b *Design) int {
		if c := cmpFloat(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmpFloat(a.Days, b.Days)
	})
	return nil
}

// boundHall is the hall p's design would be laid out in, without its
// cables: racks placed as layOut places them (top-of-rack leaves that
// were only the default move to leaf racks when they do not fit); nil
// when it cannot be laid out.
func (p *Plan) boundHall(s *Scenario, cat *Catalog) *hall.Hall {
	f := s.Facility.Resolve(cat.Facility.Defaults, leafInRack(s))
	h, err := hall.New(p.layoutInputs(f, cat), f, cat.Facility.Constants)
	if err != nil && f.LeafPlacement == hall.PlaceToR && (s.Facility == nil || s.Facility.LeafPlacement == "") {
		f.LeafPlacement = cat.Facility.Defaults.LeafPlacement
		h, err = hall.New(p.layoutInputs(f, cat), f, cat.Facility.Constants)
	}
	if err != nil {
		return nil
	}
	return h
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

// PricingNote says how the search priced its designs, for the views
// beside its table and chart: empty when every design is priced at one
// length per tier as the searched scenario's plans are.
func (r *SearchResult) PricingNote() string {
	bound := r.boundDesigns()
	if bound == 0 && r.LaidOut == 0 {
		return ""
	}
	note := fmt.Sprintf("Priced in the data hall: %s laid out", textfmt.Plural(r.LaidOut, "design"))
	if bound > 0 {
		note += fmt.Sprintf(", %d at a lower bound of cost and JCT (not laid out)", bound)
	}
	if r.Undecided > 0 {
		note += fmt.Sprintf(", of which %d could still reach the front (the hall walk stops at %s links): the front is the best laid out", r.Undecided, textfmt.Int(hallLayoutLinks))
	}
	return note + "."
}

// PricingBrief is PricingNote in one short sentence, for a status line
// beside a chart whose footnote carries the whole note; "" when the
// search priced flat.
func (r *SearchResult) PricingBrief() string {
	bound := r.boundDesigns()
	if bound == 0 && r.LaidOut == 0 {
		return ""
	}
	note := fmt.Sprintf("In the data hall: %d laid out", r.LaidOut)
	if bound > 0 {
		note += fmt.Sprintf(", %d at a lower bound (≥)", bound)
	}
	if r.Undecided > 0 {
		note += fmt.Sprintf(", %d undecided at the walk's limit", r.Undecided)
	}
	return note + "."
}

// boundDesigns counts the designs shown at a lower bound.
func (r *SearchResult) boundDesigns() int {
	n := 0
	for _, d := range r.Designs {
		if d.Priced == PricedBound {
			n++
		}
	}
	return n
}

// CostText is d's cost as the views show it: "≥ " before a lower bound.
func (d *Design) CostText(format func(float64) string) string {
	if d.Priced == PricedBound {
		return "≥ " + format(d.CostUSD)
	}
	return format(d.CostUSD)
}
