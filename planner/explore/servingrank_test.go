package explore

import (
	"context"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/perf"
	"fabricplan/planner/serve"
)

// servingDesign is a design whose plan carries a serving estimate of
// tokens per dollar, TPOT and TTFT, with the targets of in.
func servingDesign(label string, in *serve.Inference, tokens, tpot, ttft, usd float64) *Design {
	r := &serve.Result{TokensPerDollar: tokens, TTFTS: ttft}
	r.Decode.TPOTS = tpot
	p := &planner.Plan{Inference: r}
	p.Scenario.Inference = in
	return &Design{Label: label, Plan: p, CostUSD: usd}
}

// A hand-checkable ranking with a 100 ms TPOT and a 2 s TTFT target: D
// and E (15 tokens/$, meeting both) first, the cheaper first; then A
// (10, meeting); then the two that miss, by tokens: B (20, TPOT 120
// ms) and C (15, TTFT 3 s), each marked with what it misses; the
// training design T (no estimate) is not ranked. Mutations caught:
// ranking by tokens alone (B first), dropping the designs that miss
// (4 ranked), ties left in search order (E before D).
func TestRankServing(t *testing.T) {
	in := &serve.Inference{TargetTPOTS: 0.1, TargetTTFTS: 2}
	train := &Design{Label: "T", Plan: &planner.Plan{}, CostUSD: 1}
	res := &SearchResult{Designs: []*Design{
		servingDesign("A", in, 10, 0.09, 1, 5),
		servingDesign("B", in, 20, 0.12, 1, 5),
		servingDesign("C", in, 15, 0.05, 3, 5),
		servingDesign("E", in, 15, 0.1, 2, 4),
		servingDesign("D", in, 15, 0.08, 1, 3),
		train,
	}}
	res.rankServing()
	want := []struct {
		label string
		miss  string
	}{
		{"D", ""}, {"E", ""}, {"A", ""},
		{"B", "TPOT 0.120 s > 0.100 s"},
		{"C", "TTFT 3.000 s > 2.000 s"},
	}
	if len(res.Ranked) != len(want) {
		t.Fatalf("%d ranked, want %d", len(res.Ranked), len(want))
	}
	for i, w := range want {
		if d := res.Ranked[i]; d.Label != w.label || d.SLOMiss != w.miss {
			t.Errorf("rank %d: %s (%q), want %s (%q)", i+1, d.Label, d.SLOMiss, w.label, w.miss)
		}
	}
	if train.TokensPerDollar != 0 {
		t.Errorf("training design given %g tokens/$", train.TokensPerDollar)
	}
}

// inferenceScenario is the inference example's scenario (DeepSeek-V3 on
// 256 DGX H100 over 400G InfiniBand, disaggregated, TPOT 100 ms) priced
// flat.
func inferenceScenario() planner.Scenario {
	s := flatIB(256)
	s.Cluster.System = "dgx-h100"
	w := perf.NewWorkload() // the inference example's [workload]
	w.Kind, w.Model, w.Precision, w.TP, w.PP, w.GlobalBatchTokens, w.ZeROStage = serve.KindInference, "deepseek-v3", "fp8", 8, 4, 4<<20, 3
	s.Workload = &w
	in := serve.NewInference()
	in.KVLatent, in.WeightPrecision, in.DecodeEP, in.PrefillGPUs, in.DecodeGPUs, in.TargetTPOTS = 576, "fp8", 72, 112, 144, 0.1
	s.Inference = &in
	return s
}

// A search of an inference scenario ranks every design it keeps, each
// with its own plan's tokens per dollar (what plan --json prints for
// that design), those meeting the SLO first and each group most first;
// a training search ranks none. Mutation caught: tokens per dollar read
// from the pick's plan for every design.
func TestSearchRanksInference(t *testing.T) {
	cat := testCatalog(t)
	res, err := Search(context.Background(), inferenceScenario(), cat, SearchOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ranked) != len(res.Designs) || len(res.Ranked) < 2 {
		t.Fatalf("%d ranked of %d designs", len(res.Ranked), len(res.Designs))
	}
	distinct := map[float64]bool{}
	for i, d := range res.Ranked {
		if d.TokensPerDollar != d.Plan.Inference.TokensPerDollar || d.TokensPerDollar <= 0 {
			t.Errorf("%s: %g tokens/$, its plan's %g", d.Label, d.TokensPerDollar, d.Plan.Inference.TokensPerDollar)
		}
		distinct[d.TokensPerDollar] = true
		if i == 0 {
			continue
		}
		prev := res.Ranked[i-1]
		if prev.SLOMiss == "" && d.SLOMiss == "" && prev.TokensPerDollar < d.TokensPerDollar || prev.SLOMiss != "" && d.SLOMiss == "" {
			t.Errorf("%s ranked after %s", d.Label, prev.Label)
		}
	}
	if len(distinct) < 2 {
		t.Error("every design has the same tokens per dollar")
	}
	plain := flatIB(256)
	job := dpJob()
	plain.Workload = &job
	train, err := Search(context.Background(), plain, cat, SearchOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if train.Ranked != nil {
		t.Errorf("training search ranked %d designs by tokens per dollar", len(train.Ranked))
	}
}
