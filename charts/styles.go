package charts

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
)

// styleMeasure is one panel of the styles chart: what it reads of a
// style's plan, how its values and ticks are written, and its title.
type styleMeasure struct {
	name, yLabel string
	value        func(r explore.StyleRow) float64
	format       func(v float64) string
	ticks        plot.Ticker
	// title states the panel's finding from the values by row.
	title func(rows []explore.StyleRow, vals []float64, format func(float64) string) string
}

// StylesChart draws the cluster built in every design style side by
// side (rail-optimized, top-of-rack, rail-only, dual-plane,
// multi-plane): fabric cost, power, switches and the job time with the
// same workload, the scenario's own style in colour. Styles that do not
// build are named with their reason in the footnote.
func StylesChart(in Input) (*Figure, error) {
	if err := needPlan(in, "styles"); err != nil {
		return nil, err
	}
	c := in.Styles
	if c == nil {
		return nil, fmt.Errorf("%w: the styles chart needs the design styles built (explore.CompareStyles)", ErrMissingInput)
	}
	rows := c.Built()
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no design style builds for this cluster", ErrMissingInput)
	}
	var data []Series
	var panels []*plot.Plot
	for _, m := range styleMeasures(c) {
		p, s, err := stylePlot(m, rows)
		if err != nil {
			return nil, err
		}
		panels, data = append(panels, p), append(data, s)
	}
	foot, short := stylesFootnote(in.Plan, c)
	return &Figure{Name: "styles", Panels: [][]*plot.Plot{panels[:2], panels[2:]}, Footnote: foot, FootnoteShort: short, Data: data}, nil
}

// styleMeasures are the chart's four panels, each in one scale for every
// style: money in the comparison's money scale, power in kW or MW, job
// time in the comparison's time unit.
func styleMeasures(c *explore.StyleComparison) []styleMeasure {
	usd := money{c.MoneyScale()}
	unit := c.TimeUnit()
	topW := 0.0
	for _, r := range c.Built() {
		topW = max(topW, r.Plan.Power.Total)
	}
	pw := powerScaleFor(topW)
	ms := []styleMeasure{
		{name: "Fabric cost", yLabel: "US$", value: func(r explore.StyleRow) float64 { return r.Plan.Cost.Total },
			format: usd.text, ticks: usd, title: lowestTitle("Fabric cost", "lowest")},
		{name: "Fabric power", yLabel: pw.name, value: func(r explore.StyleRow) float64 { return r.Plan.Power.Total / pw.div },
			format: pw.text, ticks: countTicks{}, title: lowestTitle("Fabric power", "lowest")},
		{name: "Switches", yLabel: "switches", value: func(r explore.StyleRow) float64 { return float64(r.Plan.TotalSwitches()) },
			format: func(v float64) string { return textfmt.Int(int(v)) }, ticks: countTicks{}, title: lowestTitle("Switches", "fewest")},
	}
	job := styleMeasure{name: "Job time", yLabel: unit.Name, value: explore.StyleRow.Days,
		format: unit.Format, ticks: durationTicks{unit}, title: lowestTitle("Job time", "fastest")}
	if !hasJobTime(c) {
		// No estimate (too few GPUs for the workload): the optics
		// instead, which the styles move most after the switches.
		job = styleMeasure{name: "Transceivers", yLabel: "transceivers",
			value: func(r explore.StyleRow) float64 {
				return float64(r.Plan.ServerTransceivers + r.Plan.SwitchTransceivers)
			},
			format: func(v float64) string { return textfmt.Int(int(v)) }, ticks: countTicks{}, title: lowestTitle("Transceivers", "fewest")}
	}
	return append(ms, job)
}

// hasJobTime says some style has a job-time estimate.
func hasJobTime(c *explore.StyleComparison) bool {
	for _, r := range c.Built() {
		if r.Days() > 0 {
			return true
		}
	}
	return false
}

// powerScale writes watts in one unit for a panel: kW below 1 MW, else MW.
type powerScale struct {
	name string
	div  float64
}

func powerScaleFor(topW float64) powerScale {
	if topW >= 1e6 {
		return powerScale{"MW", 1e6}
	}
	return powerScale{"kW", 1e3}
}

// text writes v (in the scale's unit) with three significant figures.
func (s powerScale) text(v float64) string {
	dec := 1
	if v < 10 {
		dec = 2
	}
	return fmt.Sprintf("%.*f %s", dec, v, s.name)
}

// stylePlot is one measure's bars, one per style that builds, the
// scenario's own in colour and the others grey, each with its value.
func stylePlot(m styleMeasure, rows []explore.StyleRow) (*plot.Plot, Series, error) {
	own := make(plotter.Values, len(rows))
	others := make(plotter.Values, len(rows))
	vals := make([]float64, len(rows))
	labels := make([]string, len(rows))
	texts := make([]string, len(rows))
	top := 0.0
	for i, r := range rows {
		v := m.value(r)
		vals[i], texts[i], labels[i] = v, m.format(v), styleLabel(r)
		if r.Own {
			own[i] = v
		} else {
			others[i] = v
		}
		top = max(top, v)
	}
	p := newPlot(m.title(rows, vals, m.format), "", m.yLabel)
	p.Y.Tick.Marker = m.ticks
	base, err := newBars(others)
	if err != nil {
		return nil, Series{}, err
	}
	base.Color = Grey
	mine, err := newBars(own)
	if err != nil {
		return nil, Series{}, err
	}
	mine.Color = colour(0)
	mine.StackOn(base)
	l, err := valueLabels(mine, texts)
	if err != nil {
		return nil, Series{}, err
	}
	p.Add(&fittedBars{categories: len(rows), groups: [][]*plotter.BarChart{{base, mine}}, labels: []*plotter.Labels{l}})
	nominal(p, labels...)
	headroom(p, top, 0)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = styleName(r)
	}
	return p, Series{Name: m.name, Labels: names, Values: vals}, nil
}

// styleLabel is a style's category label: its name, rail-optimized cut
// to "rail-opt." so five names fit under a half-width panel, with its
// uplinks' speed on a second line where they outrun its server ports
// (styleName).
func styleLabel(r explore.StyleRow) string {
	if r.Style == planner.TopoRailOptimized {
		return "rail-opt."
	}
	if up := fastUplinks(r); up > 0 {
		return fmt.Sprintf("%s\n%dG up", r.Label(), up) // short: five labels share a half-width panel
	}
	return r.Label()
}

// styleName names a style's row in the titles, data and footnote: its
// label, with the uplinks' speed where they run faster than the row's
// server ports ("dual-plane (400G uplinks)"). The comparison builds
// dual-plane as Alibaba HPN does, 2 x 200G ports down and 400G up, which
// is not the design topology = "dual-plane" alone plans (uplinks at the
// ports' speed; at 6,152 NDR GPUs 3 tiers and $55.30M against 2 tiers
// and $44.58M): a bar must say why it costs what it does.
func styleName(r explore.StyleRow) string {
	if up := fastUplinks(r); up > 0 {
		return fmt.Sprintf("%s (%dG uplinks)", r.Label(), up)
	}
	return r.Label()
}

// fastUplinks is the row's uplink speed in Gb/s where its plan runs the
// uplinks faster than its server ports, 0 otherwise.
func fastUplinks(r explore.StyleRow) int {
	if p := r.Plan; p != nil && p.UplinkGbps > p.PortGbps {
		return p.UplinkGbps
	}
	return 0
}

// lowestTitle titles a panel with the style lowest in it ("Fabric cost:
// lowest top-of-rack, $5.02M") and this plan's value where another is
// lower; "the same in every style" when all are equal. Where this plan
// is written as the lowest value is, it is the lowest, named with the
// styles it ties ("this plan (rail-optimized) and ToR, 18/ToR fewest,
// 84"; past one, their count): never as this plan alone, nor as another
// style below this plan's equal bar. Ties among the others are left to
// the bars, so the title keeps to two lines on a small export.
func lowestTitle(name, least string) func([]explore.StyleRow, []float64, func(float64) string) string {
	return func(rows []explore.StyleRow, vals []float64, format func(float64) string) string {
		if allEqual(vals) && writtenAlike(vals, format) {
			return fmt.Sprintf("%s: %s in every style", name, format(vals[0]))
		}
		lo, ownI := lowestRow(rows, vals, format)
		low := format(vals[lo])
		if lo == ownI {
			return fmt.Sprintf("%s: this plan (%s)%s %s, %s", name, styleName(rows[lo]), tiedWith(rows, vals, format, lo), least, low)
		}
		title := fmt.Sprintf("%s: %s %s, %s", name, least, styleName(rows[lo]), low)
		if ownI >= 0 {
			title += fmt.Sprintf("; this plan %s", format(vals[ownI]))
		}
		return title
	}
}

// lowestRow is the row a title names as lowest (this plan's where it is
// written as the lowest value is) and this plan's row (-1: none).
func lowestRow(rows []explore.StyleRow, vals []float64, format func(float64) string) (lo, ownI int) {
	lo, ownI = 0, -1
	for i, v := range vals {
		if v < vals[lo] {
			lo = i
		}
		if rows[i].Own {
			ownI = i
		}
	}
	if ownI >= 0 && format(vals[ownI]) == format(vals[lo]) {
		lo = ownI
	}
	return lo, ownI
}

// tiedWith names the other styles written as row lo's value: " and
// ToR, 18/ToR", past one " and 2 others", "" when none.
func tiedWith(rows []explore.StyleRow, vals []float64, format func(float64) string, lo int) string {
	var ties []string
	for i, v := range vals {
		if i != lo && format(v) == format(vals[lo]) {
			ties = append(ties, styleName(rows[i]))
		}
	}
	switch len(ties) {
	case 0:
		return ""
	case 1:
		return " and " + ties[0]
	}
	return fmt.Sprintf(" and %d others", len(ties))
}

// allEqual says every value is within 0.1% of the first.
func allEqual(vals []float64) bool {
	for _, v := range vals {
		if math.Abs(v-vals[0]) > 1e-3*math.Abs(vals[0]) {
			return false
		}
	}
	return true
}

// writtenAlike says every value is written as the first is: bars
// labelled 12.36 and 12.37 days are not "the same in every style" even
// where they differ by less than allEqual's 0.1%.
func writtenAlike(vals []float64, format func(float64) string) bool {
	for _, v := range vals {
		if format(v) != format(vals[0]) {
			return false
		}
	}
	return true
}

// stylesFootnote says what each style was built with (switch, tiers,
// links and transceivers), which styles do not build and why, and the
// findings of those that do; the short form leaves out the per-style
// builds.
func stylesFootnote(p *planner.Plan, c *explore.StyleComparison) (full, short string) {
	var built []string
	for _, r := range c.Built() {
		q := r.Plan
		built = append(built, fmt.Sprintf("%s: %s, %s, %s links, %s transceivers", styleName(r), q.SwitchesText(),
			textfmt.Plural(q.Tiers, "tier"), textfmt.Int(q.Links.Total), textfmt.Int(q.ServerTransceivers+q.SwitchTransceivers)))
	}
	cluster := fmt.Sprintf("%s GPUs, %s %dG", textfmt.Int(p.GPUs), p.Scenario.Network.Fabric.Short(), p.Scenario.Network.NICGbps)
	if title := planTitle(p); !strings.HasPrefix(cluster, title) { // an unnamed plan's title is its GPU count
		cluster = title + ": " + cluster
	}
	head := cluster + ", the same workload in every style; the scenario's own style in colour."
	var tail []string
	if !hasJobTime(c) {
		tail = append(tail, "No job-time estimate: the workload does not run on this cluster (see the plan's notes); transceivers shown instead.")
	}
	for _, r := range c.Rows {
		if r.Plan == nil {
			tail = append(tail, fmt.Sprintf("%s does not build: %s.", r.Label(), buildProblem(r.Err)))
		}
		for _, f := range r.Findings {
			tail = append(tail, fmt.Sprintf("%s: %s.", r.Label(), f))
		}
		if up := fastUplinks(r); up > 0 && !r.Own {
			tail = append(tail, fmt.Sprintf("%s as Alibaba HPN builds it: %dG uplinks over %dG ports; topology = %q alone runs them at %dG.",
				r.Label(), up, r.Plan.PortGbps, r.Style, r.Plan.PortGbps))
		}
	}
	full = head + "\n" + strings.Join(built, "; ") + "."
	short = head
	if len(tail) > 0 {
		full += "\n" + strings.Join(tail, "\n")
		short += "\n" + strings.Join(tail, "\n")
	}
	return full, short
}

// buildProblem is why a style does not build, in the footnote's words:
// a field error's problem and field without its fix (the plan of that
// style, not this one, is where the fix applies), any other error whole.
func buildProblem(err error) string {
	var fe *fielderr.FieldError
	switch {
	case err == nil:
		return "no plan"
	case errors.As(err, &fe):
		return fe.Field + ": " + fe.Problem
	}
	return err.Error()
}
