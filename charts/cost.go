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

// stackedPlot draws one stacked bar per variant of the figure fig: its
// components, each divided by fig.per(plan), and over each bar the
// figure's own value, written as the title writes it.
func stackedPlot(title, yLabel string, vs []planner.Variant, comps []component, fig figure,
	ticks plot.Ticker, data *[]Series) (*plot.Plot, error) {
	scale := fig.per
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
		texts[i] = fig.text(vs[i].Plan)
		maxY = max(maxY, t)
	}
	l, err := valueLabels(prev, texts)
	if err != nil {
		return nil, err
	}
	p.Add(&fittedBars{categories: len(vs), groups: [][]*plotter.BarChart{stack}, labels: []*plotter.Labels{l}})
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

// figure is one amount a chart shows for a plan, in bars and in words:
// value is the plan's own figure (never a sum the chart makes again),
// per what its bars' components are divided by, and format writes it.
// Title and bar both write text(p): one rounding per figure.
type figure struct {
	value  func(p *planner.Plan) float64
	per    func(p *planner.Plan) float64
	format func(float64) string
}

// text is the figure for p as every part of a chart writes it.
func (f figure) text(p *planner.Plan) string { return f.format(f.value(p)) }

func one(*planner.Plan) float64 { return 1 }

// gpusBought is what cost per GPU divides by (planner.Plan.GPUsBought:
// whole servers or racks), as the plan's Cost.PerGPU does.
func gpusBought(p *planner.Plan) float64 { return float64(p.GPUsBought()) }

// gpusAsked is what power per GPU divides by, as the summary does.
func gpusAsked(p *planner.Plan) float64 { return float64(p.GPUs) }

// sumFigure is the figure whose value is the sum of comps (a count of
// ports, say, that the plan does not total itself).
func sumFigure(comps []component, format func(float64) string) figure {
	return figure{func(p *planner.Plan) float64 {
		t := 0.0
		for _, c := range comps {
			t += c.value(p)
		}
		return t
	}, one, format}
}

// intText writes a whole count with thousands separators.
func intText(v float64) string { return textfmt.Int(int(v)) }

// wattsPerKW draws power bars in kW.
const wattsPerKW = 1000

// The figures of the cost and power charts (the total cost's format is
// the chart's money scale, set where the chart knows its amounts).
var (
	costPerGPU = figure{func(p *planner.Plan) float64 { return p.Cost.PerGPU }, gpusBought, wholeDollars.text}
	powerTotal = figure{func(p *planner.Plan) float64 { return p.Power.Total }, func(*planner.Plan) float64 { return wattsPerKW }, textfmt.Watts}
	powerPer   = figure{func(p *planner.Plan) float64 { return p.Power.Total / float64(p.GPUs) }, gpusAsked, textfmt.Watts}
)

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
	costTotal := figure{func(p *planner.Plan) float64 { return p.Cost.Total }, one, usd.text}
	total, err := stackedPlot("Back-end fabric cost", "US$", vs, costComponents, costTotal, usd, &data)
	if err != nil {
		return nil, err
	}
	per, err := stackedPlot("Cost per GPU", "US$ per GPU", vs, costComponents, costPerGPU, wholeDollars, &data)
	if err != nil {
		return nil, err
	}
	total.Title.Text = totalFinding("Fabric cost", vs, costTotal.value, usd.text)
	per.Title.Text = shareFinding("Cost per GPU", in.Plan, costComponents, costPerGPU.text(in.Plan))
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
	var data []Series
	total, err := stackedPlot("Back-end fabric power", "kW", vs, powerComponents, powerTotal, countTicks{}, &data)
	if err != nil {
		return nil, err
	}
	per, err := stackedPlot("Power per GPU", "W per GPU", vs, powerComponents, powerPer, countTicks{}, &data)
	if err != nil {
		return nil, err
	}
	total.Title.Text = totalFinding("Fabric power", vs, powerTotal.value, powerTotal.format)
	per.Title.Text = shareFinding("Power per GPU", in.Plan, powerComponents, powerPer.text(in.Plan))
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
