package perf

import (
	"errors"
	"math"
	"testing"

	"fabricplan/internal/fielderr"
)

// A named training stack fills the overlaps the workload leaves unset
// from its own entry, never [overlap]'s one default for all: 2021-22
// Megatron-LM overlapped no tensor-parallel traffic (Narayanan et al.
// SC21, section 2.3: the all-reduces sit between the layer's GEMMs), so
// it must come out 0 where Megatron-Core with Transformer Engine's
// --tp-comm-overlap keeps [overlap]'s 0.5; PyTorch FSDP runs no tensor
// parallelism of its own; an overlap the workload sets wins over its
// stack's; context parallelism always takes [overlap] cp. Mutations
// caught: the stack ignored (overlap_tp 0.5 for every run), the stack
// overriding a typed overlap, the stack's dp taken for tp.
func TestFrameworkOverlaps(t *testing.T) {
	d := testData(t)
	typed := 0.3
	for _, c := range []struct {
		name      string
		framework string
		typedTP   *float64
		tp, dp    float64
	}{
		{"no stack: [overlap]", "", nil, d.Overlap.TP, d.Overlap.DP},
		{"megatron-te overlaps TP", "megatron-te", nil, 0.5, 0.8},
		{"megatron-legacy overlaps nothing", "megatron-legacy", nil, 0, 0},
		{"deepspeed: ZeRO overlap_comm, no TP overlap", "deepspeed", nil, 0, 0.8},
		{"fsdp", "fsdp", nil, 0, 0.8},
		{"torchtitan: async TP off by default", "torchtitan", nil, 0, 0.8},
		{"a typed overlap wins", "megatron-legacy", &typed, 0.3, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := NewWorkload()
			w.Framework, w.OverlapTP = c.framework, c.typedTP
			r, _, _, err := resolveWorkload(w, d)
			if err != nil {
				t.Fatal(err)
			}
			if *r.OverlapTP != c.tp || *r.OverlapDP != c.dp || *r.OverlapCP != d.Overlap.CP {
				t.Errorf("overlap tp %v dp %v cp %v, want %v %v %v", *r.OverlapTP, *r.OverlapDP, *r.OverlapCP, c.tp, c.dp, d.Overlap.CP)
			}
		})
	}
}

// A stack's kernel class replaces the GPU's element-wise bytes: on an
// A100 (no figure of its own, so [compute]'s 650 bytes of 2021
// Megatron-LM's kernels) a fused-kernel stack moves 150. By hand, one
// layer of hidden 4,096, sequence 1,024, tp 1, micro-batch 1 on the
// A100's 2.039 TB/s: (650 - 150) x 1,024 x 4,096 / 2.039e12 = 1.0285 ms
// less. Mutation caught: the class ignored (the GPU's bytes kept).
func TestFrameworkKernelClass(t *testing.T) {
	d := testData(t)
	gpu := d.GPUs["a100"]
	w := Workload{ParamsB: 1, ActiveParamsB: 1, Layers: 1, Hidden: 4096, SeqLen: 1024, MicroBatch: 1, TP: 1}
	base := layerCompute(&w, gpu, d).seconds
	w.Framework = "fsdp"
	fused := layerCompute(&w, gpu, d).seconds
	want := (650.0 - 150) * 1024 * 4096 / 2.039e12
	if got := base - fused; math.Abs(got-want) > 1e-9 {
		t.Errorf("fused kernels save %.6g s a layer, want %.6g", got, want)
	}
}

// An unknown stack is refused naming workload.framework and the stacks
// there are. Mutation caught: an unknown key timed as no stack.
func TestFrameworkUnknown(t *testing.T) {
	w := NewWorkload()
	w.Framework = "jax"
	_, _, _, err := resolveWorkload(w, testData(t))
	var fe *fielderr.FieldError
	if !errors.As(err, &fe) || fe.Field != "workload.framework" {
		t.Fatalf("err %v, want one on workload.framework", err)
	}
}

// The GPU variants carry their datasheets' figures (typed here from the
// sources their entries cite, not read from the table): A100 40GB SXM
// (NVIDIA A100 datasheet: 312 TFLOPS BF16, 40 GB at 1,555 GB/s, 400 W),
// H800 SXM (H100's tensor cores, NVLink 400 GB/s both ways), H20 (148
// TFLOPS BF16, 296 FP8, 96 GB at 4.0 TB/s, 400 W), the 96 GB H100 at a
// 500 W cap ([estimate]: 0.9 of H100 SXM's 989 TFLOPS; 96 GB HBM2e at
// 2.4 TB/s, pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md),
// and GB300 with
// its own FP4 (1,080 PFLOPS dense per 72 GPUs = 15 each) above GB200's
// 10. Mutation caught: a variant left equal to its base part.
func TestGPUVariants(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		key                          string
		bf16, fp8, fp4, hbmGB, hbmTB float64
		nvlinkGBs, powerW            float64
	}{
		{"a100-40gb", 312, 0, 0, 40, 1.555, 300, 400},
		{"h800", 989, 1979, 0, 80, 3.35, 200, 700},
		{"h20", 148, 296, 0, 96, 4.0, 450, 400},
		{"h100-96gb", 890, 1780, 0, 96, 2.4, 450, 500},
		{"gb300", 2500, 5000, 15000, 288, 8, 900, 0},
	} {
		g := d.GPUs[c.key]
		if g == nil {
			t.Errorf("%s: no entry", c.key)
			continue
		}
		got := [7]float64{g.PeakTFLOPS, g.FP8TFLOPS, g.FP4TFLOPS, g.HBMGB, g.HBMTBs, g.NVLinkGBs, g.PowerW}
		want := [7]float64{c.bf16, c.fp8, c.fp4, c.hbmGB, c.hbmTB, c.nvlinkGBs, c.powerW}
		if got != want {
			t.Errorf("%s: bf16, fp8, fp4, hbm GB, TB/s, NVLink, W = %v, want %v", c.key, got, want)
		}
	}
	if d.GPUs["gb300"].FP4TFLOPS <= d.GPUs["gb200"].FP4TFLOPS {
		t.Error("gb300 FP4 no higher than gb200's: treated as GB200/B200")
	}
}

// The breakdown names where each overlap the workload did not set came
// from (issue 47: every derived default shown with its origin): its
// stack's entry, [overlap]'s default without a stack (and for context
// parallelism always), and nothing for one the workload typed.
// Mutations caught: the origin shown for a typed overlap, a stack's
// overlap credited to [overlap].
func TestOverlapOrigin(t *testing.T) {
	d := testData(t)
	typed := 0.25
	for _, c := range []struct {
		name, framework, class, want string
		typedTP                      bool
	}{
		{"no stack", "", ClassTP, " (overlap 0.5 from data/jct.toml [overlap])", false},
		{"legacy stack", "megatron-legacy", ClassTP, " (overlap 0 from stack megatron-legacy)", false},
		{"stack's dp", "fsdp", ClassDP, " (overlap 0.8 from stack fsdp)", false},
		{"cp from [overlap] under a stack", "fsdp", ClassCP, " (overlap 0.5 from data/jct.toml [overlap])", false},
		{"typed", "megatron-legacy", ClassTP, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := NewWorkload()
			w.Framework = c.framework
			if c.typedTP {
				w.OverlapTP = &typed
			}
			r, _, _, err := resolveWorkload(w, d)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.overlapOrigin(c.class); got != c.want {
				t.Errorf("origin %q, want %q", got, c.want)
			}
		})
	}
}

// A variant must name a base GPU of its own NVLink domain: an 8-GPU H800
// cannot stand for a 72-GPU GB200 rack, nor a variant for another
// variant. Mutation caught: variant_of not checked.
func TestCheckVariant(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		base string
		ok   bool
	}{{"h100", true}, {"gb200", false}, {"h800", false}, {"nope", false}} {
		g := *d.GPUs["h800"]
		g.VariantOf = c.base
		if err := d.checkVariant(&g); (err == nil) != c.ok {
			t.Errorf("variant_of %q: %v, want ok %v", c.base, err, c.ok)
		}
	}
}
