package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"fabricplan/charts"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// rackHint is what the line under the floor plan says while the
// pointer is over no rack.
const rackHint = "Click a rack of the floor plan for where its links go."

// rackView is the Layout tab's selected rack: what it is, and where its
// links go, tier by tier and far rack by far rack, with their media and
// lengths. Finding them walks every link of the plan, so it runs off
// the UI goroutine; a newer plan or tap cancels the walk under way, and
// a new plan clears the list at once, so it never shows the far ends of
// a plan no longer shown.
type rackView struct {
	u      *UI
	panel  *fyne.Container
	header *widget.Label
	list   *widget.List
	rows   [][2]string
	// name is the selected rack ("" none); ends its links in plan
	// (nil while they are worked out).
	name   string
	plan   *planner.Plan
	ends   []planner.RackEnd
	gen    int
	cancel context.CancelFunc
	// want is a rack asked for (by name) before a plan had it.
	want string
	// onEnds is called once a rack's far ends are known, or the
	// selection is cleared (the floor plan draws them).
	onEnds func()
}

func newRackView(u *UI) *rackView {
	v := &rackView{u: u, header: widget.NewLabel("")}
	v.header.Wrapping = fyne.TextWrapWord
	v.header.Selectable = true
	v.list = widget.NewList(func() int { return len(v.rows) },
		func() fyne.CanvasObject {
			top, below := widget.NewLabel(""), widget.NewLabel("")
			top.Truncation, below.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
			top.TextStyle.Bold = true
			return container.NewVBox(top, below)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(v.rows[i][0])
			box.Objects[1].(*widget.Label).SetText(v.rows[i][1])
		})
	clear := widget.NewButton("Clear", func() { v.clear() })
	v.panel = container.NewBorder(container.NewBorder(nil, nil, nil, container.NewVBox(clear), v.header), nil, nil, nil, v.list)
	v.panel.Hide()
	return v
}

// selected reports the rack to draw ringed on the floor plan of p and
// its far ends; "" while none is selected or its ends are still being
// worked out for p.
func (v *rackView) selected(p *planner.Plan) (string, []planner.RackEnd) {
	if v.name == "" || v.plan != p || v.ends == nil {
		return "", nil
	}
	return v.name, v.ends
}

// pick selects rack (an index in p's hall) and works out its far ends.
func (v *rackView) pick(p *planner.Plan, rack int) {
	if p == nil || p.Hall == nil || rack < 0 || rack >= len(p.Hall.Racks) {
		return
	}
	v.gen++
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
	r := p.Hall.Racks[rack]
	v.name, v.plan, v.ends, v.rows, v.want = r.Name, p, nil, nil, ""
	v.header.SetText(rackHeader(r) + "\nWorking out where its links go…")
	v.list.Refresh()
	v.panel.Show()
	gen := v.gen
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	v.u.work.add()
	go func() {
		defer v.u.work.done()
		var ends []planner.RackEnd
		err := protect("listing a rack's links", func() (err error) {
			ends, err = p.RackEnds(ctx, rack)
			return err
		})
		var rows [][2]string
		if err == nil {
			rows = rackRows(p.Hall, rack, ends)
		}
		v.u.onUI(func() {
			if gen != v.gen {
				return // a newer plan or tap
			}
			cancel()
			v.cancel = nil
			if err != nil {
				v.header.SetText(rackHeader(r) + "\n" + err.Error())
				return
			}
			v.ends, v.rows = ends, rows
			if v.ends == nil {
				v.ends = []planner.RackEnd{}
			}
			v.header.SetText(rackHeader(r) + "\n" + rackSummary(ends))
			v.list.Refresh()
			v.list.ScrollToTop()
			if v.onEnds != nil {
				v.onEnds()
			}
		})
	}()
}

// show follows a new plan: the rack of the same name is selected again
// and its far ends worked out anew (none: the selection clears).
func (v *rackView) show(p *planner.Plan) {
	name := v.name
	if v.want != "" {
		name = v.want
	}
	if name == "" || p == v.plan {
		return
	}
	if p == nil || p.Hall == nil {
		v.clear()
		v.want = name
		return
	}
	for i, r := range p.Hall.Racks {
		if r.Name == name {
			v.pick(p, i)
			return
		}
	}
	v.clear()
}

// clear drops the selection and cancels a walk under way.
func (v *rackView) clear() {
	v.gen++
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
	had := v.name != ""
	v.name, v.plan, v.ends, v.rows, v.want = "", nil, nil, nil, ""
	v.list.Refresh()
	v.panel.Hide()
	if had && v.onEnds != nil {
		v.onEnds()
	}
}

// selectRack selects the rack named name now, or once a plan has it.
func (v *rackView) selectRack(name string) {
	v.want = strings.ToUpper(strings.TrimSpace(name))
	v.plan = nil
	if p := v.u.m.Plan(); p != nil {
		v.show(p)
	}
}

// rackHeader says what a rack is, where it stands and what it draws.
func rackHeader(r hall.Rack) string {
	holds := textfmt.Plural(r.Nodes, "node")
	if r.Kind != hall.RackCompute || r.Switches > 0 {
		holds = strings.TrimPrefix(holds+", ", "0 nodes, ") + textfmt.Plural(r.Switches, "switch")
	}
	return fmt.Sprintf("Rack %s: %s rack, row %d, position %d; %s in %dU; %.1f kW peak, %.1f kW typical, %s-cooled.",
		r.Name, r.Kind, r.Row+1, r.Slot+1, holds, r.UsedUnits, r.PeakKW, r.TypicalKW, r.Cooling)
}

// rackSummary counts a rack's links and the racks they reach.
func rackSummary(ends []planner.RackEnd) string {
	if len(ends) == 0 {
		return "No links of the back-end fabric end in this rack."
	}
	links, racks := 0, map[int]bool{}
	for _, e := range ends {
		links += e.Links
		racks[e.Far] = true
	}
	return fmt.Sprintf("%s to %s (ringed on the floor plan):", textfmt.Plural(links, "link"), textfmt.Plural(len(racks), "rack"))
}

// rackRows is one list row per far end of rack's links: the tier and
// far rack, then the links by medium and length sold.
func rackRows(h *hall.Hall, rack int, ends []planner.RackEnd) [][2]string {
	rows := make([][2]string, 0, len(ends))
	for _, e := range ends {
		far := h.Racks[e.Far]
		where := fmt.Sprintf("to %s (%s rack, row %d)", far.Name, far.Kind, far.Row+1)
		if e.Far == rack {
			where = "inside the rack"
		}
		top := fmt.Sprintf("%s %s: %s", tierLabel(e.Tier), where, textfmt.Plural(e.Links, "link"))
		var runs []string
		for _, r := range e.Runs {
			runs = append(runs, fmt.Sprintf("%s × %g m %s", textfmt.Int(r.Links), r.Metres, shortMedium(r.Medium)))
		}
		rows = append(rows, [2]string{top, strings.Join(runs, ", ")})
	}
	return rows
}

// rackArea is the floor plan under the pointer: a tap on a rack selects
// it, and hovering names the rack under the pointer.
type rackArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func(fyne.Position)
	onHover func(fyne.Position, bool)
}

var _ desktop.Hoverable = (*rackArea)(nil)

func newRackArea(content fyne.CanvasObject, onTap func(fyne.Position), onHover func(fyne.Position, bool)) *rackArea {
	a := &rackArea{content: content, onTap: onTap, onHover: onHover}
	a.ExtendBaseWidget(a)
	return a
}

// Tapped passes the tap on.
func (a *rackArea) Tapped(ev *fyne.PointEvent) { a.onTap(ev.Position) }

// MouseIn names the rack under the pointer.
func (a *rackArea) MouseIn(ev *desktop.MouseEvent) { a.onHover(ev.Position, true) }

// MouseMoved names the rack under the pointer.
func (a *rackArea) MouseMoved(ev *desktop.MouseEvent) { a.onHover(ev.Position, true) }

// MouseOut clears the name.
func (a *rackArea) MouseOut() { a.onHover(fyne.Position{}, false) }

// CreateRenderer shows the content.
func (a *rackArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.content) }

// rackAt is the index of the floor plan's rack under pos in the view,
// false when none is (or another picture is shown).
func rackAt(v *chartView, pos fyne.Position) (int, bool) {
	t, ok := v.targetHit(pos)
	if !ok || t.Name != charts.TargetRack {
		return 0, false
	}
	return t.Index, true
}

// cutFold cuts prefix off s, ignoring case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
