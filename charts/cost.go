package charts

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/pricedraw"
)

// component is one stacked series of a cost or power chart.
type component struct {
	name  string
	value func(p *planner.Plan) float64
}

var costComponents = []component{
	{"NICs", func(p *planner.Plan) float64 { return p.Cost.NICs }},
	{"switches", func(p *planner.Plan) float64 { return p.Cost.Switches }},
	{"transceivers", func(p *planner.Plan) float64 { return p.Cost.Transceivers }},
	{"cables", func(p *planner.Plan) float64 { return p.Cost.Cables }},
}

var powerComponents = []component{
	{"NICs", func(p *planner.Plan) float64 { return p.Power.NICs }},
	{"switches", func(p *planner.Plan) float64 { return p.Power.Switches }},
	{"transceivers", func(p *planner.Plan) float64 { return p.Power.Transceivers }},
	{"active cables", func(p *planner.Plan) float64 { return p.Power.Cables }},
}

// stackedPlot draws one stacked bar per variant, scaled by scale(plan),
// with the total over each bar.
func stackedPlot(title, yLabel string, vs []planner.Variant, comps []component, scale func(p *planner.Plan) float64,
	ticks plot.Ticker, format func(float64) string, data *[]Series) (*plot.Plot, error) {
	p := newPlot(title, "", yLabel)
	p.Y.Tick.Marker = ticks
	var prev *plotter.BarChart
	var stack []*plotter.BarChart
	totals := make([]float64, len(vs))
	for ci, c := range comps {
		vals := make(plotter.Values, len(vs))
		for i, v := range vs {
			vals[i] = c.value(v.Plan) / scale(v.Plan)
			totals[i] += vals[i]
		}
		*data = append(*data, Series{Name: title + ": " + c.name, Labels: variantNames(vs), Values: vals})
		b, err := newBars(vals)
		if err != nil {
			return nil, err
		}
		b.Color = colour(ci)
		if prev != nil {
			b.StackOn(prev)
		}
		prev = b
		stack = append(stack, b)
	}
	names := make([]string, len(comps))
	for ci, c := range comps {
		names[ci] = c.name
	}
	stackLegend(p, names, stack)
	texts := make([]string, len(vs))
	maxY := 0.0
	for i, t := range totals {
		texts[i] = format(t)
		maxY = max(maxY, t)
	}
	l, err := valueLabels(prev, texts)
	if err != nil {
		return nil, err
	}
	p.Add(&fittedBars{categories: len(vs), groups: [][]*plotter.BarChart{stack}, labels: []*plotter.Labels{l}}, l)
	nominal(p, variantLabels(vs)...)
	headroom(p, maxY, len(comps))
	p.Legend.Top = true
	return p, nil
}

func variantLabels(vs []planner.Variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		n := v.Plan.Scenario.Network
		spec := fmt.Sprintf("%s %dG", n.Fabric.Short(), n.NICGbps)
		label := v.Label
		if !strings.Contains(label, spec) {
			label += "\n" + spec
		}
		// The leaf's model: a bar's label has room for one key; the
		// footnote names each tier's (variantFootnote).
		if !strings.Contains(label, v.Plan.Switch.Key) {
			label += "\n" + v.Plan.Switch.Key
		}
		out[i] = label
	}
	return out
}

func variantNames(vs []planner.Variant) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Label
	}
	return out
}

func one(*planner.Plan) float64 { return 1 }

func perGPU(p *planner.Plan) float64 { return float64(p.GPUs) }

// Cost draws fabric cost stacked by component, in total and per GPU, for
// each variant side by side.
func Cost(in Input) (*Figure, error) {
	if err := needPlan(in, "cost"); err != nil {
		return nil, err
	}
	vs := in.variants()
	var data []Series
	// One scale for the totals (ticks, bar values, title); amounts per
	// GPU to the dollar.
	totals := make([]float64, len(vs))
	for i, v := range vs {
		totals[i] = v.Plan.Cost.Total
	}
	usd := moneyFor(totals...)
	total, err := stackedPlot("Back-end fabric cost", "US$", vs, costComponents, one, usd, usd.text, &data)
	if err != nil {
		return nil, err
	}
	per, err := stackedPlot("Cost per GPU", "US$ per GPU", vs, costComponents, perGPU, wholeDollars, wholeDollars.text, &data)
	if err != nil {
		return nil, err
	}
	total.Title.Text = totalFinding("Fabric cost", vs, func(p *planner.Plan) float64 { return p.Cost.Total }, usd.text)
	per.Title.Text = shareFinding("Cost per GPU", in.Plan, costComponents, wholeDollars.text(in.Plan.Cost.PerGPU))
	return &Figure{Name: "cost", Panels: [][]*plot.Plot{{total, per}}, Data: data, Footnote: variantFootnote(vs) + costCertainty(vs) +
		"\nPrices are estimates from data/catalog.toml (each with its source and date, " + in.Plan.Cost.Basis + " basis); 'fabricplan catalog' lists them." + in.unplannedNote()}, nil
}

// costCertainty says, for each alternative, how likely this plan (the
// first variant) costs less, over shared price draws within each part's
// range: "cheaper than RoCE 400G in 100% of draws"; empty without
// alternatives.
func costCertainty(vs []planner.Variant) string {
	if len(vs) < 2 {
		return ""
	}
	var parts []string
	for _, v := range vs[1:] {
		p := planner.ProbCheaperThan(vs[0].Plan, v.Plan)
		what := map[string]string{pricedraw.VerdictCheaper: "cheaper than", pricedraw.VerdictDearer: "dearer than", pricedraw.VerdictTie: "a tie with"}[pricedraw.Verdict(p)]
		parts = append(parts, fmt.Sprintf("%s %s (cheaper in %.0f%% of draws)", what, v.Label, 100*p))
	}
	return fmt.Sprintf("\nWithin the prices' ranges (%s shared draws), this plan is %s.", textfmt.Int(pricedraw.N), strings.Join(parts, "; "))
}

// Power draws fabric power stacked by component, in total and per GPU.
func Power(in Input) (*Figure, error) {
	if err := needPlan(in, "power"); err != nil {
		return nil, err
	}
	vs := in.variants()
	kw := func(p *planner.Plan) float64 { return 1000 }
	var data []Series
	total, err := stackedPlot("Back-end fabric power", "kW", vs, powerComponents, kw, countTicks{},
		func(v float64) string { return textfmt.Watts(v * 1000) }, &data)
	if err != nil {
		return nil, err
	}
	per, err := stackedPlot("Power per GPU", "W per GPU", vs, powerComponents, perGPU, countTicks{}, textfmt.Watts, &data)
	if err != nil {
		return nil, err
	}
	total.Title.Text = totalFinding("Fabric power", vs, func(p *planner.Plan) float64 { return p.Power.Total }, textfmt.Watts)
	per.Title.Text = shareFinding("Power per GPU", in.Plan, powerComponents, textfmt.Watts(in.Plan.Power.Total/float64(in.Plan.GPUs)))
	return &Figure{Name: "power", Panels: [][]*plot.Plot{{total, per}}, Data: data, Footnote: variantFootnote(vs) +
		"\nSwitch watts are estimates without optics; transceiver watts are NVIDIA LinkX figures where published (data/catalog.toml)." + in.unplannedNote()}, nil
}

func variantFootnote(vs []planner.Variant) string {
	var parts []string
	for _, v := range vs {
		p := v.Plan
		parts = append(parts, fmt.Sprintf("%s: %s GPUs, %s, %s, %s", v.Label, textfmt.Int(p.GPUs),
			p.SwitchesText(), textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.TotalSwitches(), "switch")))
	}
	return strings.Join(parts, "; ")
}

// stackLegend lists stacked bars in the legend top-down, as they stack:
// the last (topmost) first.
func stackLegend(p *plot.Plot, names []string, bars []*plotter.BarChart) {
	for i := len(bars) - 1; i >= 0; i-- {
		p.Legend.Add(names[i], bars[i])
	}
}

// totalFinding titles a per-variant total: this plan's figure and, when
// there are variants, how it ranks against the lowest of them.
func totalFinding(what string, vs []planner.Variant, value func(*planner.Plan) float64, format func(float64) string) string {
	this := value(vs[0].Plan)
	title := fmt.Sprintf("%s: %s for this plan", what, format(this))
	if len(vs) < 2 {
		return title
	}
	low, lowName := this, vs[0].Label
	for _, v := range vs[1:] {
		if x := value(v.Plan); x < low {
			low, lowName = x, v.Label
		}
	}
	if low >= this || low <= 0 {
		return title + fmt.Sprintf(",\nthe lowest of %d", len(vs))
	}
	return title + fmt.Sprintf(",\n%.0f%% above %s", (this/low-1)*100, lowName)
}

// shareFinding titles a per-GPU breakdown with its largest component's
// share of the plan's total.
func shareFinding(what string, p *planner.Plan, comps []component, perGPU string) string {
	total, top, topName := 0.0, 0.0, ""
	for _, c := range comps {
		v := c.value(p)
		total += v
		if v > top {
			top, topName = v, c.name
		}
	}
	if total <= 0 {
		return what + ": " + perGPU
	}
	return fmt.Sprintf("%s: %s,\n%s %.0f%% of it", what, perGPU, topName, top/total*100)
}
