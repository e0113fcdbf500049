package perf

import (
	"math"
	"testing"
)

// E[1/M], M one plus the largest of k Binomial(n, p) loads, against hand
// calculations. k = 1 has the closed form E[1/(1+X)] = (1 - (1-p)^(n+1))
// / ((n+1) p): n = 31, p = 1/32 gives 1 - (31/32)^32 = 1 - 0.362039 =
// 0.637961. n = 1, p = 1/2, k = 2: both stages empty with probability
// 1/4 (share 1), else the flow shares a link (1/2): 1/4 + 3/8 = 0.625.
// p = 1 puts all n others on the link: 1/(n+1). Mutations caught: the
// stages ignored (k taken as 1), 1/E[M] in place of E[1/M] (n = 1, p =
// 1/2, k = 1 would give 1/1.5 = 0.667, not 0.75), the tagged flow not
// counted in its own link's load, p = 1 producing NaN.
func TestMeanInverseMaxLoad(t *testing.T) {
	for _, c := range []struct {
		n, p float64
		k    int
		want float64
	}{
		{31, 1.0 / 32, 1, 1 - math.Pow(31.0/32, 32)},
		{1, 0.5, 1, 0.75},
		{1, 0.5, 2, 0.625},
		{3, 1, 2, 0.25},
		{0, 0.5, 2, 1},
		{5, 0, 2, 1},
	} {
		if got := meanInverseMaxLoad(c.n, c.p, c.k); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("n %g p %g k %d: %.6f, want %.6f", c.n, c.p, c.k, got, c.want)
		}
	}
}

// A random bisection on a statically routed two-tier fabric: with two
// servers per leaf (two uplinks at 1:1), a flow meets the other flow of
// its leaf on its link with probability 1/2 at each of the two stages
// per tier (data/jct.toml's stages_per_tier = 2): 0.625 as worked in
// TestMeanInverseMaxLoad. Larger leaves only add collisions (share falls
// toward 1 - e^-1 per stage), whatever the fabric, NIC speed or servers
// (off the grid: 566 and 77 servers, 12 and 7 per leaf). Mutations
// caught: the probe taking the slowest flow (a collective's rule) in
// place of the mean, the stages per tier not read, the share above 1.
func TestBisectionShare(t *testing.T) {
	d := testData(t)
	if d.ECMP.StagesPerTier != 2 {
		t.Fatalf("stages per tier %g: the hand value below assumes 2", d.ECMP.StagesPerTier)
	}
	if got := BisectionShare(d, BisectionProbe{Fabric: InfiniBand, NICGbps: 200, Servers: 64, LeafDown: 2}); math.Abs(got-0.625) > 1e-9 {
		t.Errorf("2 per leaf: %.4f, want 0.625", got)
	}
	prev := 1.0
	for _, leaf := range []int{2, 7, 12, 32, 64} {
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			got := BisectionShare(d, BisectionProbe{Fabric: f, NICGbps: 25, Servers: 566, LeafDown: leaf})
			if !(got > 0.3 && got <= prev+1e-12) {
				t.Errorf("%s, %d per leaf: share %.4f, want in (0.3, %.4f]", f, leaf, got, prev)
			}
			if f == Ethernet {
				prev = got
			}
		}
	}
}
