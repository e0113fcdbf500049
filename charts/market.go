package charts

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/planner"
)

// yearLabels is the years as data labels.
func yearLabels(years []int) []string {
	out := make([]string, len(years))
	for i, y := range years {
		out[i] = fmt.Sprint(y)
	}
	return out
}

// shareLabels prints each bar's shares inside their own blocks: the NIC
// share at the middle of the NIC bar, the switching share in the
// switching bar. nicShare is the NIC percentage of each bar.
func shareLabels(nicShare []float64) (*plotter.Labels, error) {
	var at plotter.XYs
	var texts []string
	for i, v := range nicShare {
		at = append(at, plotter.XY{X: float64(i), Y: v / 2}, plotter.XY{X: float64(i), Y: v + (100-v)/2})
		texts = append(texts, nicShareText(v), fmt.Sprintf("%.0f%%", 100-v))
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: texts})
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font = sans
		l.TextStyle[i].Font.Size = tickSize
		l.TextStyle[i].Color = color.White
		if i%2 == 1 { // the switching block is lighter: dark text reads better
			l.TextStyle[i].Color = Ink
		}
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	return l, nil
}

// nicShareText is the NIC block's label, as short as its height asks: a
// thin block holds the share alone and a sliver none (the panel's title
// states both shares).
func nicShareText(v float64) string {
	switch {
	case v >= 20:
		return fmt.Sprintf("NICs %.0f%%", v)
	case v >= 10:
		return fmt.Sprintf("%.0f%%", v)
	}
	return ""
}

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
	years := yearLabels(m.Technology.Years)
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
	split := newPlot(fmt.Sprintf("NIC vs switch spend, %d", year), "", "share of NIC and switch spend (%)")
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
	stackLegend(split, []string{"NICs", "switching"}, []*plotter.BarChart{bn, bs})
	// Each share is printed inside its own block: the NIC share at the
	// middle of the NIC bar, the switching share in the switching bar.
	l, err := shareLabels(nicShare)
	if err != nil {
		return nil, err
	}
	split.Add(&fittedBars{categories: len(cats), groups: [][]*plotter.BarChart{{bn, bs}}, inner: []*plotter.Labels{l}})
	nominal(split, cats...)
	split.Y.Min, split.Y.Max = 0, 118
	if len(nicShare) == 2 {
		split.Title.Text = fmt.Sprintf("NICs: %.0f%% of this plan's spend,\n%.0f%% of the %d market", nicShare[1], nicShare[0], year)
	}
	if y, ok := crossover(m.Technology.Years, m.Technology.Ethernet, m.Technology.InfiniBand); ok {
		tech.Title.Text = fmt.Sprintf("RDMA revenue: Ethernet passes InfiniBand in %d", y)
	}

	foot := fmt.Sprintf("Source: %s, %s and %s, as printed. The plan's split counts NIC and switch hardware; optics and cables are left out "+
		"because the report's device table has no such category.", m.Citation(), m.Technology.Table, m.Device.Table)
	// The plan's amounts share the scale of its network spend (the third
	// panel); the market's are in billions, as its panel.
	usd := moneyFor(planSpend)
	if p := in.Plan; p != nil && p.Networks != nil && p.Networks.Total.CostUSD > 0 {
		usd = networkMoney(p.Networks)
	}
	if planSpend > 0 {
		foot += fmt.Sprintf(" The %d RDMA market is $%.1fB; this plan's NIC and switch spend, %s, is %.2f%% of it.", year, nics+sw,
			usd.text(planSpend), 100*planSpend/((nics+sw)*1e9))
		if d := nicShare[1] - nicShare[0]; d > 5 || d < -5 {
			foot += fmt.Sprintf(" Its NIC share is %.0f points %s the market's: a rail-optimized back-end gives every GPU a NIC and shares "+
				"each switch among many GPUs, while the market also sells switches into storage and front-end RDMA networks; "+
				"the plan's switch prices are estimates (fabricplan catalog).", abs(d), map[bool]string{true: "above", false: "below"}[d > 0])
		}
	}
	// The short form, for small views: the source, the market against
	// the plan, and where the long form is.
	short := fmt.Sprintf("Source: %s, tables 1 and 2.", m.Citation())
	if planSpend > 0 {
		short += fmt.Sprintf(" The %d market is $%.1fB; this plan's NIC and switch spend, %s, is %.2f%% of it.", year, nics+sw,
			usd.text(planSpend), 100*planSpend/((nics+sw)*1e9))
	}
	short += " Plan prices are estimates; the full notes are in larger exports and the report."
	data = append(data, Series{Name: "NIC share %", Labels: cats, Values: nicShare})
	panels, weights := []*plot.Plot{tech, split}, []float64{1.5, 1}
	if p := in.Plan; p != nil && p.Networks != nil && p.Networks.Total.CostUSD > 0 {
		spend, spendData, err := spendPlot(p.Networks)
		if err != nil {
			return nil, err
		}
		panels, weights = append(panels, spend), []float64{1.25, 1, 0.95}
		tech.Title.Text = strings.Replace(tech.Title.Text, ": ", ":\n", 1)
		data = append(data, spendData...)
		be := p.Networks.Net(planner.NetBackEnd).CostUSD
		foot += fmt.Sprintf(" The report's revenue is back-end spend; this plan's back end, %s, is %.0f%% of its whole network spend of %s "+
			"(front end, storage, out-of-band and management servers: fabricplan plan --networks).",
			usd.text(be), 100*be/p.Networks.Total.CostUSD, usd.text(p.Networks.Total.CostUSD))
	}
	return &Figure{Name: "market", Panels: [][]*plot.Plot{panels}, Weights: weights, Footnote: foot, FootnoteShort: short, Data: data}, nil
}

// crossover is the first year in which a's revenue passes b's after
// trailing it.
func crossover(years []int, a, b []float64) (int, bool) {
	for i := 1; i < len(years) && i < len(a) && i < len(b); i++ {
		if a[i-1] <= b[i-1] && a[i] > b[i] {
			return years[i], true
		}
	}
	return 0, false
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
