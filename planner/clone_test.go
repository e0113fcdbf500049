package planner

import (
	"fabricplan/planner/perf"
	"testing"
)

// Editing a clone never reaches the original, and a plan keeps the inputs
// it was built from. Mutations caught: a shallow Clone (shared Prices map,
// shared Workload or overlap pointer) and Build keeping the caller's
// scenario by reference, which made pinned plans change after later edits.
func TestCloneIsDeep(t *testing.T) {
	overlap := 0.5
	s := NewScenario()
	s.Prices = map[string]float64{"qm9700": 20000}
	w := perf.NewWorkload()
	w.OverlapDP = &overlap
	s.Workload = &w

	c := s.Clone()
	c.Prices["qm9700"] = 1
	c.Prices["cx7-400"] = 2
	c.Workload.TP = 99
	*c.Workload.OverlapDP = 0.9
	if s.Prices["qm9700"] != 20000 || len(s.Prices) != 1 {
		t.Errorf("original prices changed: %v", s.Prices)
	}
	if s.Workload.TP == 99 || *s.Workload.OverlapDP != 0.5 {
		t.Errorf("original workload changed: tp %d, overlap %v", s.Workload.TP, *s.Workload.OverlapDP)
	}
	if !s.Equal(s.Clone()) {
		t.Error("a clone is not Equal to its original")
	}
	if s.Equal(c) {
		t.Error("an edited clone is still Equal")
	}
}

func TestEqualTreatsEmptyPricesAsNone(t *testing.T) {
	a, b := NewScenario(), NewScenario()
	b.Prices = map[string]float64{}
	if !a.Equal(b) {
		t.Error("empty price table differs from none")
	}
	b.Prices["qm9700"] = 1
	if a.Equal(b) {
		t.Error("an override is not a difference")
	}
}

func TestPlanKeepsItsOwnScenario(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Prices = map[string]float64{"qm9700": 20000}
	w := perf.NewWorkload()
	s.Workload = &w
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	s.Prices["qm9700"] = 1
	s.Workload.TP = 4
	if p.Scenario.Prices["qm9700"] != 20000 || p.Scenario.Workload.TP == 4 {
		t.Errorf("the plan's scenario follows later edits: prices %v, tp %d", p.Scenario.Prices, p.Scenario.Workload.TP)
	}
}
