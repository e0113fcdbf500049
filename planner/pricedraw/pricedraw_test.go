package pricedraw

import (
	"math"
	"testing"
)

// The draws follow the triangular distribution on each part's range:
// hand-worked moments for low 1, mode 2, high 4: mean (1+2+4)/3 = 7/3,
// P(x < 2) = (2-1)/(4-1) = 1/3; every draw inside [1, 4]. And they are
// reproducible: two samplers give the same numbers. Mutations caught: a
// uniform draw (mean 2.5, P = 1/3 fails with mean), a mode in the wrong
// branch, an unseeded source.
func TestPriceDrawsDistribution(t *testing.T) {
	d := New(100_000)
	v := d.draw("x", 1, 2, 4)
	sum, below := 0.0, 0
	for _, x := range v {
		if x < 1 || x > 4 {
			t.Fatalf("draw %v outside [1, 4]", x)
		}
		sum += x
		if x < 2 {
			below++
		}
	}
	if mean := sum / float64(len(v)); math.Abs(mean-7.0/3) > 0.01 {
		t.Errorf("mean %.4f, want 7/3", mean)
	}
	if p := float64(below) / float64(len(v)); math.Abs(p-1.0/3) > 0.01 {
		t.Errorf("P(x<2) %.4f, want 1/3", p)
	}
	w := New(100_000).draw("x", 1, 2, 4)
	for i := range v {
		if v[i] != w[i] {
			t.Fatalf("draw %d differs between samplers: %v, %v", i, v[i], w[i])
		}
	}
	for _, tc := range []struct{ u, a, c, b, want float64 }{
		{0, 1, 2, 4, 1}, {0.999999999, 1, 2, 4, 4}, {1.0 / 3, 1, 2, 4, 2}, {0.5, 3, 3, 3, 3}, {0.5, 0, 0, 2, 2 - math.Sqrt(2)},
	} {
		if got := triangular(tc.u, tc.a, tc.c, tc.b); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("triangular(%v; %v, %v, %v) = %v, want %v", tc.u, tc.a, tc.c, tc.b, got, tc.want)
		}
	}
}

// ProbCheaper and Verdict by hand: costs a = 1, 2, 3 against b = 2, 2, 1
// win the first draw, tie the second (half) and lose the third: 1.5/3 =
// 0.5; no draws is a coin toss. The verdict thresholds are 0.9 and 0.1
// inclusive. Mutations caught: a tie counted as a win or a loss, the
// shorter list overrun, a threshold exclusive.
func TestProbCheaperAndVerdict(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{2, 2, 1}, 0.5},
		{[]float64{1, 1}, []float64{2, 2, 0}, 1},
		{nil, []float64{1}, 0.5},
	} {
		if got := ProbCheaper(tc.a, tc.b); got != tc.want {
			t.Errorf("ProbCheaper(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	for p, want := range map[float64]string{0.9: VerdictCheaper, 0.89: VerdictTie, 0.5: VerdictTie, 0.11: VerdictTie, 0.1: VerdictDearer, 0: VerdictDearer} {
		if got := Verdict(p); got != want {
			t.Errorf("Verdict(%v) = %s, want %s", p, got, want)
		}
	}
}

// Costs adds each drawn line at its part's draws and the undrawn lines
// once: 2 x $5 with no range (fixed $10) and 3 of part x on [1, 4]
// (mode 2) cost 3 x draw + 10 in each draw, so within [13, 22]. A part
// bought twice in one bill takes the same draw for both lines.
// Mutations caught: the fixed lines left out or drawn, a quantity
// ignored, two lines of one part drawn independently, dst not reused.
func TestCostsOfABill(t *testing.T) {
	bill := func(lines ...Line) func(func(Line) bool) {
		return func(yield func(Line) bool) {
			for _, l := range lines {
				if !yield(l) {
					return
				}
			}
		}
	}
	d := New(1000)
	x := d.draw("x", 1, 2, 4)
	got := d.Costs(bill(Line{Key: "fixed", Qty: 2, Low: 5, Unit: 5, High: 5}, Line{Key: "x", Qty: 3, Low: 1, Unit: 2, High: 4}), nil)
	if len(got) != 1000 {
		t.Fatalf("%d costs, want 1,000", len(got))
	}
	for i, c := range got {
		if math.Abs(c-(3*x[i]+10)) > 1e-9 || c < 13 || c > 22 {
			t.Fatalf("draw %d: %v, want 3 x %v + 10", i, c, x[i])
		}
	}
	twice := d.Costs(bill(Line{Key: "x", Qty: 1, Low: 1, Unit: 2, High: 4}, Line{Key: "x", Qty: 2, Low: 1, Unit: 2, High: 4}), got)
	for i, c := range twice {
		if math.Abs(c-3*x[i]) > 1e-9 {
			t.Fatalf("draw %d of a part on two lines: %v, want 3 x %v", i, c, x[i])
		}
	}
	if &twice[0] != &got[0] {
		t.Error("dst not reused")
	}
}
