package app

import (
	"image"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/charts"
)

// chartView is an image that shows one chart figure, drawn off the UI
// goroutine at the size the view has on screen, and drawn again, after a
// short pause, when the view is resized. Only the latest drawing asked
// for is shown.
type chartView struct {
	u       *UI
	img     *canvas.Image
	frame   *resizeFrame
	message *widget.Label
	content fyne.CanvasObject
	fig     *charts.Figure  // the figure shown; set on the UI goroutine
	targets []charts.Target // where a click on the image shown can act
	drawn   fyne.Size       // the view size the image was drawn for
	pending *time.Timer
	gen     int // the latest drawing asked for
}

func newChartView(u *UI) *chartView {
	v := &chartView{u: u, img: canvas.NewImageFromImage(image.NewRGBA(image.Rect(0, 0, 1, 1))), message: widget.NewLabel("")}
	v.img.FillMode = canvas.ImageFillContain
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.img.SetMinSize(fyne.NewSize(360, 200))
	v.message.Wrapping = fyne.TextWrapWord
	v.message.Hide()
	v.frame = newResizeFrame(v.img, v.resized)
	v.content = container.NewBorder(v.message, nil, nil, nil, v.frame)
	u.views = append(u.views, v)
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
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(v.img); c != nil {
		scale = c.Scale()
	}
	return chartSize(w, h, scale), s
}

// Below minChartW x minChartH (pixels at 96 DPI) a chart's labels crowd:
// a smaller view draws the same layout at a lower DPI, so text shrinks
// with the view and the image still fills it at its own resolution.
const minChartW, minChartH = 760, 460

// chartSize is the export size that fills a w x h pixel view on a canvas
// of the given scale.
func chartSize(w, h int, scale float32) charts.Size {
	dpi := float32(96)
	if k := max(float32(minChartW)/float32(w), float32(minChartH)/float32(h)); k > 1 {
		dpi /= k
	}
	w, h = max(w, 200), max(h, 150)
	return charts.Size{WidthPx: int(float32(w) * scale), HeightPx: int(float32(h) * scale), DPI: max(36, int(dpi*scale))}
}

// chartTheme colours charts like the window: light ink on the dark
// theme's background, as exported on the light one.
func chartTheme(a fyne.App) charts.Theme {
	th, variant := a.Settings().Theme(), a.Settings().ThemeVariant()
	return charts.Theme{Background: th.Color(theme.ColorNameBackground, variant), Ink: th.Color(theme.ColorNameForeground, variant)}
}

// draw builds a figure with build and renders it, both off the UI
// goroutine, then shows it (or why there is none). build must use only
// what it was given: snapshots, never the window's state.
func (v *chartView) draw(build func() (*charts.Figure, error)) {
	v.gen++
	gen := v.gen
	size, view := v.drawSize()
	th := chartTheme(v.u.app)
	v.u.work.add()
	go func() {
		defer v.u.work.done()
		var fig *charts.Figure
		var img image.Image
		var targets []charts.Target
		err := protect("drawing a chart", func() (err error) {
			if fig, err = build(); err == nil {
				img, targets, err = fig.ImageTargets(size, th)
			}
			return err
		})
		v.u.onUI(func() {
			if gen != v.gen {
				return // a newer drawing was asked for
			}
			if err != nil {
				v.u.reportPanic(err)
				v.fig, v.targets = nil, nil
				v.message.SetText(err.Error())
				v.message.Show()
				v.img.Image = image.NewRGBA(image.Rect(0, 0, 1, 1))
				v.img.Refresh()
				return
			}
			v.fig, v.drawn, v.targets = fig, view, targets
			v.message.Hide()
			v.img.Image = img
			v.img.Refresh()
		})
	}()
}

// imageRect is where the image shows inside the view's content: the
// image is scaled to fit its frame, keeping its shape, and centred.
func (v *chartView) imageRect() (fyne.Position, fyne.Size) {
	at := v.frame.Position().Add(v.img.Position())
	box := v.img.Size()
	b := v.img.Image.Bounds()
	if b.Dx() == 0 || b.Dy() == 0 || box.Width == 0 || box.Height == 0 {
		return at, box
	}
	scale := min(box.Width/float32(b.Dx()), box.Height/float32(b.Dy()))
	shown := fyne.NewSize(float32(b.Dx())*scale, float32(b.Dy())*scale)
	return at.Add(fyne.NewPos((box.Width-shown.Width)/2, (box.Height-shown.Height)/2)), shown
}

// targetAt is the name of the target under pos (in the view's content),
// or "" when there is none.
func (v *chartView) targetAt(pos fyne.Position) string {
	t, _ := v.targetHit(pos)
	return t.Name
}

// targetHit is the target under pos (in the view's content); false when
// there is none.
func (v *chartView) targetHit(pos fyne.Position) (charts.Target, bool) {
	at, shown := v.imageRect()
	if shown.Width == 0 || shown.Height == 0 {
		return charts.Target{}, false
	}
	x, y := float64((pos.X-at.X)/shown.Width), float64((pos.Y-at.Y)/shown.Height)
	for _, t := range v.targets {
		if t.Contains(x, y) {
			return t, true
		}
	}
	return charts.Target{}, false
}

// show draws a figure already built.
func (v *chartView) show(fig *charts.Figure, err error) {
	v.draw(func() (*charts.Figure, error) { return fig, err })
}

// resized draws the chart again for a new size once resizing pauses.
func (v *chartView) resized(s fyne.Size) {
	if v.fig == nil || (abs32(s.Width-v.drawn.Width) < 4 && abs32(s.Height-v.drawn.Height) < 4) {
		return
	}
	if v.pending != nil {
		v.pending.Stop()
	}
	v.pending = time.AfterFunc(150*time.Millisecond, func() {
		v.u.onUI(func() {
			if fig := v.fig; fig != nil {
				v.show(fig, nil)
			}
		})
	})
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

var planCharts = []string{"ports", "cost", "sensitivity", "power", "scale", "jct", "styles", "tokens"}

func newChartsTab(u *UI) *chartsTab {
	t := &chartsTab{u: u, view: newChartView(u)}
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

// SelectChart shows the chart named name (as charts.ByName knows it) in
// the Charts tab; it reports false for a chart the tab does not offer.
func (u *UI) SelectChart(name string) bool {
	for i, n := range planCharts {
		if n == name {
			u.charts.pick.SetSelectedIndex(i)
			return true
		}
	}
	return false
}

// ChartNames lists the charts the Charts tab offers.
func ChartNames() []string { return append([]string(nil), planCharts...) }

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
	p := u.m.Plan()
	if !t.stale || p == nil {
		return
	}
	t.stale = false
	c, _ := charts.ByName(t.chartName())
	cat, market := u.cat, u.market
	// The parts start from the inputs as given, as export and the report
	// do: the plan's own scenario has its style's defaults filled in (a
	// rail's cable length), which a top-of-rack variant must not keep.
	s := p.Scenario
	if u.m.State().Status == model.Current {
		s = u.m.Scenario()
	}
	t.view.draw(func() (*charts.Figure, error) {
		in := charts.Input{Plan: p, Market: market}
		in.AddParts(s, cat, charts.PartsOf(c.Name))
		return c.Build(in)
	})
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
	t := &marketTab{u: u, view: newChartView(u)}
	var years []string
	for _, y := range u.market.Device.Years {
		years = append(years, strconv.Itoa(y))
	}
	t.year = widget.NewSelect(years, func(string) { t.stale = true; t.redraw() })
	t.year.SetSelected(strconv.Itoa(charts.DefaultMarketYear))
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	bar := wrapRow(widget.NewLabel("Compare the plan's NIC/switch split with the market of"), t.year)
	t.content = container.NewBorder(container.NewBorder(nil, nil, nil, export, bar), nil, nil, nil, t.view.content)
	return t
}

func (t *marketTab) redraw() {
	p := t.u.m.Plan()
	if !t.stale || p == nil {
		return
	}
	t.stale = false
	y, _ := strconv.Atoi(t.year.Selected)
	market := t.u.market
	t.view.draw(func() (*charts.Figure, error) {
		return charts.MarketChart(charts.Input{Plan: p, Market: market, MarketYear: y})
	})
}
