package planner

import (
	"strings"
	"testing"

	"fabricplan/planner/perf"
)

// A workload may name a variant of its system's GPU (data/jct.toml
// variant_of) and is then timed on it: an H800 in a DGX H100's place
// keeps the H100's tensor cores but has NVLink at 400 GB/s both ways
// (200 one way, NVIDIA H800 brief) against the H100's 900 (450), so the
// same Llama 3 70B job (tp 8 on NVLink) has the same compute and more
// exposed communication; any other GPU still gives way to the system's
// and, typed in the file, is refused naming workload.gpu and the
// variants there are. Mutations caught: the system's GPU forced over a
// variant (the H800 timed as an H100), any named GPU accepted in a
// system (a B200 timed inside a DGX H100).
func TestGPUVariantInSystem(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(1024)
	s.Cluster.System = "dgx-h100"
	step := map[string][2]float64{}
	for _, gpu := range []string{"h100", "h800", "b200"} {
		w := perf.NewWorkload()
		w.GPU = gpu
		s2 := s
		s2.Workload = &w
		p, err := Build(s2, cat)
		if err != nil {
			t.Fatalf("%s: %v", gpu, err)
		}
		step[gpu] = [2]float64{p.JCT.Planned.ComputeS, p.JCT.Planned.StepS}
		if want := map[string]string{"h100": "h100", "h800": "h800", "b200": "h100"}[gpu]; p.JCT.Workload.GPU != want {
			t.Errorf("workload gpu %s: timed on %s, want %s", gpu, p.JCT.Workload.GPU, want)
		}
	}
	if step["h800"][0] != step["h100"][0] || step["h800"][1] <= step["h100"][1] {
		t.Errorf("H800 compute %v step %v against H100 %v %v: want the same compute, a longer step",
			step["h800"][0], step["h800"][1], step["h100"][0], step["h100"][1])
	}
	defined := func(k string) bool { return k == "workload.gpu" }
	for _, c := range []struct {
		gpu     string
		refused bool
	}{{"h800", false}, {"h20", false}, {"h100-96gb", false}, {"a100-40gb", true}, {"b200", true}} {
		w := perf.NewWorkload()
		w.GPU = c.gpu
		s2 := s
		s2.Workload = &w
		errs := s2.ConflictsWithSystem(cat, defined)
		if got := len(errs) > 0; got != c.refused {
			t.Errorf("%s in dgx-h100: refused %v, want %v (%v)", c.gpu, got, c.refused, errs)
		} else if got && !strings.Contains(errs[0].Error(), "h100-96gb, h20, h800") {
			t.Errorf("%s: %v does not list the variants", c.gpu, errs[0])
		}
	}
}
