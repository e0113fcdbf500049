package charts

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// JCT draws each variant's training step split into compute, pipeline
// bubble and exposed communication per traffic class, over RDMA and over
// the TCP/IP baseline, and the job completion time with the gain.
func JCT(in Input) (*Figure, error) {
	if err := needPlan(in, "jct"); err != nil {
		return nil, err
	}
	var vs []planner.Variant
	var left []string
	for _, v := range in.variants() {
		if v.Plan.JCT != nil {
			vs = append(vs, v)
		} else {
			left = append(left, v.Label)
		}
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("%w: no JCT estimate (the workload does not fit the cluster)", ErrMissingInput)
	}
	type bar struct {
		label string
		st    perf.StepTime
	}
	var bars []bar
	for _, v := range vs {
		bars = append(bars, bar{"RDMA", v.Plan.JCT.Planned}, bar{"TCP/IP", v.Plan.JCT.Baseline})
	}
	series := []struct {
		name  string
		value func(st perf.StepTime) float64
	}{
		{"compute", func(st perf.StepTime) float64 { return st.ComputeS }},
		{"pipeline bubble", func(st perf.StepTime) float64 { return st.BubbleS }},
	}
	for _, class := range []string{perf.ClassTP, perf.ClassDP, perf.ClassPP, perf.ClassEP} {
		series = append(series, struct {
			name  string
			value func(st perf.StepTime) float64
		}{class + " (exposed)", func(st perf.StepTime) float64 {
			for _, c := range st.Classes {
				if c.Name == class {
					return c.ExposedS
				}
			}
			return 0
		}})
	}
	this := vs[0].Plan.JCT
	step := newPlot(fmt.Sprintf("Step time: %s over RDMA, %s over TCP/IP", textfmt.Seconds(this.Planned.StepS),
		textfmt.Seconds(this.Baseline.StepS)), "", "seconds per step")
	step.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g", v) }}
	var prev *plotter.BarChart
	var stack []*plotter.BarChart
	var data []Series
	barLabels := make([]string, len(bars))
	for i, b := range bars {
		barLabels[i] = b.label
	}
	var names []string
	for si, s := range series {
		vals := make(plotter.Values, len(bars))
		nonzero := false
		for i, b := range bars {
			vals[i] = s.value(b.st)
			nonzero = nonzero || vals[i] > 0
		}
		if !nonzero {
			continue
		}
		data = append(data, Series{Name: "step: " + s.name, Labels: barLabels, Values: vals})
		b, err := newBars(vals)
		if err != nil {
			return nil, err
		}
		b.Color = colour(si)
		if si == 0 {
			b.Color = computeGrey
		}
		if prev != nil {
			b.StackOn(prev)
		}
		prev = b
		stack = append(stack, b)
		names = append(names, s.name)
	}
	stackLegend(step, names, stack)
	texts := make([]string, len(bars))
	maxY := 0.0
	labels := make([]string, len(bars))
	for i, b := range bars {
		texts[i] = textfmt.Seconds(b.st.StepS)
		maxY = max(maxY, b.st.StepS)
		labels[i] = b.label
	}
	l, err := valueLabels(prev, texts)
	if err != nil {
		return nil, err
	}
	step.Add(&fittedBars{categories: len(bars), groups: [][]*plotter.BarChart{stack}, labels: []*plotter.Labels{l}})
	pairedNominal(step, labels, variantNames(vs))
	headroom(step, maxY, 3)

	// Every time in one unit, chosen by the rule of the app's views from
	// the slowest drawn.
	var all []float64
	for _, v := range vs {
		all = append(all, v.Plan.JCT.Planned.Days, v.Plan.JCT.Baseline.Days)
	}
	tu := textfmt.DurationUnitFor(all...)
	unit, perDay := tu.Name, 1/tu.Days
	days := newPlot(fmt.Sprintf("JCT: %s,\n%s faster than TCP/IP", tu.Format(this.Planned.Days), textfmt.Gain(this.Gain)), "", unit)
	days.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g", v) }}
	rdma, tcp := make(plotter.Values, len(vs)), make(plotter.Values, len(vs))
	gains := make([]string, len(vs))
	maxD := 0.0
	for i, v := range vs {
		rdma[i], tcp[i] = v.Plan.JCT.Planned.Days*perDay, v.Plan.JCT.Baseline.Days*perDay
		gains[i] = textfmt.Gain(v.Plan.JCT.Gain)
		maxD = max(maxD, tcp[i])
	}
	bt, err := newBars(tcp)
	if err != nil {
		return nil, err
	}
	bt.Color = Grey
	br, err := newBars(rdma)
	if err != nil {
		return nil, err
	}
	br.Color = colour(0)
	days.Legend.Add("TCP/IP, same links (protocol's share)", bt)
	days.Legend.Add("RDMA (this fabric)", br)
	gl, err := valueLabels(bt, gains)
	if err != nil {
		return nil, err
	}
	days.Add(&fittedBars{categories: len(vs), groups: [][]*plotter.BarChart{{bt}, {br}}, labels: []*plotter.Labels{gl}})
	vl := variantNames(vs)
	nominal(days, vl...)
	headroom(days, maxD, 2)

	j := vs[0].Plan.JCT
	run := fmt.Sprintf("%s on %s, tp %d, pp %d, dp %s, %s tokens per step, %s in all.", j.ModelName, j.GPU.Name,
		j.Workload.TP, j.Workload.PP, textfmt.Int(j.DP), textfmt.Int(j.Workload.GlobalBatchTokens), textfmt.Tokens(j.Workload.TokensTotal))
	foot := "Model estimate: " + run + " Labels over the grey bars: gain = TCP/IP step / RDMA step.\n" +
		"Alpha-beta collective model with NCCL constants; constants and validation in data/jct.toml and the README."
	// The short form, for small pages (760 x 460): the same figures, fewer words.
	short := "Estimate: " + run + " Gain = TCP/IP step / RDMA step; constants and validation in data/jct.toml."
	if f := vs[0].Plan.Networks.FrontEndJCTOrNil(); f != nil {
		foot += fmt.Sprintf("\nWithout a back end, on the front end alone (TCP over its NICs and links): %s a step, %s; the back end is %s faster.",
			textfmt.Seconds(f.StepS), tu.Format(f.Days), textfmt.Gain(f.Gain))
		short += fmt.Sprintf("\nFront end alone (TCP): %s a step, %s; the back end is %s faster.",
			textfmt.Seconds(f.StepS), tu.Format(f.Days), textfmt.Gain(f.Gain))
	}
	var tail string
	if len(left) > 0 {
		tail += fmt.Sprintf("\nNot drawn, no JCT estimate (the workload does not fit): %s.", strings.Join(left, ", "))
	}
	tail += in.unplannedNote()
	foot, short = foot+tail, short+tail
	gainValues := make([]float64, len(vs))
	for i, v := range vs {
		gainValues[i] = v.Plan.JCT.Gain
	}
	data = append(data, Series{unit + ": RDMA", vl, rdma}, Series{unit + ": TCP/IP", vl, tcp}, Series{"gain", vl, gainValues})
	return &Figure{Name: "jct", Panels: [][]*plot.Plot{{step, days}}, Weights: []float64{1.6, 1}, Footnote: foot, FootnoteShort: short, Data: data}, nil
}

// pairedNominal labels bars drawn in pairs: each bar with its own short
// name and, on the line below, each pair with the variant it belongs to,
// centred under the pair so long variant names do not collide.
func pairedNominal(p *plot.Plot, bars, pairs []string) {
	nominal(p, bars...)
	var ticks []plot.Tick
	for i, l := range bars {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: l})
	}
	for k, l := range pairs {
		ticks = append(ticks, plot.Tick{Value: float64(2*k) + 0.5, Label: "\n" + l})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
}
