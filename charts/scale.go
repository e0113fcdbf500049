package charts

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Scale draws total switches and cost per GPU against GPU count (log
// axis) from a sweep, with a dashed line where the fabric gains a tier.
func Scale(in Input) (*Figure, error) {
	var rows []planner.SweepRow
	for _, r := range in.Sweep {
		if r.Err == nil && r.Plan != nil {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: the scale chart needs a sweep with at least one size that plans", ErrMissingInput)
	}
	switches := make(plotter.XYs, len(rows))
	perGPU := make(plotter.XYs, len(rows))
	for i, r := range rows {
		switches[i] = plotter.XY{X: float64(r.GPUs), Y: float64(r.Plan.TotalSwitches())}
		perGPU[i] = plotter.XY{X: float64(r.GPUs), Y: r.Plan.Cost.PerGPU}
	}
	var plan *plotter.XY
	var planCost *plotter.XY
	swTitle, costTitle := "Switches against cluster size", "Fabric cost per GPU against cluster size"
	if p := in.Plan; p != nil {
		plan = &plotter.XY{X: float64(p.GPUs), Y: float64(p.TotalSwitches())}
		planCost = &plotter.XY{X: float64(p.GPUs), Y: p.Cost.PerGPU}
		swTitle = fmt.Sprintf("This plan: %s at %s GPUs (%s)", textfmt.Plural(p.TotalSwitches(), "switch"),
			textfmt.Int(p.GPUs), textfmt.Plural(p.Tiers, "tier"))
		lo, hi := perGPU[0].Y, perGPU[0].Y
		for _, xy := range perGPU {
			lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		}
		costTitle = fmt.Sprintf("Cost per GPU: %s for this plan, %s to %s across sizes",
			textfmt.USDExact(p.Cost.PerGPU), textfmt.USDExact(lo), textfmt.USDExact(hi))
	}
	// Switch counts span four decades: they are drawn as log10 values on
	// a linear axis labelled in switches. (plot.LogScale would centre the
	// axis label at the linear midpoint and pad the panel's top for it.)
	logSwitches := make(plotter.XYs, len(switches))
	for i, xy := range switches {
		logSwitches[i] = plotter.XY{X: xy.X, Y: math.Log10(xy.Y)}
	}
	var logPlan *plotter.XY
	if plan != nil {
		logPlan = &plotter.XY{X: plan.X, Y: math.Log10(plan.Y)}
	}
	sw, err := scalePlot(swTitle, "switches (log scale)", logSwitches, true, in.TierSteps, logPlan)
	if err != nil {
		return nil, err
	}
	cost, err := scalePlot(costTitle, "US$ per GPU", perGPU, false, in.TierSteps, planCost)
	if err != nil {
		return nil, err
	}
	first := rows[0].Plan
	planes := "1 plane"
	if first.Planes != 1 {
		planes = fmt.Sprintf("%d planes", first.Planes)
	}
	foot := fmt.Sprintf("%s %dG, %s, leaf %s, %s; %d sizes from %s to %s GPUs; tier steps found exactly by the planner.",
		fabricWord(first.Scenario.Network.Fabric), first.Scenario.Network.NICGbps, switchName(rows),
		first.Scenario.Network.Oversubscription, planes, len(rows), textfmt.Int(rows[0].GPUs), textfmt.Int(rows[len(rows)-1].GPUs))
	if dropped := len(in.Sweep) - len(rows); dropped > 0 {
		foot += fmt.Sprintf(" %d larger sizes need more than three tiers and are not drawn.", dropped)
	}
	labels := make([]string, len(rows))
	sv, cv := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		labels[i] = fmt.Sprint(r.GPUs)
		sv[i], cv[i] = switches[i].Y, perGPU[i].Y
	}
	data := []Series{{"switches", labels, sv}, {"cost per GPU", labels, cv}}
	step := Series{Name: "tier steps"}
	for _, st := range in.TierSteps {
		label := fmt.Sprintf("%d tiers", st.Tiers)
		if st.Tiers == 0 {
			label = "over 3 tiers"
		}
		step.Labels, step.Values = append(step.Labels, label), append(step.Values, float64(st.GPUs))
	}
	data = append(data, step)
	return &Figure{Name: "scale", Panels: [][]*plot.Plot{{sw}, {cost}}, Footnote: foot, Data: data}, nil
}

func switchName(rows []planner.SweepRow) string {
	name := rows[0].Plan.Switch.Key
	for _, r := range rows {
		if r.Plan.Switch.Key != name {
			return "switch chosen per size"
		}
	}
	return name
}

// scalePlot draws xys against GPUs with the tier steps and the plan
// marked. With log10Y the y values are log10 of the quantity: the axis is
// labelled in the quantity and spans a decade's margin either side.
func scalePlot(title, yLabel string, xys plotter.XYs, log10Y bool, steps []planner.TierStep, plan *plotter.XY) (*plot.Plot, error) {
	p := newPlot(title, "GPUs (log scale)", yLabel)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = usdTicks{}
	if log10Y {
		p.Y.Tick.Marker = exp10Ticks{}
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colour(0), vg.Points(2)
	points.Color, points.Shape, points.Radius = colour(0), draw.CircleGlyph{}, vg.Points(2.5)
	p.Add(line, points)
	maxY := 0.0
	for _, xy := range xys {
		maxY = max(maxY, xy.Y)
	}
	headroom(p, maxY, 1)
	if log10Y {
		p.Y.Min, p.Y.Max = -0.15, maxY+0.6
	}
	// Tier changes: a dashed vertical line at the exact size where the
	// fabric gains a tier (or stops planning), as the planner found it.
	drawn := 0
	for _, st := range steps {
		x := float64(st.GPUs)
		if x < xys[0].X || x > xys[len(xys)-1].X*1.5 {
			continue
		}
		top := p.Y.Min + (p.Y.Max-p.Y.Min)*0.9
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: top}})
		if err != nil {
			return nil, err
		}
		l.Color = Palette[5]
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		l.Width = vg.Points(1.2)
		p.Add(l)
		text := fmt.Sprintf(" %d tiers from %s GPUs", st.Tiers, textfmt.Int(st.GPUs))
		if st.Tiers == 0 {
			text = fmt.Sprintf(" over 3 tiers from %s GPUs", textfmt.Int(st.GPUs))
		}
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: top}}, Labels: []string{text}})
		if err != nil {
			return nil, err
		}
		lab.TextStyle[0].Font = sans
		lab.TextStyle[0].Font.Size = tickSize
		lab.TextStyle[0].Color = color.RGBA{0xa0, 0x40, 0x00, 0xff}
		lab.TextStyle[0].YAlign = draw.YBottom
		// Each step's label a line lower than the one before, so two
		// close steps never print over each other.
		lab.Offset.Y = -vg.Length(drawn%3) * lab.TextStyle[0].Height("Xg")
		drawn++
		if x > xys[len(xys)-1].X/4 { // near the right edge: the text goes left of the line
			lab.TextStyle[0].XAlign = draw.XRight
			lab.Labels[0] = text[1:] + " "
		}
		p.Add(lab)
	}
	if plan != nil {
		mark, err := plotter.NewScatter(plotter.XYs{*plan})
		if err != nil {
			return nil, err
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: vg.Points(5), Shape: draw.PyramidGlyph{}}
		name, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{*plan}, Labels: []string{"this plan"}})
		if err != nil {
			return nil, err
		}
		name.TextStyle[0].Font, name.TextStyle[0].Color = sans, Ink
		name.TextStyle[0].Font.Size = tickSize
		name.TextStyle[0].XAlign, name.TextStyle[0].YAlign = draw.XCenter, draw.YTop
		name.Offset.Y = -vg.Points(8)
		p.Add(mark, name)
	}
	if len(xys) == 1 { // one point: give the log axis some width
		p.X.Min, p.X.Max = xys[0].X/2, xys[0].X*2
	}
	return p, nil
}
