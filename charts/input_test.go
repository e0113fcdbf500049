package charts

import (
	"errors"
	"strings"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/explore"
)

// A search that finds nothing leaves the search chart out with the
// planner's reason, not a generic "needs a design search". Eight GPUs
// cannot hold the default 32-GPU job, so no design has a JCT estimate
// (explore.ErrNoDesigns). Mutation caught: NewInput dropping the
// search's error (in.Search, _ = explore.Search(...)).
func TestSearchChartSaysWhyTheSearchFailed(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.GPUs = 8
	in, err := NewInput(s, catalog(t), nil, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = SearchChart(in)
	if !errors.Is(err, ErrMissingInput) || !errors.Is(err, explore.ErrNoDesigns) || !strings.Contains(err.Error(), "8 GPUs") {
		t.Errorf("search chart of 8 GPUs: %v, want the search's ErrNoDesigns for 8 GPUs", err)
	}
}

// Each chart gets the parts it draws, and only those: the cost chart
// its alternatives, the scale chart the sweep and tier steps, the
// resilience chart the sweep without the tier steps' bisection.
// Mutations caught: a part map that leaves the scale chart without its
// tier steps, or runs the costly parts for every chart.
func TestPartsOfEachChart(t *testing.T) {
	cat := catalog(t)
	p, err := planner.Build(planner.NewScenario(), cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		chart                          string
		variants, sweep, steps, search bool
	}{
		{"cost", true, false, false, false},
		{"scale", false, true, true, false},
		{"resilience", false, true, false, false},
		{"ports", false, false, false, false},
	} {
		in := Input{Plan: p}
		in.AddParts(p.Scenario, cat, PartsOf(tc.chart))
		got := [4]bool{in.Variants != nil, in.Sweep != nil, in.TierSteps != nil, in.Search != nil || in.SearchErr != nil}
		if want := [4]bool{tc.variants, tc.sweep, tc.steps, tc.search}; got != want {
			t.Errorf("%s: variants, sweep, tier steps, search = %v, want %v", tc.chart, got, want)
		}
	}
}
