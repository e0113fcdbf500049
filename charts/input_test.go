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

// A chart drawn from NewInputWith and its PartsOf (what export and the
// window build) is byte for byte the chart drawn from the full input of
// every part, for every chart, on an off-grid GB300 NVL72 plan of 4,100
// GPUs. Catches: a chart that reads a part PartsOf does not list (it
// would draw without it, or fail); NewInputWith's plan differing from
// the alternatives' first plan.
func TestInputWithDrawsAsTheFullInput(t *testing.T) {
	cat := catalog(t)
	s := planner.NewScenario()
	s.Cluster.System, s.Cluster.GPUs, s.Network.NICGbps = "gb300-nvl72", 4100, 800
	full, err := NewInput(s, cat, nil, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		lean, err := NewInputWith(s, cat, nil, 0, PartsOf(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		a, errA := c.Build(full)
		b, errB := c.Build(lean)
		if (errA == nil) != (errB == nil) {
			t.Errorf("%s: full input %v, its parts %v", c.Name, errA, errB)
			continue
		}
		if errA != nil {
			continue
		}
		x, err := a.Bytes("svg", Size{WidthPx: 900, HeightPx: 600, DPI: 96})
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Bytes("svg", Size{WidthPx: 900, HeightPx: 600, DPI: 96})
		if err != nil {
			t.Fatal(err)
		}
		if string(x) != string(y) {
			t.Errorf("%s: drawn from its parts differs from the full input", c.Name)
		}
	}
}
