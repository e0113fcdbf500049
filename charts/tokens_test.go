package charts

import (
	"errors"
	"io/fs"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// servingCharts need an inference scenario; the other tests' inputs
// are training scenarios, so TestTokensChart draws them.
var servingCharts = map[string]bool{"tokens": true}

// servingInput is the inference example's tokens-chart input, as the
// window and `fabricplan export --chart tokens` build it.
func servingInput(t *testing.T) (planner.Scenario, Input) {
	t.Helper()
	src, err := fs.ReadFile(data.FS, "scenarios/inference-deepseek-h100.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenariofile.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	in, err := NewInputWith(s, catalog(t), nil, 0, PartsOf("tokens"))
	if err != nil {
		t.Fatal(err)
	}
	return s, in
}

// The tokens chart's coloured bar is the scenario's own design, and its
// height is what `plan --json` prints as inference.tokens_per_dollar
// (planner.Build's Plan.Inference, which plan --json marshals); every
// other bar is a variant's own figure, and the 2:1 leaf variant is drawn.
// Mutation caught: the coloured bar taken from another variant (own[1] set
// in ownBars), or the variants' plans swapped.
func TestTokensChart(t *testing.T) {
	s, in := servingInput(t)
	p, err := planner.Build(s, catalog(t))
	if err != nil {
		t.Fatal(err)
	}
	want := p.Inference.TokensPerDollar
	fig, err := TokensChart(in)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := fig.Series("Output tokens per US$")
	if !ok || len(got.Values) < 3 {
		t.Fatalf("series %v: want this plan, the other fabric and the other ratio", got)
	}
	if got.Values[0] != want {
		t.Errorf("this plan's bar %g, plan --json tokens_per_dollar %g", got.Values[0], want)
	}
	own, others := ownBars(got.Values)
	if own[0] != want || others[0] != 0 {
		t.Errorf("coloured bar %g (grey %g), want this plan's %g", own[0], others[0], want)
	}
	for i := 1; i < len(got.Values); i++ {
		if own[i] != 0 || others[i] != got.Values[i] {
			t.Errorf("%s: coloured %g, grey %g; want grey %g", got.Labels[i], own[i], others[i], got.Values[i])
		}
	}
	var ratio bool
	for i, v := range in.Serving {
		if v.Label == "leaf 2:1" {
			ratio = v.Plan != nil && v.Plan.Scenario.Network.Oversubscription == "2:1"
		}
		if i > 0 && v.Plan != nil && v.Plan.Inference.TokensPerDollar == want && v.Plan.Cost.Total != p.Cost.Total {
			t.Errorf("%s: this plan's figure on another design", v.Label)
		}
	}
	if !ratio {
		t.Error("no 2:1 leaf variant planned")
	}
	png, err := fig.Bytes("png", Size{900, 600, 96})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tokens", png)
}

// A training scenario has no tokens chart: it says it needs an inference
// scenario. Mutation caught: drawing a training plan's missing estimate
// as zero bars.
func TestTokensChartNeedsInference(t *testing.T) {
	in, err := NewInputWith(planner.NewScenario(), catalog(t), nil, 0, PartsOf("tokens"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TokensChart(in); !errors.Is(err, ErrMissingInput) {
		t.Errorf("training scenario: %v, want ErrMissingInput", err)
	}
}
