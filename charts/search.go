package charts

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/explore"
)

// offFront is the designs off the Pareto front: those inside the axes
// (xMax days, yMax US$), and those beyond, drawn at the edge.
func offFront(designs []*explore.Design, xMax, yMax float64) (inside, beyond plotter.XYs) {
	for _, d := range designs {
		if d.OnFront {
			continue
		}
		xy := plotter.XY{X: d.Days, Y: d.CostUSD}
		if xy.X <= xMax && xy.Y <= yMax {
			inside = append(inside, xy)
			continue
		}
		beyond = append(beyond, plotter.XY{X: min(xy.X, xMax), Y: min(xy.Y, yMax)})
	}
	return inside, beyond
}

// SearchChart draws every searched design as cost against JCT: the
// Pareto front as a line with each design named, the current plan and the
// picks (cheapest meeting the target, fastest in budget) marked, and the
// target and budget as dashed lines. The axes fit the front and the marks;
// designs far beyond them sit on the frame edge as triangles, counted in
// the footnote, so one outlier cannot squash the front.
func SearchChart(in Input) (*Figure, error) {
	r := in.Search
	if r == nil && in.SearchErr != nil {
		return nil, fmt.Errorf("%w: the design search found nothing to draw: %w", ErrMissingInput, in.SearchErr)
	}
	if r == nil || len(r.Designs) == 0 || len(r.Front) == 0 {
		return nil, fmt.Errorf("%w: the search chart needs a design search (fabricplan search)", ErrMissingInput)
	}
	// One unit for every time on the chart, as in the app's status line.
	unit := r.TimeUnit()
	var plan *explore.Design
	if in.Plan != nil && in.Plan.JCT != nil {
		plan = &explore.Design{Label: "this plan", CostUSD: in.Plan.Cost.Total, Days: in.Plan.JCT.Planned.Days}
	}
	box := searchAxes(r, plan)
	// And one scale for every cost, as in the app's status line and table.
	usd := money{r.MoneyScale()}
	p := newPlot(searchTitle(r, unit, usd), "job completion time ("+unit.Name+")", "fabric cost (US$)")
	p.Y.Tick.Marker = usd
	p.X.Tick.Marker = durationTicks{unit}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = box.xMin, box.xMax, 0, box.yMax

	inside, beyond := offFront(r.Designs, box.xMax, box.yMax)
	grey := color.RGBA{0x99, 0x99, 0x99, 0xb0}
	others := fmt.Sprintf("other designs (%s)", textfmt.Int(len(r.Designs)-len(r.Front)))
	for _, set := range []struct {
		xys   plotter.XYs
		shape draw.GlyphDrawer
		name  string
	}{{inside, draw.CircleGlyph{}, others}, {beyond, draw.TriangleGlyph{}, "beyond the axes, drawn at the edge"}} {
		if len(set.xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(set.xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: grey, Radius: vg.Points(2.2), Shape: set.shape}
		p.Add(sc)
		p.Legend.Add(set.name, sc)
	}
	front := make(plotter.XYs, len(r.Front))
	names := make([]string, len(r.Front))
	for i, d := range r.Front {
		front[i] = plotter.XY{X: d.Days, Y: d.CostUSD}
		names[i] = d.Short
		if names[i] == "" {
			names[i] = d.Label
		}
	}
	line, pts, err := plotter.NewLinePoints(front)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colour(0), vg.Points(2)
	pts.Color, pts.Radius, pts.Shape = colour(0), vg.Points(3.5), draw.CircleGlyph{}
	p.Add(line, pts)
	p.Legend.Add(fmt.Sprintf("Pareto front (%d)", len(r.Front)), line, pts)
	labels := newPointLabels(xs(front), ys(front), names)
	for i := 1; i < len(front); i++ {
		labels.lines = append(labels.lines, [2]vg.Point{{X: vg.Length(front[i-1].X), Y: vg.Length(front[i-1].Y)}, {X: vg.Length(front[i].X), Y: vg.Length(front[i].Y)}})
	}
	data := []Series{{Name: "front cost", Labels: names, Values: ys(front)}, {Name: "front days", Labels: names, Values: xs(front)}}

	mark := func(d *explore.Design, name string, c color.Color, shape draw.GlyphDrawer, radius float64) error {
		s, err := plotter.NewScatter(plotter.XYs{{X: d.Days, Y: d.CostUSD}})
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(radius), Shape: shape}
		p.Add(s)
		labels.avoid = append(labels.avoid, vg.Point{X: vg.Length(d.Days), Y: vg.Length(d.CostUSD)})
		p.Legend.Add(fmt.Sprintf("%s: %s, %s", name, usd.text(d.CostUSD), unit.Format(d.Days)), s)
		data = append(data, Series{Name: name, Labels: []string{d.Label}, Values: []float64{d.CostUSD, d.Days}})
		return nil
	}
	if plan != nil {
		if err := mark(plan, "this plan", Ink, draw.PyramidGlyph{}, 5); err != nil {
			return nil, err
		}
	}
	if d := r.Cheapest; d != nil {
		if err := mark(d, "cheapest meeting target", colour(5), draw.RingGlyph{}, 7); err != nil {
			return nil, err
		}
	}
	if d := r.FastestInBudget; d != nil {
		if err := mark(d, "fastest in budget", colour(2), draw.RingGlyph{}, 9); err != nil {
			return nil, err
		}
	}
	dashed := []vg.Length{vg.Points(5), vg.Points(3)}
	if r.Target > 0 {
		// Up to a little over the dearest design it concerns, clear of
		// the legend at the top.
		t, err := plotter.NewLine(plotter.XYs{{X: r.Target, Y: 0}, {X: r.Target, Y: box.top * 1.1}})
		if err != nil {
			return nil, err
		}
		t.Color, t.Dashes = colour(5), dashed
		p.Add(underLegend{t})
		labels.lines = append(labels.lines, [2]vg.Point{{X: vg.Length(r.Target)}, {X: vg.Length(r.Target), Y: vg.Length(box.top * 1.1)}})
		p.Legend.Add("target "+unit.Format(r.Target), t)
	}
	if r.Budget > 0 {
		b, err := plotter.NewLine(plotter.XYs{{X: box.xMin, Y: r.Budget}, {X: box.xMax, Y: r.Budget}})
		if err != nil {
			return nil, err
		}
		b.Color, b.Dashes = colour(2), dashed
		p.Add(b)
		labels.lines = append(labels.lines, [2]vg.Point{{X: vg.Length(box.xMin), Y: vg.Length(r.Budget)}, {X: vg.Length(box.xMax), Y: vg.Length(r.Budget)}})
		p.Legend.Add("budget "+usd.text(r.Budget), b)
	}
	p.Add(labels) // last: the names sit over the lines they could not avoid
	p.Legend.Left = false
	foot := searchFootnote(in, r, box, len(beyond), unit, usd, plan != nil)
	data = append(data, Series{Name: "axes", Labels: []string{"x max days", "y max US$"}, Values: []float64{box.xMax, box.yMax}})
	return &Figure{Name: "search", Panels: [][]*plot.Plot{{p}}, Footnote: foot, Data: data}, nil
}

// searchFootnote says what the search chart counts, what it leaves out
// or draws at the edge (beyond designs past the axes), and how its
// designs and this plan are priced.
func searchFootnote(in Input, r *explore.SearchResult, box searchBox, beyond int, unit textfmt.DurationUnit, usd money, withPlan bool) string {
	listed := in.where("the Designs table", "fabricplan search")
	foot := fmt.Sprintf("%s designs evaluated, %s buildable, %d on the front; a name with no free room at this size is left out (%s lists all). Cost and JCT are estimates (data/catalog.toml, data/jct.toml).",
		textfmt.Int(r.Evaluated), textfmt.Int(len(r.Designs)), len(r.Front), listed)
	if beyond > 0 {
		foot += fmt.Sprintf(" %s beyond the axes (up to %s and %s) %s drawn as triangles on the edge.",
			textfmt.Plural(beyond, "design"), usd.text(box.maxCost), unit.Format(box.maxDays),
			map[bool]string{true: "is", false: "are"}[beyond == 1])
	}
	switch note := r.PricingNote(); {
	case note != "":
		foot += " " + note
	case withPlan && in.Plan.Hall != nil: // a search of other inputs than the plan's
		foot += " Designs are priced with each tier's links at one length; this plan at the lengths of its data-hall layout, so the same design can show two costs."
	}
	if r.Message != "" {
		foot += "\n" + strings.ToUpper(r.Message[:1]) + r.Message[1:]
	}
	return foot
}

// durationTicks labels an axis in days with round numbers of unit.
type durationTicks struct{ unit textfmt.DurationUnit }

func (t durationTicks) Ticks(min, max float64) []plot.Tick {
	k := t.unit.Days
	ticks := niceTicks(min/k, max/k)
	for i := range ticks {
		ticks[i].Value *= k
	}
	return relabel(ticks, func(v float64) string { return strconv.FormatFloat(math.Round(v/k*1e6)/1e6, 'f', -1, 64) })
}

// searchTitle states what the search found.
func searchTitle(r *explore.SearchResult, unit textfmt.DurationUnit, usd money) string {
	switch {
	case r.Cheapest != nil:
		return fmt.Sprintf("Cheapest within %s: %s at %s", unit.Format(r.Target), r.Cheapest.Short, usd.text(r.Cheapest.CostUSD))
	case r.FastestInBudget != nil:
		return fmt.Sprintf("Fastest within %s: %s, %s", usd.text(r.Budget), r.FastestInBudget.Short, unit.Format(r.FastestInBudget.Days))
	}
	first, last := r.Front[0], r.Front[len(r.Front)-1]
	return fmt.Sprintf("%s more buys %.1f%% less job time (cheapest to fastest design)",
		usd.text(last.CostUSD-first.CostUSD), 100*(1-last.Days/first.Days))
}

// searchBox is the search chart's axes, and how far the designs reach.
type searchBox struct {
	xMin, xMax, yMax float64
	top              float64 // the dearest of the front, the plan and the budget
	maxCost, maxDays float64
}

// searchAxes fits the axes to what matters: the front, the plan, the
// picks, the target and the budget, with room around them. The other
// designs widen the axes only up to their 90th percentile, so a few far
// outliers do not shrink the front to a corner.
func searchAxes(r *explore.SearchResult, plan *explore.Design) searchBox {
	var b searchBox
	lo, hi, top := math.Inf(1), 0.0, 0.0
	keep := func(days, cost float64) {
		lo, hi, top = min(lo, days), max(hi, days), max(top, cost)
	}
	for _, d := range r.Front {
		keep(d.Days, d.CostUSD)
	}
	if plan != nil {
		keep(plan.Days, plan.CostUSD)
	}
	if r.Target > 0 {
		keep(r.Target, 0)
	}
	if r.Budget > 0 {
		keep(lo, r.Budget)
	}
	days := make([]float64, 0, len(r.Designs))
	costs := make([]float64, 0, len(r.Designs))
	for _, d := range r.Designs {
		days, costs = append(days, d.Days), append(costs, d.CostUSD)
		b.maxCost, b.maxDays = max(b.maxCost, d.CostUSD), max(b.maxDays, d.Days)
	}
	sort.Float64s(days)
	sort.Float64s(costs)
	p90 := func(v []float64) float64 { return v[int(0.9*float64(len(v)-1))] }
	span := hi - lo
	if span <= 0 {
		span = max(hi*0.01, 1e-3)
	}
	// Names sit right of the front's points: leave half a span for them.
	b.xMin = max(0, lo-span*0.08)
	b.xMax = min(max(hi+span*0.5, p90(days)), max(b.maxDays, hi+span*0.5))
	b.yMax = min(max(top*1.3, p90(costs)), max(b.maxCost, top*1.3)) * 1.1
	b.top = top
	return b
}

func xs(v plotter.XYs) []float64 {
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i].X
	}
	return out
}

func ys(v plotter.XYs) []float64 {
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i].Y
	}
	return out
}

// underLegend draws a vertical line that stops under the legend's
// bottom (at any x: gonum/plot sets the legend on a canvas a little
// wider than the data's), so the legend never sits on the line.
type underLegend struct{ *plotter.Line }

// Plot implements plot.Plotter.
func (u underLegend) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	xys := append(plotter.XYs(nil), u.XYs...)
	r := p.Legend.Rectangle(c)
	for i, xy := range xys {
		if trY(xy.Y) > r.Min.Y-vg.Points(3) {
			xys[i].Y = p.Y.Min + (p.Y.Max-p.Y.Min)*float64((r.Min.Y-vg.Points(3)-c.Min.Y)/(c.Max.Y-c.Min.Y))
		}
	}
	line := *u.Line
	line.XYs = xys
	line.Plot(c, p)
}
