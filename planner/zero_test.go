package planner

import (
	"math"
	"testing"
)

// TestZeROStagesDataParallelTime works the data-parallel traffic of
// each ZeRO stage by hand (Rajbhandari et al., ZeRO, SC20, section 7,
// and its communication analysis). Llama 3 8B has 8.03e9 parameters
// (Meta's model card); tp 8, pp 1 leaves a shard of 8.03e9 / 8 =
// 1.004e9 parameters per GPU, and bf16 gradients and weights are 2
// bytes each, so one shard is S = 2.008 GB of gradients or of weights.
//
//   - no ZeRO: one all-reduce of S (ring: 2(n-1)/n S on the wire);
//   - ZeRO-1 and ZeRO-2: a reduce-scatter of the gradients, then an
//     all-gather of the updated weights: S + S = 4.016 GB per step,
//     each (n-1)/n S on the wire, the same as the all-reduce;
//   - ZeRO-3: the weights are not kept whole, so they are gathered for
//     the forward pass and again for the backward pass, plus the
//     reduce-scatter of the gradients: S + 2S = 6.024 GB per step.
//
// A reduce-scatter and an all-gather of S take the same time T on one
// group (latency plus (n-1)/n S over the bus bandwidth), so ZeRO-1 and
// ZeRO-2 spend 2T and ZeRO-3 3T: ZeRO-3's data-parallel time is
// exactly 3/2 of ZeRO-1's, whatever the fabric, and ZeRO-2's equals
// ZeRO-1's. Mutations caught: ZeRO-3 gathering the weights once (ratio
// 1), or three times (2), and ZeRO-2 paying ZeRO-3's second gather.
func TestZeROStagesDataParallelTime(t *testing.T) {
	dpTime := map[int]float64{}
	for _, stage := range []int{1, 2, 3} {
		w := dpJob()
		w.ZeRO, w.ZeROStage = true, stage
		j := effectPlan(t, 1000, w, func(*Network) {}).JCT // 125 servers: off the power-of-two grid
		c := dpClass(t, j.Planned)
		dpTime[stage] = c.TimeS
	}
	if r := dpTime[3] / dpTime[1]; math.Abs(r-1.5) > 1e-9 {
		t.Errorf("ZeRO-3 data-parallel time %.4g s is %.4f x ZeRO-1's %.4g s, want 1.5 (two gathers and a reduce-scatter against one and one)",
			dpTime[3], r, dpTime[1])
	}
	if math.Abs(dpTime[2]-dpTime[1]) > 1e-12 {
		t.Errorf("ZeRO-2 data-parallel time %.4g s, want ZeRO-1's %.4g s: the same reduce-scatter and all-gather", dpTime[2], dpTime[1])
	}
}
