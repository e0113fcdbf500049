package planner

import (
	"testing"

	"fabricplan/data"
	"fabricplan/planner/hall"
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

// flatLengths lays no hall out: each tier's links at one length (20/50/150
// m), for tests whose hand calculations or published tables count the
// flat per-tier lengths and media (a hall mixes media by run length).
func flatLengths(s Scenario) Scenario {
	s.Facility = &hall.Facility{Layout: hall.LayoutFlat}
	return s
}

// flatIB is ibScenario at the flat per-tier lengths (see flatLengths).
func flatIB(gpus int) Scenario { return flatLengths(ibScenario(gpus)) }

// scenarioFile is the shipped scenario data/scenarios/name.toml.
func scenarioFile(t testing.TB, name string) Scenario {
	t.Helper()
	src, err := data.FS.ReadFile("scenarios/" + name + ".toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScenarioFromData(src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// withStorage is s with nodes storage nodes of ports back-end ports each
// on the compute leaves.
func withStorage(s Scenario, nodes, ports int) Scenario {
	s.Network.StorageNodes, s.Network.StorageNodePorts = nodes, ports
	return s
}
