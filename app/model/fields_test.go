package model

import (
	"strings"
	"testing"

	"fabricplan/planner"
)

// The window takes what the planner and the files take, in the same
// grammar: pp 65,536 and vpp 1,024 (the window used to stop at 4,096
// and 64), 64 planes, and 16_384 GPUs; one past each limit is refused
// naming it. Limits from docs/scenario.md. Mutation caught: app/model
// retyping its own caps or grammar instead of the planner's table.
func TestWindowTakesThePlannersLimits(t *testing.T) {
	for _, tc := range []struct {
		key, ok, over, limit string
	}{
		{"workload.pp", "65,536", "65,537", "65,536"},
		{"workload.vpp", "1,024", "1025", "1,024"},
		{"workload.tp", "65_536", "65537", "65,536"},
		{"network.planes", "64", "65", "64"},
		{"cluster.gpus", "16_384", "10,000,001", "10,000,000"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			m := testModel(t)
			if _, err := m.Set(tc.key, tc.ok); err != nil {
				t.Errorf("Set(%q): %v", tc.ok, err)
			}
			if _, err := m.Set(tc.key, tc.over); err == nil || !strings.Contains(err.Error(), tc.limit) {
				t.Errorf("Set(%q): %v, want a refusal naming %s", tc.over, err, tc.limit)
			}
		})
	}
}

// Every input the window shows is one of the planner's, with its label,
// and every planner input is on screen. Mutation caught: a key added to
// the planner's table that the window never offers (or the reverse).
func TestEveryPlannerInputIsOnScreen(t *testing.T) {
	on := map[string]bool{}
	for _, f := range Fields() {
		pf, ok := planner.FieldByKey(f.Key)
		if !ok || pf.Label != f.Label {
			t.Errorf("%s: on screen as %q, planner %v %q", f.Key, f.Label, ok, pf.Label)
		}
		on[f.Key] = true
	}
	for _, pf := range planner.Fields() {
		if !on[pf.Key] {
			t.Errorf("planner input %s is not on screen", pf.Key)
		}
	}
}
