package charts

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// TokensChart draws output tokens/s per dollar of the whole cluster
// (serve's tokens_per_dollar: output tokens over the cluster's life per
// US$ of capex and energy) for an inference scenario across its fabric
// choices (explore.ServingVariants): the other fabric and NIC speed, the
// other leaf ratio, and rack-scale against 8-GPU systems where the
// catalog has both for the GPU. The scenario's own design is in colour;
// variants that do not plan are named in the footnote.
func TokensChart(in Input) (*Figure, error) {
	if err := needPlan(in, "tokens"); err != nil {
		return nil, err
	}
	if in.Plan.Inference == nil {
		return nil, fmt.Errorf(`%w: the tokens chart needs an inference scenario ([workload] kind = "inference" with its [inference] table)`, ErrMissingInput)
	}
	planned, failed := planner.Planned(in.Serving)
	if len(planned) == 0 {
		planned = []planner.Variant{{Label: "This plan", Plan: in.Plan}}
	}
	var rows []planner.Variant
	for _, v := range planned {
		if v.Plan.Inference != nil {
			rows = append(rows, v)
		}
	}
	vals := make([]float64, len(rows))
	labels := make([]string, len(rows))
	top := 0.0
	for i, v := range rows {
		vals[i], labels[i] = v.Plan.Inference.TokensPerDollar, v.Label
		top = max(top, vals[i])
	}
	n := rows[0].Plan.Scenario.Network
	labels[0] = fmt.Sprintf("%s (%s %dG)", rows[0].Label, n.Fabric.Short(), n.NICGbps)
	u := tokenUnitFor(top)
	scaled := make([]float64, len(vals))
	texts := make([]string, len(vals))
	for i, v := range vals {
		scaled[i], texts[i] = v/u.div, sig3(v/u.div)
	}
	own, others := ownBars(scaled)
	p := newPlot(tokensTitle(rows, vals, u), "", u.axis)
	p.Y.Tick.Marker = countTicks{}
	base, err := newBars(others)
	if err != nil {
		return nil, err
	}
	base.Color = Grey
	mine, err := newBars(own)
	if err != nil {
		return nil, err
	}
	mine.Color = colour(0)
	mine.StackOn(base)
	l, err := valueLabels(mine, texts)
	if err != nil {
		return nil, err
	}
	p.Add(&fittedBars{categories: len(rows), groups: [][]*plotter.BarChart{{base, mine}}, labels: []*plotter.Labels{l}})
	nominal(p, labels...)
	headroom(p, top/u.div, 0)
	foot, short := tokensFootnote(in.Plan, rows, failed)
	return &Figure{Name: "tokens", Panels: [][]*plot.Plot{{p}}, Footnote: foot, FootnoteShort: short,
		Data: []Series{{Name: "Output tokens per US$", Labels: labels, Values: vals}}}, nil
}

// ownBars splits the bar heights into the scenario's own design's, in
// colour (the first: ServingVariants puts it first), and the others', in
// grey, each zero where the other is drawn.
func ownBars(vals []float64) (own, others plotter.Values) {
	own, others = make(plotter.Values, len(vals)), make(plotter.Values, len(vals))
	copy(others, vals)
	own[0], others[0] = vals[0], 0
	return own, others
}

// tokenUnit is the unit a tokens chart writes its counts in: millions,
// thousands or single tokens per US$, whichever keeps the largest under
// a thousand.
type tokenUnit struct {
	div        float64
	word, axis string
}

func tokenUnitFor(top float64) tokenUnit {
	switch {
	case top >= 1e6:
		return tokenUnit{1e6, " million", "million output tokens per US$"}
	case top >= 1e3:
		return tokenUnit{1e3, " thousand", "thousand output tokens per US$"}
	}
	return tokenUnit{1, "", "output tokens per US$"}
}

// tokensTitle names the design with the most tokens per dollar and this
// plan's figure where another is higher, in unit u.
func tokensTitle(rows []planner.Variant, vals []float64, u tokenUnit) string {
	text := func(v float64) string { return sig3(v/u.div) + u.word }
	best := 0
	for i, v := range vals {
		if v > vals[best] {
			best = i
		}
	}
	if best == 0 || text(vals[best]) == text(vals[0]) {
		return fmt.Sprintf("Output tokens per US$: this plan most, %s", text(vals[0]))
	}
	return fmt.Sprintf("Output tokens per US$: most %s, %s; this plan %s", rows[best].Label, text(vals[best]), text(vals[0]))
}

// sig3 writes v (at least 1, or 0) with three significant figures,
// keeping trailing zeros: 3.90, 39.0, 390.
func sig3(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// tokensFootnote says what was compared, the model's assumptions, that
// the figures are estimates, and which variants do not plan; the short
// form keeps the assumptions in a line and the variants not drawn.
func tokensFootnote(p *planner.Plan, rows, failed []planner.Variant) (full, short string) {
	r := p.Inference
	var lines []string
	lines = append(lines, fmt.Sprintf("%s: %s GPUs serving %s, %s input and %s output tokens per request; the scenario's own design in colour.",
		planTitle(p), textfmt.Int(p.GPUs), p.Scenario.Workload.Model, textfmt.Int(p.Scenario.Inference.InputTokens), textfmt.Int(p.Scenario.Inference.OutputTokens)))
	lines = append(lines, fmt.Sprintf("Estimates of the serving model (data/inference.toml): output tokens over a %g-year life per US$ of capex (systems and back end) and energy;",
		r.LifeYears))
	lines = append(lines, "prefill compute-bound and decode memory-bound per GPU at measured efficiencies, KV transfer and decode EP all-to-all on each design's fabric.")
	var tpots []string
	for _, v := range rows {
		tpots = append(tpots, fmt.Sprintf("%s %.0f ms", v.Label, v.Plan.Inference.Decode.TPOTS*1e3))
	}
	lines = append(lines, "TPOT: "+strings.Join(tpots, ", ")+".")
	notDrawn := ""
	if len(failed) > 0 {
		var parts []string
		for _, v := range failed {
			parts = append(parts, v.Label+" ("+textfmt.Clip(buildProblem(v.Err), 90)+")")
		}
		notDrawn = "Not drawn, they do not plan: " + strings.Join(parts, "; ") + "."
		lines = append(lines, notDrawn)
	}
	short = fmt.Sprintf("Estimates (data/inference.toml): output tokens over a %g-year life per US$ of capex and energy; the scenario's own design in colour.", r.LifeYears)
	if notDrawn != "" {
		short += "\n" + notDrawn
	}
	return strings.Join(lines, "\n"), short
}
