package explore

import (
	"cmp"
	"fmt"
	"testing"

	"fabricplan/planner"
)

// BenchmarkSweep times a 1,000-point sweep from 256 to 1M GPUs. Target:
// under 50 ms of CPU. "failures=off" is fabricplan sweep's (its rows read no
// failure what-if), "failures=on" the charts' (the goodput chart reads
// it; they sweep 56 sizes). "pricing=flat" prices each tier's links at
// one length; "pricing=auto", fabricplan sweep's default, lays every
// size out in the hall and counts its links (the scenario's own size
// walked), "pricing=counted" counts every size, "pricing=hall" walks
// every size's links: issue 45's target is under 50 ms of CPU with the
// hall priced, and cpu-ms/op says how far it is (run it with
// -benchtime 1x: one op lays out 121M GPUs' fabrics; a counted plan's
// units are shared with the plans counted before it in the process, so
// run one sub-benchmark a process for a cold figure). Measured on the
// shared 2-core machine (load 12-14), 2026-11-29 15:32 UTC, -benchtime
// 2x, four runs each alternating with main's (7114dbc): counted
// 0.48-0.53 s (main 0.54-0.56 s), flat 24-27 ms (main 24-28 ms); one
// counted op under cachegrind (GC on) 4.30G instructions (main 5.09G).
// 12:34 UTC the same day (load 11-13), four runs
// each alternating with main's (077d447): counted 0.67-0.76 s (main
// 0.80-0.91 s; two more pairs minutes later 0.86-0.87 s against
// 0.76-1.00 s), auto 0.68-0.75 s (main 0.80-0.94 s), flat 33-42 ms;
// cachegrind counts a counted op's instructions at 5.39G (main 5.73G).
// 10:10 UTC the same day: flat 28-32 ms, counted 0.76-0.80 s (1.30-1.33
// s before units were shared across sizes and the rack pairs noted in
// a table, 3.8 s before the counted halls lost their rack list), hall
// 48.6 s.
func BenchmarkSweep(b *testing.B) {
	cat := testCatalog(b)
	sizes, err := ParseGPUList("256:1000000:1000")
	if err != nil {
		b.Fatal(err)
	}
	s := planner.NewScenario()
	s.Network.Fabric, s.Network.Switch = planner.Ethernet, "tomahawk6-100g" // the Tomahawk 6 a 400G ConnectX-7 joins
	for _, bc := range []struct {
		failures bool
		pricing  string
	}{{false, PricingFlat}, {true, PricingFlat}, {false, PricingAuto}, {false, PricingCounted}, {false, PricingHall}} {
		name := fmt.Sprintf("failures=%s/pricing=%s", map[bool]string{false: "off", true: "on"}[bc.failures], cmp.Or(bc.pricing, "auto"))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				for _, r := range SweepWith(s, cat, sizes, SweepOptions{Failures: bc.failures, Pricing: bc.pricing}) {
					if r.Err != nil {
						b.Fatal(r.Err)
					}
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(len(sizes)), "points")
		})
	}
}
