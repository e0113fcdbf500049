package charts

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/explore"
)

// Scale draws total switches and cost per GPU against GPU count (log
// axis) from a sweep, with a dashed line where the fabric gains a tier.
func Scale(in Input) (*Figure, error) {
	var rows []explore.SweepRow
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
			wholeDollars.text(p.Cost.PerGPU), wholeDollars.text(lo), wholeDollars.text(hi))
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
	sw, err := scalePlot(swTitle, "switches (log scale)", logSwitches, true, in.TierSteps, logPlan, nil)
	if err != nil {
		return nil, err
	}
	cost, err := scalePlot(costTitle, "US$ per GPU", perGPU, false, in.TierSteps, planCost, pricedFlat(rows))
	if err != nil {
		return nil, err
	}
	foot := scaleFootnote(rows, in.TierSteps, len(in.Sweep)-len(rows))
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
			label = map[bool]string{false: "no plan", true: "over 3 tiers"}[st.TooLarge]
		}
		step.Labels, step.Values = append(step.Labels, label), append(step.Values, float64(st.GPUs))
	}
	data = append(data, step)
	return &Figure{Name: "scale", Panels: [][]*plot.Plot{{sw}, {cost}}, Footnote: foot, Data: data}, nil
}

// scaleFootnote says what the sweep rows share (fabric, NIC speed,
// switch, ratio, planes), their sizes, the tier steps and how many
// sizes (dropped) need more than three tiers.
func scaleFootnote(rows []explore.SweepRow, steps []explore.TierStep, dropped int) string {
	first := rows[0].Plan
	planes := "1 plane"
	if first.Planes != 1 {
		planes = fmt.Sprintf("%d planes", first.Planes)
	}
	foot := fmt.Sprintf("%s %dG, %s, leaf %s, %s; %d sizes from %s to %s GPUs; tier steps found exactly by the planner.",
		first.Scenario.Network.Fabric.Short(), first.Scenario.Network.NICGbps, switchName(rows),
		first.Scenario.Network.Oversubscription, planes, len(rows), textfmt.Int(rows[0].GPUs), textfmt.Int(rows[len(rows)-1].GPUs))
	var named []string
	for _, st := range steps {
		named = append(named, stepText(st))
	}
	if len(named) > 0 {
		foot += " Tier steps (dashed): " + strings.Join(named, "; ") + "."
	}
	if dropped > 0 {
		foot += fmt.Sprintf(" %d larger sizes do not plan (more than three tiers, or an input's limit) and are not drawn.", dropped)
	}
	switch flat := explore.PricedFlatRows(rows); {
	case flat == len(rows):
		foot += " Each size is priced with each tier's links at one length, not laid out in a data hall."
	case flat > 0:
		foot += fmt.Sprintf(" Rings (dashed): %s priced with each tier's links at one length; dots (solid): laid out in the hall.",
			textfmt.Plural(flat, "size"))
	}
	if n := explore.PricedCountedRows(rows); n > 0 {
		foot += fmt.Sprintf(" Estimate: %s laid out in the data hall with their links counted by rack pair, within 0.5%% of walking every link as the plan does (the plan's own size is walked).",
			textfmt.Plural(n, "size"))
	}
	return foot
}

func switchName(rows []explore.SweepRow) string {
	name := rows[0].Plan.SwitchModelsText()
	for _, r := range rows {
		if r.Plan.SwitchModelsText() != name {
			return "switch chosen per size"
		}
	}
	return name
}

// scalePlot draws xys against GPUs with the tier steps and the plan
// marked. With log10Y the y values are log10 of the quantity: the axis is
// labelled in the quantity and spans a decade's margin either side.
func scalePlot(title, yLabel string, xys plotter.XYs, log10Y bool, steps []explore.TierStep, plan *plotter.XY, hollow []bool) (*plot.Plot, error) {
	p := newPlot(title, "GPUs (log scale)", yLabel)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = wholeDollars // the y axis is cost per GPU
	if log10Y {
		p.Y.Tick.Marker = exp10Ticks{}
	}
	if err := addScaleLines(p, xys, hollow); err != nil {
		return nil, err
	}
	if err := addScalePoints(p, xys, hollow); err != nil {
		return nil, err
	}
	maxY := 0.0
	for _, xy := range xys {
		maxY = max(maxY, xy.Y)
	}
	headroom(p, maxY, 1)
	if log10Y {
		p.Y.Min, p.Y.Max = -0.15, maxY+0.6
	}
	// Tier changes: a dashed vertical line at the exact size where the
	// fabric gains a tier (or stops planning), as the planner found it,
	// named beside it where the name clears the data (stepNames).
	names := &stepNames{data: xys, plan: plan}
	for _, st := range steps {
		x := float64(st.GPUs)
		if x < xys[0].X || x > xys[len(xys)-1].X*1.5 {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
		if err != nil {
			return nil, err
		}
		l.Color = Palette[5]
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		l.Width = vg.Points(1.2)
		p.Add(l)
		names.xs = append(names.xs, x)
		names.texts = append(names.texts, stepText(st))
	}
	if plan != nil {
		mark, err := plotter.NewScatter(plotter.XYs{*plan})
		if err != nil {
			return nil, err
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: vg.Points(5), Shape: draw.PyramidGlyph{}}
		p.Add(mark)
	}
	p.Add(names)
	if len(xys) == 1 { // one point: give the log axis some width
		p.X.Min, p.X.Max = xys[0].X/2, xys[0].X*2
	}
	return p, nil
}

// pricedFlat says, row by row, whether a size was priced with each
// tier's links at one length (not laid out in the hall).
func pricedFlat(rows []explore.SweepRow) []bool {
	flat := make([]bool, len(rows))
	for i, r := range rows {
		flat[i] = r.Priced() == explore.PricedFlat
	}
	return flat
}

// addScaleLines joins neighbouring sizes priced alike: a solid line
// through the sizes laid out in the hall, a thin dashed one through
// those priced with each tier's links at one length (hollow); a size is
// never joined to one priced the other way.
func addScaleLines(p *plot.Plot, xys plotter.XYs, hollow []bool) error {
	flat := func(i int) bool { return i < len(hollow) && hollow[i] }
	for start := 0; start < len(xys); {
		end := start + 1
		for end < len(xys) && flat(end) == flat(start) {
			end++
		}
		if end-start > 1 {
			l, err := plotter.NewLine(xys[start:end])
			if err != nil {
				return err
			}
			l.Color, l.Width = colour(0), vg.Points(2)
			if flat(start) {
				l.Width, l.Dashes = vg.Points(1.2), []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(l)
		}
		start = end
	}
	return nil
}

// addScalePoints marks each size: a filled dot, or a ring where hollow
// says so (a size priced with each tier's links at one length).
func addScalePoints(p *plot.Plot, xys plotter.XYs, hollow []bool) error {
	var filled, rings plotter.XYs
	for i, xy := range xys {
		if i < len(hollow) && hollow[i] {
			rings = append(rings, xy)
		} else {
			filled = append(filled, xy)
		}
	}
	for _, set := range []struct {
		xys    plotter.XYs
		shape  draw.GlyphDrawer
		radius vg.Length
	}{{filled, draw.CircleGlyph{}, vg.Points(2.5)}, {rings, draw.RingGlyph{}, vg.Points(2.5)}} {
		if len(set.xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(set.xys)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colour(0), Radius: set.radius, Shape: set.shape}
		p.Add(sc)
	}
	return nil
}

// stepText names a tier step: "3 tiers from 2,049 GPUs".
func stepText(st explore.TierStep) string {
	if st.Tiers == 0 && st.TooLarge {
		return fmt.Sprintf("over 3 tiers from %s GPUs", textfmt.Int(st.GPUs))
	}
	if st.Tiers == 0 {
		return fmt.Sprintf("no plan from %s GPUs", textfmt.Int(st.GPUs))
	}
	return fmt.Sprintf("%d tiers from %s GPUs", st.Tiers, textfmt.Int(st.GPUs))
}

// stepNames names the plan's mark and the tier steps' lines at draw
// time. "this plan" goes first, at the nearest place round its mark
// (placeLabel) that covers no part of the data line and no step line.
// Then each step's name goes beside its line (right of it, else left),
// in the highest row from the top of the data area where it covers no
// other name, the plan's mark and no part of the data line; a step name
// with no such row is left out (the footnote lists every step).
type stepNames struct {
	xs    []float64
	texts []string
	data  plotter.XYs
	plan  *plotter.XY // the plan's mark, named "this plan"; nil: none
}

// Plot implements plot.Plotter.
func (s *stepNames) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.TextStyle{Color: color.RGBA{0xa0, 0x40, 0x00, 0xff}, Font: sans, Handler: plot.DefaultTextHandler}
	sty.Font.Size = tickSize
	sty.YAlign = draw.YBottom
	lh := sty.Height("Xg")
	pad := vg.Points(3)
	hitsData := s.dataHits(trX, trY)
	var placed []vg.Rectangle
	if s.plan != nil {
		var stepXs []vg.Length
		for _, x := range s.xs {
			stepXs = append(stepXs, trX(x))
		}
		placed = s.placePlan(c, trX(s.plan.X), trY(s.plan.Y), stepXs, hitsData)
	}
	clear := func(r vg.Rectangle) bool {
		if r.Min.X < c.Min.X || r.Max.X > c.Max.X || r.Min.Y < c.Min.Y {
			return false
		}
		return !hitsData(r) && !overlapsAny(r, placed)
	}
	for i, x := range s.xs {
		if r, ok := stepNameBox(c, trX(x), sty.Width(s.texts[i]), lh, pad, clear); ok {
			placed = append(placed, r)
			c.FillText(sty, r.Min, s.texts[i])
		}
	}
}

// dataHits says whether a box (grown by the data's glyphs) covers part of
// the data line, in the canvas of the transforms trX and trY.
func (s *stepNames) dataHits(trX, trY func(float64) vg.Length) func(vg.Rectangle) bool {
	data := polylineSegments(s.data, trX, trY)
	glyph := vg.Points(4) // the data's points are drawn this far around
	return func(r vg.Rectangle) bool {
		grown := vg.Rectangle{Min: vg.Point{X: r.Min.X - glyph, Y: r.Min.Y - glyph}, Max: vg.Point{X: r.Max.X + glyph, Y: r.Max.Y + glyph}}
		for _, seg := range data {
			if segmentHitsBox(seg[0], seg[1], grown) {
				return true
			}
		}
		return false
	}
}

// stepNameBox is where a step's name w wide goes beside its line at x:
// right of it, else left, in the highest row of height lh from the top
// of the data area that is clear; ok is false when no row is.
func stepNameBox(c draw.Canvas, at, w, lh, pad vg.Length, clear func(vg.Rectangle) bool) (vg.Rectangle, bool) {
	for row := 0; row < 8; row++ {
		top := c.Max.Y - vg.Length(row)*lh
		right := vg.Rectangle{Min: vg.Point{X: at + pad, Y: top - lh}, Max: vg.Point{X: at + pad + w, Y: top}}
		if clear(right) {
			return right, true
		}
		left := vg.Rectangle{Min: vg.Point{X: at - pad - w, Y: top - lh}, Max: vg.Point{X: at - pad, Y: top}}
		if clear(left) {
			return left, true
		}
	}
	return vg.Rectangle{}, false
}

// placePlan draws "this plan" by its mark at (x, y), at the nearest
// place inside the canvas that covers no part of the data line and no
// step line (stepXs, in canvas coordinates), with a leader when it had
// to move off; it returns the boxes later names must keep clear of: the
// mark and the name.
func (s *stepNames) placePlan(c draw.Canvas, x, y vg.Length, stepXs []vg.Length, hitsData func(vg.Rectangle) bool) []vg.Rectangle {
	sty := draw.TextStyle{Color: Ink, Font: sans, Handler: plot.DefaultTextHandler}
	sty.Font.Size = tickSize
	sty.YAlign = draw.YCenter
	at := vg.Point{X: x, Y: y}
	r := vg.Points(8) // the mark's half width (its drawn tip reaches past 6 pt), with air
	mark := vg.Rectangle{Min: vg.Point{X: x - r, Y: y - r}, Max: vg.Point{X: x + r, Y: y + r}}
	overlaps := func(b vg.Rectangle) bool {
		if hitsData(b) || b.Min.X < mark.Max.X && mark.Min.X < b.Max.X && b.Min.Y < mark.Max.Y && mark.Min.Y < b.Max.Y {
			return true
		}
		for _, sx := range stepXs {
			if b.Min.X-vg.Points(1) < sx && sx < b.Max.X+vg.Points(1) {
				return true
			}
		}
		return false
	}
	const text = "this plan"
	box, end, ok := placeLabel(at, sty.Width(text), sty.Height("Xg"), vg.Points(8), c.Rectangle, overlaps,
		func(a, b vg.Point) bool { return false }, nil)
	if !ok {
		return []vg.Rectangle{mark}
	}
	if end != at {
		c.StrokeLine2(draw.LineStyle{Color: color.RGBA{0x77, 0x77, 0x77, 0xff}, Width: vg.Points(0.5)}, at.X, at.Y, end.X, end.Y)
	}
	c.FillText(sty, vg.Point{X: box.Min.X, Y: (box.Min.Y + box.Max.Y) / 2}, text)
	return []vg.Rectangle{mark, box}
}
