package planner

import (
	"fmt"
	"math"
	"testing"
)

// TestFasterUplinksHoldMoreFlows: Alibaba HPN splits each 400G NIC into
// 2 x 200G on two planes and runs its ToR uplinks at 400G. NCCL keeps
// its queue pairs per port, so every 200G port still sends 2 flows (2
// channels x 1 QP), each asking half what a 400G port's flow asks, and
// a 400G uplink holds 4 of them at their full rate. One plane: a leaf's
// 32 ports x 2 flows = 64 flows hashed onto its 32 uplinks, k = 2 per
// link; two planes: 64 ports x 2 = 128 flows onto 32 uplinks of twice
// the speed, k = 4. The expected most loaded link comes from a seeded
// simulation of the hashing (16 leaves each: 64 servers spread), and the
// port's share is k / E[max]. The same load in more, smaller flows
// lands more evenly, so the split NIC loses less to collisions. Mutation
// caught: flows per uplink left at the port's count (k = 2 on two
// planes: the split would lose more than one plane does).
func TestFasterUplinksHoldMoreFlows(t *testing.T) {
	d := testCatalog(t).JCT
	const servers = 64
	for _, c := range []struct {
		name                       string
		ports, leafDown, leafUp, k int
		ratio                      float64
	}{
		{"one plane, 400G ports and uplinks", 8, 32, 32, 2, 1},
		{"two planes, 2 x 200G ports, 400G uplinks", 16, 64, 32, 4, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := staticView(d, 1, 1, servers, true, Ethernet)
			fv.stages, fv.upSpeedRatio, fv.leafDown, fv.leafUp = 1, c.ratio, c.leafDown, c.leafUp
			fv.setJobSize(8*servers, c.ports)
			leaves := servers * c.ports / c.leafDown
			sim := simulateMaxLoad(2*c.leafDown, c.leafUp, leaves, 4000)
			want := math.Min(1, float64(c.k)/sim)
			got := fv.hashedShare(1, false)
			if e := (got - want) / want; math.Abs(e) > 0.08 {
				t.Errorf("share %.3f, simulated %d / %.2f = %.3f (%+.1f%%)", got, c.k, sim, want, 100*e)
			}
		})
	}
	one := staticView(d, 1, 1, servers, true, Ethernet)
	one.stages, one.leafDown, one.leafUp = 1, 32, 32
	two := one
	two.upSpeedRatio, two.leafDown = 2, 64
	two.setJobSize(8*servers, 16)
	if a, b := one.hashedShare(1, false), two.hashedShare(1, false); !(b > a) {
		t.Errorf("split NIC on two planes keeps %.3f of its bandwidth, one plane %.3f: want more", b, a)
	}
}

// TestMorePlanesNeverSlowAJob: spreading the same NICs over more planes
// (multi-plane), or splitting each NIC over two (dual-plane), never
// makes the job slower, on both fabrics, both routings and sizes off the
// grid. Mutations caught: the job's uplinks counted once per plane
// (more leaves hashed, a bigger maximum), a plane's flows hashed onto
// another plane's uplinks.
func TestMorePlanesNeverSlowAJob(t *testing.T) {
	cat := testCatalog(t)
	w := dpJob()
	w.GlobalBatchTokens = 8192 << 12 // a sequence for each of up to 4,096 ranks
	for _, gpus := range []int{1000, 3000, 6000} {
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			for _, routing := range []string{RouteAdaptive, RouteStatic} {
				t.Run(fmt.Sprintf("%d %s %s", gpus, f, routing), func(t *testing.T) {
					s := NewScenario()
					s.Cluster.GPUs, s.Cluster.System = gpus, "dgx-h100"
					s.Network.Fabric, s.Network.Routing = f, routing
					s.Workload = &w
					step := func(v Scenario) (float64, bool) {
						p, err := Build(v, cat)
						if err != nil || p.JCT == nil {
							return 0, false
						}
						return p.JCT.Planned.StepS, true
					}
					base, ok := step(s)
					if !ok {
						t.Fatal("one plane does not build")
					}
					for _, style := range []string{StyleMultiPlane, TopoDualPlane} {
						got, ok := step(styleVariant(s, style))
						if !ok && style == StyleMultiPlane {
							t.Errorf("%s does not build", style)
						}
						if ok && got > base*(1+1e-9) {
							t.Errorf("%s: step %.5f s, one plane %.5f s", style, got, base)
						}
					}
				})
			}
		}
	}
}

// TestPolarizationNeverSpeedsAJob: a second hashed stage that repeats
// the first stage's hash reaches fewer links. By hand: 64 spine uplinks
// at polarization 0, 0.5 and 1 reach 64, 32 and 1 (every flow of the
// spine on one link, as when leaf and spine both take hash mod 64: the
// flows a leaf sent to spine j all have hash = j mod 64, and the spine
// sends all of them to its uplink j); 7 at 0.5 reach 3.5, rounded 4. A
// job crossing the core on static routing is never faster for more
// polarization, and strictly slower fully polarized; adaptive routing
// does not hash and does not change. Mutations caught: polarization
// spreading flows (more links), polarization charged to adaptive
// routing, or to the first stage (a 2-tier job slowed).
func TestPolarizationNeverSpeedsAJob(t *testing.T) {
	for _, c := range []struct{ links, pol, want float64 }{
		{64, 0, 64}, {64, 0.5, 32}, {64, 1, 1}, {7, 0.5, 4}, {1, 0.9, 1}, {64, -1, 64}, {64, 2, 1},
	} {
		if got := polarizedLinks(c.links, c.pol); got != c.want {
			t.Errorf("polarizedLinks(%g, %g) = %g, want %g", c.links, c.pol, got, c.want)
		}
	}
	cat := testCatalog(t)
	with := func(pol float64) *Catalog {
		d := *cat.JCT
		d.ECMP.Polarization = pol
		c := *cat
		c.JCT = &d
		return &c
	}
	w := dpJob()
	w.Placement = PlaceSpread
	w.GlobalBatchTokens = 8192 << 12
	for _, tc := range []struct {
		name    string
		gpus    int
		tiers   int
		routing string
		changes bool
	}{
		{"3 tiers static, 6,000 GPUs", 6000, 3, RouteStatic, true},
		{"3 tiers static, 20,008 GPUs", 20008, 3, RouteStatic, true},
		{"3 tiers adaptive", 6000, 3, RouteAdaptive, false},
		{"2 tiers static", 2000, 2, RouteStatic, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs = tc.gpus
			s.Network.Fabric, s.Network.Switch, s.Network.Routing, s.Network.Tiers = Ethernet, "tomahawk5", tc.routing, tc.tiers
			s.Workload = &w
			prev := 0.0
			var steps []float64
			for _, pol := range []float64{0, 0.3, 0.5, 1} {
				p, err := Build(s, with(pol))
				if err != nil {
					t.Fatal(err)
				}
				st := p.JCT.Planned.StepS
				if st < prev*(1-1e-12) {
					t.Errorf("polarization %g: step %.5f s below %.5f s at less", pol, st, prev)
				}
				prev = st
				steps = append(steps, st)
			}
			if changed := steps[3] > steps[0]*(1+1e-9); changed != tc.changes {
				t.Errorf("step %.5f s unpolarized, %.5f s fully: changed %v, want %v", steps[0], steps[3], changed, tc.changes)
			}
		})
	}
}
