package perf

import (
	"strings"
	"testing"
)

// A GPU whose efficiency_max no published training run checks says so
// in the estimate's findings (issue #47, buyer finding 12: an MI300X
// planned 20% faster than an H100 on the H100's copied efficiency, with
// no marker). The AMD parts' entries say their efficiency is "as H100
// [estimate]" (data/jct.toml [gpus.mi300x], mi325x, mi355x sources) and
// the published runs hold no dense one on them; the H100 and B200 are
// checked by published runs (docs/jct-validation.md). A workload that
// gives its own compute_efficiency does not use efficiency_max: no
// finding. Mutations caught: the finding left out, kept with
// compute_efficiency set, or shown for a checked GPU; an AMD entry (other
// silicon than the H100 it copies; the H200 and GB200, NVIDIA parts of
// the measured generations, are checked by published runs) copying the
// H100's efficiency without the field.
func TestUnvalidatedEfficiencyFinding(t *testing.T) {
	d := testData(t)
	job, _ := everyEffectJob(d)
	for _, c := range []struct {
		gpu    string
		own    float64
		marked bool
	}{
		{"mi300x", 0, true},
		{"mi325x", 0, true},
		{"mi355x", 0, true},
		{"mi300x", 0.41, false},
		{"h100", 0, false},
		{"b200", 0, false},
	} {
		w := NewWorkload()
		w.GPU, w.ComputeEfficiency = c.gpu, c.own
		j, err := Estimate(job, w, d, Parts{Detail: true})
		if err != nil {
			t.Fatalf("%s: %v", c.gpu, err)
		}
		got := false
		for _, f := range j.Findings {
			got = got || strings.Contains(f, "unvalidated")
		}
		if got != c.marked {
			t.Errorf("%s, compute_efficiency %g: unvalidated finding %v, want %v (findings %q)", c.gpu, c.own, got, c.marked, j.Findings)
		}
	}
	for k, g := range d.GPUs {
		if strings.HasPrefix(g.Name, "AMD ") && strings.Contains(g.Source, "efficiency as H100 [estimate]") && g.EfficiencyUnvalidated == "" {
			t.Errorf("gpus.%s copies the H100's efficiency without efficiency_unvalidated", k)
		}
	}
}
