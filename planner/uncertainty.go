package planner

import (
	"iter"

	"fabricplan/internal/memo"
	"fabricplan/planner/pricedraw"
)

// How sure "cheaper" is: package pricedraw draws every part's price
// within its range, shared between the designs compared; the planner
// gives it each plan's bill.

// Verdicts of a cost comparison (pricedraw's), for the view model,
// which imports only the planner.
const (
	VerdictCheaper = pricedraw.VerdictCheaper
	VerdictDearer  = pricedraw.VerdictDearer
	VerdictTie     = pricedraw.VerdictTie
)

// CostVerdict names what p, the probability that a design costs less
// than another, says: cheaper, dearer or a tie (pricedraw.Verdict, for
// the view model, which imports only the planner).
func CostVerdict(p float64) string { return pricedraw.Verdict(p) }

// PriceLines is the plan's bill of materials as price draws read it:
// each line's part, quantity, unit price and range.
func (p *Plan) PriceLines() iter.Seq[pricedraw.Line] {
	return func(yield func(pricedraw.Line) bool) {
		for i := range p.BOM {
			l := &p.BOM[i]
			if !yield(pricedraw.Line{Key: l.Key, Qty: l.Qty, Low: l.UnitLowUSD, Unit: l.UnitUSD, High: l.UnitHighUSD}) {
				return
			}
		}
	}
}

// CostComparison says how likely plan A is to cost less than plan B.
type CostComparison struct {
	// ProbACheaper is the share of price draws in which A costs less.
	ProbACheaper float64 `json:"prob_a_cheaper"`
	// Verdict is A's: cheaper, dearer or tie.
	Verdict string `json:"verdict"`
	Draws   int    `json:"draws"`
}

// CompareCost draws every price pricedraw.N times, shared between the
// plans, and says how likely a costs less than b.
func CompareCost(a, b *Plan) CostComparison {
	d := pricedraw.New(pricedraw.N)
	p := pricedraw.ProbCheaper(d.Costs(a.PriceLines(), nil), d.Costs(b.PriceLines(), nil))
	return CostComparison{ProbACheaper: p, Verdict: pricedraw.Verdict(p), Draws: d.Len()}
}

// probCache remembers ProbCheaperThan's answers by the pair of plans,
// by identity: a plan's bill never changes once built, and a window
// asks the same question at every redraw (each answer 10,000 draws,
// about 2.5 ms of CPU). It holds maxCachedPairs answers, the least
// recently used let go.
var probCache = memo.New[float64](maxCachedPairs)

const maxCachedPairs = 256

// ProbCheaperThan is the probability over pricedraw.N shared price
// draws that plan a costs less than plan b (as CompareCost), remembered
// for the pair.
func ProbCheaperThan(a, b *Plan) float64 {
	k := memo.Of(memo.Same(a), memo.Same(b))
	if p, ok := probCache.Get(k); ok {
		return p
	}
	p := CompareCost(a, b).ProbACheaper
	probCache.Put(k, p)
	return p
}
