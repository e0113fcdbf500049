package explore

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/textfmt"
	"fabricplan/internal/workers"
	"fabricplan/planner"
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
	// then plans it. A design of more than countLinksAbove links is
	// laid out with its links counted: PricedCounted (the sweep's
	// word), within 0.5% of Build's figures.
	PricedHall = "hall"
	// PricedBound: not laid out, as a cheaper and as fast laid-out
	// design beats it whatever its hall; its cost is a lower bound of
	// its hall cost (every link at least at the shortest run it can
	// have in the hall), its JCT a lower bound too (without the links'
	// propagation delay), its power that of one length per tier.
	PricedBound = "lower bound"
)

// hallLayoutLinks is how many links a search lays out in the hall at
// most (the sum of the laid-out designs' links): walked, about a second
// of one core (a 100,000-GPU design of some 100,000 links takes about
// 40 ms of CPU). A design of more than countLinksAbove links is counted
// rather than walked, in a fraction of that; the budget still counts
// its links, so that counting changes which designs are laid out only
// through their counted figures.
// Small clusters lay out every design that can reach the front or tie
// with the pick; a large one stops there and says how many it left
// (SearchResult.Undecided).
const hallLayoutLinks = 3_000_000

// countLinksAbove is how many links a design may have and still be laid
// out with every link walked, as Build prices it; a larger design has
// its links counted (PricedCounted: within 0.5% of the walk). Walking
// 125,000 links takes about 4 ms of CPU and counting them under 1 ms
// (measured on a 100,000-GPU search's front): the designs of a
// 100,000-GPU search are counted, those of a 24,000-GPU one walked.
const countLinksAbove = 100_000

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
func layOutDesigns(ctx context.Context, designs []*Design, cat *planner.Catalog, opt SearchOptions, workers int, budget *int) (dropped map[*Design]bool, laidOut, undecided int, err error) {
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
	cat                *planner.Catalog
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
				*l.budget -= d.Plan.Links.Fabric()
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
	case l.laidOut > 0 && d.Plan.Links.Fabric() > *l.budget:
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
		if c := cmp.Compare(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmp.Compare(a.boundDays, b.boundDays)
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

func (q *boundQueue) Push(x any) { *q = append(*q, x.(*Design)) }

func (q *boundQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}

// layOutBatch lays the designs out at once, one goroutine each, as
// many as the engine's memory budget holds (at 1,000,000 GPUs one at a
// time); a panic in one comes back as an error.
func layOutBatch(ctx context.Context, batch []*Design, cat *planner.Catalog, opt SearchOptions) error {
	g := workers.NewGroup(0)
	for _, d := range batch {
		g.GoWithin(workers.Memory, planner.LayoutBytes(d.Plan.GPUs), func() {
			if ctx.Err() == nil {
				d.layOut(cat, opt.WithFailures)
			}
		})
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return ctx.Err()
}

// layOut prices d in the hall, as Build plans its scenario, its links
// counted when it has more than countLinksAbove; d stays a bound when
// the hall cannot cable it or it has no JCT there.
func (d *Design) layOut(cat *planner.Catalog, withFailures bool) {
	how := PricedHall
	if d.Plan.Links.Fabric() > countLinksAbove {
		how = PricedCounted
	}
	hd := evaluate(d.searched, cat, withFailures, d.memo, how)
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
	slices.SortStableFunc(out, func(a, b *Design) int { return cmp.Compare(a.CostUSD, b.CostUSD) })
	return out
}

// bound sets d, priced at one length per tier, to its hall's lower
// bound (PricedBound).
func (d *Design) bound(cat *planner.Catalog) {
	usd, low := d.Plan.HallBound(&d.searched, cat, false)
	d.CostUSD, d.boundUSD, d.boundLowUSD, d.Priced = usd, usd, low, PricedBound
}

// tighten bounds d, still at its loose bound, tightly.
func (d *Design) tighten(cat *planner.Catalog) {
	usd, low := d.Plan.HallBound(&d.searched, cat, true)
	d.CostUSD, d.boundUSD, d.boundLowUSD, d.tight = usd, usd, low, true
}

// layOut lays out the designs that can reach the Pareto front (see
// layOutDesigns) and drops those the hall cannot cable; all of them when
// none laid out builds, so that Search's front is never empty.
func (r *SearchResult) layOut(ctx context.Context, cat *planner.Catalog, opt SearchOptions, workers int, budget *int) error {
	dropped, n, undecided, err := layOutDesigns(ctx, r.Designs, cat, opt, workers, budget)
	if err != nil {
		return err
	}
	r.LaidOut += n
	r.Undecided = undecided
	r.Designs = slices.DeleteFunc(r.Designs, func(d *Design) bool {
		return dropped[d] || !finite(d.CostUSD)
	})
	if !slices.ContainsFunc(r.Designs, func(d *Design) bool { return d.Priced != PricedBound }) {
		// Every design tried failed its hall and the budget left the rest
		// at their bound: none is known to build (Search reports none).
		r.Designs = nil
	}
	return nil
}

// layOutTies lays out every design still at its bound that some price
// draw could make cheaper than the pick (its bound on low prices is not
// above the pick's cost on high prices), so that its cost against the
// pick is its hall's; the others are surely dearer (compareCosts).
// The designs stay sorted by cost, then JCT.
func (r *SearchResult) layOutTies(ctx context.Context, cat *planner.Catalog, opt SearchOptions, workers int, budget *int) error {
	pick := r.Pick()
	var todo []*Design
	for _, d := range r.Designs { // by bound: the likeliest ties first
		if d.Priced == PricedBound && !d.tight && d.boundLowUSD <= pick.Plan.Cost.HighUSD {
			d.tighten(cat)
		}
		if d.Priced == PricedBound && d.boundLowUSD <= pick.Plan.Cost.HighUSD && d.Plan.Links.Fabric() <= *budget {
			*budget -= d.Plan.Links.Fabric()
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
		if c := cmp.Compare(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmp.Compare(a.Days, b.Days)
	})
	return nil
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
	if n := r.countedDesigns(); n > 0 {
		note += fmt.Sprintf(" (%d with their links counted by class, not walked: within 0.5%% of the walk's cost)", n)
	}
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
	if n := r.countedDesigns(); n > 0 {
		note += fmt.Sprintf(" (%d counted, ≈)", n)
	}
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

// countedDesigns counts the designs laid out with their links counted
// (PricedCounted).
func (r *SearchResult) countedDesigns() int {
	n := 0
	for _, d := range r.Designs {
		if d.Priced == PricedCounted {
			n++
		}
	}
	return n
}

// CostText is d's cost as the views show it: "≥ " before a lower bound,
// "≈ " before a cost whose links were counted (PricedCounted: within
// 0.5% of the plan's).
func (d *Design) CostText(format func(float64) string) string {
	switch d.Priced {
	case PricedBound:
		return "≥ " + format(d.CostUSD)
	case PricedCounted:
		return "≈ " + format(d.CostUSD)
	}
	return format(d.CostUSD)
}
