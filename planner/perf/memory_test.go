package perf

import (
	"math"
	"testing"
)

// TestMemoryZeROPaper checks model state per GPU against the ZeRO paper
// (Rajbhandari et al., SC20, Figure 1): a 7.5B model on 64 GPUs with
// mixed-precision Adam (2 + 2 + 12 bytes per parameter) needs 120 GB
// without ZeRO, 31.4 GB with stage 1, 16.6 GB with 2 and 1.9 GB with 3.
// Mutations caught: a stage sharding the wrong state (stage 2 leaving
// gradients whole gives 31.4), sharding over tp x pp x dp instead of dp.
func TestMemoryZeROPaper(t *testing.T) {
	d := *testData(t)
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
	d := testData(t)
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
// less K and V's 4 bytes x 7/8 (grouped-query attention, 8 KV heads of
// 64) = 30.5 x s x h / tp = 255,852,544 bytes; the first stage holds its
// 20 layers for 4 micro-batches times 1 + 3/20 for interleaving: 23.54
// GB. With full recomputation a layer keeps 2 x s x h / tp and one layer
// is rebuilt: 1.544 + 0.256 = 1.800 GB. Weights: (70.6B - 2 x 1.0507B embeddings)/4
// + 1.0507B, over tp 8, x 2 bytes = 4.544 GB. Mutations caught: in-flight
// micro-batches taken as pp x vpp, the interleaving factor left out,
// activations not divided by tp, embeddings left out of the first stage,
// grouped-query attention ignored.
func TestMemoryActivationsByHand(t *testing.T) {
	d := testData(t)
	w, _, gpu, err := resolveWorkload(NewWorkload(), d)
	if err != nil {
		t.Fatal(err)
	}
	m := memoryUse(w, gpu, d, 32)
	layer := (34.0 - 4*7.0/8) * 8192 * 8192 / 8
	if want := 20 * 4 * 1.15 * layer / 1e9; math.Abs(m.ActivationsGB-want) > 1e-6 || m.Stage != "first" {
		t.Errorf("activations %.4f GB on the %s stage, want %.4f on the first", m.ActivationsGB, m.Stage, want)
	}
	embed := 128256.0 * 8192
	if want := ((70.6e9-2*embed)/4 + embed) / 8 * 2 / 1e9; math.Abs(m.WeightsGB-want) > 1e-6 {
		t.Errorf("weights %.4f GB, want %.4f", m.WeightsGB, want)
	}
	w.Recompute = true
	m = memoryUse(w, gpu, d, 32)
	if want := (20*4*1.15*2.0*8192*8192/8 + layer) / 1e9; math.Abs(m.ActivationsGB-want) > 1e-6 {
		t.Errorf("recomputed activations %.4f GB, want %.4f", m.ActivationsGB, want)
	}
}

// TestMemoryMoEExperts: Mixtral 8x7B (46.7B total, 12.9B active, 8
// experts, top-2) puts (46.7 - 12.9)/6 = 5.63B in each expert, 45.07B in
// all; with ep 8 each GPU holds one expert's share. Mutation caught:
// experts not sharded over ep (weights 8x larger).
func TestMemoryMoEExperts(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	w.Model, w.TP, w.PP, w.EP = "mixtral-8x7b", 1, 1, 8
	w, _, gpu, err := resolveWorkload(w, d)
	if err != nil {
		t.Fatal(err)
	}
	m := memoryUse(w, gpu, d, 64)
	experts := 8 * (46.7 - 12.9) / 6 * 1e9
	dense := 46.7e9 - experts // embeddings included
	if want := (dense + experts/8) * 2 / 1e9; math.Abs(m.WeightsGB-want) > 1e-6 {
		t.Errorf("weights %.3f GB, want %.3f", m.WeightsGB, want)
	}
}

func BenchmarkMemoryUse(b *testing.B) {
	d := testData(b)
	w, _, gpu, _ := resolveWorkload(NewWorkload(), d)
	for b.Loop() {
		memoryUse(w, gpu, d, 32)
	}
}
