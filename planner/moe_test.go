package planner

import (
	"fabricplan/planner/perf"
	"math"
	"testing"
)

// The DeepSeek-V3 preset routes to at most 4 nodes, and its expert-
// parallel traffic is mostly hidden by default (data/jct.toml [overlap]
// ep, from DeepSeek's DualPipe practice): on 2,048 H100-class GPUs in
// DeepSeek's layout (pp 16, ep 64, 15,360 sequences of 4,096 tokens) the
// step comes within 15% of the report's 180K H800 GPU hours per trillion
// tokens: 180,000 x 3,600 / 2,048 GPUs x 62,914,560 / 1e12 = 19.9 s.
// Mutations caught: overlap_ep back at 0 (28 s), the routing limit left
// out of the preset (the all-to-all twice as long).
func TestDeepSeekV3Step(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs = 2048
	w := perf.NewWorkload()
	w.Model, w.TP, w.PP, w.VPP, w.EP = "deepseek-v3", 1, 16, 1, 64
	w.GlobalBatchTokens = 15360 * 4096
	s.Workload = &w
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	want := 180000 * 3600.0 / 2048 * float64(w.GlobalBatchTokens) / 1e12
	got := p.JCT.Planned.StepS
	if e := (got - want) / want; math.Abs(e) > 0.15 {
		t.Errorf("DeepSeek-V3 step %.2f s, published %.2f s (%+.1f%%)", got, want, 100*e)
	}
	t.Logf("DeepSeek-V3 on 2,048 GPUs: %.2f s against %.2f s", got, want)
}
