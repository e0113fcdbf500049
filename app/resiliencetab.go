package app

import (
	"fmt"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/charts"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// resilienceColumns head the failure-case table.
var resilienceColumns = []string{"Lost", "In plan", "GPUs hit", "GPUs idle", "BW left", "Uplink left", "Job", "Step time", "Slowdown", "Per day"}

// resilienceTab shows the plan's failure what-if: a goodput card, the
// failure cases as a table, and the resilience chart.
type resilienceTab struct {
	u       *UI
	content fyne.CanvasObject
	card    *widget.Label
	table   *widget.Table
	detail  *rowDetail // the selected failure case in full
	view    *chartView
	plan    *planner.Plan // the plan shown
	stale   bool
}

func newResilienceTab(u *UI) *resilienceTab {
	t := &resilienceTab{u: u, view: newChartView(u)}
	t.card = widget.NewLabel("")
	t.card.Wrapping = fyne.TextWrapWord
	t.card.TextStyle.Bold = true
	t.table = newTextTable(resilienceColumns, []float32{190, 80, 85, 90, 80, 100, 90, 95, 90, 80}, t.rows, t.cell)
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	note := widget.NewLabel("Estimates: rates and recovery times from data/reliability.toml, each with its source; override them in the scenario's [reliability] table. Sources of each behaviour: fabricplan resilience --json.")
	note.Wrapping = fyne.TextWrapWord
	table, detail := withRowDetail(t.table, resilienceColumns, t.rows, t.cell)
	t.detail = detail
	pages := container.NewAppTabs(
		container.NewTabItem("Chart", container.NewBorder(nil, nil, nil, container.NewVBox(export), t.view.content)),
		container.NewTabItem("Failure cases", container.NewBorder(nil, note, nil, nil, table)))
	t.content = container.NewBorder(t.card, nil, nil, nil, pages)
	return t
}

func (t *resilienceTab) rows() int {
	if t.plan == nil || t.plan.Resilience == nil {
		return 0
	}
	return len(t.plan.Resilience.Cases)
}

func (t *resilienceTab) cell(row, col int) string {
	if row >= t.rows() {
		return ""
	}
	c := t.plan.Resilience.Cases[row]
	switch col {
	case 0:
		return c.Name
	case 1:
		return textfmt.Int(c.Count)
	case 2:
		return textfmt.Int(c.GPUsAffected)
	case 3:
		return textfmt.Int(c.GPUsIdle)
	case 4:
		return fmt.Sprintf("%.1f%%", 100*c.BandwidthLeft)
	case 5:
		return fmt.Sprintf("%.1f%%", 100*c.UplinkLeft)
	case 6:
		return string(c.Behaviour)
	case 7:
		return c.StepText()
	case 8:
		return c.SlowdownText()
	case 9:
		return c.PerDayText()
	}
	return ""
}

// goodputCard says in two lines what failures cost this plan.
func goodputCard(p *planner.Plan) string {
	r := p.Resilience
	if r == nil {
		return "No reliability data."
	}
	g := r.Goodput
	if r.Serving { // instances lost, nothing restarts: no job time or checkpoints
		return g.ServingText() + "\n" + p.SparesText()
	}
	msg := fmt.Sprintf("%.2f job interruptions a day (one every %s). Goodput %.1f%% with %s.",
		g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours), 100*g.ETTR, g.CheckpointText())
	if p.JCT != nil {
		unit := g.UnitWith(p.JCT.Planned.Days)
		with := g.JCTText() // "never ..." when the job cannot progress
		if !math.IsInf(g.JCTDays, 0) {
			with = unit.Format(g.JCTDays)
		}
		msg += fmt.Sprintf("\nJCT counting failures: %s, planned %s.", with, unit.Format(p.JCT.Planned.Days))
	}
	return msg + "\n" + p.SparesText()
}

func (t *resilienceTab) redraw() {
	u := t.u
	p := u.m.Plan()
	if !t.stale || p == nil {
		return
	}
	t.stale = false
	t.plan = p
	t.card.SetText(goodputCard(p))
	t.table.Refresh()
	t.detail.refresh()
	cat := u.cat
	t.view.draw(func() (*charts.Figure, error) {
		in := charts.Input{Plan: p}
		in.AddParts(p.Scenario, cat, charts.PartsOf("resilience"))
		return charts.Resilience(in)
	})
}

// newTextTable is a table of text cells under a row of column names:
// rows and cell give its contents, widths its column widths.
func newTextTable(columns []string, widths []float32, rows func() int, cell func(row, col int) string) *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return rows(), len(columns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			// A label that truncates shapes its text again on every
			// SetText, measured or not: set only what changed.
			if l, text := o.(*widget.Label), cell(id.Row, id.Col); text != l.Text {
				l.SetText(text)
			}
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject { return widget.NewLabel("") }
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if l := o.(*widget.Label); id.Row < 0 && id.Col >= 0 && l.Text != columns[id.Col] {
			l.SetText(columns[id.Col])
		}
	}
	for i, w := range widths {
		t.SetColumnWidth(i, w)
	}
	return t
}
