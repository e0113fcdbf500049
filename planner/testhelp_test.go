package planner

import (
	"testing"

	"fabricplan/data"
)

func testCatalog(t testing.TB) *Catalog {
	t.Helper()
	cat, err := LoadCatalog(data.FS)
	if err != nil {
		t.Fatalf("load catalog: %v", err)
	}
	return cat
}

// ibScenario is an eight-GPU-server NDR scenario on QM9700 with gpus GPUs.
func ibScenario(gpus int) Scenario {
	s := NewScenario()
	s.Cluster.GPUs = gpus
	s.Network.Switch = "qm9700"
	return s
}
