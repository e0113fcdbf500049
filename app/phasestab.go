package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/charts"
	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/phases"
)

// TabPhases is the phased build-out.
const TabPhases = "Phases"

// phaseColumns are the columns of phases.Columns both strategies' tables
// show (those with a title), phaseTitles their headings.
var phaseColumns, phaseTitles = titledColumns()

func titledColumns() (cols []phases.Column, titles []string) {
	for _, c := range phases.Columns {
		if c.Title != "" {
			cols, titles = append(cols, c), append(titles, c.Title)
		}
	}
	return cols, titles
}

// phaseWidths are the tables' column widths by column key.
var phaseWidths = map[string]float32{"phase": 60, "date": 80, "gpus": 80, "tiers": 55, "leaf": 60, "spine": 60, "core": 60,
	"switches_added": 85, "links": 80, "links_added": 80, "links_moved": 75, "transceivers_bought": 75, "cables_bought": 75,
	"cost_added_usd": 85, "cost_usd": 85, "power_w": 85, "oversubscription": 65, "step_s": 80, "recabling": 320}

// phaseColumnWidths are phaseWidths in phaseColumns's order.
func phaseColumnWidths() []float32 {
	w := make([]float32, len(phaseColumns))
	for i, c := range phaseColumns {
		w[i] = phaseWidths[c.Key]
	}
	return w
}

// phasesTab plans the scenario's build-out two ways, off the UI
// goroutine: the phase list to edit, the comparison, each strategy's
// table and the chart.
type phasesTab struct {
	u       *UI
	content fyne.CanvasObject
	list    *widget.Entry
	prebuy  *widget.Check
	card    *widget.Label
	tables  [2]*widget.Table
	finds   [2]*widget.Label // each strategy's findings
	view    *chartView
	pp      *phases.PhasedPlan // the phased plan shown
	gen     uint64             // the last planning asked for
	filling bool
	stale   bool
}

func newPhasesTab(u *UI) *phasesTab {
	t := &phasesTab{u: u, view: newChartView(u)}
	t.list = widget.NewEntry()
	t.list.SetPlaceHolder(model.PhasesHint)
	t.list.OnChanged = func(text string) {
		if t.filling {
			return
		}
		if err := u.m.SetPhases(text); err != nil {
			u.setStatus(err.Error(), widget.DangerImportance)
		}
		u.changed()
	}
	t.prebuy = widget.NewCheck("Pre-buy the final spines and cores, with their optics, in phase 1", func(on bool) {
		if t.filling {
			return
		}
		u.m.SetPrebuy(on)
		u.changed()
	})
	t.card = widget.NewLabel("")
	t.card.Wrapping = fyne.TextWrapWord
	for i := range t.tables {
		t.tables[i] = newTextTable(phaseTitles, phaseColumnWidths(), func() int { return t.rows(i) }, func(r, c int) string { return t.cell(i, r, c) })
		t.finds[i] = widget.NewLabel("")
		t.finds[i].Wrapping = fyne.TextWrapWord
	}
	help := widget.NewLabel("GPUs online after each phase: 1024, 16k or 4su (4 of the plan's scalable units); @2026-Q3 = date. Empty: doubling from one unit.")
	help.Truncation = fyne.TextTruncateEllipsis
	help.Importance = widget.LowImportance
	form := container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Phases"), nil, t.list), help, t.prebuy)
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	moves := widget.NewButton("Export moves…", t.exportMovesDialog)
	pages := container.NewAppTabs(
		container.NewTabItem("Chart", container.NewBorder(nil, nil, nil, container.NewVBox(export, moves), t.view.content)),
		container.NewTabItem("Build for the final size", container.NewBorder(nil, t.finds[0], nil, nil, t.tables[0])),
		container.NewTabItem("Grow as you go", container.NewBorder(nil, t.finds[1], nil, nil, t.tables[1])))
	t.content = container.NewBorder(container.NewVBox(form, t.card), nil, nil, nil, pages)
	return t
}

func (t *phasesTab) strategy(i int) *phases.StrategyPlan {
	if t.pp == nil || i >= len(t.pp.Strategies) {
		return nil
	}
	return &t.pp.Strategies[i]
}

func (t *phasesTab) rows(i int) int {
	if sp := t.strategy(i); sp != nil {
		return len(sp.Steps)
	}
	return 0
}

func (t *phasesTab) cell(i, row, col int) string {
	if row >= t.rows(i) || col >= len(phaseColumns) {
		return ""
	}
	c := phaseColumns[col]
	f := c.Value(&t.strategy(i).Steps[row])
	switch {
	case f.None:
		return "-"
	case c.Unit == phases.UnitCount:
		return textfmt.Int(int(f.V))
	case c.Unit == phases.UnitUSD:
		return t.pp.MoneyScale().Format(f.V) // one scale for the view, as the chart's
	case c.Unit == phases.UnitWatts:
		return textfmt.Watts(f.V)
	case c.Unit == phases.UnitRatio && f.Over:
		return textfmt.Oversub(f.V) + " (over)"
	case c.Unit == phases.UnitRatio:
		return textfmt.Oversub(f.V)
	case c.Unit == phases.UnitSeconds:
		return textfmt.Seconds(f.V)
	}
	return f.Text
}

// fill shows the scenario's phase list and options, except in the entry
// being typed in.
func (t *phasesTab) fill() {
	t.filling = true
	defer func() { t.filling = false }()
	m := t.u.m
	if txt := m.PhasesText(); txt != t.list.Text && !t.typing() {
		t.list.SetText(txt)
	}
	t.prebuy.SetChecked(m.Growth().PrebuyPorts)
}

// typing reports whether the phase list has the keyboard focus.
func (t *phasesTab) typing() bool {
	c := fyne.CurrentApp().Driver().CanvasForObject(t.list)
	return c != nil && c.Focused() == t.list
}

// redraw plans the phases of the current plan's scenario in the
// background and shows them; an older planning's result is dropped.
func (t *phasesTab) redraw() {
	u := t.u
	t.fill()
	if !t.stale || u.m.Plan() == nil {
		return
	}
	t.stale = false
	t.gen++
	gen, snap, cat := t.gen, u.m.Scenario(), u.cat
	u.work.add()
	go func() {
		defer u.work.done()
		var pp *phases.PhasedPlan
		err := protect("planning the phases", func() (err error) {
			pp, err = phases.PlanPhases(snap, cat)
			return err
		})
		u.onUI(func() {
			if gen != t.gen {
				return
			}
			u.reportPanic(err)
			t.show(pp, err)
		})
	}()
}

// show puts a phased plan (or why there is none) on screen.
func (t *phasesTab) show(pp *phases.PhasedPlan, err error) {
	if err != nil {
		t.pp = nil
		t.card.SetText("No phased plan: " + err.Error())
	} else {
		t.pp = pp
		cmp := phases.ComparePhases(pp)
		t.card.SetText(strings.ToUpper(cmp[:1]) + cmp[1:] + ".")
	}
	for i := range t.finds {
		text := ""
		if sp := t.strategy(i); sp != nil {
			text = "- " + strings.Join(sp.Findings, "\n- ")
		}
		t.finds[i].SetText(text)
	}
	for _, tb := range t.tables {
		tb.Refresh()
	}
	t.view.draw(func() (*charts.Figure, error) {
		if pp == nil {
			return nil, err
		}
		return charts.Phases(charts.Input{Phases: pp})
	})
}

// ExportMoves writes the links growing as you go moves, phase by phase:
// CSV, or JSON for a name ending .json. It streams into a temporary file
// that replaces path only when whole, so it may run on any goroutine.
func ExportMoves(pp *phases.PhasedPlan, path string) error {
	write := phases.WriteMovesCSV
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
	case ".json":
		write = phases.WriteMovesJSON
	default:
		return fmt.Errorf("cannot tell the format of %q: name it .csv or .json", filepath.Base(path))
	}
	return safefile.WriteWith(path, func(w io.Writer) error { return write(w, pp) })
}

// exportMovesDialog asks where to write the phased plan's moves, and
// writes them in the background.
func (t *phasesTab) exportMovesDialog() {
	u, pp := t.u, t.pp
	if pp == nil {
		u.showError(errors.New("no phased plan to export: see the Phases tab's message"))
		return
	}
	u.savePathDialog("Export links to move (.csv or .json)", "moves.csv", ".csv", func(path string) error {
		u.exportInBackground("writing the links to move", path, func(context.Context) error { return ExportMoves(pp, path) },
			nil, func() { u.status.SetText("Wrote " + path) })
		return nil
	})
}
