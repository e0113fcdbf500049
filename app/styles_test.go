package app

import (
	"strings"
	"testing"

	"fabricplan/planner/explore"
)

// The Charts tab draws the styles chart off the UI goroutine from the
// inputs as given, and follows an edit. Hand check of what "as given"
// means: the top-of-rack bar must cost what the planner prices for the
// scenario typed in (short in-rack cables to its ToR), not for the plan's
// resolved scenario, which carries the rail's longer cable to the leaf.
// Mutations caught: the parts built from Plan.Scenario (a dearer ToR bar
// than the export shows), the chart not redrawn after an edit (the old
// GPU count's bars), the chart missing from the tab.
func TestChartsTabStyles(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabCharts)
	if !u.SelectChart("styles") {
		t.Fatal("the Charts tab does not offer the styles chart")
	}
	u.WaitIdle()
	check := func(when string) {
		t.Helper()
		fig := u.charts.view.fig
		if fig == nil || fig.Name != "styles" {
			t.Fatalf("%s: no styles chart drawn (%v)", when, u.charts.view.message.Text)
		}
		cost, ok := fig.Series("Fabric cost")
		if !ok {
			t.Fatalf("%s: no cost series", when)
		}
		want := map[string]float64{}
		for _, r := range explore.CompareStyles(u.m.Scenario(), u.cat).Built() {
			want[r.Label()] = r.Plan.Cost.Total
		}
		for i, l := range cost.Labels {
			l, _, _ = strings.Cut(l, " (") // "dual-plane (400G uplinks)": the chart names how it is built
			if cost.Values[i] != want[l] {
				t.Errorf("%s: %s costs $%.0f in the chart, $%.0f for the inputs as given", when, l, cost.Values[i], want[l])
			}
		}
		if p := u.Plan(); p == nil || len(cost.Labels) == 0 {
			t.Errorf("%s: nothing drawn", when)
		}
	}
	check("default")
	typeIn(u, "cluster.gpus", "1536")
	u.WaitIdle()
	check("after 1,536 GPUs typed")
	if got := u.Plan().GPUs; got != 1536 {
		t.Errorf("plan has %d GPUs", got)
	}
}
