package planner

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sync"
)

// How sure is "cheaper": every part's unit price is uncertain within its
// low-high range (data/catalog.toml, each bound a named source). A
// comparison draws all prices many times and counts how often one design
// costs less than the other.
//
// Distribution: triangular over [low, high] with its mode at the catalog
// price. The bounds are the cheapest and dearest sourced figures, so no
// draw leaves them; the price is the best-supported figure, so draws
// gather around it; and three numbers are all a source gives. (A uniform
// draw would ignore the price; a log-normal would need a spread no
// source states and would leave the bounds.)
//
// Shared draws: a part both designs use takes the same price in both in
// each draw (the same uniform number, through each line's own range), so
// a difference in how many of a part two designs buy is what decides,
// not noise. Different parts are drawn independently. A part's draws
// come from a stream seeded by CompareSeed and its key, so every result
// is reproducible and does not depend on the order plans are compared.
const (
	// CompareDraws is how many price draws a comparison takes: the
	// probability's standard error is at most 0.5/sqrt(10,000) = 0.005.
	CompareDraws = 10_000
	// CompareSeed seeds every comparison's draws.
	CompareSeed = 25
	// SureCheaper is how often one design must cost less, over the
	// draws, to be called cheaper: nine draws in ten. Between
	// 1-SureCheaper and SureCheaper the difference is inside the prices'
	// uncertainty and is called a tie.
	SureCheaper = 0.9
)

// Verdicts of a cost comparison.
const (
	VerdictCheaper = "cheaper"
	VerdictDearer  = "dearer"
	VerdictTie     = "tie"
)

// CostVerdict names what p, the probability that a design costs less
// than another, says: cheaper, dearer or a tie.
func CostVerdict(p float64) string {
	switch {
	case p >= SureCheaper:
		return VerdictCheaper
	case p <= 1-SureCheaper:
		return VerdictDearer
	}
	return VerdictTie
}

// PriceDraws samples plan costs with shared, seeded price draws. Each
// part's uniform numbers and each price range's prices are computed once
// per process and kept (a window redraws the same comparisons often; a
// design search compares one plan with many). It is safe for concurrent
// use.
type PriceDraws struct {
	n int
}

type triangle struct {
	key           string
	n             int
	low, mode, hi float64
}

// drawCache holds the draws computed so far, shared by every PriceDraws:
// a part's uniform numbers by key and draw count, and prices by range.
// The prices are dropped when maxCachedRanges are held (each is n
// float64s); the arrays are never changed once made.
var drawCache = struct {
	sync.Mutex
	uniform map[triangle][]float64
	prices  map[triangle][]float64
}{uniform: map[triangle][]float64{}, prices: map[triangle][]float64{}}

const maxCachedRanges = 512

// NewPriceDraws returns a sampler of n draws (CompareDraws when n <= 0).
func NewPriceDraws(n int) *PriceDraws {
	if n <= 0 {
		n = CompareDraws
	}
	return &PriceDraws{n: n}
}

// Costs returns the plan's total cost in each draw, into dst (reused
// when it is long enough).
func (d *PriceDraws) Costs(p *Plan, dst []float64) []float64 {
	if cap(dst) < d.n {
		dst = make([]float64, d.n)
	}
	dst = dst[:d.n]
	fixed := 0.0
	clear(dst)
	for _, l := range p.BOM {
		q := float64(l.Qty)
		if l.UnitHighUSD <= l.UnitLowUSD {
			fixed += q * l.UnitUSD
			continue
		}
		for i, v := range d.draw(l.Key, l.UnitLowUSD, l.UnitUSD, l.UnitHighUSD) {
			dst[i] += q * v
		}
	}
	for i := range dst {
		dst[i] += fixed
	}
	return dst
}

// draw is part key's price in each draw, triangular on [low, high] with
// its mode at mode, at the part's shared uniform numbers.
func (d *PriceDraws) draw(key string, low, mode, high float64) []float64 {
	t := triangle{key, d.n, low, mode, high}
	drawCache.Lock()
	defer drawCache.Unlock()
	if v, ok := drawCache.prices[t]; ok {
		return v
	}
	uk := triangle{key: key, n: d.n}
	u := drawCache.uniform[uk]
	if u == nil {
		h := fnv.New64a()
		h.Write([]byte(key))
		r := rand.New(rand.NewPCG(CompareSeed, h.Sum64()))
		u = make([]float64, d.n)
		for i := range u {
			u[i] = r.Float64()
		}
		drawCache.uniform[uk] = u
	}
	v := make([]float64, d.n)
	for i, x := range u {
		v[i] = triangular(x, low, mode, high)
	}
	if len(drawCache.prices) >= maxCachedRanges {
		clear(drawCache.prices)
	}
	drawCache.prices[t] = v
	return v
}

// triangular is the inverse distribution function of the triangular
// distribution on [a, b] with mode c, at u in [0, 1).
func triangular(u, a, c, b float64) float64 {
	if b <= a {
		return c
	}
	if f := (c - a) / (b - a); u < f {
		return a + math.Sqrt(u*(b-a)*(c-a))
	}
	return b - math.Sqrt((1-u)*(b-a)*(b-c))
}

// ProbCheaper is the share of draws in which costs a are below costs b,
// a tie in a draw counting half: 0.5 for the same design, 0 or 1 when
// the two cost ranges do not overlap.
func ProbCheaper(a, b []float64) float64 {
	n := min(len(a), len(b))
	if n == 0 {
		return 0.5
	}
	wins := 0.0
	for i := range n {
		switch {
		case a[i] < b[i]:
			wins++
		case a[i] == b[i]:
			wins += 0.5
		}
	}
	return wins / float64(n)
}

// CostComparison says how likely plan A is to cost less than plan B.
type CostComparison struct {
	// ProbACheaper is the share of price draws in which A costs less.
	ProbACheaper float64 `json:"prob_a_cheaper"`
	// Verdict is A's: cheaper, dearer or tie.
	Verdict string `json:"verdict"`
	Draws   int    `json:"draws"`
}

// CompareCost draws every price CompareDraws times, shared between the
// plans, and says how likely a costs less than b.
func CompareCost(a, b *Plan) CostComparison {
	d := NewPriceDraws(CompareDraws)
	p := ProbCheaper(d.Costs(a, nil), d.Costs(b, nil))
	return CostComparison{ProbACheaper: p, Verdict: CostVerdict(p), Draws: d.n}
}

// probCache remembers ProbCheaperThan's answers by plan: a plan never
// changes once built, and a window asks the same question at every
// redraw. It is cleared when it holds maxCachedPairs answers.
var probCache = struct {
	sync.Mutex
	m map[[2]*Plan]float64
}{m: map[[2]*Plan]float64{}}

const maxCachedPairs = 256

// ProbCheaperThan is the probability over CompareDraws shared price
// draws that plan a costs less than plan b (as CompareCost), remembered
// for the pair.
func ProbCheaperThan(a, b *Plan) float64 {
	k := [2]*Plan{a, b}
	probCache.Lock()
	p, ok := probCache.m[k]
	probCache.Unlock()
	if ok {
		return p
	}
	p = CompareCost(a, b).ProbACheaper
	probCache.Lock()
	if len(probCache.m) >= maxCachedPairs {
		clear(probCache.m)
	}
	probCache.m[k] = p
	probCache.Unlock()
	return p
}
