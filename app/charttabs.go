package app

import (
	"fmt"
	"image"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/charts"
	"fabricplan/planner"
)

// chartView is an image that shows one chart figure, drawn at the size
// the view has on screen and drawn again, after a short pause, when the
// view is resized.
type chartView struct {
	img     *canvas.Image
	frame   *resizeFrame
	message *widget.Label
	content fyne.CanvasObject
	fig     *charts.Figure
	drawn   fyne.Size // the view size the image was drawn for
	pending *time.Timer
}

func newChartView() *chartView {
	v := &chartView{img: canvas.NewImageFromImage(image.NewRGBA(image.Rect(0, 0, 1, 1))), message: widget.NewLabel("")}
	v.img.FillMode = canvas.ImageFillContain
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.img.SetMinSize(fyne.NewSize(360, 200))
	v.message.Wrapping = fyne.TextWrapWord
	v.message.Hide()
	v.frame = newResizeFrame(v.img, v.resized)
	v.content = container.NewBorder(v.message, nil, nil, nil, v.frame)
	return v
}

// drawSize is the pixel size to draw at: the view's size on screen, or a
// sensible default before the first layout.
func (v *chartView) drawSize() (charts.Size, fyne.Size) {
	s := v.frame.Size()
	w, h := int(s.Width), int(s.Height)
	if w < 10 || h < 10 { // not laid out yet
		w, h = 1000, 650
	}
	// Below this the labels cannot fit; the image then scales down.
	w, h = max(w, 760), max(h, 460)
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(v.img); c != nil {
		scale = c.Scale()
	}
	return charts.Size{WidthPx: int(float32(w) * scale), HeightPx: int(float32(h) * scale), DPI: int(96 * scale)}, s
}

// show draws fig, or says why there is no chart.
func (v *chartView) show(fig *charts.Figure, err error) {
	v.fig = fig
	if err != nil {
		v.message.SetText(err.Error())
		v.message.Show()
		v.img.Image = image.NewRGBA(image.Rect(0, 0, 1, 1))
		v.img.Refresh()
		return
	}
	v.render()
}

func (v *chartView) render() {
	if v.fig == nil {
		return
	}
	size, view := v.drawSize()
	img, err := v.fig.Image(size)
	if err != nil {
		v.fig = nil
		v.show(nil, err)
		return
	}
	v.drawn = view
	v.message.Hide()
	v.img.Image = img
	v.img.Refresh()
}

// resized draws the chart again for a new size once resizing pauses.
func (v *chartView) resized(s fyne.Size) {
	if v.fig == nil || (abs32(s.Width-v.drawn.Width) < 4 && abs32(s.Height-v.drawn.Height) < 4) {
		return
	}
	if v.pending != nil {
		v.pending.Stop()
	}
	v.pending = time.AfterFunc(150*time.Millisecond, func() { fyne.Do(v.render) })
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// resizeFrame is a widget around one object that reports its size on
// every layout.
type resizeFrame struct {
	widget.BaseWidget
	child    fyne.CanvasObject
	onResize func(fyne.Size)
}

func newResizeFrame(child fyne.CanvasObject, onResize func(fyne.Size)) *resizeFrame {
	f := &resizeFrame{child: child, onResize: onResize}
	f.ExtendBaseWidget(f)
	return f
}

func (f *resizeFrame) CreateRenderer() fyne.WidgetRenderer { return &resizeRenderer{f} }

type resizeRenderer struct{ f *resizeFrame }

func (r *resizeRenderer) Layout(s fyne.Size) {
	r.f.child.Resize(s)
	r.f.child.Move(fyne.NewPos(0, 0))
	r.f.onResize(s)
}
func (r *resizeRenderer) MinSize() fyne.Size           { return r.f.child.MinSize() }
func (r *resizeRenderer) Refresh()                     { r.f.child.Refresh() }
func (r *resizeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.child} }
func (r *resizeRenderer) Destroy()                     {}

// chartsTab shows one chart of the plan at a time.
type chartsTab struct {
	u       *UI
	content fyne.CanvasObject
	pick    *widget.Select
	view    *chartView
	stale   bool
}

var planCharts = []string{"ports", "cost", "power", "scale", "jct"}

func newChartsTab(u *UI) *chartsTab {
	t := &chartsTab{u: u, view: newChartView()}
	var titles []string
	for _, name := range planCharts {
		c, _ := charts.ByName(name)
		titles = append(titles, c.Title)
	}
	t.pick = widget.NewSelect(titles, func(string) { t.stale = true; t.redraw() })
	t.pick.SetSelectedIndex(0)
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	t.content = container.NewBorder(container.NewBorder(nil, nil, nil, export, t.pick), nil, nil, nil, t.view.content)
	return t
}

// ChartName is the chart the Charts tab shows.
func (t *chartsTab) chartName() string {
	i := t.pick.SelectedIndex()
	if i < 0 {
		i = 0
	}
	return planCharts[i]
}

func (t *chartsTab) redraw() {
	u := t.u
	if !t.stale || u.plan == nil {
		return
	}
	t.stale = false
	c, _ := charts.ByName(t.chartName())
	in := charts.Input{Plan: u.plan, Market: u.market}
	switch c.Name {
	case "cost", "power", "jct":
		if vs, err := planner.Alternatives(u.plan.Scenario, u.cat); err == nil {
			in.Variants = vs
		}
	case "scale":
		in.Sweep = planner.Sweep(u.plan.Scenario, u.cat, planner.ScaleSizes(u.plan.GPUs))
	}
	t.view.show(c.Build(in))
}

// marketTab shows the 650 Group market curves with the plan overlaid.
type marketTab struct {
	u       *UI
	content fyne.CanvasObject
	year    *widget.Select
	view    *chartView
	stale   bool
}

func newMarketTab(u *UI) *marketTab {
	t := &marketTab{u: u, view: newChartView()}
	var years []string
	for _, y := range u.market.Device.Years {
		years = append(years, strconv.Itoa(y))
	}
	t.year = widget.NewSelect(years, func(string) { t.stale = true; t.redraw() })
	t.year.SetSelected(strconv.Itoa(charts.DefaultMarketYear))
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	bar := container.NewHBox(widget.NewLabel("Compare the plan's NIC/switch split with the market of"), t.year)
	t.content = container.NewBorder(container.NewBorder(nil, nil, nil, export, bar), nil, nil, nil, t.view.content)
	return t
}

func (t *marketTab) redraw() {
	if !t.stale || t.u.plan == nil {
		return
	}
	t.stale = false
	y, _ := strconv.Atoi(t.year.Selected)
	t.view.show(charts.MarketChart(charts.Input{Plan: t.u.plan, Market: t.u.market, MarketYear: y}))
}

// compareTab holds pinned plans side by side with the current one.
type compareTab struct {
	u       *UI
	content fyne.CanvasObject
	table   *widget.Table
	pick    *widget.Select
	view    *chartView
	stale   bool
}

var compareRows = []struct {
	name  string
	value func(p *planner.Plan) string
}{
	{"GPUs", func(p *planner.Plan) string { return planner.FormatInt(p.GPUs) }},
	{"Fabric", func(p *planner.Plan) string {
		return fmt.Sprintf("%s %dG", fabricLabel(p.Scenario.Network.Fabric), p.Scenario.Network.NICGbps)
	}},
	{"Switch", func(p *planner.Plan) string { return p.Switch.Key }},
	{"Tiers / planes", func(p *planner.Plan) string { return fmt.Sprintf("%d / %d", p.Tiers, p.Planes) }},
	{"Oversubscription", func(p *planner.Plan) string { return p.Scenario.Network.Oversubscription }},
	{"NIC ports", func(p *planner.Plan) string { return planner.FormatInt(p.NICPorts) }},
	{"Switches", func(p *planner.Plan) string { return planner.FormatInt(p.TotalSwitches()) }},
	{"Links", func(p *planner.Plan) string { return planner.FormatInt(p.Links.Total) }},
	{"Transceivers", func(p *planner.Plan) string { return planner.FormatInt(p.ServerTransceivers + p.SwitchTransceivers) }},
	{"Cost", func(p *planner.Plan) string { return planner.FormatUSD(p.Cost.Total) }},
	{"Cost per GPU", func(p *planner.Plan) string { return planner.FormatUSDExact(p.Cost.PerGPU) }},
	{"Power", func(p *planner.Plan) string { return planner.FormatWatts(p.Power.Total) }},
	{"Step time", func(p *planner.Plan) string {
		if p.JCT == nil {
			return "–"
		}
		return planner.FormatSeconds(p.JCT.Planned.StepS)
	}},
	{"JCT (days)", func(p *planner.Plan) string {
		if p.JCT == nil {
			return "–"
		}
		return fmt.Sprintf("%.2f", p.JCT.Planned.Days)
	}},
	{"Gain over TCP/IP", func(p *planner.Plan) string {
		if p.JCT == nil {
			return "–"
		}
		return fmt.Sprintf("%.2fx", p.JCT.Gain)
	}},
}

func fabricLabel(f planner.Fabric) string {
	if f == planner.Ethernet {
		return "RoCE"
	}
	return "IB"
}

var compareCharts = []string{"cost", "ports", "power", "jct"}

func newCompareTab(u *UI) *compareTab {
	t := &compareTab{u: u, view: newChartView()}
	t.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(compareRows), len(t.variants()) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			vs := t.variants()
			if id.Col < len(vs) {
				o.(*widget.Label).SetText(compareRows[id.Row].value(vs[id.Col].Plan))
			}
		})
	t.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		switch {
		case id.Row < 0 && id.Col >= 0 && id.Col < len(t.variants()):
			l.SetText(t.variants()[id.Col].Label)
		case id.Col < 0 && id.Row >= 0:
			l.SetText(compareRows[id.Row].name)
		default:
			l.SetText("")
		}
	}
	t.table.SetColumnWidth(-1, 150) // the row names
	for i := 0; i < 12; i++ {
		t.table.SetColumnWidth(i, 150)
	}
	pin := widget.NewButton("Pin current plan", u.PinCurrent)
	clear := widget.NewButton("Unpin all", func() {
		u.pinned = nil
		t.stale = true
		t.redraw()
	})
	t.pick = widget.NewSelect(compareCharts, func(string) { t.stale = true; t.redraw() })
	t.pick.SetSelected("cost")
	hint := widget.NewLabel("Pin a plan, change the inputs, and compare the pinned plans with the current one.")
	hint.Wrapping = fyne.TextWrapWord
	bar := container.NewHBox(pin, clear, widget.NewLabel("Chart:"), t.pick)
	split := container.NewVSplit(t.table, t.view.content)
	split.Offset = 0.42
	t.content = container.NewBorder(container.NewVBox(bar, hint), nil, nil, nil, split)
	return t
}

// variants is the pinned plans and the current one.
func (t *compareTab) variants() []planner.Variant {
	vs := append([]planner.Variant{}, t.u.pinned...)
	if t.u.plan != nil {
		vs = append(vs, planner.Variant{Label: "Current", Plan: t.u.plan})
	}
	return vs
}

// PinCurrent pins the current plan for comparison.
func (u *UI) PinCurrent() {
	if u.plan == nil {
		u.showError(errNoPlan)
		return
	}
	label := fmt.Sprintf("#%d %s %dG", len(u.pinned)+1, fabricLabel(u.plan.Scenario.Network.Fabric), u.plan.Scenario.Network.NICGbps)
	u.pinned = append(u.pinned, planner.Variant{Label: label, Plan: u.plan})
	u.compare.stale = true
	u.compare.redraw()
}

// Pinned lists the pinned plans.
func (u *UI) Pinned() []planner.Variant { return u.pinned }

func (t *compareTab) redraw() {
	if !t.stale || t.u.plan == nil {
		return
	}
	t.stale = false
	t.table.Refresh()
	build := charts.PortsCompare
	if t.pick.Selected != "ports" {
		c, _ := charts.ByName(t.pick.Selected)
		build = c.Build
	}
	t.view.show(build(charts.Input{Plan: t.u.plan, Variants: t.variants(), Market: t.u.market}))
}
