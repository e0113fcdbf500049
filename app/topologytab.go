package app

import (
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/charts"
	"fabricplan/planner"
)

// Zoom steps of the topology view, as multiples of the tab's size.
var topologyZooms = []float32{1, 1.5, 2, 3}

// topologyTab draws the plan's topology diagram: which pod and scalable
// unit it expands is picked in the bar above it or by clicking the
// summaries on its right, and it zooms in steps inside a scroll view.
type topologyTab struct {
	u         *UI
	content   fyne.CanvasObject
	view      *chartView
	scroll    *container.Scroll
	pod, unit *widget.Select
	zoomText  *widget.Label
	zoom      int // index in topologyZooms
	focus     charts.Focus
	plan      *planner.Plan
	stale     bool
	filling   bool // true while the selects are set from the plan
}

func newTopologyTab(u *UI) *topologyTab {
	t := &topologyTab{u: u, view: newChartView(u), zoomText: widget.NewLabel("100%")}
	t.pod = widget.NewSelect(nil, func(s string) { t.pick(&t.focus.Pod, s) })
	t.unit = widget.NewSelect(nil, func(s string) { t.pick(&t.focus.Unit, s) })
	tap := newTapArea(t.view.content, t.tapped)
	t.scroll = container.NewScroll(tap)
	zoomOut := widget.NewButton("−", func() { t.setZoom(t.zoom - 1) })
	zoomIn := widget.NewButton("+", func() { t.setZoom(t.zoom + 1) })
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	cables := widget.NewButton("Export cable map…", u.ExportCablesDialog)
	bar := wrapRow(container.NewHBox(widget.NewLabel("Pod"), t.pod), container.NewHBox(widget.NewLabel("SU"), t.unit),
		container.NewHBox(widget.NewLabel("Zoom"), zoomOut, t.zoomText, zoomIn), export, cables)
	hint := widget.NewLabel("Click “× more pods” or “× more SUs” on the right of the drawing to expand the next one.")
	hint.Wrapping = fyne.TextWrapWord
	t.content = container.NewBorder(bar, hint, nil, nil, t.scroll)
	return t
}

// pick sets a focus field from a select's text ("3" -> 3).
func (t *topologyTab) pick(dst *int, s string) {
	if t.filling {
		return
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return
	}
	*dst = n
	if dst == &t.focus.Pod {
		t.focus.Unit = 1 // a new pod starts at its first unit
	}
	t.stale = true
	t.redraw()
}

// tapped expands the next pod or unit when their summary is clicked.
func (t *topologyTab) tapped(at fyne.Position) {
	if t.plan == nil {
		return
	}
	pods, units := t.counts()
	switch t.view.targetAt(at) {
	case charts.TargetNextPod:
		t.focus.Pod = t.focus.Pod%pods + 1
		t.focus.Unit = 1
	case charts.TargetNextUnit:
		t.focus.Unit = t.focus.Unit%units + 1
	default:
		return
	}
	t.stale = true
	t.redraw()
}

// counts are the pods of a plane and the units of the focused pod.
func (t *topologyTab) counts() (pods, units int) {
	runs, _, _, _ := t.plan.Layout()
	pod := max(t.focus.Pod, 1)
	for _, r := range runs {
		if pods < pod && pod <= pods+r.Count {
			units = max(1, r.Units)
		}
		pods += r.Count
	}
	return pods, units
}

func (t *topologyTab) setZoom(i int) {
	t.zoom = min(max(i, 0), len(topologyZooms)-1)
	z := topologyZooms[t.zoom]
	t.zoomText.SetText(fmt.Sprintf("%.0f%%", 100*z))
	base := t.scroll.Size()
	if base.Width < 10 {
		base = fyne.NewSize(1000, 650)
	}
	t.view.img.SetMinSize(fyne.NewSize(max(360, (base.Width-8)*z), max(200, (base.Height-8)*z)))
	t.scroll.Refresh()
}

func (t *topologyTab) redraw() {
	u := t.u
	p := u.m.Plan()
	if !t.stale || p == nil {
		return
	}
	t.stale = false
	if p != t.plan {
		t.plan = p
		t.focus = charts.Focus{Pod: max(t.focus.Pod, 1), Unit: max(t.focus.Unit, 1)}
	}
	pods, units := t.counts()
	t.focus.Pod, t.focus.Unit = min(t.focus.Pod, pods), min(t.focus.Unit, units)
	t.filling = true
	t.pod.Options, t.unit.Options = numbers(pods), numbers(units)
	t.pod.SetSelected(strconv.Itoa(t.focus.Pod))
	t.unit.SetSelected(strconv.Itoa(t.focus.Unit))
	t.filling = false
	focus := t.focus
	t.view.draw(func() (*charts.Figure, error) {
		return charts.Topology(charts.Input{Plan: p, Focus: focus, InWindow: true})
	})
}

// numbers lists "1" to "n", at most 1,000 of them (a select longer than
// that is no help; clicking the drawing steps through the rest).
func numbers(n int) []string {
	out := make([]string, 0, min(n, 1000))
	for i := 1; i <= min(n, 1000); i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// tapArea reports taps on its content with their position.
type tapArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func(at fyne.Position)
}

func newTapArea(content fyne.CanvasObject, onTap func(fyne.Position)) *tapArea {
	a := &tapArea{content: content, onTap: onTap}
	a.ExtendBaseWidget(a)
	return a
}

// Tapped passes the tap on.
func (a *tapArea) Tapped(ev *fyne.PointEvent) { a.onTap(ev.Position) }

// CreateRenderer shows the content.
func (a *tapArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.content) }
