package planner

import (
	"fmt"
	"testing"
)

func TestTryPhases(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.System = "dgx-h100"
	s.Network.Switch = "qm9700"
	s.Phases = []Phase{{Units: 1}, {Units: 4}}
	pp, err := PlanPhases(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range pp.Strategies {
		fmt.Println(st.Name, st.Findings)
		for _, x := range st.Steps {
			fmt.Printf("%+v\n", x)
			if x.Recabling != nil {
				fmt.Println(x.Recabling.Text)
			}
		}
	}
	fmt.Println(pp.Final.Cost.Total, pp.Notes)
}
