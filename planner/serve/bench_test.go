package serve

import (
	"testing"

	"fabricplan/internal/cputime"
)

// BenchmarkEstimate times one serving estimate with its three baselines
// and findings (DeepSeek-V3, EP 72 beyond the NVLink domain, the batch
// searched for a 100 ms TPOT target) and one RL sync estimate. Target:
// under 20 µs of CPU each.
func BenchmarkEstimate(b *testing.B) {
	d, jd := testData(b)
	c := cluster(jd, 8, 32, 2)
	c.FrontEndGbpsPerServer = 200
	in := Inference{InputTokens: 2000, OutputTokens: 550, PrefixHitRate: 0.56, KVLatent: 576, WeightPrecision: PrecisionFP8,
		DecodeEP: 72, PrefillGPUs: 56, DecodeGPUs: 72, TargetTPOTS: 0.1}
	b.Run("inference", func(b *testing.B) {
		b.ReportAllocs()
		start := cputime.Used()
		for i := 0; i < b.N; i++ {
			Estimate(in, deepseek, c, jd, d)
		}
		b.ReportMetric(float64((cputime.Used()-start).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	})
	b.Run("rl", func(b *testing.B) {
		b.ReportAllocs()
		r := RL{TrainerGPUs: 144, RolloutGPUs: 144, RolloutTP: 16, SyncPrecision: PrecisionFP8}
		start := cputime.Used()
		for i := 0; i < b.N; i++ {
			EstimateRL(r, 1040, c, jd, d)
		}
		b.ReportMetric(float64((cputime.Used()-start).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	})
}
