package charts

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// netOrder is the networks drawn, bottom of each stack first: the back
// end last, on top of what the cluster has without it.
var netOrder = []string{planner.NetFrontEnd, planner.NetStorage, planner.NetOOB, planner.NetBackEnd}

// netAxis names a network under its bar (two short lines).
func netAxis(name string) string {
	switch name {
	case planner.NetBackEnd:
		return "back end\n(RDMA)"
	case planner.NetFrontEnd:
		return "front\nend"
	case planner.NetOOB:
		return "out-of-\nband"
	case planner.NetMgmt:
		return "mgmt\nservers"
	}
	return name
}

// netShort names a network in a legend.
func netShort(name string) string {
	switch name {
	case planner.NetBackEnd:
		return "back end (RDMA)"
	case planner.NetFrontEnd:
		return "front end"
	case planner.NetOOB:
		return "out-of-band"
	case planner.NetMgmt:
		return "management servers"
	}
	return name
}

// netColour keeps one colour per network across both panels: the back end
// in the plan colour, the others in muted tones.
func netColour(name string) int {
	switch name {
	case planner.NetBackEnd:
		return 0
	case planner.NetFrontEnd:
		return 4
	case planner.NetStorage:
		return 2
	case planner.NetOOB:
		return 1
	}
	return 3
}

// Networks draws the cluster's network ports per server by network,
// without and with the back end (what the back end adds, made
// concrete), and each network's cost.
func Networks(in Input) (*Figure, error) {
	if err := needPlan(in, "networks"); err != nil {
		return nil, err
	}
	p := in.Plan
	n := p.Networks
	if n == nil {
		return nil, fmt.Errorf("%w: the networks chart needs the catalog's side_defaults", ErrMissingInput)
	}
	ports, data, err := portsPerServerPlot(p, n)
	if err != nil {
		return nil, err
	}
	cost, costData, err := networkCostPlot(n)
	if err != nil {
		return nil, err
	}
	data = append(data, costData...)
	a := n.BackEndAdds
	foot := fmt.Sprintf("%s: the back end adds %s ports, %s switches, %s transceivers, %s and %s to the cluster without it "+
		"(its own and the out-of-band ports and management hosts it brings). Other networks sized from %s; prices are estimates (fabricplan catalog).",
		planTitle(p), textfmt.Int(a.Ports), textfmt.Int(a.Switches), textfmt.Int(a.Transceivers),
		networkMoney(n).text(a.CostUSD), textfmt.Watts(a.PowerW), n.Source)
	return &Figure{Name: "networks", Panels: [][]*plot.Plot{{ports, cost}}, Weights: []float64{1, 1.4}, Footnote: foot, Data: data}, nil
}

// portsPerServerPlot stacks one server's ports by network, without and
// with the back end.
func portsPerServerPlot(p *planner.Plan, n *planner.Networks) (*plot.Plot, []Series, error) {
	cats := []string{"without\nback end", "with\nback end"}
	pl := newPlot(fmt.Sprintf("Back end adds %d of %d\nnetwork ports per %s", p.ServerPorts, n.PortsPerServer(), nodeNoun(p)), "", "ports per server")
	pl.Y.Tick.Marker = countTicks{}
	var bars []*plotter.BarChart
	var names []string
	var data []Series
	for _, name := range netOrder {
		net := n.Net(name)
		if net == nil || net.PortsPerServer == 0 {
			continue
		}
		v := float64(net.PortsPerServer)
		values := plotter.Values{v, v}
		if name == planner.NetBackEnd {
			values[0] = 0
		}
		b, err := newBars(values)
		if err != nil {
			return nil, nil, err
		}
		b.Color = colour(netColour(name))
		if len(bars) > 0 {
			b.StackOn(bars[len(bars)-1])
		}
		bars = append(bars, b)
		label := fmt.Sprintf("%s (%d x %dG)", netShort(name), net.PortsPerServer, net.PortGbps)
		names = append(names, label)
		data = append(data, Series{Name: "ports per server: " + netShort(name), Labels: []string{"without back end", "with back end"}, Values: values})
	}
	if len(bars) == 0 {
		return nil, nil, fmt.Errorf("%w: no network has ports on the servers", ErrMissingInput)
	}
	stackLegend(pl, names, bars)
	with := n.PortsPerServer()
	without := with - p.ServerPorts
	labels, err := valueLabels(bars[len(bars)-1], []string{textfmt.Int(without), textfmt.Int(with)})
	if err != nil {
		return nil, nil, err
	}
	pl.Add(&fittedBars{categories: 2, groups: [][]*plotter.BarChart{bars}, labels: []*plotter.Labels{labels}})
	nominal(pl, cats...)
	headroom(pl, float64(with), len(names))
	return pl, data, nil
}

// networkCostPlot is one bar per network: its cost, with the back end's
// share of the whole in the title.
func networkCostPlot(n *planner.Networks) (*plot.Plot, []Series, error) {
	var cats, texts, names []string
	var values plotter.Values
	maxY := 0.0
	usd := networkMoney(n)
	order := append([]string{planner.NetBackEnd}, netOrder[:3]...)
	order = append(order, planner.NetMgmt)
	for _, name := range order {
		net := n.Net(name)
		if net == nil || net.Kind == planner.NetNone {
			continue
		}
		cats = append(cats, netAxis(name))
		names = append(names, name)
		values = append(values, net.CostUSD)
		text := usd.text(net.CostUSD)
		if net.Kind == planner.NetConverged {
			cats[len(cats)-1] = "storage\n(on front end)"
			text = "in front end"
		}
		texts = append(texts, text)
		maxY = max(maxY, net.CostUSD)
	}
	share := 0.0
	if n.Total.CostUSD > 0 {
		share = 100 * n.BackEndAdds.CostUSD / n.Total.CostUSD
	}
	pl := newPlot(fmt.Sprintf("Network cost: back end adds %.0f%%\nof %s", share, usd.text(n.Total.CostUSD)), "", "US$ (estimate)")
	pl.Y.Tick.Marker = usd
	var stacks [][]*plotter.BarChart
	var labels []*plotter.Labels
	// One bar chart per network, so each keeps its colour; each is zero
	// but at its own category.
	for i, name := range names {
		vals := make(plotter.Values, len(cats))
		vals[i] = values[i]
		b, err := newBars(vals)
		if err != nil {
			return nil, nil, err
		}
		b.Color = colour(netColour(name))
		stacks = append(stacks, []*plotter.BarChart{b})
	}
	// Labels ride on one stack that carries every value.
	all, err := newBars(values)
	if err != nil {
		return nil, nil, err
	}
	l, err := valueLabels(all, texts)
	if err != nil {
		return nil, nil, err
	}
	labels = append(labels, l)
	pl.Add(&fittedBars{categories: len(cats), groups: [][]*plotter.BarChart{mergeStacks(stacks)}, labels: labels})
	nominal(pl, cats...)
	headroom(pl, maxY, 2)
	return pl, []Series{{Name: "network cost US$", Labels: names, Values: values}}, nil
}

// mergeStacks stacks single-category bar charts into one slot: each is
// zero outside its own category, so stacking draws each where it belongs.
func mergeStacks(stacks [][]*plotter.BarChart) []*plotter.BarChart {
	var out []*plotter.BarChart
	for _, s := range stacks {
		b := s[0]
		if len(out) > 0 {
			b.StackOn(out[len(out)-1])
		}
		out = append(out, b)
	}
	return out
}

// nodeNoun is "server", or "tray" for a rack-scale system.
func nodeNoun(p *planner.Plan) string {
	if p.System != nil && p.System.RackScale() {
		return "tray"
	}
	return "server"
}

// networkRows are the report's lines on the whole cluster: what the back
// end adds to the cluster without it, and each network's ports per server
// (none when the plan sized no other networks).
func networkRows(p *planner.Plan) [][]string {
	n := p.Networks
	if n == nil {
		return nil
	}
	a := n.BackEndAdds
	var per []string
	for _, name := range append([]string{planner.NetBackEnd}, netOrder[:3]...) {
		if net := n.Net(name); net != nil && net.PortsPerServer > 0 {
			per = append(per, fmt.Sprintf("%s %d x %dG", netShort(name), net.PortsPerServer, net.PortGbps))
		}
	}
	share := 0.0
	if n.Total.CostUSD > 0 {
		share = 100 * a.CostUSD / n.Total.CostUSD
	}
	adds := fmt.Sprintf("%s ports, %s switches, %s transceivers, %s (%.0f%% of the network spend), %s",
		textfmt.Int(a.Ports), textfmt.Int(a.Switches), textfmt.Int(a.Transceivers), planMoney(p).text(a.CostUSD), share, textfmt.Watts(a.PowerW))
	if b := besideBackEnd(p); b != "" {
		adds += " (" + b + ")"
	}
	return [][]string{
		{"The back end adds", adds},
		{"Ports per " + nodeNoun(p), fmt.Sprintf("%d: %s", n.PortsPerServer(), strings.Join(per, ", "))},
	}
}

// besideBackEnd says how much of what the back end adds to the cluster
// is in the other networks that serve it (out-of-band ports for its
// switches, the uplinks they take, its management hosts) rather than in
// the back end itself, whose NIC ports, switches, transceivers, cost and
// power page 1 shows beside it: "583 ports, 12 switches, 70
// transceivers, $0.13M and 3.1 kW of them in the other networks that
// serve it"; "" when the two agree. Only the figures that differ are
// named, so every figure on the page is one number or says why not.
func besideBackEnd(p *planner.Plan) string {
	n := p.Networks
	be := n.Net(planner.NetBackEnd)
	if be == nil {
		return ""
	}
	a := n.BackEndAdds
	var parts []string
	count := func(d int, noun string) {
		if d != 0 {
			parts = append(parts, textfmt.Int(d)+" "+noun)
		}
	}
	count(a.Ports-be.Ports, "ports")
	count(a.Switches-be.Switches, "switches")
	count(a.Transceivers-be.Transceivers, "transceivers")
	if d := a.CostUSD - be.CostUSD; math.Abs(d) >= halfCent {
		parts = append(parts, planMoney(p).text(d))
	}
	if d := a.PowerW - be.PowerW; math.Abs(d) >= halfWatt {
		parts = append(parts, textfmt.Watts(d))
	}
	if len(parts) == 0 {
		return ""
	}
	return textfmt.JoinAnd(parts) + " of them in the other networks that serve it"
}

// halfCent and halfWatt are the smallest cost and power differences
// besideBackEnd names: below them the two figures are the same sum
// added in another order.
const (
	halfCent = 0.005
	halfWatt = 0.5
)

// spendPlot stacks the plan's whole network spend: the back end (what the
// 650 Group's RDMA revenue counts) on the other networks a real cluster
// also buys (front end, storage, out-of-band, management servers).
func spendPlot(n *planner.Networks) (*plot.Plot, []Series, error) {
	be := 0.0
	if b := n.Net(planner.NetBackEnd); b != nil {
		be = b.CostUSD
	}
	other := n.Total.CostUSD - be
	if n.Total.CostUSD <= 0 {
		return nil, nil, fmt.Errorf("%w: the plan's networks cost nothing", ErrMissingInput)
	}
	share := 100 * be / n.Total.CostUSD
	// A short axis label: the panel is the narrowest of the market chart
	// (the footnote says the plan's prices are estimates).
	pl := newPlot(fmt.Sprintf("Back end: %.0f%%\nof network spend", share), "", "US$")
	usd := networkMoney(n)
	pl.Y.Tick.Marker = usd
	ob, err := newBars(plotter.Values{other})
	if err != nil {
		return nil, nil, err
	}
	ob.Color = Grey
	bb, err := newBars(plotter.Values{be})
	if err != nil {
		return nil, nil, err
	}
	bb.Color = colour(0)
	bb.StackOn(ob)
	l, err := valueLabels(bb, []string{usd.text(n.Total.CostUSD)})
	if err != nil {
		return nil, nil, err
	}
	// Each block names itself inside the bar, as the NIC/switch split does.
	inside, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: 0, Y: other / 2}, {X: 0, Y: other + be/2}},
		Labels: []string{"other", "back end"}, // wrapped to the bar's width when narrower
	})
	if err != nil {
		return nil, nil, err
	}
	for i := range inside.TextStyle {
		inside.TextStyle[i].Font = sans
		inside.TextStyle[i].Font.Size = tickSize
		inside.TextStyle[i].Color = color.White
		inside.TextStyle[i].XAlign, inside.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	if other < n.Total.CostUSD*0.08 { // too thin a block for its name
		inside.Labels[0], inside.XYs[0].Y = "", 0
	}
	if be < n.Total.CostUSD*0.08 {
		inside.Labels[1] = ""
	}
	pl.Add(&fittedBars{categories: 1, groups: [][]*plotter.BarChart{{ob, bb}}, labels: []*plotter.Labels{l}, inner: []*plotter.Labels{inside}})
	nominal(pl, "This plan")
	// One category: a name wider than the data area would be both the
	// leftmost and the rightmost glyph, and gonum/plot's padding then
	// divides by zero (every x is NaN, the bar is not drawn). A wider
	// range keeps the data area wider than the name.
	pl.X.Min, pl.X.Max = -1, 1
	headroom(pl, n.Total.CostUSD, 2)
	return pl, []Series{{Name: "network spend US$", Labels: []string{"back end", "other networks"}, Values: []float64{be, other}}}, nil
}

// networkMoney is the scale of the cluster's network spend: the whole
// spend is the largest amount any view of it writes.
func networkMoney(n *planner.Networks) money { return moneyFor(n.Total.CostUSD) }
