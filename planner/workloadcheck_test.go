package planner

import (
	"cmp"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/perf"
)

// TestWorkloadFloorsAndConsistency: each row is one value a hostile user
// typed; the build fails with an error naming the field and a fix that
// works, or plans with finite figures. Mutations caught: the efficiency
// floor removed (1e-310 gives an infinite step, search panics on an empty
// front), vpp not bounded by layers per stage (vpp 1024 on 20 layers per
// stage plans), the batch not checked against the data-parallel ranks (a
// one-token batch plans a 3.21x gain over 214,654 weeks), the vpp bound
// rounded down (Meta's Llama 3 405B layout of 126 layers on 16 stages
// with vpp 8 refused), a 0 efficiency (the preset) refused by the floor,
// vpp checked without a pipeline (issue 47: a 4-layer custom model at
// tp 1, pp 1 was refused for the default vpp 5 it never typed), the
// default vpp refused at pp 2 on 4 layers (checked as if typed), etp
// not bounded (a negative expert tensor size plans as tp), tp not
// dividing the heads or ep the experts accepted (the buyer review's tp 3
// timed faster than tp 8), a batch or expert fold too large for the GPUs
// refusing the whole plan instead of a finding beside the fabric.
func TestWorkloadFloorsAndConsistency(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name      string
		edit      func(w *perf.Workload)
		gpus      int
		field     string // "" plans
		fixSays   string
		wantMicro int
		finding   bool // the fabric is planned; the job's error is its NoJCT
	}{
		{name: "efficiency 1e-310", edit: func(w *perf.Workload) { w.ComputeEfficiency = 1e-310 }, field: "workload.compute_efficiency", fixSays: "0.01 to 1"},
		{name: "efficiency 0.0099", edit: func(w *perf.Workload) { w.ComputeEfficiency = 0.0099 }, field: "workload.compute_efficiency"},
		{name: "efficiency 0.01 plans", edit: func(w *perf.Workload) { w.ComputeEfficiency = 0.01 }},
		{name: "efficiency 0 is the preset", edit: func(w *perf.Workload) { w.ComputeEfficiency = 0 }},
		{name: "params 1e-300", edit: func(w *perf.Workload) { w.ParamsB = 1e-300 }, field: "workload.params_b"},
		// llama3-70b: 80 layers; pp 4 gives 20 a stage.
		{name: "vpp 1024 on 20 layers a stage", edit: func(w *perf.Workload) { w.VPP = 1024 }, field: "workload.vpp", fixSays: "1 to 20"},
		{name: "vpp 21 on 20 layers a stage", edit: func(w *perf.Workload) { w.VPP = 21 }, field: "workload.vpp"},
		{name: "vpp 20 on 20 layers a stage", edit: func(w *perf.Workload) { w.VPP = 20 }},
		// 126 layers on 16 stages: up to 8 a stage (Llama 3 405B, vpp 8).
		{name: "llama3 405B layout", edit: func(w *perf.Workload) {
			w.Model, w.TP, w.PP, w.VPP, w.Recompute, w.ZeROStage = "llama3-405b", 8, 16, 8, true, 3
		}, gpus: 16384},
		{name: "vpp 9 on 126/16 layers", edit: func(w *perf.Workload) { w.Model, w.TP, w.PP, w.VPP = "llama3-405b", 8, 16, 9 }, gpus: 16384, field: "workload.vpp", fixSays: "1 to 8"},
		// A 4-layer custom model: pp 1 has no stage to interleave, so the
		// default vpp 5 (or 9) is no error; pp 2 gives 2 layers a stage,
		// so a typed vpp 5 is refused there and the default (never typed)
		// takes 2 (perf fillVPP).
		{name: "4 layers at tp 1, pp 1, default vpp", edit: func(w *perf.Workload) {
			w.Model, w.ParamsB, w.Layers, w.Hidden, w.Heads, w.SeqLen, w.TP, w.PP = "custom", 0.5, 4, 2048, 16, 2048, 1, 1
		}},
		{name: "4 layers at pp 1, vpp 9", edit: func(w *perf.Workload) {
			w.Model, w.ParamsB, w.Layers, w.Hidden, w.Heads, w.SeqLen, w.TP, w.PP, w.VPP = "custom", 0.5, 4, 2048, 16, 2048, 1, 1, 9
		}},
		{name: "4 layers at pp 2, default vpp", edit: func(w *perf.Workload) {
			w.Model, w.ParamsB, w.Layers, w.Hidden, w.Heads, w.SeqLen, w.TP, w.PP = "custom", 0.5, 4, 2048, 16, 2048, 1, 2
		}},
		{name: "4 layers at pp 2, vpp 5 typed", edit: func(w *perf.Workload) {
			w.Model, w.ParamsB, w.Layers, w.Hidden, w.Heads, w.SeqLen, w.TP, w.PP, w.VPP = "custom", 0.5, 4, 2048, 16, 2048, 1, 2, 5
		}, field: "workload.vpp", fixSays: "1 to 2"},
		{name: "etp -1", edit: func(w *perf.Workload) { w.ETP = -1 }, field: "workload.etp", fixSays: "leave it out"},
		{name: "etp 0 is tp", edit: func(w *perf.Workload) { w.ETP = 0 }},
		// 1,024 GPUs / (tp 8 x pp 4) = 32 ranks: 32 x 8,192 = 262,144 tokens.
		// A batch too small for these GPUs is a finding beside the
		// planned fabric (Plan.NoJCT), not a refusal.
		{name: "one-token batch", edit: func(w *perf.Workload) { w.GlobalBatchTokens = 1 }, field: "workload.global_batch_tokens", fixSays: "262,144", finding: true},
		{name: "one micro-batch short", edit: func(w *perf.Workload) { w.GlobalBatchTokens = 262_143 }, field: "workload.global_batch_tokens", finding: true},
		{name: "one micro-batch a rank", edit: func(w *perf.Workload) { w.GlobalBatchTokens = 262_144 }, wantMicro: 1},
		// micro_batch 2 doubles the floor: 524,288 tokens.
		{name: "micro_batch 2", edit: func(w *perf.Workload) { w.GlobalBatchTokens, w.MicroBatch = 262_144, 2 }, field: "workload.global_batch_tokens", fixSays: "524,288", finding: true},
		// Megatron-LM's argument checks: tp divides the attention heads
		// (Llama 3 70B: 64), ep the experts (DeepSeek-V3: 256).
		{name: "tp 3 on 64 heads", edit: func(w *perf.Workload) { w.TP, w.PP = 3, 1 }, field: "workload.tp", fixSays: "1, 2, 4, 8, 16, 32 or 64"},
		{name: "tp 16 on 64 heads", edit: func(w *perf.Workload) { w.TP, w.PP = 16, 1 }},
		{name: "ep 7 on 256 experts", edit: func(w *perf.Workload) { w.Model, w.TP, w.PP, w.EP = "deepseek-v3", 1, 16, 7 }, field: "workload.ep", fixSays: "128 or 256"},
		{name: "ep 16 on 8 experts", edit: func(w *perf.Workload) { w.Model, w.TP, w.PP, w.EP = "mixtral-8x7b", 1, 1, 16 }, field: "workload.ep", fixSays: "1, 2, 4 or 8"},
		// ep 64 at tp 1 needs 64 data-parallel ranks a stage: 1,016 GPUs
		// over pp 16 give 63 (a finding: fewer ranks cannot fold either).
		{name: "ep 64 over 63 ranks", edit: func(w *perf.Workload) {
			w.Model, w.TP, w.PP, w.EP, w.GlobalBatchTokens = "deepseek-v3", 1, 16, 64, 1<<27
		}, gpus: 1016, field: "workload.ep", fixSays: "use ep 1", finding: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := perf.NewWorkload()
			tc.edit(&w)
			s := ibScenario(cmp.Or(tc.gpus, 1024))
			s.Network.Switch = Auto
			s.Workload = &w
			p, err := Build(s, cat)
			if tc.finding {
				if err != nil || p.JCT != nil || p.NoJCT == nil {
					t.Fatalf("error %v, JCT %v: want the fabric planned, no JCT, and why", err, p.JCT)
				}
				fes := fielderr.FieldErrors(p.NoJCT)
				if len(fes) != 1 || fes[0].Field != tc.field || !strings.Contains(fes[0].Fix, tc.fixSays) {
					t.Fatalf("NoJCT %v: want one %s error whose fix says %q", p.NoJCT, tc.field, tc.fixSays)
				}
				return
			}
			if tc.field == "" {
				if err != nil {
					t.Fatalf("want a plan: %v", err)
				}
				if where := nonFinite(reflect.ValueOf(p.JCT), "jct"); where != "" {
					t.Fatalf("non-finite figure %s", where)
				}
				if tc.wantMicro > 0 && p.JCT.Microbatches != tc.wantMicro {
					t.Errorf("micro-batches %d, want %d", p.JCT.Microbatches, tc.wantMicro)
				}
				return
			}
			fes := fielderr.FieldErrors(err)
			if len(fes) != 1 || fes[0].Field != tc.field || fes[0].Fix == "" || !strings.Contains(fes[0].Fix, tc.fixSays) {
				t.Fatalf("got %v, want one %s error whose fix says %q", err, tc.field, tc.fixSays)
			}
		})
	}
}

// TestDefaultWorkloadFillsRanks: a plan without a [workload] table on a
// cluster with more data-parallel ranks than the default batch has
// sequences still gets a JCT, with the batch raised and said. 100,000
// GPUs / 32 = 3,125 ranks x 8,192 tokens = 25,600,000. Mutation caught:
// the batch check applied to the default workload (every plan past
// 65,536 GPUs loses its JCT and search finds no design).
func TestDefaultWorkloadFillsRanks(t *testing.T) {
	s := ibScenario(100_000)
	s.Network.Planes = 2 // three tiers of qm9700 reach 65,536 ports a plane
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.JCT == nil || p.JCT.Workload.GlobalBatchTokens != 25_600_000 || p.JCT.Microbatches != 1 {
		t.Fatalf("JCT %+v, want a 25,600,000-token batch of one micro-batch a rank", p.JCT)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "25,600,000 tokens") {
		t.Errorf("notes do not say the batch was raised: %q", p.Notes)
	}
}

// TestNonFinite: the walk finds a NaN or Inf anywhere in a JCT, in
// nested slices too, and says where. Mutation caught: slices or nested
// structs skipped, or Inf taken for finite.
func TestNonFinite(t *testing.T) {
	j := &perf.JCT{Gain: 1.5}
	j.Planned.Classes = []perf.TrafficClass{{TimeS: 1}, {TimeS: math.Inf(1)}}
	if got := nonFinite(reflect.ValueOf(j), "jct"); got != "jct.Planned.Classes[1].TimeS = +Inf" {
		t.Errorf("got %q", got)
	}
	j.Planned.Classes[1].TimeS = 2
	j.Baseline.StepS = math.NaN()
	if got := nonFinite(reflect.ValueOf(j), "jct"); got != "jct.Baseline.StepS = NaN" {
		t.Errorf("got %q", got)
	}
	j.Baseline.StepS = 3
	if got := nonFinite(reflect.ValueOf(j), "jct"); got != "" {
		t.Errorf("finite JCT reported %q", got)
	}
	p := &Plan{JCT: j}
	p.Cost.PerGPU = math.Inf(-1)
	if err := p.checkFinite(); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "cost.PerGPU") {
		t.Errorf("checkFinite: %v", err)
	}
}
