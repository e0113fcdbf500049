package planner

import (
	"math"
	"testing"

	"fabricplan/internal/textfmt"
)

// The comparison's edge cases by hand: the same design is a coin toss
// (0.5: every draw costs the same); designs whose cost ranges do not
// overlap are certain (0 or 1); and a design that buys strictly more of
// every part than another is never cheaper, however the shared prices
// fall. Mutations caught: independent draws for a shared part (the same
// design would then win about half the draws but not exactly 0.5 and
// the superset case would sometimes win), draws outside a part's range,
// a<b and a>b swapped.
func TestCompareCostEdges(t *testing.T) {
	cat := testCatalog(t)
	build := func(gpus int, sw string) *Plan {
		s := ibScenario(gpus)
		s.Network.Switch = sw
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	small, big := build(1024, "qm9700"), build(4096, "qm9700")
	if small.Cost.HighUSD >= big.Cost.LowUSD {
		t.Fatalf("test premise: ranges overlap (%s high, %s low)", textfmt.USD(small.Cost.HighUSD), textfmt.USD(big.Cost.LowUSD))
	}
	same := build(1024, "qm9700")
	for _, tc := range []struct {
		name string
		a, b *Plan
		want float64
	}{
		{"identical designs", small, same, 0.5},
		{"a plan against itself", small, small, 0.5},
		{"disjoint ranges, a cheaper", small, big, 1},
		{"disjoint ranges, a dearer", big, small, 0},
	} {
		got := CompareCost(tc.a, tc.b)
		if got.ProbACheaper != tc.want {
			t.Errorf("%s: P(a cheaper) = %v, want %v", tc.name, got.ProbACheaper, tc.want)
		}
	}
	if v := CompareCost(small, same).Verdict; v != VerdictTie {
		t.Errorf("identical designs: %s, want a tie", v)
	}
	// 1,056 GPUs buy every part 1,024 GPUs buy, and more: shared draws
	// never let it win. Independent draws would, now and then.
	more := build(1056, "qm9700")
	if p := CompareCost(more, small).ProbACheaper; p != 0 {
		t.Errorf("a superset of parts cheaper in %.4f of draws", p)
	}
}

// The question at 1,024 GPUs: QM9700 InfiniBand against SN5600
// RoCE. Both use ConnectX-7 and the same optics classes, so the shared
// parts largely cancel; the switches decide, and their sourced ranges
// ($35k-50k for 48 QM9700 against $120k-250k for 24 SN5600: $1.68M-2.4M
// vs $2.88M-6.0M) do not overlap, so IB is cheaper in every draw even
// though optics differ. The verdicts follow the threshold: a probability
// of 0.9 or more is "cheaper", 0.1 or less "dearer", between a tie.
func TestCompareIBAgainstRoCE(t *testing.T) {
	cat := testCatalog(t)
	ib, err := Build(ibScenario(1024), cat)
	if err != nil {
		t.Fatal(err)
	}
	s := NewScenario()
	s.Network.Fabric, s.Network.Switch = Ethernet, "sn5600"
	eth, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	c := CompareCost(ib, eth)
	if c.ProbACheaper < 0.99 || c.Verdict != VerdictCheaper {
		t.Errorf("IB vs RoCE at 1,024 GPUs: P %.3f, %s", c.ProbACheaper, c.Verdict)
	}
	for _, tc := range []struct {
		p    float64
		want string
	}{{0.9, VerdictCheaper}, {0.899, VerdictTie}, {0.5, VerdictTie}, {0.101, VerdictTie}, {0.1, VerdictDearer}, {0, VerdictDearer}} {
		if got := CostVerdict(tc.p); got != tc.want {
			t.Errorf("CostVerdict(%v) = %s, want %s", tc.p, got, tc.want)
		}
	}
}

// BenchmarkCompareCost times the probability for a compare of two plans
// (10,000 shared draws). Target: under 50 ms.
func BenchmarkCompareCost(b *testing.B) {
	cat := testCatalog(b)
	a, err := Build(ibScenario(16384), cat)
	if err != nil {
		b.Fatal(err)
	}
	s := NewScenario()
	s.Cluster.GPUs = 16384
	s.Network.Fabric, s.Network.Switch = Ethernet, "sn5600"
	e, err := Build(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CompareCost(a, e)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/compare")
}

// The remembered answer is the computed one, and the two directions of a
// pair of different designs add up to one (no draw has equal costs when
// the designs' parts differ). Mutation caught: a cache keyed without the
// order of the pair.
func TestProbCheaperThanRemembers(t *testing.T) {
	cat := testCatalog(t)
	a, _ := Build(ibScenario(1024), cat)
	s := ibScenario(1024)
	s.Network.Oversubscription = "3:1"
	b, _ := Build(s, cat)
	ab, ba := ProbCheaperThan(a, b), ProbCheaperThan(b, a)
	if ab != CompareCost(a, b).ProbACheaper || ProbCheaperThan(a, b) != ab || math.Abs(ab+ba-1) > 1e-12 {
		t.Errorf("P(a<b) %v, P(b<a) %v, computed %v", ab, ba, CompareCost(a, b).ProbACheaper)
	}
}
