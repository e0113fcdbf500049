package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/charts"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// TabLayout is the data-hall layout.
const TabLayout = "Layout"

// Pictures of the Layout tab, by the name the picker shows.
var layoutCharts = []struct{ label, chart string }{
	{"Floor plan", "floorplan"},
	{"Rack elevations", "racks"},
	{"Cable lengths", "cablelengths"},
}

// layoutTab shows the data hall: its figures, and the floor plan, two
// rack elevations or the cable lengths. A plan without a layout offers
// to lay it out.
type layoutTab struct {
	u       *UI
	content fyne.CanvasObject
	view    *chartView
	pick    *widget.RadioGroup
	figures *widget.Label
	enable  *widget.Button
	stale   bool
	// runs shows the picked link tier's runs beside the picture.
	runs *tierRunsView
	// rack is the rack clicked on the floor plan, listed beside the
	// picture under the runs; hover names the rack under the pointer.
	rack  *rackView
	hover *widget.Label
	side  *container.Split
}

func newLayoutTab(u *UI) *layoutTab {
	t := &layoutTab{u: u, view: newChartView(u), figures: widget.NewLabel("")}
	var labels []string
	for _, c := range layoutCharts {
		labels = append(labels, c.label)
	}
	t.pick = widget.NewRadioGroup(labels, func(string) { t.stale = true; t.redraw() })
	t.pick.Horizontal = true
	t.pick.SetSelected(labels[0])
	t.figures.Wrapping = fyne.TextWrapWord
	t.enable = widget.NewButton("Lay out in a data hall", func() { u.edit("facility.layout", "true") })
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	cables := widget.NewButton("Export cable map…", u.ExportCablesDialog)
	t.runs = newTierRunsView(u)
	t.runs.onPick = func() { t.fitSide(); t.drawChart(t.u.m.Plan()) }
	t.rack = newRackView(u)
	t.rack.onEnds = func() { t.fitSide(); t.drawChart(t.u.m.Plan()) }
	t.hover = widget.NewLabel(rackHint)
	t.hover.Truncation = fyne.TextTruncateEllipsis
	area := newRackArea(t.view.content, t.tapRack, t.hoverRack)
	bar := wrapRow(t.pick, t.enable, export, cables, t.runs.bar)
	t.side = container.NewVSplit(t.runs.panel, t.rack.panel)
	t.side.Hide()
	body := container.NewHSplit(container.NewBorder(nil, t.hover, nil, nil, area), t.side)
	body.Offset = tierRunsSplit
	t.content = container.NewBorder(container.NewVBox(bar, t.figures), nil, nil, nil, body)
	return t
}

func (t *layoutTab) chartName() string {
	for _, c := range layoutCharts {
		if c.label == t.pick.Selected {
			return c.chart
		}
	}
	return layoutCharts[0].chart
}

func (t *layoutTab) redraw() {
	p := t.u.m.Plan()
	if !t.stale || p == nil {
		return
	}
	t.stale = false
	t.figures.SetText(hallText(p))
	t.runs.show(p)
	t.rack.show(p)
	t.fitSide()
	if p.Hall == nil {
		t.enable.Show()
		t.view.content.Hide()
		t.hover.Hide()
		return
	}
	t.enable.Hide()
	t.view.content.Show()
	t.hover.Show()
	t.drawChart(p)
}

// fitSide shows the panel beside the picture while a tier's runs or a
// rack are listed in it, and gives the picture the whole width when not.
func (t *layoutTab) fitSide() {
	if t.runs.panel.Visible() || t.rack.panel.Visible() {
		t.side.Show()
	} else {
		t.side.Hide()
	}
	t.side.Refresh()
}

// tapRack selects the floor plan's rack under pos (a tap elsewhere, or
// on another picture, does nothing).
func (t *layoutTab) tapRack(pos fyne.Position) {
	if t.chartName() != "floorplan" {
		return
	}
	if i, ok := rackAt(t.view, pos); ok {
		t.rack.pick(t.u.m.Plan(), i)
		t.fitSide()
	}
}

// hoverRack names the floor plan's rack under the pointer.
func (t *layoutTab) hoverRack(pos fyne.Position, in bool) {
	text := rackHint
	p := t.u.m.Plan()
	if i, ok := rackAt(t.view, pos); in && ok && t.chartName() == "floorplan" && p != nil && p.Hall != nil && i < len(p.Hall.Racks) {
		r := p.Hall.Racks[i]
		text = fmt.Sprintf("%s: %s rack, %.1f kW peak. Click for where its links go.", r.Name, r.Kind, r.PeakKW)
	}
	if t.hover.Text != text {
		t.hover.SetText(text)
	}
}

// drawChart draws the picked picture of p in the background; the floor
// plan carries the runs of the tier picked beside it.
func (t *layoutTab) drawChart(p *planner.Plan) {
	if p == nil || p.Hall == nil {
		return
	}
	c, _ := charts.ByName(t.chartName())
	in := charts.Input{Plan: p}
	if c.Name == "floorplan" {
		in.Tier = tierKey(t.runs.pick.Selected)
		in.Rack, in.RackEnds = t.rack.selected(p)
	}
	t.view.draw(func() (*charts.Figure, error) { return c.Build(in) })
}

// hallText is the layout's figures in a few lines.
func hallText(p *planner.Plan) string {
	h := p.Hall
	if h == nil {
		return "No data-hall layout: every link is costed at its tier's length. Lay the plan out to get racks, rows, power per rack and each link's length and medium (Data hall, in the inputs)."
	}
	f := h.Figures
	var b strings.Builder
	fmt.Fprintf(&b, "%s racks (%s compute, %s leaf, %s spine, %s core) in %s rows, %.0f × %.0f m = %s m²; %s a compute rack. ",
		textfmt.Int(f.Racks), textfmt.Int(f.RacksByKind[hall.RackCompute]), textfmt.Int(f.RacksByKind[hall.RackLeaf]),
		textfmt.Int(f.RacksByKind[hall.RackSpine]), textfmt.Int(f.RacksByKind[hall.RackCore]), textfmt.Int(f.Rows),
		h.WidthM, h.LengthM, textfmt.Int(int(f.AreaM2+0.5)), textfmt.Plural(f.NodesPerRack, "node"))
	fmt.Fprintf(&b, "Hungriest rack %.1f kW peak, %.1f kW typical, budget %g kW", f.RackKWMax, f.RackKWTypicalMax, f.RackKWBudget)
	if f.RacksOverBudget > 0 {
		fmt.Fprintf(&b, ": %s over budget", textfmt.Plural(f.RacksOverBudget, "rack"))
	}
	fmt.Fprintf(&b, ". %s liquid-cooled, %s air-cooled racks.", textfmt.Int(f.LiquidRacks), textfmt.Int(f.AirRacks))
	var cable []string
	for _, m := range []planner.Medium{planner.DAC, planner.ACC, planner.AOC, planner.Multimode, planner.Optics} {
		if km := f.CableKM[string(m)]; km > 0 {
			cable = append(cable, fmt.Sprintf("%s %s km (%s kg)", strings.ToLower(m.Label()), textfmt.KM(km), textfmt.Int(int(f.CableKg[string(m)]+0.5))))
		}
	}
	fmt.Fprintf(&b, "\nCable: %s.", strings.Join(cable, ", "))
	for _, l := range f.Longest {
		fmt.Fprintf(&b, " Longest %s: %g m, reach %d m.", strings.ReplaceAll(l.Tier, "_", "-"), l.Metres, l.ReachM)
	}
	return b.String()
}
