package charts

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/planner"
)

// MarketChart draws the 650 Group's RDMA revenue by technology (with the
// plan's fabric highlighted) and the NIC/switching split of a chosen year
// beside the plan's own NIC/switch spend. Only the report's points are
// drawn; lines between them are straight segments.
func MarketChart(in Input) (*Figure, error) {
	m := in.Market
	if m == nil {
		return nil, fmt.Errorf("%w: the market chart needs the market tables", ErrMissingInput)
	}
	tech := newPlot("RDMA revenue by technology", "year", "US$ billions")
	tech.X.Tick.Marker = yearTicks{}
	tech.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("$%gB", v) }}
	var fabric planner.Fabric
	if in.Plan != nil {
		fabric = in.Plan.Scenario.Network.Fabric
	}
	series := []struct {
		name   string
		values []float64
		f      planner.Fabric
		c      int
	}{
		{"Ethernet (RoCE)", m.Technology.Ethernet, planner.Ethernet, 0},
		{"InfiniBand", m.Technology.InfiniBand, planner.InfiniBand, 1},
		{"Total", m.Technology.Total, "", 7},
	}
	maxY := 0.0
	var data []Series
	years := make([]string, len(m.Technology.Years))
	for i, y := range m.Technology.Years {
		years[i] = fmt.Sprint(y)
	}
	for _, s := range series {
		data = append(data, Series{Name: "revenue: " + s.name, Labels: years, Values: s.values})
		xys := make(plotter.XYs, len(s.values))
		for i, v := range s.values {
			xys[i] = plotter.XY{X: float64(m.Technology.Years[i]), Y: v}
			maxY = max(maxY, v)
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		line.Color, pts.Color = colour(s.c), colour(s.c)
		line.Width, pts.Radius, pts.Shape = vg.Points(1.5), vg.Points(2.5), draw.CircleGlyph{}
		name := s.name
		if s.f == "" {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			line.Color, pts.Color = Grey, Grey
		}
		if s.f != "" && s.f == fabric {
			line.Width, pts.Radius = vg.Points(4), vg.Points(4)
			name += " — this plan's fabric"
		}
		tech.Add(line, pts)
		tech.Legend.Add(name, line, pts)
	}
	headroom(tech, maxY, 3)

	year := in.MarketYear
	if year == 0 {
		year = DefaultMarketYear
	}
	nics, sw, ok := m.DeviceSplit(year)
	if !ok {
		return nil, fmt.Errorf("the report has no device split for %d: choose %d to %d", year, m.Device.Years[0], m.Device.Years[len(m.Device.Years)-1])
	}
	split := newPlot(fmt.Sprintf("NIC vs switch spend, %d", year), "", "share of spend (%)")
	split.Y.Tick.Marker = unitTicks{func(v float64) string { return fmt.Sprintf("%g%%", v) }}
	cats := []string{fmt.Sprintf("Market\n%d", year)}
	nicShare := []float64{100 * nics / (nics + sw)}
	var planSpend float64
	if p := in.Plan; p != nil {
		planSpend = p.Cost.NICs + p.Cost.Switches
		cats = append(cats, "This\nplan")
		nicShare = append(nicShare, 100*p.Cost.NICs/planSpend)
	}
	swShare := make(plotter.Values, len(nicShare))
	for i, v := range nicShare {
		swShare[i] = 100 - v
	}
	bn, err := newBars(plotter.Values(nicShare))
	if err != nil {
		return nil, err
	}
	bn.Color = colour(2)
	bs, err := newBars(swShare)
	if err != nil {
		return nil, err
	}
	bs.Color = colour(3)
	bs.StackOn(bn)
	stackLegend(split, []string{"NICs (%)", "switching"}, []*plotter.BarChart{bn, bs})
	texts := make([]string, len(nicShare))
	for i, v := range nicShare {
		texts[i] = fmt.Sprintf("%.0f%%", v)
	}
	l, err := valueLabels(bs, texts)
	if err != nil {
		return nil, err
	}
	split.Add(&fittedBars{categories: len(cats), groups: [][]*plotter.BarChart{{bn, bs}}, labels: []*plotter.Labels{l}}, l)
	nominal(split, cats...)
	split.Y.Min, split.Y.Max = 0, 118

	foot := fmt.Sprintf("Source: %s, %s and %s, as printed. The plan's split counts NIC and switch hardware; optics and cables are left out "+
		"because the report's device table has no such category.", m.Citation(), m.Technology.Table, m.Device.Table)
	if planSpend > 0 {
		foot += fmt.Sprintf(" The %d RDMA market is $%.1fB; this plan's NIC and switch spend, %s, is %.2f%% of it.", year, nics+sw,
			planner.FormatUSD(planSpend), 100*planSpend/((nics+sw)*1e9))
		if d := nicShare[1] - nicShare[0]; d > 5 || d < -5 {
			foot += fmt.Sprintf(" Its NIC share is %.0f points %s the market's: a rail-optimized back-end gives every GPU a NIC and shares "+
				"each switch among many GPUs, while the market also sells switches into storage and front-end RDMA networks; "+
				"the plan's switch prices are estimates (fabricplan catalog).", abs(d), map[bool]string{true: "above", false: "below"}[d > 0])
		}
	}
	data = append(data, Series{Name: "NIC share %", Labels: cats, Values: nicShare})
	return &Figure{Name: "market", Panels: [][]*plot.Plot{{tech, split}}, Weights: []float64{1.5, 1}, Footnote: foot, Data: data}, nil
}

// yearTicks labels every year without thousands separators.
type yearTicks struct{}

func (yearTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for y := int(min); float64(y) <= max; y++ {
		if float64(y) >= min {
			ticks = append(ticks, plot.Tick{Value: float64(y), Label: fmt.Sprint(y)})
		}
	}
	return ticks
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
