package pricedraw

import (
	"hash/fnv"
	"iter"
	"math"
	"math/rand/v2"

	"fabricplan/internal/memo"
)

const (
	// N is how many price draws a comparison takes: the probability's
	// standard error is at most 0.5/sqrt(10,000) = 0.005.
	N = 10_000
	// Seed seeds every comparison's draws.
	Seed = 25
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

// Verdict names what p, the probability that a design costs less than
// another, says: cheaper, dearer or a tie.
func Verdict(p float64) string {
	switch {
	case p >= SureCheaper:
		return VerdictCheaper
	case p <= 1-SureCheaper:
		return VerdictDearer
	}
	return VerdictTie
}

// Draws samples costs with shared, seeded price draws. Each part's
// uniform numbers and each price range's prices are computed once per
// process and kept (a window redraws the same comparisons often; a
// design search compares one plan with many). It is safe for concurrent
// use.
type Draws struct {
	n int
}

// Line is one line of a bill: Qty of part Key at Unit US$, within Low
// to High (a range of none, High <= Low, is not drawn).
type Line struct {
	Key             string
	Qty             int
	Low, Unit, High float64
}

// The draws computed so far, shared by every Draws, each keyed by the
// arguments it is made from: a part's uniform numbers by its key and the
// draw count (uniforms), its prices by those and its range (prices).
// Each holds n float64s, never changed once made; the least recently
// used are let go past maxCachedRanges.
var (
	uniforms = memo.New[[]float64](maxCachedRanges)
	prices   = memo.New[[]float64](maxCachedRanges)
)

const maxCachedRanges = 512

// New returns a sampler of n draws (N when n <= 0).
func New(n int) *Draws {
	if n <= 0 {
		n = N
	}
	return &Draws{n: n}
}

// Len is the number of draws.
func (d *Draws) Len() int { return d.n }

// Costs returns the bill's total cost in each draw, into dst (reused
// when it is long enough): the drawn lines in order, then the fixed.
func (d *Draws) Costs(bill iter.Seq[Line], dst []float64) []float64 {
	if cap(dst) < d.n {
		dst = make([]float64, d.n)
	}
	dst = dst[:d.n]
	fixed := 0.0
	clear(dst)
	for l := range bill {
		q := float64(l.Qty)
		if l.High <= l.Low {
			fixed += q * l.Unit
			continue
		}
		for i, v := range d.draw(l.Key, l.Low, l.Unit, l.High) {
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
func (d *Draws) draw(key string, low, mode, high float64) []float64 {
	pk := memo.Of(key, d.n, low, mode, high)
	if v, ok := prices.Get(pk); ok {
		return v
	}
	uk := memo.Of(key, d.n)
	u, ok := uniforms.Get(uk)
	if !ok {
		h := fnv.New64a()
		h.Write([]byte(key))
		r := rand.New(rand.NewPCG(Seed, h.Sum64()))
		u = make([]float64, d.n)
		for i := range u {
			u[i] = r.Float64()
		}
		uniforms.Put(uk, u)
	}
	v := make([]float64, d.n)
	for i, x := range u {
		v[i] = triangular(x, low, mode, high)
	}
	prices.Put(pk, v)
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
