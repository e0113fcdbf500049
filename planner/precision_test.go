package planner

import (
	"fabricplan/planner/perf"
	"strings"
	"testing"
)

// Each GPU offers the precisions it has tensor cores for; asking another
// is an error naming workload.precision and the ones it has. FP8 makes
// the step faster where the GPU has it. Mutations caught: FP8 accepted
// on A100, MXFP8 on Hopper, FP4 refused on Blackwell, FP8 no faster.
func TestPrecisionPerGPU(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct {
		gpu, precision string
		ok             bool
	}{
		{"a100", perf.PrecisionFP8, false},
		{"h100", perf.PrecisionFP8, true},
		{"h100", perf.PrecisionMXFP8, false},
		{"h200", perf.PrecisionFP4, false},
		{"b200", perf.PrecisionMXFP8, true},
		{"b300", perf.PrecisionFP4, true},
		{"gb300", perf.PrecisionFP4, true},
	} {
		s := NewScenario()
		s.Cluster.GPUs = 1024
		w := perf.NewWorkload()
		w.GPU = c.gpu
		s.Workload = &w
		base, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s bf16: %v", c.gpu, err)
		}
		w.Precision = c.precision
		p, err := Build(s, cat)
		if !c.ok {
			if err == nil || !strings.Contains(err.Error(), "workload.precision") {
				t.Errorf("%s %s: %v, want a workload.precision error", c.gpu, c.precision, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %s: %v", c.gpu, c.precision, err)
		}
		if p.JCT.Planned.ComputeS >= base.JCT.Planned.ComputeS {
			t.Errorf("%s %s: compute %.3f s, bf16 %.3f s", c.gpu, c.precision, p.JCT.Planned.ComputeS, base.JCT.Planned.ComputeS)
		}
	}
}
