package charts

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Ports draws the back-end ports per tier (toward servers or the tier
// below, toward the tier above, installed but idle) and the network ports
// of one server with and without the back-end network.
func Ports(in Input) (*Figure, error) {
	if err := needPlan(in, "ports"); err != nil {
		return nil, err
	}
	p := in.Plan
	cats := []string{"Server NICs"}
	down := []float64{float64(p.NICPorts)}
	up := []float64{0}
	idle := []float64{0}
	for i, t := range p.SwitchTiers {
		cats = append(cats, fmt.Sprintf("%s (%s)", tierLabel(t.Name), textfmt.Int(t.Switches)))
		down = append(down, float64(t.DownLinks))
		up = append(up, float64(t.UpLinks))
		idle = append(idle, float64(p.PortsInstalled(i)-t.DownLinks-t.UpLinks)) // a chassis: its bought cards' ports
	}
	installed := p.NICPorts + p.PortsTotal
	tiers := newPlot(fmt.Sprintf("%s — %s back-end ports in %s", planTitle(p), textfmt.Int(installed),
		textfmt.Plural(p.Tiers, "switch tier")), "", "ports")
	tiers.Y.Tick.Marker = countTicks{}
	var bars []*plotter.BarChart
	for i, s := range []struct {
		name   string
		values []float64
	}{{"toward servers / tier below", down}, {"toward tier above", up}, {"installed, idle", idle}} {
		b, err := newBars(plotter.Values(s.values))
		if err != nil {
			return nil, err
		}
		b.Color = colour(i)
		if i == 2 {
			b.Color = Grey
		}
		if len(bars) > 0 {
			b.StackOn(bars[len(bars)-1])
		}
		bars = append(bars, b)
	}
	stackLegend(tiers, []string{"toward servers / tier below", "toward tier above", "installed, idle"}, bars)
	totals := make([]string, len(cats))
	maxY := 0.0
	for i := range cats {
		total := down[i] + up[i] + idle[i]
		totals[i] = textfmt.Int(int(total))
		maxY = max(maxY, total)
	}
	labels, err := valueLabels(bars[len(bars)-1], totals)
	if err != nil {
		return nil, err
	}
	tiers.Add(&fittedBars{categories: len(cats), groups: [][]*plotter.BarChart{bars}, labels: []*plotter.Labels{labels}})
	nominal(tiers, cats...)
	headroom(tiers, maxY, 3)

	front := float64(in.frontEndPorts())
	server := newPlot(fmt.Sprintf("Back-end adds %s\nper server", textfmt.Plural(p.ServerPorts, "port")), "", "network ports")
	server.Y.Tick.Marker = countTicks{}
	fe, err := newBars(plotter.Values{front, front})
	if err != nil {
		return nil, err
	}
	fe.Color = Grey
	be, err := newBars(plotter.Values{0, float64(p.ServerPorts)})
	if err != nil {
		return nil, err
	}
	be.Color = colour(0)
	be.StackOn(fe)
	stackLegend(server, []string{in.otherNetworks(), "back-end (RDMA)"}, []*plotter.BarChart{fe, be})
	perServer, err := valueLabels(be, []string{textfmt.Int(int(front)), textfmt.Int(int(front) + p.ServerPorts)})
	if err != nil {
		return nil, err
	}
	server.Add(&fittedBars{categories: 2, groups: [][]*plotter.BarChart{{fe, be}}, labels: []*plotter.Labels{perServer}})
	nominal(server, strings.ReplaceAll(in.withoutBackEnd(), " ", "\n"), "with\nback-end")
	headroom(server, front+float64(p.ServerPorts), 2)

	data := []Series{
		{"ports toward servers or tier below", cats, down}, {"ports toward tier above", cats, up}, {"ports installed idle", cats, idle},
		{"ports per server", []string{in.withoutBackEnd(), "with back-end"}, []float64{front, front + float64(p.ServerPorts)}},
	}
	fig := &Figure{Name: "ports", Panels: [][]*plot.Plot{{tiers, server}}, Weights: []float64{2.6, 1}, Data: data,
		Footnote: fmt.Sprintf("%s: %d back-end ports per server at %dG, %s, %s. Ports per server beside the back end: %d (%s).",
			planTitle(p), p.ServerPorts, p.PortGbps, textfmt.Plural(p.Planes, "plane"), textfmt.Plural(p.Tiers, "tier"), int(front), frontSource(in))}
	return fig, nil
}

// frontEndPorts is a server's ports on the networks beside the back end:
// the plan's front-end, storage and out-of-band ports when it sized them,
// else the market file's front-end estimate.
func (in Input) frontEndPorts() int {
	if p := in.Plan; p != nil && p.Networks != nil {
		return p.Networks.PortsPerServer() - p.ServerPorts
	}
	if in.Market != nil {
		return in.Market.Servers.FrontEndPortsPerServer
	}
	return 2
}

// otherNetworks names the ports beside the back end in a legend.
func (in Input) otherNetworks() string {
	if p := in.Plan; p != nil && p.Networks != nil {
		return "other networks"
	}
	return "front-end"
}

// withoutBackEnd names the server without the back end.
func (in Input) withoutBackEnd() string {
	if p := in.Plan; p != nil && p.Networks != nil {
		return "without back-end"
	}
	return "front-end only"
}

// frontSource says where the front-end port count comes from: an
// estimate of ours, which the 650 Group report does not give (it says
// only that back-end networks add ports to each server).
func frontSource(in Input) string {
	if p := in.Plan; p != nil && p.Networks != nil {
		return "the plan's front-end, storage and out-of-band networks (fabricplan plan --networks; " + p.Networks.Source + ")"
	}
	return "estimate: a server's front-end network has 1-2 ports (data/market.toml); the 650 Group report gives no count"
}

func tierLabel(name string) string {
	switch name {
	case planner.TierLeaf:
		return "Leaf"
	case planner.TierSpine:
		return "Spine"
	case planner.TierCore:
		return "Core"
	}
	return name
}

// PortsCompare draws the ports each variant adds, stacked by tier, and
// its network ports per server: the ports chart for several plans.
func PortsCompare(in Input) (*Figure, error) {
	if err := needPlan(in, "ports"); err != nil {
		return nil, err
	}
	vs := in.variants()
	tierPorts := func(tier string) func(p *planner.Plan) float64 {
		return func(p *planner.Plan) float64 {
			for _, t := range p.SwitchTiers {
				if t.Name == tier {
					return float64(t.DownLinks + t.UpLinks)
				}
			}
			return 0
		}
	}
	comps := []component{
		{"server NIC ports", func(p *planner.Plan) float64 { return float64(p.NICPorts) }},
		{"leaf ports", tierPorts(planner.TierLeaf)},
		{"spine ports", tierPorts(planner.TierSpine)},
		{"core ports", tierPorts(planner.TierCore)},
	}
	var data []Series
	total, err := stackedPlot("Back-end ports in use by tier", "ports", vs, comps, sumFigure(comps, intText), countTicks{}, &data)
	if err != nil {
		return nil, err
	}
	front := float64(in.frontEndPorts())
	perServer := []component{
		{in.otherNetworks(), func(*planner.Plan) float64 { return front }},
		{"back-end (RDMA)", func(p *planner.Plan) float64 { return float64(p.ServerPorts) }},
	}
	server, err := stackedPlot("Network ports per server", "ports", vs, perServer, sumFigure(perServer, intText), countTicks{}, &data)
	if err != nil {
		return nil, err
	}
	return &Figure{Name: "ports", Panels: [][]*plot.Plot{{total, server}}, Weights: []float64{1.6, 1}, Data: data,
		Footnote: variantFootnote(vs) + fmt.Sprintf("\nPorts per server beside the back end: %d (%s).", int(front), frontSource(in))}, nil
}
