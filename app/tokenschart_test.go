package app

import (
	"strings"
	"testing"
)

// The Charts tab offers the tokens chart: on the inference example it
// draws this plan's bar at the plan's own tokens per dollar (what the
// Summary card shows), and on a training scenario it says it needs an
// inference scenario. Mutations caught: the chart left out of the tab's
// list, its parts not built (PartsOf("tokens") empty: this plan alone).
func TestChartsTabTokens(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabCharts)
	if !u.SelectChart("tokens") {
		t.Fatal("the Charts tab does not offer the tokens chart")
	}
	u.WaitIdle()
	if fig := u.charts.view.fig; fig != nil && fig.Name == "tokens" || !strings.Contains(u.charts.view.message.Text, "inference scenario") {
		t.Errorf("training scenario: message %q", u.charts.view.message.Text)
	}
	if err := u.OpenPath("../data/scenarios/inference-deepseek-h100.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	u.SelectChart("tokens")
	u.WaitIdle()
	fig := u.charts.view.fig
	if fig == nil || fig.Name != "tokens" {
		t.Fatalf("no tokens chart drawn (%q)", u.charts.view.message.Text)
	}
	s, ok := fig.Series("Output tokens per US$")
	if !ok || len(s.Values) < 3 || s.Values[0] != u.Plan().Inference.TokensPerDollar {
		t.Errorf("series %v, want this plan's %g first and its variants", s, u.Plan().Inference.TokensPerDollar)
	}
}
