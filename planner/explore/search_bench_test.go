package explore

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSearchScenarios runs `fabricplan search` on the shipped
// 1k-GPU, 100k-GPU and Meta 24k-GPU scenarios, priced in the hall, as
// one CLI run does: the memos start empty every time (a catalog of its
// own for each search). It prints CPU
// time per search (cpu-µs/op); the target is under 1 s at 100k GPUs.
func BenchmarkSearchScenarios(b *testing.B) {
	for _, name := range []string{"ib-ndr-1k", "ib-xdr-100k", "meta-roce-24k"} {
		s := scenarioFile(b, name)
		b.Run(name, func(b *testing.B) {
			var designs, laid int
			b.ReportAllocs()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				// A catalog of its own: the planner's memos, keyed by
				// the catalog, start empty as in one CLI run.
				b.StopTimer()
				cat := testCatalog(b)
				b.StartTimer()
				start := cpuTime()
				res, err := Search(context.Background(), s, cat, SearchOptions{})
				if err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - start
				designs, laid = res.Evaluated, res.LaidOut
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
			b.ReportMetric(float64(designs), "designs")
			b.ReportMetric(float64(laid), "laid-out")
		})
	}
}
