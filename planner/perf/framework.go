package perf

import "fmt"

// FrameworkSpec is one training stack (data/jct.toml [frameworks]): what
// it overlaps with compute by default and the class of kernels it runs.
// A workload that names it takes these overlaps where it sets none of
// its own, and the class's element-wise bytes in place of the GPU's.
type FrameworkSpec struct {
	Key  string `toml:"-"`
	Name string `toml:"name"`
	// OverlapDP, OverlapPP, OverlapTP and OverlapEP are the fractions of
	// the data-parallel, pipeline, tensor-parallel and expert-parallel
	// traffic the stack hides behind compute, 0 to 1.
	OverlapDP float64 `toml:"overlap_dp"`
	OverlapPP float64 `toml:"overlap_pp"`
	OverlapTP float64 `toml:"overlap_tp"`
	OverlapEP float64 `toml:"overlap_ep"`
	// Kernels names the stack's kernel class ([kernels]).
	Kernels string `toml:"kernels"`
	// ExpertGEMM is how the stack runs a GPU's expert products:
	// ExpertGEMMGrouped ("" too), one grouped kernel whose efficiency
	// falls with the tokens each expert gets ([moe] grouped_gemm_*), or
	// ExpertGEMMPerExpert, one dense GEMM per expert.
	ExpertGEMM string `toml:"expert_gemm"`
	Source     string `toml:"source"`
}

// How a stack runs a GPU's expert products (FrameworkSpec.ExpertGEMM).
const (
	ExpertGEMMGrouped   = "grouped"
	ExpertGEMMPerExpert = "per_expert"
)

// KernelClass is a class of kernels a stack runs (data/jct.toml
// [kernels]): the bytes its element-wise work moves per element of
// s·b·h/tp per layer, forward and backward ([compute] elementwise_bytes).
type KernelClass struct {
	Key              string  `toml:"-"`
	Name             string  `toml:"name"`
	ElementwiseBytes float64 `toml:"elementwise_bytes"`
	Source           string  `toml:"source"`
}

// checkFrameworks keys the [frameworks] and [kernels] entries and checks
// that every overlap is a fraction and every stack names a kernel class.
func (d *JCTData) checkFrameworks() error {
	for k, c := range d.Kernels {
		c.Key = k
		if c.ElementwiseBytes <= 0 || c.Source == "" {
			return fmt.Errorf("jct data: kernels %s: needs elementwise_bytes above 0 and a source", k)
		}
	}
	for k, f := range d.Frameworks {
		f.Key = k
		for _, v := range []float64{f.OverlapDP, f.OverlapPP, f.OverlapTP, f.OverlapEP} {
			if !inRange(v, 0, 1) {
				return fmt.Errorf("jct data: framework %s: overlaps must be 0 to 1", k)
			}
		}
		if d.Kernels[f.Kernels] == nil || f.Source == "" {
			return fmt.Errorf("jct data: framework %s: kernels %q is not in [kernels], or no source", k, f.Kernels)
		}
		if f.ExpertGEMM != "" && f.ExpertGEMM != ExpertGEMMGrouped && f.ExpertGEMM != ExpertGEMMPerExpert {
			return fmt.Errorf("jct data: framework %s: expert_gemm %q, want %q or %q", k, f.ExpertGEMM, ExpertGEMMGrouped, ExpertGEMMPerExpert)
		}
	}
	return nil
}

// framework is w's training stack, or nil where it names none (or one
// resolveInPlace has refused).
func (d *JCTData) framework(w *Workload) *FrameworkSpec {
	if w.Framework == "" {
		return nil
	}
	return d.Frameworks[w.Framework]
}

// overlapClasses are the traffic classes in fillOverlaps' order (the
// bits of Workload.defaulted).
var overlapClasses = [5]string{ClassDP, ClassPP, ClassTP, ClassEP, ClassCP}

// overlapOrigin is, for a traffic class whose overlap w did not set,
// where the overlap came from, as the breakdown shows it: its stack's
// entry, or [overlap]'s default; "" where w set it.
func (w *Workload) overlapOrigin(class string) string {
	for i, c := range overlapClasses {
		if c != class || w.defaulted&(1<<i) == 0 {
			continue
		}
		v := [5]*float64{w.OverlapDP, w.OverlapPP, w.OverlapTP, w.OverlapEP, w.OverlapCP}[i]
		from := "data/jct.toml [overlap]"
		if w.Framework != "" && class != ClassCP {
			from = "stack " + w.Framework
		}
		return fmt.Sprintf(" (overlap %g from %s)", *v, from)
	}
	return ""
}

// groupedExperts says whether w's expert products run as one grouped
// kernel on the [moe] efficiency curve: on a GPU of two experts or more,
// where its stack does not run one GEMM per expert.
func (d *JCTData) groupedExperts(w *Workload) bool {
	if w.Experts <= max(w.EP, 1) {
		return false // one expert: one dense GEMM per product
	}
	f := d.framework(w)
	return f == nil || f.ExpertGEMM != ExpertGEMMPerExpert
}

// elementwiseBytes is the bytes w's element-wise work moves per element
// on gpu: its stack's kernel class where it names one, else the GPU's
// own figure, else [compute]'s.
func (d *JCTData) elementwiseBytes(w *Workload, gpu *GPUSpec) float64 {
	if f := d.framework(w); f != nil {
		return d.Kernels[f.Kernels].ElementwiseBytes
	}
	if gpu.ElementwiseBytes > 0 {
		return gpu.ElementwiseBytes
	}
	return d.Compute.ElementwiseBytes
}
