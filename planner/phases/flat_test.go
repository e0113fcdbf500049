package phases

import (
	"fabricplan/planner"
	"reflect"
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// A scenario laid out in a data hall plans its phases with flat links:
// every phase of both strategies costs what the same scenario without a
// [facility] table costs (each tier's links at 20, 50 or 150 m), no
// phase's fabric is laid out, and a note says so. At odd sizes, both
// fabrics and three tiers (9,216 DGX H100 GPUs on QM9700). Catches: a
// hall walked for every phase (slow at 100k GPUs), the final phase
// priced by the hall while the others are flat (a strategy's last step
// then buys and retires every cable), the note missing.
func TestPhasesFlatInHall(t *testing.T) {
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
			flat := planner.NewScenario()
			flat.Cluster.GPUs = tc.gpus
			for _, g := range tc.phases {
				flat.Phases = append(flat.Phases, planner.Phase{GPUs: g})
			}
			tc.edit(&flat)
			laid := flat.Clone()
			laid.Facility = &hall.Facility{RackKW: 60}
			want, err := PlanPhases(flat, cat)
			if err != nil {
				t.Fatal(err)
			}
			got, err := PlanPhases(laid, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got.Final.Hall != nil {
				t.Error("the phases' final plan was laid out in the hall")
			}
			for _, p := range got.plans {
				if p.Hall != nil {
					t.Errorf("phase of %d GPUs laid out in the hall", p.GPUs)
				}
			}
			if !reflect.DeepEqual(got.Strategies, want.Strategies) {
				t.Errorf("strategies in a hall differ from flat links:\n%+v\nwant\n%+v", got.Strategies, want.Strategies)
			}
			if n := got.Notes; len(n) == 0 || !strings.Contains(strings.Join(n, " "), "one length") {
				t.Errorf("notes %q lack the flat-links note", n)
			}
		})
	}
}
