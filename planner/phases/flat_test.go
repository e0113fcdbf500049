package phases

import (
	"fabricplan/planner"
	"math"
	"testing"

	"fabricplan/planner/hall"
)

// A scenario laid out in a data hall plans every phase in its own hall,
// priced as plan prices it: the final plan is Build's plan of the
// scenario (the plan's price for the plan's size, issue 45), each phase
// of growing as you go costs what Build gives for its size on the final
// plan's parts, and building for the final size spends exactly the
// final plan's cost. At odd sizes, both fabrics and three tiers (9,216
// DGX H100 GPUs on QM9700). Catches: phases priced with flat links (the
// final phase $82.40M where plan says $65.04M at 8,192 GPUs); a phase
// priced in another phase's hall; the final-size strategy giving every
// length line of a tier all of the tier's links (spend above the plan),
// or server-side optics counted per server rounded down (below it).
func TestPhasesInTheirOwnHall(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name   string
		gpus   int
		phases []int
		edit   func(s *planner.Scenario)
	}{
		{"ib 3 phases", 1000, []int{256, 520}, func(s *planner.Scenario) { s.Cluster.System = "dgx-h100" }},
		{"ethernet", 3000, []int{1000, 2000}, func(s *planner.Scenario) { s.Network.Fabric = planner.Ethernet }},
		{"three tiers", 9216, []int{2048, 6000}, func(s *planner.Scenario) { s.Cluster.System, s.Network.Switch = "dgx-h100", "qm9700" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := planner.NewScenario()
			s.Cluster.GPUs = tc.gpus
			for _, g := range tc.phases {
				s.Phases = append(s.Phases, planner.Phase{GPUs: g})
			}
			tc.edit(&s)
			s.Facility = &hall.Facility{RackKW: 60}
			got, err := PlanPhases(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := planner.Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got.Final.Hall == nil || got.Final.Cost.Total != plan.Cost.Total {
				t.Errorf("final phase $%.0f (hall %v), want the plan's $%.0f", got.Final.Cost.Total, got.Final.Hall != nil, plan.Cost.Total)
			}
			for _, p := range got.plans {
				if p.Hall == nil {
					t.Errorf("phase of %d GPUs not laid out in its hall", p.GPUs)
				}
				alone := p.Scenario.Clone()
				q, err := planner.Build(alone, cat)
				if err != nil {
					t.Fatal(err)
				}
				if q.Cost.Total != p.Cost.Total {
					t.Errorf("phase of %d GPUs costs $%.0f, Build of its scenario $%.0f", p.GPUs, p.Cost.Total, q.Cost.Total)
				}
			}
			fs := got.Strategy(StrategyFinal).Last()
			if math.Abs(fs.CostUSD-plan.Cost.Total) > 1e-6*plan.Cost.Total {
				t.Errorf("building for the final size spends $%.0f, want the plan's $%.0f", fs.CostUSD, plan.Cost.Total)
			}
		})
	}
}
