package planner

import (
	"context"
	"math"
	"slices"
	"sync"
)

// How a search priced a design (Design.Priced).
const (
	// PricedFlat: each tier's links at one length, as the searched
	// scenario prices its plans (layout = "flat", lengths given in
	// network.media, or no facility data).
	PricedFlat = "flat"
	// PricedHall: laid out in the hall; the design's figures are the
	// plan's own (Build of Design.Scenario costs the same).
	PricedHall = "hall"
	// PricedBound: not laid out, as a cheaper and as fast laid-out
	// design beats it whatever its hall; its cost is a lower bound of
	// its hall cost (every link at the shortest run its tier can have
	// in the hall), its power and JCT those of that bound.
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
func shortestRuns(f Facility, k FacilityConstants) [3]float64 {
	top := float64(f.RackUnits) * k.UnitM
	between := 2*math.Max(0, f.TrayHeightM-top) + math.Min(f.RackWidthM, f.RackDepthM) + f.SlackM
	first := between
	if f.LeafPlacement == PlaceToR {
		first = f.RackSlackM
	}
	return [3]float64{first, between, between}
}

// boundInHall bounds p's hall cost from below; p is the design priced
// at one length per tier, searched the scenario s (whose media, not the
// flat plan's chosen ones, say which tiers a medium is forced on).
func boundInHall(p *Plan, s *Scenario, cat *Catalog) hallBound {
	var b hallBound
	for _, l := range p.BOM {
		if l.Category == CatNIC || l.Category == CatSwitch {
			b.usd += l.TotalUSD
			b.lowUSD += float64(l.Qty) * l.UnitLowUSD
		}
	}
	f := s.Facility.resolve(cat.Facility.Defaults, leafInRack(s))
	runs := shortestRuns(f, cat.Facility.Constants)
	m := newMediaChooser(p, cat)
	md := s.Network.Media
	m.forced = [3]Medium{md.ServerLeaf, md.LeafSpine, md.SpineCore}
	for i, t := range p.LinkTiers {
		usd, low, ok := m.cheapestLink(tierIndex(t.Name), runs[tierIndex(t.Name)])
		if !ok { // nothing reaches even the shortest run: the hall cannot cable it
			return hallBound{math.Inf(1), math.Inf(1)}
		}
		n := float64(p.LinkTiers[i].Links)
		b.usd += n * usd
		b.lowUSD += n * low
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

// layOutDesigns lays out in the hall the designs that can reach the
// Pareto front, cheapest bound first, workers at a time: a design is
// skipped when a laid-out design costs no more than its bound and is
// at least as fast as its bound days, since its hall can only cost
// more. It returns the designs the hall cannot cable (to drop).
func layOutDesigns(ctx context.Context, designs []*Design, cat *Catalog, opt SearchOptions, workers int) (dropped map[*Design]bool, laidOut int, err error) {
	order := slices.Clone(designs)
	slices.SortStableFunc(order, func(a, b *Design) int {
		if c := cmpFloat(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmpFloat(a.boundDays, b.boundDays)
	})
	var laid []*Design // the laid-out designs' Pareto front, cheapest first
	dropped = map[*Design]bool{}
	for i := 0; i < len(order); {
		var batch []*Design
		for ; i < len(order) && len(batch) < workers; i++ {
			if d := order[i]; !dominatedBy(laid, d.CostUSD, d.boundDays) {
				batch = append(batch, d)
			}
		}
		if err := layOutBatch(ctx, batch, cat, opt); err != nil {
			return nil, 0, err
		}
		laidOut += len(batch)
		for _, d := range batch {
			if d.Priced != PricedHall {
				dropped[d] = true
				continue
			}
			laid = addToFront(laid, d)
		}
	}
	return dropped, laidOut, nil
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
	b := boundInHall(d.Plan, &d.searched, cat)
	d.CostUSD, d.boundLowUSD, d.Priced = b.usd, b.lowUSD, PricedBound
}

// layOut lays out the designs that can reach the Pareto front (see
// layOutDesigns) and drops those the hall cannot cable.
func (r *SearchResult) layOut(ctx context.Context, cat *Catalog, opt SearchOptions, workers int) error {
	dropped, n, err := layOutDesigns(ctx, r.Designs, cat, opt, workers)
	if err != nil {
		return err
	}
	r.LaidOut += n
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
func (r *SearchResult) layOutTies(ctx context.Context, cat *Catalog, opt SearchOptions, workers int) error {
	pick := r.Pick()
	var todo []*Design
	for _, d := range r.Designs {
		if d.Priced == PricedBound && d.boundLowUSD <= pick.Plan.Cost.HighUSD {
			todo = append(todo, d)
		}
	}
	for i := 0; i < len(todo); i += workers {
		if err := layOutBatch(ctx, todo[i:min(i+workers, len(todo))], cat, opt); err != nil {
			return err
		}
	}
	r.LaidOut += len(todo)
	r.Designs = slices.DeleteFunc(r.Designs, func(d *Design) bool {
		return d.Priced == PricedBound && d.boundLowUSD <= pick.Plan.Cost.HighUSD // the hall cannot cable it
	})
	slices.SortStableFunc(r.Designs, func(a, b *Design) int {
		if c := cmpFloat(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmpFloat(a.Days, b.Days)
	})
	return nil
}
