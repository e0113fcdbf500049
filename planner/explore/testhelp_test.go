package explore

import (
	"testing"
	"time"

	"fabricplan/internal/cputime"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
)

func testCatalog(t testing.TB) *planner.Catalog {
	t.Helper()
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatalf("load catalog: %v", err)
	}
	return cat
}

// ibScenario is an eight-GPU-server NDR scenario on QM9700 with gpus GPUs.
func ibScenario(gpus int) planner.Scenario {
	s := planner.NewScenario()
	s.Cluster.GPUs = gpus
	s.Network.Switch = "qm9700"
	return s
}

// flatLengths lays no hall out: each tier's links at one length (20/50/150
// m), for tests whose hand calculations or published tables count the
// flat per-tier lengths and media (a hall mixes media by run length).
func flatLengths(s planner.Scenario) planner.Scenario {
	s.Facility = &hall.Facility{Layout: hall.LayoutFlat}
	return s
}

// flatIB is ibScenario at the flat per-tier lengths (see flatLengths).
func flatIB(gpus int) planner.Scenario { return flatLengths(ibScenario(gpus)) }

// dpJob is a data-parallel job of Llama 3 8B over TP 8 whose gradient
// all-reduce overlaps nothing (planner's effects tests use the same).
func dpJob() perf.Workload {
	w := perf.NewWorkload()
	w.Model, w.TP, w.PP, w.VPP = "llama3-8b", 8, 1, 1
	w.GlobalBatchTokens = 4 << 20
	none := 0.0
	w.OverlapDP = &none
	return w
}

// dpClass is the data-parallel traffic class of a step.
func dpClass(t *testing.T, st perf.StepTime) perf.TrafficClass {
	t.Helper()
	for _, c := range st.Classes {
		if c.Name == perf.ClassDP {
			return c
		}
	}
	t.Fatal("no data-parallel class")
	return perf.TrafficClass{}
}

// cpuTime is the CPU time this process has used (internal/cputime).
func cpuTime() time.Duration { return cputime.Used() }

// reportCPU adds the CPU time per op (all goroutines, user and system)
// since start: on a shared machine wall time also counts the waits for a
// core, and CPU time says what the work costs.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}
