package charts

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/resilience"
)

// Resilience draws the failure what-if of the plan: the step-time
// slowdown of each single failure (continuing on the paths left, or
// restarting without the GPUs cut off), and, across cluster sizes from a
// sweep, goodput (ETTR at the optimal checkpoint interval) and job
// interruptions a day, with this plan marked.
func Resilience(in Input) (*Figure, error) {
	if err := needPlan(in, "resilience"); err != nil {
		return nil, err
	}
	p := in.Plan
	r := p.Resilience
	if r == nil || p.JCT == nil || r.Serving {
		return nil, fmt.Errorf("%w: the resilience chart needs a training job's JCT estimate (the workload must fit the cluster; a serving plan's failures are in fabricplan resilience) and reliability data", ErrMissingInput)
	}
	slow, data, foot, err := slowdownPlot(r)
	if err != nil {
		return nil, err
	}
	panels := []*plot.Plot{slow}
	weights := []float64{1.3}
	var sizes []explore.SweepRow
	for _, row := range in.Sweep {
		if row.Err == nil && row.Plan != nil && row.Plan.Resilience != nil && row.Plan.JCT != nil {
			sizes = append(sizes, row)
		}
	}
	if len(sizes) > 1 {
		ettr, rate, sizeData, err := goodputPlots(p, sizes)
		if err != nil {
			return nil, err
		}
		panels = append(panels, ettr, rate)
		weights = append(weights, 1, 1)
		data = append(data, sizeData...)
	}
	g := r.Goodput
	foot = fmt.Sprintf("Estimates. Interruptions from the plan's parts at the rates of data/reliability.toml (GPU, host and NIC from Llama 3's 54-day run; "+
		"links and switches from Alibaba HPN); goodput = ETTR (Kokolis et al. 2025) with a %.0f min restart; %s%s, "+
		"at the optimal interval. This plan: %.2f interruptions a day (one every %s), ETTR %.1f%%, JCT with failures %s.%s",
		r.Inputs.Recovery.RestartMin, r.Inputs.Recovery.StallText(), in.Plan.CheckpointSource(), g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours), 100*g.ETTR, g.JCTText(), foot)
	return &Figure{Name: "resilience", Panels: [][]*plot.Plot{panels}, Weights: weights, Footnote: foot, Data: data}, nil
}

// slowdownPlot is one horizontal bar per failure case: the per cent the
// step time grows while the part is down, coloured by what the job does.
func slowdownPlot(r *resilience.Resilience) (*plot.Plot, []Series, string, error) {
	cases := r.Cases
	worst := -1
	for i, c := range cases {
		if !math.IsInf(c.Slowdown, 1) && (worst < 0 || c.Slowdown > cases[worst].Slowdown) {
			worst = i
		}
	}
	title := "Single failures: step time while a part is down"
	if worst >= 0 {
		w := cases[worst]
		title = fmt.Sprintf("Worst single failure: %s,\njob %s %s slower", w.Name, w.Behaviour, pctText(w.Slowdown-1))
	}
	pl := newPlot(title, "step time added while down (%)", "")
	n := len(cases)
	names := make([]string, n)
	cont, restart := make(plotter.Values, n), make(plotter.Values, n)
	var stopped []string
	maxV, minV := 0.0, 0.0
	labels := make([]string, n)
	values := make([]float64, n)
	for i, c := range cases {
		row := n - 1 - i // first case on top
		names[row] = fmt.Sprintf("%s\n×%s", c.Name, textfmt.Int(c.Count))
		v := 100 * (c.Slowdown - 1)
		switch {
		case math.IsInf(c.StepS, 1):
			stopped = append(stopped, c.Name)
			labels[row], values[row] = string(c.Behaviour), math.NaN()
			continue
		case c.Behaviour == resilience.Continues:
			cont[row] = v
		default:
			restart[row] = v
		}
		values[row] = v
		labels[row] = fmt.Sprintf("%s, %s", pctText(c.Slowdown-1), c.Behaviour)
		maxV, minV = max(maxV, v), min(minV, v)
	}
	width := vg.Points(14)
	bc, err := plotter.NewBarChart(cont, width)
	if err != nil {
		return nil, nil, "", err
	}
	br, err := plotter.NewBarChart(restart, width)
	if err != nil {
		return nil, nil, "", err
	}
	for _, b := range []*plotter.BarChart{bc, br} {
		b.Horizontal = true
		b.LineStyle.Width = 0
	}
	bc.Color, br.Color = colour(2), colour(5)
	pl.Add(bc, br)
	// Short entries: each bar's label says which, the footnote why.
	pl.Legend.Add("job continues", bc)
	pl.Legend.Add("job restarts", br)
	pl.Legend.Left = false
	pl.NominalY(names...)
	if maxV <= 0 {
		maxV = 1
	}
	// A restart on fewer GPUs can be a little faster: its bar runs left
	// of zero and the axis with it.
	pl.X.Min, pl.X.Max = minV*1.15, maxV*1.45
	pl.Y.Min, pl.Y.Max = -0.7, float64(n)-0.3+1.2
	pl.X.Tick.Marker = everyOther{unitTicks{func(v float64) string { return fmt.Sprintf("%g%%", v) }}}
	xs := make(plotter.XYs, n)
	for i := range xs {
		x := values[i]
		if !(x > 0) { // NaN (no bar) or a bar left of zero
			x = 0 // a name starts right of zero, never on its bar
		}
		xs[i] = plotter.XY{X: x, Y: float64(i)}
	}
	tl, err := plotter.NewLabels(plotter.XYLabels{XYs: xs, Labels: labels})
	if err != nil {
		return nil, nil, "", err
	}
	for i := range tl.TextStyle {
		tl.TextStyle[i].Font, tl.TextStyle[i].Color = sans, Ink
		tl.TextStyle[i].Font.Size = tickSize
		tl.TextStyle[i].YAlign = draw.YCenter
	}
	tl.Offset.X = vg.Points(4)
	pl.Add(tl)
	var foot string
	if len(stopped) > 0 {
		foot = fmt.Sprintf(" No bar: %s (the job stops until the part is repaired).", strings.Join(stopped, ", "))
	}
	if r.PortFailover {
		foot += " Port failover assumed (multi-plane)."
	}
	return pl, []Series{{Name: "slowdown %", Labels: names, Values: values}}, foot, nil
}

// pctText prints a fraction as a per cent with sensible precision.
func pctText(f float64) string {
	switch v := 100 * f; {
	case v < 0.1:
		return fmt.Sprintf("%.2f%%", v)
	case v < 10:
		return fmt.Sprintf("%.1f%%", v)
	default:
		return fmt.Sprintf("%.0f%%", v)
	}
}

// goodputPlots draws ETTR and interruptions a day against cluster size.
func goodputPlots(p *planner.Plan, rows []explore.SweepRow) (*plot.Plot, *plot.Plot, []Series, error) {
	ettr := make(plotter.XYs, len(rows))
	rate := make(plotter.XYs, len(rows))
	labels := make([]string, len(rows))
	ev, rv := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		g := r.Plan.Resilience.Goodput
		ettr[i] = plotter.XY{X: float64(r.GPUs), Y: 100 * g.ETTRAtOptimum}
		rate[i] = plotter.XY{X: float64(r.GPUs), Y: g.InterruptionsPerDay}
		labels[i], ev[i], rv[i] = fmt.Sprint(r.GPUs), ettr[i].Y, rate[i].Y
	}
	g := p.Resilience.Goodput
	last := rows[len(rows)-1]
	ep, err := sizePlot(fmt.Sprintf("Goodput %.1f%% here,\n%.0f%% at %s", 100*g.ETTRAtOptimum,
		ettr[len(ettr)-1].Y, textfmt.Int(last.GPUs)), "goodput (ETTR, %)", ettr,
		plotter.XY{X: float64(p.GPUs), Y: 100 * g.ETTRAtOptimum})
	if err != nil {
		return nil, nil, nil, err
	}
	ep.Y.Max = 100
	ep.Y.Min = math.Max(0, math.Floor(minY(ettr)/10)*10-10)
	ep.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g%%", v) }}
	rp, err := sizePlot(fmt.Sprintf("%s interruptions\na day here", trimFloat(g.InterruptionsPerDay)), "job interruptions a day", rate,
		plotter.XY{X: float64(p.GPUs), Y: g.InterruptionsPerDay})
	if err != nil {
		return nil, nil, nil, err
	}
	rp.Y.Min = 0
	rp.Y.Max = maxY(rate) * 1.15
	rp.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g", v) }}
	return ep, rp, []Series{{"ettr %", labels, ev}, {"interruptions per day", labels, rv}}, nil
}

func trimFloat(v float64) string {
	if v >= 10 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func minY(xys plotter.XYs) float64 {
	m := math.Inf(1)
	for _, xy := range xys {
		m = math.Min(m, xy.Y)
	}
	return m
}

func maxY(xys plotter.XYs) float64 {
	m := 0.0
	for _, xy := range xys {
		m = math.Max(m, xy.Y)
	}
	return m
}

// sizePlot is a line against cluster size (log axis) with the plan
// marked.
func sizePlot(title, yLabel string, xys plotter.XYs, plan plotter.XY) (*plot.Plot, error) {
	pl := newPlot(title, "GPUs (log scale)", yLabel)
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = log2Ticks{most: 2}
	line, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colour(0), vg.Points(2)
	pts.Color, pts.Shape, pts.Radius = colour(0), draw.CircleGlyph{}, vg.Points(2)
	mark, err := plotter.NewScatter(plotter.XYs{plan})
	if err != nil {
		return nil, err
	}
	mark.GlyphStyle = draw.GlyphStyle{Color: Ink, Radius: vg.Points(5), Shape: draw.PyramidGlyph{}}
	pl.Add(line, pts, mark)
	pl.Legend.Add("this plan", mark)
	pl.Legend.Left = false
	return pl, nil
}

// everyOther keeps every other label of a ticker's labelled ticks, for a
// narrow axis; zero, where the axis has it, always keeps its label (the
// labels kept are those an even count of labels away from it).
type everyOther struct{ plot.Ticker }

func (e everyOther) Ticks(min, max float64) []plot.Tick {
	ticks := e.Ticker.Ticks(min, max)
	keep, n := 0, 0
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		if ticks[i].Value == 0 {
			keep = n % 2
		}
		n++
	}
	n = 0
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		if n%2 != keep {
			ticks[i].Label = ""
		}
		n++
	}
	return ticks
}
