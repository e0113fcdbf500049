package charts

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/planner"
)

// SearchChart draws every searched design as cost against JCT, the Pareto
// front as a line, and the picks (cheapest meeting the target, fastest in
// budget) as labelled marks.
func SearchChart(in Input) (*Figure, error) {
	r := in.Search
	if r == nil || len(r.Designs) == 0 {
		return nil, fmt.Errorf("%w: the search chart needs a design search (fabricplan search)", ErrMissingInput)
	}
	p := newPlot("Design search: fabric cost against job time", "job completion time (days)", "fabric cost (US$)")
	p.Y.Tick.Marker = usdTicks{}
	p.X.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g", v) }}
	all := make(plotter.XYs, 0, len(r.Designs))
	for _, d := range r.Designs {
		if !d.OnFront {
			all = append(all, plotter.XY{X: d.Days, Y: d.CostUSD})
		}
	}
	front := make(plotter.XYs, len(r.Front))
	for i, d := range r.Front {
		front[i] = plotter.XY{X: d.Days, Y: d.CostUSD}
	}
	maxY, minX, maxX := 0.0, r.Front[len(r.Front)-1].Days, 0.0
	for _, d := range r.Designs {
		maxY = max(maxY, d.CostUSD)
		minX = min(minX, d.Days)
		maxX = max(maxX, d.Days)
	}
	if len(all) > 0 {
		sc, err := plotter.NewScatter(all)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = color.RGBA{0x99, 0x99, 0x99, 0xb0}
		sc.GlyphStyle.Radius = vg.Points(2.2)
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("designs (%s)", planner.FormatInt(len(r.Designs))), sc)
	}
	line, pts, err := plotter.NewLinePoints(front)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colour(0), vg.Points(2)
	pts.Color, pts.Radius, pts.Shape = colour(0), vg.Points(3.5), draw.CircleGlyph{}
	p.Add(line, pts)
	p.Legend.Add("Pareto front", line, pts)
	data := []Series{{Name: "front cost", Values: ys(front)}, {Name: "front days", Values: xs(front)}}
	mark := func(d *planner.Design, name string, c color.Color) error {
		s, err := plotter.NewScatter(plotter.XYs{{X: d.Days, Y: d.CostUSD}})
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
		p.Add(s)
		p.Legend.Add(name+": "+d.Label, s)
		data = append(data, Series{Name: name, Labels: []string{d.Label}, Values: []float64{d.CostUSD, d.Days}})
		return nil
	}
	if d := r.Cheapest; d != nil {
		if err := mark(d, "cheapest meeting target", colour(5)); err != nil {
			return nil, err
		}
	}
	if d := r.FastestInBudget; d != nil {
		if err := mark(d, "fastest in budget", colour(2)); err != nil {
			return nil, err
		}
	}
	if r.Target > 0 {
		t, err := plotter.NewLine(plotter.XYs{{X: r.Target, Y: 0}, {X: r.Target, Y: maxY}})
		if err != nil {
			return nil, err
		}
		t.Color, t.Dashes = colour(5), []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(t)
		p.Legend.Add(fmt.Sprintf("target %.3g days", r.Target), t)
		maxX = max(maxX, r.Target)
		minX = min(minX, r.Target)
	}
	headroom(p, maxY, 5)
	pad := (maxX - minX) * 0.05
	if pad == 0 {
		pad = maxX * 0.05
	}
	p.X.Min, p.X.Max = max(0, minX-pad), maxX+pad
	p.Legend.Left = false
	foot := fmt.Sprintf("%s designs evaluated, %s buildable, %d on the front. Cost and JCT are estimates (data/catalog.toml, data/jct.toml).",
		planner.FormatInt(r.Evaluated), planner.FormatInt(len(r.Designs)), len(r.Front))
	if r.Message != "" {
		foot += "\n" + r.Message
	}
	return &Figure{Name: "search", Panels: [][]*plot.Plot{{p}}, Footnote: foot, Data: data}, nil
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
