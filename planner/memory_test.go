package planner

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestMemoryZeROPaper checks model state per GPU against the ZeRO paper
// (Rajbhandari et al., SC20, Figure 1): a 7.5B model on 64 GPUs with
// mixed-precision Adam (2 + 2 + 12 bytes per parameter) needs 120 GB
// without ZeRO, 31.4 GB with stage 1, 16.6 GB with 2 and 1.9 GB with 3.
// Mutations caught: a stage sharding the wrong state (stage 2 leaving
// gradients whole gives 31.4), sharding over tp x pp x dp instead of dp.
func TestMemoryZeROPaper(t *testing.T) {
	d := *testCatalog(t).JCT
	d.Memory.GradBytes = 2 // the paper's fp16 gradients
	gpu := &GPUSpec{Name: "test", HBMGB: 1e6}
	for stage, want := range []float64{120, 31.4, 16.6, 1.9} {
		w := Workload{ParamsB: 7.5, ActiveParamsB: 7.5, Layers: 1, Hidden: 1, SeqLen: 1, MicroBatch: 1, TP: 1, PP: 1, VPP: 1, EP: 1,
			ZeROStage: stage, GlobalBatchTokens: 64}
		m := memoryUse(w, gpu, &d, 64)
		got := m.WeightsGB + m.GradientsGB + m.OptimizerGB
		if math.Abs(got-want)/want > 0.1 {
			t.Errorf("ZeRO stage %d: %.2f GB of model state, the paper %.1f", stage, got, want)
		}
	}
}

// TestMemoryMegatronBytes checks the shipped constants against Megatron-
// LM's distributed-optimizer table for bf16 weights and fp32 gradients:
// 18 bytes per parameter, or 6 + 12/d with the distributed optimizer.
func TestMemoryMegatronBytes(t *testing.T) {
	d := testCatalog(t).JCT
	gpu := &GPUSpec{Name: "test", HBMGB: 1e6}
	for _, c := range []struct {
		zero bool
		dp   int
		want float64
	}{{false, 8, 18}, {true, 8, 6 + 12.0/8}, {true, 128, 6 + 12.0/128}} {
		w := Workload{ParamsB: 1, ActiveParamsB: 1, Layers: 1, Hidden: 1, SeqLen: 1, MicroBatch: 1, TP: 1, PP: 1, VPP: 1, EP: 1, ZeRO: c.zero, GlobalBatchTokens: 1024}
		m := memoryUse(w, gpu, d, c.dp)
		if got := m.WeightsGB + m.GradientsGB + m.OptimizerGB; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("zero %v, dp %d: %.4f bytes per parameter, Megatron's table %.4f", c.zero, c.dp, got, c.want)
		}
	}
}

// TestMemoryActivationsByHand: Llama 3 70B (80 layers, h 8192, s 8192),
// tp 8, pp 4, 5 virtual stages, micro-batch 1, 16M-token batches on
// 1,024 GPUs (dp 32, 64 micro-batches). One layer keeps 34 x s x h / tp
// = 285,212,672 bytes; the first stage holds its 20 layers for 4
// micro-batches times 1 + 3/20 for interleaving: 26.24 GB. With full
// recomputation a layer keeps 2 x s x h / tp and one layer is rebuilt:
// 1.544 + 0.285 = 1.829 GB. Weights: (70.6B - 2 x 1.0507B embeddings)/4
// + 1.0507B, over tp 8, x 2 bytes = 4.544 GB. Mutations caught: in-flight
// micro-batches taken as pp x vpp, the interleaving factor left out,
// activations not divided by tp, embeddings left out of the first stage.
func TestMemoryActivationsByHand(t *testing.T) {
	cat := testCatalog(t)
	w, _, gpu, err := resolveWorkload(NewWorkload(), cat.JCT)
	if err != nil {
		t.Fatal(err)
	}
	m := memoryUse(w, gpu, cat.JCT, 32)
	layer := 34.0 * 8192 * 8192 / 8
	if want := 20 * 4 * 1.15 * layer / 1e9; math.Abs(m.ActivationsGB-want) > 1e-6 || m.Stage != "first" {
		t.Errorf("activations %.4f GB on the %s stage, want %.4f on the first", m.ActivationsGB, m.Stage, want)
	}
	embed := 128256.0 * 8192
	if want := ((70.6e9-2*embed)/4 + embed) / 8 * 2 / 1e9; math.Abs(m.WeightsGB-want) > 1e-6 {
		t.Errorf("weights %.4f GB, want %.4f", m.WeightsGB, want)
	}
	w.Recompute = true
	m = memoryUse(w, gpu, cat.JCT, 32)
	if want := (20*4*1.15*2.0*8192*8192/8 + layer) / 1e9; math.Abs(m.ActivationsGB-want) > 1e-6 {
		t.Errorf("recomputed activations %.4f GB, want %.4f", m.ActivationsGB, want)
	}
}

// TestMemoryMoEExperts: Mixtral 8x7B (46.7B total, 12.9B active, 8
// experts, top-2) puts (46.7 - 12.9)/6 = 5.63B in each expert, 45.07B in
// all; with ep 8 each GPU holds one expert's share. Mutation caught:
// experts not sharded over ep (weights 8x larger).
func TestMemoryMoEExperts(t *testing.T) {
	cat := testCatalog(t)
	w := NewWorkload()
	w.Model, w.TP, w.PP, w.EP = "mixtral-8x7b", 1, 1, 8
	w, _, gpu, err := resolveWorkload(w, cat.JCT)
	if err != nil {
		t.Fatal(err)
	}
	m := memoryUse(w, gpu, cat.JCT, 64)
	experts := 8 * (46.7 - 12.9) / 6 * 1e9
	dense := 46.7e9 - experts // embeddings included
	if want := (dense + experts/8) * 2 / 1e9; math.Abs(m.WeightsGB-want) > 1e-6 {
		t.Errorf("weights %.3f GB, want %.3f", m.WeightsGB, want)
	}
}

// A job that does not fit is an error naming what does not fit and the
// smallest change that does, and that change makes it fit. Mutations
// caught: the check skipped, a fix that does not fit, a costlier change
// named before a cheaper one (recompute before ZeRO-2 or a smaller
// micro-batch).
func TestMemoryInfeasibleNamesFix(t *testing.T) {
	cat := testCatalog(t)
	// Each fix worked out by hand from the breakdowns (GB): weights,
	// gradients, optimizer, activations, reserve 5, on 1,024 H100.
	for _, c := range []struct {
		name string
		gpus int
		edit func(w *Workload)
		fix  string
	}{
		// 4.54 + 9.09 + 0.85 + 4 x 26.24 + 5 = 124.4; at micro-batch 2
		// activations are 52.5 and the total 72.0.
		{"micro-batch 4", 1024, func(w *Workload) { w.MicroBatch = 4 }, "micro_batch = 2"},
		// 405B on tp 8 x pp 4: 25.6 + 51.2 + 4.8 + 82.7 + 5. Recompute
		// alone leaves 92; ZeRO alone keeps 82.7 of activations; more
		// stages do not shrink the first stage's (it holds every layer's
		// worth in 1F1B). Both: 25.6 + 1.6 + 4.8 + 5.4 + 5 = 42.4.
		{"405B on pp 4", 1024, func(w *Workload) { w.Model = "llama3-405b" }, "recompute = true and zero_stage = 2"},
		// 8B on tp 1: 18 bytes x 8.03B = 144.5 GB of state; ZeRO-1 leaves
		// 16.1 + 32.1 + 40.7 + 5 = 94; ZeRO-2 shards gradients: 62.
		// (Recompute with ZeRO-1 would fit too, at a third more compute.)
		{"8B plain data parallel", 1024, func(w *Workload) { w.Model, w.TP, w.PP, w.VPP, w.ZeRO = "llama3-8b", 1, 1, 1, false }, "zero_stage = 2"},
		// 175B on tp 8: 43.8 + 87.5 + 262.5 + 10.3 + 5; ZeRO-1 147,
		// ZeRO-2 59.
		{"175B tp 8 pp 1", 1024, func(w *Workload) { w.Model, w.PP, w.VPP, w.ZeRO = "gpt3-175b", 1, 1, false }, "zero_stage = 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs = c.gpus
			w := NewWorkload()
			c.edit(&w)
			s.Workload = &w
			_, err := Build(s, cat)
			if !errors.Is(err, ErrNoMemory) {
				t.Fatalf("want a memory error, got %v", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "set "+c.fix+" in [workload]") || !strings.Contains(msg, "of 80 GB per GPU") {
				t.Fatalf("error %q does not name %q", msg, c.fix)
			}
			fixed := w
			for _, part := range strings.Split(c.fix, " and ") {
				key, val, _ := strings.Cut(part, " = ")
				switch key {
				case "micro_batch":
					fixed.MicroBatch = atoiMust(t, val)
				case "recompute":
					fixed.Recompute = true
				case "zero_stage":
					fixed.ZeROStage = atoiMust(t, val)
				}
			}
			s.Workload = &fixed
			if _, err := Build(s, cat); err != nil {
				t.Errorf("after %s: %v", c.fix, err)
			}
		})
	}
}

func atoiMust(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = 10*n + int(r-'0')
	}
	return n
}

// The default workload, which fits every size it runs at, never trips the
// memory check on the shipped examples; a default that does not fit
// leaves a note, not an error.
func TestMemoryDefaultWorkloadNote(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs = 1024
	p, err := Build(s, cat)
	if err != nil || p.JCT == nil || !p.JCT.Memory.Fits() {
		t.Fatalf("default at 1,024 GPUs: %v", err)
	}
	s.Cluster.GPUsPerServer = 8
	s.Cluster.GPUs = 32 // dp 1: the optimizer is not sharded, 18 bytes per parameter
	p, err = Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.JCT == nil && !strings.Contains(strings.Join(p.Notes, " "), "memory") {
		t.Errorf("no JCT and no memory note: %v", p.Notes)
	}
}

func BenchmarkMemoryUse(b *testing.B) {
	cat := testCatalog(b)
	w, _, gpu, _ := resolveWorkload(NewWorkload(), cat.JCT)
	for b.Loop() {
		memoryUse(w, gpu, cat.JCT, 32)
	}
}
