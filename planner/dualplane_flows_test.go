package planner

import (
	"fmt"
	"testing"
)

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
// the first stage's hash reaches fewer links (perf's
// TestPolarizedLinksByHand works the links by hand). A job crossing the
// core on static routing is never faster for more
// polarization, and strictly slower fully polarized; adaptive routing
// does not hash and does not change. Mutations caught: polarization
// spreading flows (more links), polarization charged to adaptive
// routing, or to the first stage (a 2-tier job slowed).
func TestPolarizationNeverSpeedsAJob(t *testing.T) {
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
