package phases

import (
	"testing"
	"time"

	"fabricplan/data"
	"fabricplan/internal/cputime"
	"fabricplan/planner"
)

// testCatalog loads the shipped catalog.
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

// cpuTime is the CPU time this process has used (internal/cputime).
func cpuTime() time.Duration { return cputime.Used() }
