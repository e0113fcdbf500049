package app

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
)

// card is one key figure: a large number over a caption and a detail line.
type card struct {
	value  *canvas.Text
	detail *widget.Label
	box    fyne.CanvasObject
}

func newCard(caption string) *card {
	c := &card{value: canvas.NewText("–", theme.Color(theme.ColorNameForeground)), detail: widget.NewLabel("")}
	c.value.TextSize = 26
	c.value.TextStyle.Bold = true
	c.detail.Wrapping = fyne.TextWrapWord
	title := widget.NewLabelWithStyle(caption, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	bg := canvas.NewRectangle(color.NRGBA{0x80, 0x80, 0x80, 0x18})
	bg.CornerRadius = 6
	c.box = container.NewStack(bg, container.NewPadded(container.NewVBox(title, c.value, c.detail)))
	return c
}

func (c *card) set(value, detail string) {
	c.value.Text = value
	c.value.Color = theme.Color(theme.ColorNameForeground)
	c.value.Refresh()
	c.detail.SetText(detail)
}

// summaryTab shows the key figures as large numbers and the bill of
// materials with each price's source.
type summaryTab struct {
	u       *UI
	content fyne.CanvasObject
	cards   map[string]*card
	bom     *widget.Table
	rows    []planner.BOMLine
	notes   *widget.Label
}

var summaryCards = []string{"Servers", "Back-end NIC ports", "Switches", "Links (cables)", "Transceivers",
	"Fabric cost", "Cost per GPU", "Power", "JCT gain over TCP/IP"}

var bomHeaders = []string{"Item", "Where", "Qty", "Unit price", "Total", "Power", "Source of the price"}

func newSummaryTab(u *UI) *summaryTab {
	t := &summaryTab{u: u, cards: map[string]*card{}}
	grid := container.NewGridWithColumns(3)
	for _, name := range summaryCards {
		c := newCard(name)
		t.cards[name] = c
		grid.Add(c.box)
	}
	t.bom = widget.NewTableWithHeaders(
		func() (int, int) { return len(t.rows), len(bomHeaders) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(bomCell(t.rows[id.Row], id.Col))
		})
	t.bom.ShowHeaderColumn = false
	t.bom.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.bom.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 {
			o.(*widget.Label).SetText(bomHeaders[id.Col])
		}
	}
	for i, w := range []float32{110, 150, 80, 100, 90, 90, 520} {
		t.bom.SetColumnWidth(i, w)
	}
	t.notes = widget.NewLabel("")
	t.notes.Wrapping = fyne.TextWrapWord
	bomTitle := widget.NewLabelWithStyle("Bill of materials (* estimate)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// Cards above, BOM below, each scrolling on its own so the tab fits a
	// small window.
	split := container.NewVSplit(container.NewVScroll(container.NewVBox(grid, t.notes)),
		container.NewBorder(bomTitle, nil, nil, nil, t.bom))
	split.Offset = 0.66
	t.content = split
	return t
}

func bomCell(l planner.BOMLine, col int) string {
	switch col {
	case 0:
		return l.Key
	case 1:
		return l.Where
	case 2:
		return planner.FormatInt(l.Qty)
	case 3:
		s := planner.FormatUSDExact(l.UnitUSD)
		if l.Estimate {
			s += " *"
		}
		return s
	case 4:
		return planner.FormatUSD(l.TotalUSD)
	case 5:
		return planner.FormatWatts(l.TotalWatts)
	}
	return l.Source
}

func (t *summaryTab) update(p *planner.Plan) {
	c := t.cards
	servers := fmt.Sprintf("%s GPUs, %d per server", planner.FormatInt(p.GPUs), p.Scenario.Cluster.GPUsPerServer)
	if sys := p.System; sys != nil && sys.RackScale() {
		servers = fmt.Sprintf("compute trays of %d GPUs in %s %s racks", sys.GPUsPerNode(), planner.FormatInt(p.Systems), sys.Key)
	} else if sys != nil {
		servers = fmt.Sprintf("%s GPUs in %s", planner.FormatInt(p.GPUs), sys.Key)
	}
	c["Servers"].set(planner.FormatInt(p.Servers), servers)
	node := "server"
	if p.System != nil && p.System.RackScale() {
		node = "tray"
	}
	c["Back-end NIC ports"].set(planner.FormatInt(p.NICPorts), fmt.Sprintf("%d per %s at %dG, %s", p.ServerPorts, node, p.PortGbps, p.NIC.Key))
	c["Switches"].set(planner.FormatInt(p.TotalSwitches()), fmt.Sprintf("%s: leaf %s, spine %s, core %s; %d tier(s), %d plane(s)", p.Switch.Key,
		planner.FormatInt(p.Switches(planner.TierLeaf)), planner.FormatInt(p.Switches(planner.TierSpine)), planner.FormatInt(p.Switches(planner.TierCore)), p.Tiers, p.Planes))
	c["Links (cables)"].set(planner.FormatInt(p.Links.Total), fmt.Sprintf("server-leaf %s, leaf-spine %s, spine-core %s",
		planner.FormatInt(p.Links.ServerLeaf), planner.FormatInt(p.Links.LeafSpine), planner.FormatInt(p.Links.SpineCore)))
	c["Transceivers"].set(planner.FormatInt(p.ServerTransceivers+p.SwitchTransceivers), fmt.Sprintf("server side %s, switch side %s",
		planner.FormatInt(p.ServerTransceivers), planner.FormatInt(p.SwitchTransceivers)))
	share := ""
	if p.Cost.FabricShare > 0 {
		share = fmt.Sprintf("; %.1f%% of cluster capex", 100*p.Cost.FabricShare)
	}
	c["Fabric cost"].set(planner.FormatUSD(p.Cost.Total), fmt.Sprintf("estimate, %s–%s%s",
		planner.FormatUSD(p.Cost.LowUSD), planner.FormatUSD(p.Cost.HighUSD), share))
	c["Cost per GPU"].set(planner.FormatUSDExact(p.Cost.PerGPU), fmt.Sprintf("NICs %s, switches %s, optics %s, cables %s", planner.FormatUSD(p.Cost.NICs),
		planner.FormatUSD(p.Cost.Switches), planner.FormatUSD(p.Cost.Transceivers), planner.FormatUSD(p.Cost.Cables)))
	c["Power"].set(planner.FormatWatts(p.Power.Total), fmt.Sprintf("estimate; %s per GPU", planner.FormatWatts(p.Power.Total/float64(p.GPUs))))
	if j := p.JCT; j != nil {
		c["JCT gain over TCP/IP"].set(fmt.Sprintf("%.2fx", j.Gain), fmt.Sprintf("model: step %s vs %s; %.1f vs %.1f days (%s)",
			planner.FormatSeconds(j.Planned.StepS), planner.FormatSeconds(j.Baseline.StepS), j.Planned.Days, j.Baseline.Days, j.ModelName))
	} else {
		c["JCT gain over TCP/IP"].set("–", "no estimate: the workload does not fit this cluster")
	}
	t.rows = p.BOM
	t.bom.Refresh()
	notes := ""
	for _, n := range p.Notes {
		notes += "• " + n + "\n"
	}
	t.notes.SetText(notes)
}

// Figures returns the card values, for tests: caption -> large number.
func (u *UI) Figures() map[string]string {
	out := map[string]string{}
	for k, c := range u.summary.cards {
		out[k] = c.value.Text
	}
	return out
}
