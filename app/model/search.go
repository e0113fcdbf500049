package model

import (
	"strings"

	"fabricplan/planner"
)

// SearchDone records that a design search of base has finished: its
// results belong to those inputs.
func (m *Model) SearchDone(base planner.Scenario) {
	b := base.Clone()
	m.searched = &b
}

// SearchStale says whether the inputs changed since the last search was
// run, and how: "GPUs 1024 → 16384". Results of other inputs must not be
// used as if they were for these.
func (m *Model) SearchStale() (bool, string) {
	if m.searched == nil || m.searched.Equal(m.scenario) {
		return false, ""
	}
	var parts []string
	for _, f := range fields {
		if a, b := m.textOf(*m.searched, f.Key), m.textOf(m.scenario, f.Key); a != b {
			parts = append(parts, f.Label+" "+a+" → "+b)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "prices")
	}
	return true, "These results are for other inputs (" + strings.Join(parts, "; ") + "): search again before using a design."
}
