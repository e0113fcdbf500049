package phases

import (
	"fabricplan/planner"
	"testing"

	"fabricplan/planner/hall"
)

// BenchmarkPlanPhases times a 10-phase plan to 100,000 GPUs (both
// strategies, every phase's fabric, links compared by their ends).
// Target: under 50 ms. The phases' link sets are collected in parallel,
// so on two free cores wall time is below CPU time. Every case lays its
// phases out in the data hall, as plan does (the -hall case with a
// [facility] table, the others with the data's defaults): 520-630 CPU-ms
// a plan on 2026-11-28, 90% of it walking each phase's links in its
// hall, against 67 CPU-ms when phases were priced with flat links. The
// target is missed until the hall is priced by counting (issue 45).
func BenchmarkPlanPhases(b *testing.B) {
	cat := testCatalog(b)
	for _, tc := range []struct {
		name string
		edit func(s *planner.Scenario)
	}{
		{"ib-xdr-q3400", func(s *planner.Scenario) {
			s.Network.NICGbps, s.Network.Switch = 800, "q3400"
		}},
		{"ib-xdr-q3400-hall", func(s *planner.Scenario) { // a [facility] table: the data hall laid out
			s.Network.NICGbps, s.Network.Switch = 800, "q3400"
			s.Facility = &hall.Facility{}
		}},
		{"ethernet-tomahawk6-100g", func(s *planner.Scenario) {
			s.Network.Fabric, s.Network.Switch = planner.Ethernet, "tomahawk6-100g" // the 100G-SerDes part joins a 400G ConnectX-7
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := planner.NewScenario()
			s.Cluster.GPUs = 100_000
			tc.edit(&s)
			for i := range 10 {
				s.Phases = append(s.Phases, planner.Phase{GPUs: (i + 1) * 10_000})
			}
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if _, err := PlanPhases(s, cat); err != nil {
					b.Fatal(err)
				}
			}
			// Wall time suffers on a shared machine; CPU time (all
			// goroutines) says what the plan costs.
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/plan")
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/plan")
		})
	}
}
