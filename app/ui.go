// Package app is Fabric Planner's desktop GUI: the inputs panel, the
// result tabs, menus and dialogs. It is thin: every figure comes from the
// planner package and every chart from the charts package. It takes a
// fyne.App and never starts a driver, so it runs headless under
// fyne.io/fyne/v2/test.
package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
)

// AppID is the application ID; FyneApp.toml uses the same, so preferences
// persist between runs.
const AppID = "io.github.fabricplanner"

// Options configure a UI.
type Options struct {
	// Scenario to open; empty opens the last one used, else the default.
	ScenarioPath string
	// Ephemeral keeps preferences (recent files, window size) untouched,
	// for screenshots and tests.
	Ephemeral bool
}

// UI is one Fabric Planner window.
type UI struct {
	app    fyne.App
	win    fyne.Window
	cat    *planner.Catalog
	market *planner.Market
	opts   Options

	scenario planner.Scenario // the inputs as shown, valid or not
	plan     *planner.Plan    // the last valid plan
	planErr  error            // why the current inputs do not plan (nil: they do)
	path     string           // file the scenario came from or was saved to
	dirty    bool
	pinned   []planner.Variant

	inputs    *inputsPanel
	summary   *summaryTab
	charts    *chartsTab
	marketTab *marketTab
	compare   *compareTab
	search    *searchTab
	tabs      *container.AppTabs
	status    *widget.Label

	loading bool // true while widgets are being filled from a scenario

	// background counts files being read off the UI goroutine.
	background sync.WaitGroup

	// confirm asks a yes/no question; tests replace it.
	confirm func(title, message string, onYes func())
	// showError reports an error; tests replace it.
	showError func(err error)
}

// New builds the UI for window w of a. It loads the catalog and market
// data, opens opts.ScenarioPath (or the last scenario, or the default),
// and sets w's content, menu and title.
func New(a fyne.App, w fyne.Window, cat *planner.Catalog, market *planner.Market, opts Options) *UI {
	u := &UI{app: a, win: w, cat: cat, market: market, opts: opts}
	u.confirm = func(title, message string, onYes func()) {
		dialog.ShowConfirm(title, message, func(ok bool) {
			if ok {
				onYes()
			}
		}, w)
	}
	u.showError = func(err error) { dialog.ShowError(err, w) }
	u.scenario = planner.NewScenario()
	u.inputs = newInputsPanel(u)
	u.summary = newSummaryTab(u)
	u.charts = newChartsTab(u)
	u.marketTab = newMarketTab(u)
	u.compare = newCompareTab(u)
	u.search = newSearchTab(u)
	u.tabs = container.NewAppTabs(
		container.NewTabItem(TabSummary, u.summary.content),
		container.NewTabItem(TabCharts, u.charts.content),
		container.NewTabItem(TabMarket, u.marketTab.content),
		container.NewTabItem(TabCompare, u.compare.content),
		container.NewTabItem(TabSearch, u.search.content),
	)
	u.tabs.OnSelected = func(*container.TabItem) { u.refreshVisible() }
	u.status = widget.NewLabel("")
	u.status.Truncation = fyne.TextTruncateEllipsis
	split := container.NewHSplit(u.inputs.content, container.NewBorder(nil, u.status, nil, nil, u.tabs))
	split.Offset = 0.3
	w.SetContent(split)
	w.SetMainMenu(u.mainMenu())
	u.addShortcuts()
	w.SetCloseIntercept(u.requestQuit)
	u.openInitial()
	return u
}

// Tab names, as --tab takes them.
const (
	TabSummary = "Summary"
	TabCharts  = "Charts"
	TabMarket  = "Market"
	TabCompare = "Compare"
	TabSearch  = "Search"
)

// SelectTab shows the named tab (case-insensitive); false if none.
func (u *UI) SelectTab(name string) bool {
	for i, t := range u.tabs.Items {
		if equalFold(t.Text, name) {
			u.tabs.SelectIndex(i)
			return true
		}
	}
	return false
}

// TabNames lists the tabs.
func (u *UI) TabNames() []string {
	var out []string
	for _, t := range u.tabs.Items {
		out = append(out, t.Text)
	}
	return out
}

// Plan is the last valid plan (nil before the first).
func (u *UI) Plan() *planner.Plan { return u.plan }

// Scenario is the scenario as the inputs show it.
func (u *UI) Scenario() planner.Scenario { return u.scenario }

// Dirty reports unsaved changes.
func (u *UI) Dirty() bool { return u.dirty }

// openInitial shows the embedded default at once, then opens the
// scenario given, else the last one used, in the background. A file given
// on the command line that cannot be opened is reported; a last-used file
// that has gone is passed over quietly.
func (u *UI) openInitial() {
	u.loadScenario(defaultScenario(), "")
	path := u.opts.ScenarioPath
	if path == "" && !u.opts.Ephemeral {
		path = u.app.Preferences().String(prefLastScenario)
	}
	if path == "" {
		return
	}
	onError := func(err error) { u.showError(err) }
	if u.opts.ScenarioPath == "" {
		onError = func(error) {}
	}
	u.openOrReport(path, onError)
}

// loadScenario shows s in the inputs and plans it; path is its file.
func (u *UI) loadScenario(s planner.Scenario, path string) {
	u.scenario = s
	u.path = path
	u.loading = true
	u.inputs.fill(s)
	u.loading = false
	u.recompute()
	u.setDirty(false)
}

// changed is called by every input after it updated u.scenario.
func (u *UI) changed() {
	if u.loading {
		return
	}
	u.recompute()
	u.setDirty(true)
}

// recompute plans the current inputs. On success the results show the new
// plan; on failure the last valid plan stays and the errors appear next to
// their fields.
func (u *UI) recompute() {
	p, err := planner.Build(u.scenario, u.cat)
	u.planErr = err
	u.inputs.showErrors(err)
	if err != nil {
		u.status.SetText("Not planned: " + firstLine(err) + " — showing the last valid plan.")
		u.status.Importance = widget.DangerImportance
		u.status.Refresh()
		return
	}
	u.plan = p
	u.status.Importance = widget.MediumImportance
	u.status.SetText(fmt.Sprintf("%s GPUs, %d tier(s), %s switches, %s — planned.", planner.FormatInt(p.GPUs), p.Tiers,
		planner.FormatInt(p.TotalSwitches()), planner.FormatUSD(p.Cost.Total)))
	u.inputs.refreshChoices(p)
	u.summary.update(p)
	u.charts.stale = true
	u.marketTab.stale = true
	u.compare.stale = true
	u.refreshVisible()
}

// refreshVisible redraws the visible tab if its content is stale: charts
// are drawn only when seen.
func (u *UI) refreshVisible() {
	if u.tabs == nil || u.plan == nil {
		return
	}
	switch u.tabs.Selected().Text {
	case TabCharts:
		u.charts.redraw()
	case TabMarket:
		u.marketTab.redraw()
	case TabCompare:
		u.compare.redraw()
	}
}

func (u *UI) setDirty(d bool) {
	u.dirty = d
	name := "untitled"
	if u.path != "" {
		name = filepath.Base(u.path)
	}
	mark := ""
	if d {
		mark = "* "
	}
	u.win.SetTitle(mark + name + " — Fabric Planner")
}

func firstLine(err error) string {
	if fes := planner.FieldErrors(err); len(fes) > 0 {
		s := fes[0].Error()
		if len(fes) > 1 {
			s += fmt.Sprintf(" (and %d more)", len(fes)-1)
		}
		return s
	}
	return err.Error()
}

var errNoPlan = errors.New("nothing planned yet: fix the inputs first")
