package planner

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// decodeData decodes one of the engine's own data documents (data/*.toml)
// into v: a TOML error or an unknown key is an error that starts with
// what; when schema is not nil, the decoded document's schema must be 1.
// User files go through planner/scenariofile instead, which reports every
// problem with its line and a suggestion.
func decodeData(what string, src []byte, v any, schema *int) error {
	md, err := toml.Decode(string(src), v)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return fmt.Errorf("%s: unknown key %q", what, und[0].String())
	}
	if schema != nil && *schema != 1 {
		return fmt.Errorf("%s: schema %d, want 1", what, *schema)
	}
	return nil
}

// ScenarioFromData decodes a scenario the engine ships in its own data
// (a validation point's run) over NewScenario's defaults, as the strict
// decoder of planner/scenariofile does for a valid document: a
// [workload] table starts from NewWorkload. It stops at the first
// problem and names no line: user files go through
// scenariofile.Check, which reports every problem with its line.
func ScenarioFromData(src []byte) (Scenario, error) {
	s := NewScenario()
	w := NewWorkload()
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
