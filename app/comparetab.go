package app

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/charts"
	"fabricplan/planner"
)

// compareTab holds pinned plans (named snapshots) side by side with the
// current one; the figures on which they differ are highlighted.
type compareTab struct {
	u       *UI
	content fyne.CanvasObject
	table   *widget.Table
	pick    *widget.Select
	pinSel  *widget.Select
	remove  *widget.Button
	view    *chartView
	cmp     model.Comparison // what the table shows
	stale   bool
}

var compareCharts = []string{"cost", "ports", "power", "jct"}

func newCompareTab(u *UI) *compareTab {
	t := &compareTab{u: u, view: newChartView(u)}
	t.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(t.cmp.Rows), len(t.cmp.Columns) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			row := t.cmp.Rows[id.Row]
			l.TextStyle.Bold = row.Differs
			l.Importance = widget.MediumImportance
			if row.Differs {
				l.Importance = widget.HighImportance
			}
			l.SetText(row.Cells[id.Col])
		})
	t.table.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	t.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		switch {
		case id.Row < 0 && id.Col >= 0 && id.Col < len(t.cmp.Columns):
			l.SetText(t.cmp.Columns[id.Col])
		case id.Col < 0 && id.Row >= 0 && id.Row < len(t.cmp.Rows):
			text := t.cmp.Rows[id.Row].Name
			if t.cmp.Rows[id.Row].Differs {
				text = "≠ " + text
			}
			l.SetText(text)
		default:
			l.SetText("")
		}
	}
	t.table.SetColumnWidth(-1, 160) // the row names
	for i := 0; i < 16; i++ {
		t.table.SetColumnWidth(i, 190)
	}
	pin := widget.NewButton("Pin current plan…", u.PinDialog)
	t.pinSel = widget.NewSelect(nil, func(string) { t.remove.Enable() })
	t.pinSel.PlaceHolder = "(pick a pin)"
	t.remove = widget.NewButton("Remove pin", func() {
		if u.m.Unpin(t.pinSel.Selected) {
			t.pinsChanged()
		}
	})
	clear := widget.NewButton("Unpin all", func() {
		u.m.UnpinAll()
		t.pinsChanged()
	})
	t.pick = widget.NewSelect(compareCharts, func(string) { t.stale = true; t.redraw() })
	t.pick.SetSelected("cost")
	hint := widget.NewLabel("Pin a plan under a name, change the inputs, and compare. Figures that differ are in bold with ≠. " +
		"Cost vs last column: P is the share of 10,000 price draws, each part within its sourced range and shared by plans that use it, " +
		"in which that plan costs less than the last; between 0.1 and 0.9 the difference is inside the prices' uncertainty: a tie.")
	hint.Wrapping = fyne.TextWrapWord
	bar := wrapRow(pin, t.pinSel, t.remove, clear, container.NewHBox(widget.NewLabel("Chart:"), t.pick))
	split := container.NewVSplit(t.table, t.view.content)
	split.Offset = 0.45
	t.content = container.NewBorder(container.NewVBox(bar, hint), nil, nil, nil, split)
	t.pinsChanged()
	return t
}

// pinsChanged shows the pins now held.
func (t *compareTab) pinsChanged() {
	var names []string
	for _, p := range t.u.m.Pins() {
		names = append(names, p.Name)
	}
	t.pinSel.SetOptions(names)
	t.pinSel.ClearSelected()
	t.remove.Disable()
	t.stale = true
	t.redraw()
}

func (t *compareTab) redraw() {
	if !t.stale || t.u.m.Plan() == nil {
		return
	}
	t.stale = false
	t.cmp = t.u.m.Compare()
	t.table.Refresh()
	build := charts.PortsCompare
	if t.pick.Selected != "ports" {
		c, _ := charts.ByName(t.pick.Selected)
		build = c.Build
	}
	p, vs, market := t.u.m.Plan(), t.u.m.Variants(), t.u.market
	t.view.draw(func() (*charts.Figure, error) {
		return build(charts.Input{Plan: p, Variants: vs, Market: market})
	})
}

// PinCurrent pins the plan of the current inputs under name (empty: a
// name made from the inputs).
func (u *UI) PinCurrent(name string) error {
	if err := u.m.PinCurrent(name); err != nil {
		return err
	}
	u.compare.pinsChanged()
	u.setStatus("Pinned "+u.m.Pins()[len(u.m.Pins())-1].Name+".", widget.MediumImportance)
	return nil
}

// PinDialog asks for the pin's name (Enter pins, Esc cancels).
func (u *UI) PinDialog() {
	if u.m.State().Status == model.Stale {
		u.showError(model.ErrStale)
		return
	}
	name := widget.NewEntry()
	name.SetText(u.m.DefaultPinName())
	d := dialog.NewCustomConfirm("Pin the current plan", "Pin", "Cancel",
		container.NewVBox(widget.NewLabel("Name"), name), func(ok bool) {
			if !ok {
				return
			}
			if err := u.PinCurrent(name.Text); err != nil {
				u.showError(err)
			}
		}, u.win)
	name.OnSubmitted = func(string) { d.Confirm() }
	d.Resize(fyne.NewSize(420, 180))
	u.withKeys(d, d.Confirm, d.Hide)
	d.Show()
	u.win.Canvas().Focus(name)
}

// Pinned lists the pinned plans.
func (u *UI) Pinned() []planner.Variant {
	var out []planner.Variant
	for _, p := range u.m.Pins() {
		out = append(out, planner.Variant{Label: p.Name, Plan: p.Plan})
	}
	return out
}

var errNoPlan = errors.New("nothing planned yet: fix the inputs first")
