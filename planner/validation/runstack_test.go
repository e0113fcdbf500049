package validation

import (
	"strings"
	"testing"
)

// A run's published framework maps to the model's stack by the names the
// sources use (data/runs/runs-dev.toml's framework fields, and names a
// later run may give); a 2021-22 Megatron-LM is the legacy stack, never
// Megatron-Core's, and a name the model has no stack for maps to none.
// Mutations caught: NeMo AutoModel read as NeMo (Megatron-Core's TP
// overlap on an FSDP2 run), Megatron-DeepSpeed as Megatron-LM, FSDP2 as
// FSDP, Megatron-Core as legacy Megatron-LM.
func TestRunStack(t *testing.T) {
	for _, c := range []struct{ published, want string }{
		{"NeMo AutoModel (PyTorch FSDP2, Transformer Engine)", "automodel"},
		{"Megatron-DeepSpeed (BigScience fork)", "deepspeed"},
		{"NeMo", "megatron-te"},
		{"NeMo Megatron-Bridge", "megatron-te"},
		{"Megatron-LM (Megatron-Core)", "megatron-te"},
		{"Megatron-LM", "megatron-legacy"},
		{"IBM foundation-model-stack fms-fsdp (PyTorch FSDP, SDPA flash attention v2)", "fsdp"},
		{"PyTorch FSDP2", "fsdp2"},
		{"MosaicML Composer + llm-foundry (PyTorch FSDP)", "composer"},
		{"torchtitan (FSDP2)", "torchtitan"},
		{"AMD Primus (Megatron-LM backend), Primus-Turbo, DeepEP", "megatron-te"},
		{"JAX MaxText", ""},
	} {
		if got := runStack(c.published); got != c.want {
			t.Errorf("%q: stack %q, want %q", c.published, got, c.want)
		}
	}
}

// A run's GPU memory picks the GPU variant: an A100 40GB run is timed on
// the 40 GB part (1,555 GB/s, NVIDIA A100 datasheet), an 80 GB one on the
// A100 entry; a size the model has no entry for stays listed as not
// modelled. Mutation caught: gpu_memory_gb ignored (every A100 the 80 GB
// part, as before the variants).
func TestRunGPUVariant(t *testing.T) {
	for _, c := range []struct {
		gpu    string
		memGB  float64
		want   string
		listed bool // gpu_memory_gb left not modelled
	}{
		{"a100", 40, `gpu = "a100-40gb"`, false},
		{"a100", 80, `gpu = "a100"`, false},
		{"h100", 96, `gpu = "h100-96gb"`, false},
		{"h200", 141, `gpu = "h200"`, true},
	} {
		f := &runFields{m: map[string]any{"gpu": c.gpu, "gpu_memory_gb": c.memGB}, used: map[string]bool{}}
		var b strings.Builder
		writeRunStack(&b, f)
		if !strings.Contains(b.String(), c.want) || (len(f.unused()) > 0) != c.listed {
			t.Errorf("%s %v GB: wrote %q, unused %v; want %s, listed %v", c.gpu, c.memGB, b.String(), f.unused(), c.want, c.listed)
		}
	}
}

// A torchtitan run that records torch_compile = false runs on the eager
// stack (the same overlaps, eager element-wise kernels) and says so; a
// compiled one, or one that does not say, stays on torchtitan, and the
// flag means nothing to a stack with no eager twin (it stays listed).
// Mutations caught: the flag ignored, read as "compiled", or taken for
// Megatron-Core's stack.
func TestRunEagerStack(t *testing.T) {
	for _, c := range []struct {
		name      string
		framework string
		compile   any // nil: not recorded
		want      string
		listed    bool // torch_compile left not modelled
	}{
		{"torchtitan eager", "torchtitan (FSDP2)", false, `framework = "torchtitan-eager"`, false},
		{"torchtitan compiled", "torchtitan (FSDP2)", true, `framework = "torchtitan"`, true},
		{"torchtitan unsaid", "torchtitan (FSDP2)", nil, `framework = "torchtitan"`, false},
		{"megatron eager", "NeMo", false, `framework = "megatron-te"`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := map[string]any{"gpu": "h100", "framework": c.framework}
			if c.compile != nil {
				m["torch_compile"] = c.compile
			}
			f := &runFields{m: m, used: map[string]bool{}}
			var b strings.Builder
			assumed := writeRunStack(&b, f)
			if !strings.Contains(b.String(), c.want+"\n") {
				t.Errorf("wrote %q, want %s", b.String(), c.want)
			}
			if listed := len(f.unused()) > 0; listed != c.listed {
				t.Errorf("unused %v, want torch_compile listed %t", f.unused(), c.listed)
			}
			if eager := strings.Contains(strings.Join(assumed, "; "), "torch_compile"); eager != strings.Contains(c.want, "eager") {
				t.Errorf("assumed %q", assumed)
			}
		})
	}
}
