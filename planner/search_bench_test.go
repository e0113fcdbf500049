package planner

import (
	"context"
	"testing"
)

// BenchmarkSearchScenarios runs `fabricplan search` on the shipped
// 1k-GPU, 100k-GPU and Meta 24k-GPU scenarios, priced in the hall, as
// one CLI run does: the hall memo starts empty every time. It prints CPU
// time per search (cpu-µs/op); the target is under 1 s at 100k GPUs.
func BenchmarkSearchScenarios(b *testing.B) {
	cat := testCatalog(b)
	for _, name := range []string{"ib-ndr-1k", "ib-xdr-100k", "meta-roce-24k"} {
		s := scenarioFile(b, name)
		b.Run(name, func(b *testing.B) {
			var designs, laid int
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				forgetHalls()
				res, err := Search(context.Background(), s, cat, SearchOptions{})
				if err != nil {
					b.Fatal(err)
				}
				designs, laid = res.Evaluated, res.LaidOut
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(designs), "designs")
			b.ReportMetric(float64(laid), "laid-out")
		})
	}
}
