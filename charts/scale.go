package charts

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	sw, err := scalePlot("Switches against cluster size", "switches (log scale)", switches, log10Ticks{}, rows)
	if err != nil {
		return nil, err
	}
	sw.Y.Scale = plot.LogScale{}
	sw.Y.Min = 0.8
	sw.Y.Max *= 3
	cost, err := scalePlot("Fabric cost per GPU against cluster size", "US$ per GPU", perGPU, usdTicks{}, rows)
	if err != nil {
		return nil, err
	}
	first := rows[0].Plan
	foot := fmt.Sprintf("%s %dG, %s, leaf %s, %d plane(s); %d sizes from %s to %s GPUs.",
		fabricWord(first.Scenario.Network.Fabric), first.Scenario.Network.NICGbps, switchName(rows),
		first.Scenario.Network.Oversubscription, first.Planes, len(rows), planner.FormatInt(rows[0].GPUs), planner.FormatInt(rows[len(rows)-1].GPUs))
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

func scalePlot(title, yLabel string, xys plotter.XYs, ticks plot.Ticker, rows []planner.SweepRow) (*plot.Plot, error) {
	p := newPlot(title, "GPUs (log scale)", yLabel)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Tick.Marker = ticks
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
	// Tier changes: a dashed vertical line at the first size of each tier.
	for i := 1; i < len(rows); i++ {
		if rows[i].Plan.Tiers == rows[i-1].Plan.Tiers {
			continue
		}
		x := float64(rows[i].GPUs)
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: math.Max(p.Y.Min, 1e-9)}, {X: x, Y: p.Y.Max * 0.9}})
		if err != nil {
			return nil, err
		}
		l.Color = Palette[5]
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		l.Width = vg.Points(1.2)
		p.Add(l)
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: p.Y.Max * 0.9}},
			Labels: []string{fmt.Sprintf(" %d tiers from %s", rows[i].Plan.Tiers, planner.FormatInt(rows[i].GPUs))}})
		if err != nil {
			return nil, err
		}
		lab.TextStyle[0].Font = sans
		lab.TextStyle[0].Font.Size = tickSize
		lab.TextStyle[0].Color = color.RGBA{0xa0, 0x40, 0x00, 0xff}
		lab.TextStyle[0].YAlign = draw.YBottom
		p.Add(lab)
	}
	if len(xys) == 1 { // one point: give the log axis some width
		p.X.Min, p.X.Max = xys[0].X/2, xys[0].X*2
	}
	return p, nil
}
