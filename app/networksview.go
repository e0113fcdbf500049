package app

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// networksView shows the whole cluster on the Summary tab: a line, above
// the cards, with what the back end adds to the cluster without it, and a
// table of every network (the back end, front end, storage, out-of-band
// and management servers).
type networksView struct {
	adds  *wrapLabel
	table *widget.Table
	rows  []planner.SideNetwork
	total planner.Increment
	per   int
	usd   textfmt.MoneyScale // the summary's scale (planner.Plan.MoneyScale)
}

var networkColumns = []string{"Network", "Kind", "Ports/server", "Speed", "Ports", "Switches", "Links", "Optics", "Cost", "Power"}

func newNetworksView() *networksView {
	v := &networksView{adds: newWrapLabel("")}
	v.adds.TextStyle.Bold = true
	v.table = newTextTable(networkColumns, []float32{170, 90, 95, 60, 80, 75, 75, 70, 90, 85},
		func() int { return len(v.rows) + min(len(v.rows), 1) }, v.cell)
	return v
}

// update shows p's networks, or says the catalog sized none; the
// caller refreshes the table (while it shows).
func (v *networksView) update(p *planner.Plan) {
	n := p.Networks
	if n == nil {
		v.rows = nil
		v.adds.SetText("")
		return
	}
	v.rows, v.total, v.per, v.usd = n.List, n.Total, n.PortsPerServer(), p.MoneyScale()
	a := n.BackEndAdds
	text := fmt.Sprintf("Whole cluster: the back end adds %s ports, %s switches, %s optics, %s (%s of the network spend) and %s",
		textfmt.Int(a.Ports), textfmt.Int(a.Switches), textfmt.Int(a.Transceivers), v.usd.Format(a.CostUSD),
		percent(a.CostUSD, n.Total.CostUSD), textfmt.Watts(a.PowerW))
	if b := n.BesideText("optics"); b != "" {
		text += ", " + b
	}
	text += fmt.Sprintf("; %d of %d ports per %s.", p.ServerPorts, v.per, nodeName(p))
	if f := n.FrontEndJCT; f != nil {
		text += fmt.Sprintf(" On the front end alone (TCP) the job is %s slower.", textfmt.Gain(f.Gain))
	}
	if text != v.adds.Text {
		v.adds.SetText(text)
	}
}

// dim greys the line out while the plan is stale.
func (v *networksView) dim(on bool) {
	v.adds.Importance = widget.MediumImportance
	if on {
		v.adds.Importance = widget.LowImportance
	}
	v.adds.Refresh()
}

// cell is one cell of the networks table; the last row is the total.
func (v *networksView) cell(row, col int) string {
	if row == len(v.rows) {
		t := v.total
		return []string{"whole cluster", "", fmt.Sprint(v.per), "", textfmt.Int(t.Ports), textfmt.Int(t.Switches), "",
			textfmt.Int(t.Transceivers), v.usd.Format(t.CostUSD), textfmt.Watts(t.PowerW)}[col]
	}
	s := v.rows[row]
	speed := ""
	if s.PortGbps > 0 {
		speed = fmt.Sprintf("%dG", s.PortGbps)
	}
	return []string{s.Name, s.Kind, fmt.Sprint(s.PortsPerServer), speed, textfmt.Int(s.Ports), textfmt.Int(s.Switches),
		textfmt.Int(s.Links), textfmt.Int(s.Transceivers), v.usd.Format(s.CostUSD), textfmt.Watts(s.PowerW)}[col]
}

func percent(part, whole float64) string {
	if whole <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*part/whole)
}

// nodeName is "server", or "tray" for a rack-scale system.
func nodeName(p *planner.Plan) string {
	if p.System != nil && p.System.RackScale() {
		return "tray"
	}
	return "server"
}
