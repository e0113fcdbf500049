package charts

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/phases"
)

// Phases draws a phased build-out's two strategies: cumulative spend
// against GPUs online, one point a phase; and the links each phase
// moves when growing as you go (building for the final size moves none).
func Phases(in Input) (*Figure, error) {
	pp := in.Phases
	if pp == nil && in.PhasesErr != nil {
		return nil, fmt.Errorf("%w: the phases do not plan: %w", ErrMissingInput, in.PhasesErr)
	}
	if pp == nil || len(pp.Strategies) == 0 {
		return nil, fmt.Errorf("%w: the phases chart needs a phased plan", ErrMissingInput)
	}
	spend, err := phaseSpendPlot(pp)
	if err != nil {
		return nil, err
	}
	moves, err := phaseMovesPlot(pp)
	if err != nil {
		return nil, err
	}
	p := pp.Final
	foot := fmt.Sprintf("%s: %s, %s, leaf %s; %s. Spend counts parts bought, spares included. Re-cabling: %s.",
		planTitle(p), p.SwitchesText(), textfmt.Plural(p.Tiers, "tier"), pp.Asked, phases.ComparePhases(pp), firstNote(pp))
	var data []Series
	for _, sp := range pp.Strategies {
		s := Series{Name: sp.Key + " cumulative spend"}
		m := Series{Name: sp.Key + " links moved"}
		for _, st := range sp.Steps {
			label := textfmt.Int(st.GPUs)
			s.Labels, s.Values = append(s.Labels, label), append(s.Values, st.CostUSD)
			m.Labels, m.Values = append(m.Labels, label), append(m.Values, float64(st.LinksMoved.Total))
		}
		data = append(data, s, m)
	}
	return &Figure{Name: "phases", Panels: [][]*plot.Plot{{spend}, {moves}}, Footnote: foot, Data: data}, nil
}

// firstNote is the plan's re-cabling assumption.
func firstNote(pp *phases.PhasedPlan) string {
	for _, n := range pp.Notes {
		if len(n) > 12 && n[:12] == "re-cabling: " {
			return n[12:]
		}
	}
	return "see the notes"
}

// phaseSpendPlot is cumulative spend against GPUs online, per strategy.
func phaseSpendPlot(pp *phases.PhasedPlan) (*plot.Plot, error) {
	fs := pp.Strategy(phases.StrategyFinal)
	usd := money{pp.MoneyScale()}
	title := fmt.Sprintf("Spend to date: phase 1 %s for the final size", usd.text(fs.Steps[0].CostUSD))
	if gr := pp.Strategy(phases.StrategyGrow); gr != nil {
		title += fmt.Sprintf(", %s grown", usd.text(gr.Steps[0].CostUSD))
	}
	p := newPlot(title, "GPUs online", "US$ spent to date")
	p.X.Tick.Marker = countTicks{}
	p.Y.Tick.Marker = usd
	maxY, maxX := 0.0, 0.0
	for i, sp := range pp.Strategies {
		xys := make(plotter.XYs, len(sp.Steps))
		for j, st := range sp.Steps {
			xys[j] = plotter.XY{X: float64(st.GPUs), Y: st.CostUSD}
			maxY, maxX = max(maxY, st.CostUSD), max(maxX, float64(st.GPUs))
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = colour(i), vg.Points(2)
		if i > 0 {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		points.Color, points.Radius = colour(i), vg.Points(3.5)
		points.Shape = draw.CircleGlyph{}
		if i > 0 {
			points.Shape = draw.BoxGlyph{}
		}
		p.Add(line, points)
		p.Legend.Add(sp.Name, line, points)
	}
	headroom(p, maxY, len(pp.Strategies))
	p.X.Min, p.X.Max = 0, maxX*1.04
	return p, nil
}

// phaseMovesPlot is the links each phase moves, per strategy, as bars by
// phase.
func phaseMovesPlot(pp *phases.PhasedPlan) (*plot.Plot, error) {
	gr := pp.Strategy(phases.StrategyGrow)
	total, hours := 0, 0.0
	for _, st := range gr.Steps {
		total += st.LinksMoved.Total
		if st.Recabling != nil {
			hours += st.Recabling.Hours
		}
	}
	title := "Links re-cabled: none either way"
	if total > 0 {
		title = fmt.Sprintf("Links re-cabled: %s grown (%s, estimate), 0 for the final size",
			textfmt.Int(total), textfmt.Hours(hours))
	}
	p := newPlot(title, "phase (GPUs online)", "links moved")
	p.Y.Tick.Marker = countTicks{}
	labels := make([]string, len(gr.Steps))
	vals := make(plotter.Values, len(gr.Steps))
	maxY := 0.0
	for i, st := range gr.Steps {
		labels[i] = fmt.Sprintf("%d (%s)", st.Phase, textfmt.Int(st.GPUs))
		vals[i] = float64(st.LinksMoved.Total)
		maxY = max(maxY, vals[i])
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(28))
	if err != nil {
		return nil, err
	}
	bars.Color, bars.LineStyle.Width = colour(1), 0
	p.Add(bars)
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i] = textfmt.Int(int(v))
	}
	lab, err := valueLabels(bars, texts)
	if err != nil {
		return nil, err
	}
	p.Add(lab)
	nominal(p, labels...)
	headroom(p, maxY, 0)
	return p, nil
}
