package planner

import (
	"fabricplan/planner/perf"
	"fmt"

	"github.com/BurntSushi/toml"
)

// ScenarioFromData decodes a scenario the engine ships in its own data
// (a validation point's run) over NewScenario's defaults, as the strict
// decoder of planner/scenariofile does for a valid document: a
// [workload] table starts from NewWorkload. It stops at the first
// problem and names no line: user files go through
// scenariofile.Check, which reports every problem with its line.
func ScenarioFromData(src []byte) (Scenario, error) {
	s := NewScenario()
	w := perf.NewWorkload()
	s.Workload = &w
	md, err := toml.Decode(string(src), &s)
	if err != nil {
		return Scenario{}, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		return Scenario{}, fmt.Errorf("unknown key %q", und[0].String())
	}
	if !md.IsDefined("workload") {
		s.Workload = nil
	}
	return s, nil
}
