package planner_test

import (
	"encoding/json"

	"fabricplan/planner"
	"fabricplan/planner/phases"
)

// The memo transitions test (memo_transition_test.go) compares phased
// build-outs warm and cold: every phase is a plan built through this
// package's memos. It plans them with planner/phases, which imports
// this package, so only this external test package can hand it over.
func init() {
	planner.PlanPhasesJSON = func(s planner.Scenario, cat *planner.Catalog) ([]byte, error) {
		pp, err := phases.PlanPhases(s, cat)
		if err != nil {
			return nil, err
		}
		return json.Marshal(pp)
	}
}
