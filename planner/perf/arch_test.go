package perf

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// archToy is a 4-layer toy model on one H100 for the hand counts below:
// hidden 64, 4 heads, sequences of 100 tokens, one a micro-batch, no
// tensor or context parallelism, in BF16.
func archToy(a *Architecture) Workload {
	return Workload{Model: "custom", GPU: "h100", ParamsB: 1, ActiveParamsB: 1, Layers: 4, Hidden: 64, Heads: 4, KVHeads: 4,
		SeqLen: 100, MicroBatch: 1, TP: 1, PP: 1, EP: 1, Architecture: a}
}

// archMoEToy is archToy with four experts of which two a token, one
// GPU holding all four, and one of its four layers dense.
func archMoEToy(a *Architecture) Workload {
	w := archToy(a)
	w.ParamsB, w.ActiveParamsB, w.Experts, w.TopK = 1, 0.5, 4, 2
	return w
}

// mlaToy is the latent attention of the tests: 4 heads of query-key
// 48 (16 of them rotary) and value 32, q_lora_rank 16, kv_lora_rank 8.
func mlaToy() Architecture {
	return Architecture{QKHeadDim: 48, VHeadDim: 32, QLoRARank: 16, KVLoRARank: 8, QKRopeHeadDim: 16}
}

// A layer's FLOPs come from the shapes the architecture gives, forward
// and backward (x3), on one GPU for one micro-batch of 100 tokens, by
// hand with h 64, s 100 (products 2·m·n·k):
//
//	attention by default: QKV 2·100·192·64 = 2,457,600, out 2·100·64·64
//	  = 819,200, scores 2·(2·100·100·64) = 2,560,000: 5,836,800
//	GELU 4h (the default, 256): 2·(2·100·256·64) = 6,553,600;
//	  (12,390,400) x3 = 37,171,200
//	GELU ffn 96: 2·(2·100·96·64) = 2,457,600; x3 = 24,883,200
//	SwiGLU ffn 96: gate and up 2·100·192·64 = 2,457,600, down
//	  2·100·64·96 = 1,228,800; (9,523,200) x3 = 28,569,600
//	head_dim 32, 2 KV heads: QKV 2·100·(128+64+64)·64 = 3,276,800, out
//	  2·100·64·128 = 1,638,400, scores 2·(2·100·100·128) = 5,120,000,
//	  MLP 6,553,600; (16,588,800) x3 = 49,766,400
//	MLA: q down 2·100·16·64 = 204,800, q up 2·100·192·16 = 614,400, kv
//	  down 2·100·(8+16)·64 = 307,200, kv up 2·100·(192-64+128)·8 =
//	  409,600, out 2·100·64·128 = 1,638,400, QK 2·100·100·192 =
//	  3,840,000, SV 2·100·128·100 = 2,560,000, MLP 6,553,600;
//	  (16,128,000) x3 = 48,384,000; at tp 2 every product halves, the
//	  down projections by counting them once over the two GPUs that run
//	  them whole: 24,192,000
//	MoE SwiGLU layer, experts 32 wide, top 2 of 4, one shared expert 48
//	  wide: attention 5,836,800, experts 50 tokens each, gate and up
//	  2·50·32·64·8 = 1,638,400, down 2·50·64·32·4 = 819,200, shared
//	  2·100·96·64 = 1,228,800 and 2·100·64·48 = 614,400; (10,137,600)
//	  x3 = 30,412,800; with one dense SwiGLU layer of ffn 96 of the four,
//	  (28,569,600 + 3 x 30,412,800)/4 = 29,952,000
//
// Mutations caught: SwiGLU counted with two matrices or GELU with
// three, ffn_hidden ignored (4h), head_dim ignored (hidden/heads), the
// KV heads' share dropped, MLA's low-rank products or rotary columns
// left out, its down projections counted per GPU, the shared expert
// dropped, every layer taken as MoE (dense_layers ignored).
func TestArchitectureLayerFLOPs(t *testing.T) {
	d := testData(t)
	mla := mlaToy()
	swiglu := func(a Architecture) *Architecture { a.MLP, a.FFNHidden = MLPSwiGLU, 96; return &a }
	for _, c := range []struct {
		name string
		w    Workload
		want float64
	}{
		{"default", archToy(nil), 37_171_200},
		{"empty architecture", archToy(&Architecture{}), 37_171_200},
		{"gelu ffn 96", archToy(&Architecture{MLP: MLPGELU, FFNHidden: 96}), 24_883_200},
		{"squared relu ffn 96", archToy(&Architecture{MLP: MLPSquaredReLU, FFNHidden: 96}), 24_883_200},
		{"swiglu ffn 96", archToy(swiglu(Architecture{})), 28_569_600},
		{"head_dim 32, 2 kv heads", func() Workload { w := archToy(&Architecture{HeadDim: 32}); w.KVHeads = 2; return w }(), 49_766_400},
		{"mla", archToy(&mla), 48_384_000},
		{"mla at tp 2", func() Workload { w := archToy(&mla); w.TP = 2; return w }(), 24_192_000},
		{"moe, shared expert, one dense layer", archMoEToy(swiglu(Architecture{ExpertFFNHidden: 32, SharedExperts: 1, SharedExpertFFNHidden: 48, DenseLayers: 1})), 29_952_000},
		{"moe, shared expert, all layers moe", archMoEToy(swiglu(Architecture{ExpertFFNHidden: 32, SharedExperts: 1, SharedExpertFFNHidden: 48})), 30_412_800},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := c.w
			if _, _, err := resolveInPlace(&w, d); err != nil {
				t.Fatal(err)
			}
			if got := layerCompute(&w, d.GPUs["h100"], d).flops; math.Abs(got/c.want-1) > 1e-12 {
				t.Errorf("layer FLOPs %.0f, want %.0f", got, c.want)
			}
		})
	}
}

// Architecture fields left out, or given as the values the model
// derived before, time a job to the bit as it was: the default job's
// layer with an empty architecture and with ffn_hidden 4h and a GELU
// MLP given, and its step. Mutations caught: a default that moves
// (another ffn, a SwiGLU default, head widths from heads), the step's
// FLOPs counted another way with no widths given.
func TestArchitectureAbsentUnchanged(t *testing.T) {
	d := testData(t)
	job := Job{Network: testNetwork(1024)}
	base := NewWorkload()
	j0, err := Estimate(job, base, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*Architecture{{}, {FFNHidden: 4 * 8192, MLP: MLPGELU}} {
		w := base
		w.Architecture = a
		j, err := Estimate(job, w, d, Parts{})
		if err != nil {
			t.Fatal(err)
		}
		r0, r := resolveOnce(base, d), resolveOnce(w, d)
		l0, l := layerCompute(&r0.w, r0.gpu, d), layerCompute(&r.w, r.gpu, d)
		if l.flops != l0.flops || l.seconds != l0.seconds {
			t.Errorf("%+v: layer %g FLOPs in %g s, want %g in %g", *a, l.flops, l.seconds, l0.flops, l0.seconds)
		}
		if math.Abs(j.Planned.StepS/j0.Planned.StepS-1) > 1e-12 {
			t.Errorf("%+v: step %g s, want %g", *a, j.Planned.StepS, j0.Planned.StepS)
		}
	}
}

// The step's FLOPs take the score products from the heads' widths:
// 6·s·(qk + v) per token and layer for 12·h·s. By hand, the MLA toy
// (qk 192, v 128, s 100, 4 layers) against the default (h 64): 4 x 6 x
// 100 x 320 = 768,000 per token against 4 x 12 x 64 x 100 = 307,200, on
// top of 6N. Mutations caught: head widths ignored in the step
// (12·L·h·s kept), the value width counted as the query's.
func TestArchitectureStepFLOPs(t *testing.T) {
	mla := mlaToy()
	for _, c := range []struct {
		name string
		w    Workload
		want float64
	}{
		{"default widths", archToy(&Architecture{}), 6 * 100 * 128},
		{"mla", archToy(&mla), 6 * 100 * 320},
	} {
		if got := c.w.attentionFLOPsPerToken(); got != c.want {
			t.Errorf("%s: %g score FLOPs per token and layer, want %g", c.name, got, c.want)
		}
	}
}

// Selective recomputation replays its modules' forward FLOPs, per
// token over the toy's four layers (one dense SwiGLU of ffn 96, three
// MoE of two 32-wide experts a token and a 48-wide shared one, MLA as
// mlaToy), by hand:
//
//	core_attn:      4 x 2·100·(192 + 128) = 256,000
//	mla_up_proj:    4 x 2·(16·192 + 8·(192 - 64 + 128)) = 40,960
//	mlp:            1 x 2·3·64·96 = 36,864
//	moe:            3 x 2·3·64·(2·32 + 48) = 129,024
//	shared_experts: 3 x 2·3·64·48 = 55,296
//	moe_act, layernorm: element-wise, 0
//
// Mutations caught: a module's FLOPs left out or counted on every
// layer (mlp on the MoE layers, moe on the dense one), the rotary
// columns counted in the kv up projection, the shared expert left out
// of moe.
func TestSelectiveRecomputeFLOPs(t *testing.T) {
	mla := mlaToy()
	for _, c := range []struct {
		modules []string
		want    float64
	}{
		{[]string{RecomputeCoreAttn}, 256_000},
		{[]string{RecomputeMLAUpProj}, 40_960},
		{[]string{RecomputeMLP}, 36_864},
		{[]string{RecomputeMoE}, 129_024},
		{[]string{RecomputeSharedExperts}, 55_296},
		{[]string{RecomputeMoEAct, RecomputeLayerNorm}, 0},
		{[]string{RecomputeCoreAttn, RecomputeMLP, RecomputeMoE}, 256_000 + 36_864 + 129_024},
	} {
		a := mla
		a.MLP, a.FFNHidden, a.ExpertFFNHidden, a.SharedExperts, a.SharedExpertFFNHidden, a.DenseLayers = MLPSwiGLU, 96, 32, 1, 48, 1
		a.RecomputeModules = c.modules
		w := archMoEToy(&a)
		if got := w.recomputedFLOPsPerToken(); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%v: %g FLOPs per token, want %g", c.modules, got, c.want)
		}
	}
}

// Selective recomputation adds its FLOPs to the step's compute: the
// default job recomputing its core attention (80 layers x 2·8,192·
// (8,192 + 8,192) per token) against 6N + 12·L·h·s = 6 x 70.6e9 + 12 x
// 80 x 8,192 x 8,192 per token. Mutation caught: the modules parsed but
// not charged.
func TestSelectiveRecomputeStep(t *testing.T) {
	d := testData(t)
	job := Job{Network: testNetwork(1024)}
	base := NewWorkload()
	sel := base
	sel.Architecture = &Architecture{RecomputeModules: []string{RecomputeCoreAttn}}
	j0, err := Estimate(job, base, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := Estimate(job, sel, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	h, s, layers := 8192.0, 8192.0, 80.0
	model := 6*j0.Workload.ActiveParamsB*1e9 + 12*layers*h*s
	want := 1 + layers*2*s*(h+h)/model
	if got := j.Planned.ComputeS / j0.Planned.ComputeS; math.Abs(got-want) > 1e-9 {
		t.Errorf("compute x%.6f with core_attn recomputed, want x%.6f", got, want)
	}
}

// Each architecture field is checked with an error on its own field.
// Mutations caught: a check left out (the case passes).
func TestArchitectureChecks(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name  string
		a     Architecture
		moe   bool
		field string
	}{
		{"negative ffn", Architecture{FFNHidden: -1}, false, "workload.ffn_hidden"},
		{"huge head_dim", Architecture{HeadDim: maxArchDim + 1}, false, "workload.head_dim"},
		{"unknown mlp", Architecture{MLP: "relu"}, false, "workload.mlp"},
		{"dense layers on a dense model", Architecture{DenseLayers: 1}, false, "workload.dense_layers"},
		{"every layer dense", Architecture{DenseLayers: 4}, true, "workload.dense_layers"},
		{"q_lora_rank alone", Architecture{QLoRARank: 16}, false, "workload.kv_lora_rank"},
		{"rope as wide as the head", Architecture{KVLoRARank: 8, QKHeadDim: 16, QKRopeHeadDim: 16}, false, "workload.qk_rope_head_dim"},
		{"unknown module", Architecture{RecomputeModules: []string{"attn"}}, false, "workload.recompute_modules"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := c.a
			w := archToy(&a)
			if c.moe {
				w = archMoEToy(&a)
			}
			_, _, err := resolveInPlace(&w, d)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Errorf("error %v, want one on %s", err, c.field)
			}
		})
	}
	w := archToy(&Architecture{RecomputeModules: []string{RecomputeCoreAttn}})
	w.Recompute = true
	if _, _, err := resolveInPlace(&w, d); err == nil {
		t.Error("selective and full recomputation together accepted")
	}
}

// Memory takes the MLP's width and kind: a dense SwiGLU MLP of ffn 96
// keeps its gate and up outputs, 2 x 96/(4 x 64) = 0.75 of a GELU 4h
// one; the MoE toy's layer 2 x (2 x 32 + 48)/256 = 0.875; the default
// 1, and an expert with no kind given its one width, (2 x 32)/256 =
// 0.25. Mutations caught: the ffn width or the gate ignored, the shared
// expert left out.
func TestMLPActivationScale(t *testing.T) {
	for _, c := range []struct {
		name string
		w    Workload
		f    float64
		want float64
	}{
		{"default", archToy(nil), 0, 1},
		{"swiglu ffn 96", archToy(&Architecture{MLP: MLPSwiGLU, FFNHidden: 96}), 0, 0.75},
		{"moe swiglu", archMoEToy(&Architecture{MLP: MLPSwiGLU, SharedExperts: 1, SharedExpertFFNHidden: 48}), 32, 0.875},
		{"moe no kind", archMoEToy(nil), 32, 0.25},
	} {
		if got := c.w.mlpActivationScale(c.f); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: scale %g, want %g", c.name, got, c.want)
		}
	}
}

// A job over memory that recomputes by modules is offered full
// recomputation in their place: the change says so, the changed
// workload passes the checks (the two together are refused), and the
// workload given keeps its modules. Llama 3 70B at tp 1, pp 1 on 64
// GPUs needs some 600 GB a GPU. Mutations caught: the modules kept
// beside recompute = true (the checks refuse the fix), the shared
// architecture changed in place, the label silent on the modules.
func TestMemoryFixReplacesModules(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	w.TP, w.PP = 1, 1
	w.Architecture = &Architecture{RecomputeModules: []string{RecomputeCoreAttn}}
	j, err := Estimate(Job{Network: testNetwork(64)}, w, d, Parts{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	if j.Fix == nil || !strings.Contains(j.Fix.Change, "recompute = true and no recompute_modules") {
		t.Fatalf("fix %+v, want full recomputation in place of the modules", j.Fix)
	}
	fixed := j.Fix.JCT.Workload
	if err := checkArchitecture(&fixed); err != nil || fixed.selective() {
		t.Errorf("the fix's workload: %v, modules %v", err, fixed.Architecture.RecomputeModules)
	}
	if len(w.Architecture.RecomputeModules) != 1 {
		t.Errorf("the workload given lost its modules: %v", w.Architecture.RecomputeModules)
	}
}
