package validation

import (
	"fmt"
	"strings"
)

// runStacks maps the training stack a run's source names (its framework
// field, matched by the first of these substrings it contains) to the
// JCT model's stack (data/jct.toml [frameworks]). Order matters: the
// more specific names come first (NeMo AutoModel before NeMo, FSDP2
// before FSDP, Megatron-DeepSpeed and Megatron-Core before Megatron-LM).
var runStacks = []struct{ published, stack string }{
	{"NeMo AutoModel", "automodel"},
	{"Megatron-DeepSpeed", "deepspeed"},
	{"DeepSpeed", "deepspeed"},
	{"Composer", "composer"},
	{"torchtitan", "torchtitan"},
	{"FSDP2", "fsdp2"},
	{"PyTorch FSDP", "fsdp"},
	{"Megatron-Core", "megatron-te"},
	{"Megatron-Bridge", "megatron-te"},
	{"Megatron-LM backend", "megatron-te"}, // AMD Primus runs Megatron-Core's schedules
	{"NeMo", "megatron-te"},
	{"Megatron-LM", "megatron-legacy"}, // Megatron-LM without Megatron-Core: 2021-22
}

// runStack is the model's stack for a run's published framework, or ""
// where none matches (the field then stays listed as not modelled).
func runStack(published string) string {
	for _, s := range runStacks {
		if strings.Contains(published, s.published) {
			return s.stack
		}
	}
	return ""
}

// runGPUVariants maps a run's GPU and its memory (gpu_memory_gb) to the
// JCT model's GPU entry where a part comes in more than one memory size.
var runGPUVariants = map[string]map[int]string{
	"a100": {40: "a100-40gb", 80: "a100"},
	"h100": {80: "h100", 96: "h100-96gb"},
}

// writeRunStack writes the run's gpu and framework into its [workload]
// and returns what it assumed in mapping them.
func writeRunStack(b *strings.Builder, f *runFields) (assumed []string) {
	gpu := f.str("gpu")
	if f.has("gpu_memory_gb") {
		if v, ok := runGPUVariants[gpu][f.integer("gpu_memory_gb")]; ok {
			gpu = v
		} else {
			f.used["gpu_memory_gb"] = false // the model has no entry of that size: stays listed
		}
	}
	fmt.Fprintf(b, "gpu = %q\n", gpu)
	if !f.has("framework") {
		return nil
	}
	pub := f.str("framework")
	stack := runStack(pub)
	if stack == "" {
		f.used["framework"] = false
		return nil
	}
	assumed = []string{fmt.Sprintf("framework %q read as the model's stack %q", pub, stack)}
	if eager, ok := eagerStacks[stack]; ok {
		if compiled, isBool := f.m["torch_compile"].(bool); isBool && !compiled {
			f.used["torch_compile"] = true
			assumed = append(assumed, fmt.Sprintf("torch_compile = false: stack %q, its element-wise ops eager", eager))
			stack = eager
		}
	}
	fmt.Fprintf(b, "framework = %q\n", stack)
	return assumed
}

// eagerStacks are the model's stacks for runs that record torch_compile
// = false, by the stack their framework maps to: the same overlaps, with
// eager element-wise kernels (data/jct.toml [kernels.eager]).
var eagerStacks = map[string]string{"torchtitan": "torchtitan-eager"}
