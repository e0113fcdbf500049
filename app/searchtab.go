package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/charts"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/pricedraw"
)

const (
	targetDays   = "JCT target (days)"
	targetWithin = "Within % of the fastest"
)

var searchColumns = model.SearchColumns

// searchTab finds the cheapest fabric that meets a job-time target.
type searchTab struct {
	u        *UI
	content  fyne.CanvasObject
	mode     *widget.RadioGroup
	target   *widget.Entry
	budget   *widget.Entry
	showAll  *widget.Check
	failures *widget.Check // rank by JCT counting expected failures
	run      *widget.Button
	cancel   *widget.Button
	use      *widget.Button
	progress *widget.ProgressBar
	info     *widget.Label
	staleMsg *widget.Label
	table    *widget.Table
	view     *chartView
	pages    *container.AppTabs // the chart and the designs table
	detail   *rowDetail         // the selected design in full

	stop context.CancelFunc // cancels the running search
}

func newSearchTab(u *UI) *searchTab {
	t := &searchTab{u: u, view: newChartView(u)}
	t.staleMsg = widget.NewLabel("")
	t.staleMsg.Wrapping = fyne.TextWrapWord
	t.staleMsg.Importance = widget.WarningImportance
	t.staleMsg.Hide()
	t.mode = widget.NewRadioGroup([]string{targetWithin, targetDays}, nil)
	t.mode.Horizontal = true
	t.mode.SetSelected(targetWithin)
	t.target = widget.NewEntry()
	t.target.SetText("5")
	t.budget = widget.NewEntry()
	t.budget.SetPlaceHolder("US$, optional")
	t.showAll = widget.NewCheck("Show every design, not only the Pareto front", func(all bool) {
		u.m.SetShowAll(all)
		t.refreshRows()
	})
	t.failures = widget.NewCheck("Count expected failures in JCT", nil)
	t.run = widget.NewButton("Search designs", func() { t.start() })
	t.run.Importance = widget.HighImportance
	t.cancel = widget.NewButton("Cancel", func() {
		if t.stop != nil {
			t.stop()
		}
	})
	t.cancel.Disable()
	t.use = widget.NewButton("Use this design", func() { t.useSelected() })
	t.use.Disable()
	t.progress = widget.NewProgressBar()
	t.progress.Hide()
	t.info = widget.NewLabel("Enumerates fabric, NIC speed, port split, planes, switch, oversubscription and tiers for this GPU count and workload.")
	t.info.Wrapping = fyne.TextWrapWord
	t.table = newTextTable(searchColumns, []float32{380, 90, 100, 100, 90, 100, 220, 360}, t.rowCount, t.cell)
	// Headers are buttons that sort by their column.
	t.table.CreateHeader = func() fyne.CanvasObject { return widget.NewButton("", nil) }
	t.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*widget.Button)
		if id.Row >= 0 || id.Col < 0 {
			b.SetText("")
			return
		}
		label := searchColumns[id.Col]
		if id.Col == u.m.SearchSort() {
			label += " ▲"
		}
		b.SetText(label)
		col := id.Col
		b.OnTapped = func() {
			u.m.SortSearch(col)
			t.refreshRows()
		}
	}
	t.table.OnSelected = func(id widget.TableCellID) {
		u.m.SelectDesign(id.Row)
		t.showStale()
	}
	form := container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Target:"), nil, t.mode),
		container.NewGridWithColumns(4, widget.NewLabel("Value"), t.target, widget.NewLabel("Budget (US$)"), t.budget),
		wrapRow(t.run, t.cancel, t.use, t.showAll, t.failures),
		t.progress, t.info, t.staleMsg,
	)
	// The chart gets the tab's whole width and height, as in an export;
	// the designs table sits on its own page beside it.
	export := widget.NewButton("Export chart…", func() { u.ExportChartDialog(t.view.fig) })
	table, detail := withRowDetail(t.table, searchColumns, t.rowCount, t.cell)
	t.detail = detail
	t.pages = container.NewAppTabs(
		container.NewTabItem("Chart", container.NewBorder(nil, nil, nil, container.NewVBox(export), t.view.content)),
		container.NewTabItem("Designs", table))
	t.content = container.NewBorder(form, nil, nil, nil, t.pages)
	return t
}

// options reads the target and budget fields.
func (t *searchTab) options() (explore.SearchOptions, error) {
	var opt explore.SearchOptions
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(t.target.Text), "%"), 64)
	if strings.TrimSpace(t.target.Text) != "" {
		if err != nil || v <= 0 {
			return opt, fmt.Errorf("target: %q is not a positive number", t.target.Text)
		}
		if t.mode.Selected == targetDays {
			opt.TargetDays = v
		} else {
			opt.WithinPct = v
		}
	}
	if b := strings.TrimSpace(t.budget.Text); b != "" {
		v, err := textfmt.ParseMoney(b)
		if err != nil || v <= 0 {
			return opt, fmt.Errorf("budget: %q is not an amount of US$", b)
		}
		opt.BudgetUSD = v
	}
	opt.WithFailures = t.failures.Checked
	return opt, nil
}

// start runs the search off the UI goroutine, reporting progress through
// the UI goroutine; the Cancel button stops it.
func (t *searchTab) start() {
	u := t.u
	plan, err := u.currentPlan()
	if err != nil {
		u.showError(err)
		return
	}
	if t.stop != nil {
		t.stop() // the search of the old inputs is of no more use
	}
	opt, err := t.options()
	if err != nil {
		u.showError(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.stop = cancel
	run, base := u.m.StartSearch()
	t.run.Disable()
	t.cancel.Enable()
	t.progress.SetValue(0)
	t.progress.Show()
	t.info.SetText("Searching…")
	var lastPct atomic.Int64
	var mu sync.Mutex // workers report concurrently; hand one update at a time to the UI
	opt.Progress = func(n, total int) {
		pct := int64(100 * n / total)
		if lastPct.Swap(pct) != pct {
			mu.Lock()
			u.onUI(func() { t.progress.SetValue(float64(pct) / 100) })
			mu.Unlock()
		}
	}
	cat := u.cat
	u.work.add()
	go func() {
		defer u.work.done()
		var res *explore.SearchResult
		err := protect("searching designs", func() (err error) {
			res, err = explore.Search(ctx, base, cat, opt)
			return err
		})
		u.onUI(func() {
			if u.m.SearchDone(run, res, err) { // not replaced by a newer search
				t.finish(plan, err)
			}
		})
	}()
}

// finish shows the model's search results once the latest run is done.
func (t *searchTab) finish(plan *planner.Plan, err error) {
	t.stop = nil
	t.run.Enable()
	t.cancel.Disable()
	t.progress.Hide()
	if err != nil {
		t.info.SetText("No result: " + err.Error())
		t.u.reportPanic(err)
		return
	}
	res, _ := t.u.m.SearchResult()
	msg := fmt.Sprintf("%s designs evaluated in %s, %s buildable, %d on the Pareto front.", textfmt.Int(res.Evaluated),
		res.Elapsed.Round(1e6), textfmt.Int(len(res.Designs)), len(res.Front))
	unit, usd := res.TimeUnit(), res.MoneyScale() // the chart's and the table's too
	if d := res.Cheapest; d != nil {
		msg += fmt.Sprintf(" Cheapest meeting %s: %s (%s, %s).", unit.Format(res.Target), d.Label, usd.Format(d.CostUSD), unit.Format(d.Days))
	}
	if d := res.FastestInBudget; d != nil {
		msg += fmt.Sprintf(" Fastest in budget: %s (%s).", d.Label, unit.Format(d.Days))
	}
	if res.Message != "" {
		msg += " " + res.Message + "."
	}
	if note := res.PricingBrief(); note != "" { // the chart's footnote has the whole note
		msg += " " + note
	}
	if ties := len(res.Ties()); ties > 0 {
		msg += fmt.Sprintf(" %s cost a tie with the pick: the difference is inside the prices' uncertainty (P of costing less between %.1f and %.1f).",
			textfmt.Plural(ties, "design"), 1-pricedraw.SureCheaper, pricedraw.SureCheaper)
	}
	t.info.SetText(msg)
	t.refreshRows()
	t.view.draw(func() (*charts.Figure, error) {
		return charts.SearchChart(charts.Input{Plan: plan, Search: res, InWindow: true})
	})
}

// showStale marks results run on other inputs and keeps their designs
// from being used.
func (t *searchTab) showStale() {
	stale, why := t.u.m.SearchStale()
	if stale {
		t.staleMsg.SetText(why)
		t.staleMsg.Show()
	} else {
		t.staleMsg.Hide()
	}
	if t.u.m.CanUseDesign() {
		t.use.Enable()
	} else {
		t.use.Disable()
	}
}

// refreshRows shows the model's rows, sort and (cleared) selection.
func (t *searchTab) refreshRows() {
	t.table.UnselectAll()
	t.table.Refresh()
	t.detail.show(-1)
	t.showStale()
}

func (t *searchTab) rowCount() int { return len(t.u.m.SearchRows()) }

func (t *searchTab) cell(row, col int) string {
	rows := t.u.m.SearchRows()
	if row >= len(rows) {
		return ""
	}
	d := rows[row]
	switch col {
	case 0:
		return d.Label
	case 1:
		return textfmt.Int(d.Plan.TotalSwitches())
	case 2:
		if res, _ := t.u.m.SearchResult(); res != nil {
			return d.CostText(res.MoneyScale().Format)
		}
		return d.CostText(textfmt.USD)
	case 3:
		return textfmt.Watts(d.PowerW)
	case 4:
		return textfmt.Seconds(d.StepS)
	case 5:
		if res, _ := t.u.m.SearchResult(); res != nil {
			return res.TimeUnit().Format(d.Days)
		}
		return ""
	case 6:
		return t.u.m.DesignPick(d)
	}
	return d.Reason // why the search tried a shape beyond the usual
}

// useSelected loads the selected design into the inputs; the model
// refuses a design of results run on other inputs.
func (t *searchTab) useSelected() {
	u := t.u
	d, err := u.m.UseDesign(u.m.SelectedDesign())
	if err != nil {
		u.showError(err)
		return
	}
	u.inputs.fill()
	u.changed()
	u.setStatus("Using the design "+d.Label+" (Undo goes back).", widget.MediumImportance)
}

// StartSearch runs the design search with the Search tab's settings.
func (u *UI) StartSearch() { u.search.start() }
