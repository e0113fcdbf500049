package planner

import (
	"fabricplan/planner/perf"
	"testing"
)

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
	w.Placement = perf.PlaceSpread
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
