package explore

import (
	"fmt"
	"testing"

	"fabricplan/planner"
)

// BenchmarkSweep times a 1,000-point sweep from 256 to 1M GPUs. Target:
// under 50 ms of CPU. "failures=off" is fabricplan sweep's (its rows read no
// failure what-if), "failures=on" the charts' (the goodput chart reads
// it; they sweep 56 sizes).
func BenchmarkSweep(b *testing.B) {
	cat := testCatalog(b)
	sizes, err := ParseGPUList("256:1000000:1000")
	if err != nil {
		b.Fatal(err)
	}
	s := planner.NewScenario()
	s.Network.Fabric, s.Network.Switch = planner.Ethernet, "tomahawk6-100g" // the Tomahawk 6 a 400G ConnectX-7 joins
	for _, failures := range []bool{false, true} {
		b.Run(fmt.Sprintf("failures=%s", map[bool]string{false: "off", true: "on"}[failures]), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				for _, r := range SweepWith(s, cat, sizes, SweepOptions{Failures: failures}) {
					if r.Err != nil {
						b.Fatal(r.Err)
					}
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(len(sizes)), "points")
		})
	}
}
