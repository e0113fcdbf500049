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
