package model

import (
	"strings"

	"fabricplan/planner"
)

// SearchRun is a design search and the inputs it was run on.
type SearchRun struct {
	Base   planner.Scenario
	Result *planner.SearchResult
}

// SearchDone records a finished search of base.
func (m *Model) SearchDone(base planner.Scenario, res *planner.SearchResult) {
	m.search = &SearchRun{Base: base.Clone(), Result: res}
}

// Search is the last finished search, nil if none.
func (m *Model) Search() *SearchRun { return m.search }

// SearchStale says whether the inputs changed since the last search was
// run, and how: "GPUs 1024 → 16384". Results of other inputs must not be
// used as if they were for these.
func (m *Model) SearchStale() (bool, string) {
	if m.search == nil || m.search.Base.Equal(m.scenario) {
		return false, ""
	}
	var parts []string
	for _, f := range fields {
		if a, b := m.textOf(m.search.Base, f.Key), m.textOf(m.scenario, f.Key); a != b {
			parts = append(parts, f.Label+" "+a+" → "+b)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "prices")
	}
	return true, "These results are for other inputs (" + strings.Join(parts, "; ") + "): search again before using a design."
}
