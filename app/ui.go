// Package app is Fabric Planner's desktop GUI: the inputs panel, the
// result tabs, menus and dialogs. It is thin: the rules of the inputs and
// the plan state live in app/model, every figure comes from the planner
// package and every chart from the charts package. Work runs off the UI
// goroutine and results are applied in one place (UI.apply). It takes a
// fyne.App and never starts a driver, so it runs headless under
// fyne.io/fyne/v2/test.
package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/market"
)

// AppID is the application ID; FyneApp.toml uses the same, so preferences
// persist between runs.
const AppID = "io.github.fabricplanner"

// Options configure a UI.
type Options struct {
	// Scenario to open; empty opens the last one used, else the default.
	ScenarioPath string
	// Ephemeral keeps preferences (recent files, window size) untouched,
	// for screenshots and tests; it also turns the recovery file off
	// unless RecoveryDir is given.
	Ephemeral bool
	// Now is the window's clock, the day quotes' validity is checked
	// against (nil: time.Now).
	Now func() time.Time
	// Context ends long writes (cable map, report, chart exports) when it
	// is done: the process got a signal. Nil is context.Background().
	Context context.Context
	// RecoveryDir is the folder of the recovery file that keeps unsaved
	// edits; empty: the user's config folder (os.UserConfigDir).
	RecoveryDir string
}

// planDelay is the pause in typing after which the inputs are planned.
const planDelay = 120 * time.Millisecond

// UI is one Fabric Planner window.
type UI struct {
	app    fyne.App
	win    fyne.Window
	cat    *planner.Catalog
	market *market.Tables
	opts   Options
	m      *model.Model

	inputs    *inputsPanel
	summary   *summaryTab
	charts    *chartsTab
	marketTab *marketTab
	compare   *compareTab
	search    *searchTab
	resil     *resilienceTab
	topo      *topologyTab
	phases    *phasesTab
	layout    *layoutTab
	tabs      *container.AppTabs
	views     []*chartView // every chart view, drawn again when the theme changes
	status    *ellipsisLabel
	banner    *widget.Label
	bannerBox fyne.CanvasObject

	planner *model.Debouncer
	// work counts background jobs (file reads, charts, reports) whose
	// results are still to be applied.
	work jobs
	// validation is the Model validation dialog's table, once shown.
	validation *widget.Table
	// do hands a function to the UI goroutine, to run later: fyne.Do, or
	// in tests a send to queue. It is the one way background work
	// reaches the window (onUI).
	do func(func())
	// queue holds what do handed over in tests, for WaitIdle to run; nil
	// when Fyne runs it.
	queue chan func()

	submitted uint64 // the generation of inputs last sent to be planned
	notice    string // what the last edit reset in other inputs

	// confirm asks a yes/no question; tests replace it.
	confirm func(title, message string, onYes func())
	// showError reports an error; tests replace it.
	showError func(err error)
	// showCrash reports a recovered panic; tests replace it.
	showCrash func(pe *PanicError)
	// decide asks a yes/no question with an action for each answer;
	// tests replace it.
	decide func(title, message string, onYes, onNo func())
	// rec keeps unsaved edits in the recovery file.
	rec recovery
	// saving is the save dialog last opened (tests drive it).
	saving *saveDialog
}

// New builds the UI for window w of a. It opens opts.ScenarioPath (or the
// last scenario, or the default), and sets w's content, menu and title.
func New(a fyne.App, w fyne.Window, cat *planner.Catalog, mkt *market.Tables, opts Options) *UI {
	return newUI(a, w, cat, mkt, opts, nil)
}

// newUI is New with the queue background jobs hand their results to;
// nil hands them to Fyne's UI goroutine.
func newUI(a fyne.App, w fyne.Window, cat *planner.Catalog, mkt *market.Tables, opts Options, queue chan func()) *UI {
	u := &UI{app: a, win: w, cat: cat, market: mkt, opts: opts, queue: queue, do: fyne.Do}
	if queue != nil {
		u.do = func(f func()) { queue <- f }
	}
	u.planner = &model.Debouncer{Delay: planDelay}
	u.confirm = func(title, message string, onYes func()) { u.askYesNo(title, message, onYes) }
	u.showError = u.errorDialog
	u.showCrash = u.crashDialog
	u.decide = u.askYesNoOr
	u.m = model.New(cat, planner.NewScenario()) // openInitial loads the default
	u.inputs = newInputsPanel(u)
	u.summary = newSummaryTab(u)
	u.charts = newChartsTab(u)
	u.marketTab = newMarketTab(u)
	u.compare = newCompareTab(u)
	u.search = newSearchTab(u)
	u.resil = newResilienceTab(u)
	u.topo = newTopologyTab(u)
	u.phases = newPhasesTab(u)
	u.layout = newLayoutTab(u)
	u.tabs = container.NewAppTabs(
		container.NewTabItem(TabSummary, u.summary.content),
		container.NewTabItem(TabCharts, u.charts.content),
		container.NewTabItem(TabMarket, u.marketTab.content),
		container.NewTabItem(TabCompare, u.compare.content),
		container.NewTabItem(TabSearch, u.search.content),
		container.NewTabItem(TabResilience, u.resil.content),
		container.NewTabItem(TabTopology, u.topo.content),
		container.NewTabItem(TabPhases, u.phases.content),
		container.NewTabItem(TabLayout, u.layout.content),
	)
	u.tabs.OnSelected = func(*container.TabItem) { u.refreshVisible() }
	u.status = newEllipsisLabel("")
	u.banner = widget.NewLabel("")
	u.banner.Wrapping = fyne.TextWrapWord
	u.banner.Importance = widget.DangerImportance
	bg := canvas.NewRectangle(withAlpha(theme.Color(theme.ColorNameError), 0x28))
	bg.CornerRadius = 4
	u.bannerBox = container.NewStack(bg, u.banner)
	u.bannerBox.Hide()
	results := container.NewBorder(u.bannerBox, u.status, nil, nil, u.tabs)
	split := container.NewHSplit(u.inputs.content, results)
	split.Offset = 0.3
	w.SetContent(split)
	menu := u.mainMenu()
	w.SetMainMenu(menu)
	u.addShortcuts(menu)
	w.SetCloseIntercept(u.requestQuit)
	a.Settings().AddListener(func(fyne.Settings) { u.onUI(u.recolourCharts) })
	w.SetOnClosed(func() { u.stopRecovery(false) })
	u.startRecovery()
	u.openInitial()
	return u
}

// recolourCharts draws every shown chart again in the current theme.
func (u *UI) recolourCharts() {
	for _, v := range u.views {
		if v.fig != nil {
			v.show(v.fig, nil)
		}
	}
}

// Tab names, as --tab takes them.
const (
	TabSummary = "Summary"
	TabCharts  = "Charts"
	TabMarket  = "Market"
	TabCompare = "Compare"
	TabSearch  = "Search"
	// TabResilience is the failure what-if.
	TabResilience = "Resilience"
	// TabTopology is the topology diagram.
	TabTopology = "Topology"
)

// SelectTab shows the named tab (case-insensitive); false if none.
// "Summary/Step time" also shows a tab below the summary cards;
// "Layout/Leaf-spine" a link tier's runs, "Layout/rack R3-07" a rack's
// far ends.
func (u *UI) SelectTab(name string) bool {
	if top, sub, ok := strings.Cut(name, "/"); ok && equalFold(top, TabLayout) {
		if rack, isRack := cutFold(sub, "rack "); isRack {
			u.layout.rack.selectRack(rack)
			return u.SelectTab(top)
		}
		return u.SelectTab(top) && u.layout.runs.selectTier(sub)
	} else if ok {
		return sub != "" && u.SelectTab(top) && equalFold(top, TabSummary) && selectItem(u.summary.lower, sub, true)
	}
	return selectItem(u.tabs, name, false)
}

// selectItem selects the tab of tabs named name, or whose name starts
// with it (case-insensitive).
func selectItem(tabs *container.AppTabs, name string, prefix bool) bool {
	for i, t := range tabs.Items {
		if equalFold(t.Text, name) || prefix && len(t.Text) >= len(name) && equalFold(t.Text[:len(name)], name) {
			tabs.SelectIndex(i)
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

// Plan is the last valid plan (nil before the first); see State for
// whether it is the plan of the inputs shown.
func (u *UI) Plan() *planner.Plan { return u.m.Plan() }

// State is the state of the plan on screen.
func (u *UI) State() model.PlanState { return u.m.State() }

// Scenario is a snapshot of the inputs that parse.
func (u *UI) Scenario() planner.Scenario { return u.m.Scenario() }

// Dirty reports unsaved changes.
func (u *UI) Dirty() bool { return u.m.Dirty() }

// WaitIdle blocks until every input change is planned and every
// background job (file reads, charts, reports) has been applied; for
// tests (where it runs the queue) and the screenshot mode, never on the
// UI goroutine.
func (u *UI) WaitIdle() {
	for {
		idle := make(chan struct{})
		go func() {
			u.planner.Wait()
			u.work.wait()
			close(idle)
		}()
		for waiting := true; waiting; {
			select {
			case f := <-u.queue:
				f()
			case <-idle:
				waiting = false
			}
		}
		// What ran may have started more work (a plan redraws a chart).
		if len(u.queue) == 0 && u.planner.Pending() == 0 && u.work.count() == 0 {
			return
		}
	}
}

// onUI hands f to the UI goroutine through u.do and returns at once;
// background jobs hand their results (and progress) over with it. f
// counts as work until it has run, so WaitIdle returns only once every
// result is on screen.
func (u *UI) onUI(f func()) {
	f = u.guard("showing a result", f)
	u.work.add()
	u.do(func() {
		defer u.work.done()
		f()
	})
}

// jobs counts background jobs. Unlike a sync.WaitGroup, a job may start
// while another goroutine waits (the recovery timer starts writes at any
// time).
type jobs struct {
	mu   sync.Mutex
	idle sync.Cond
	n    int64
}

func (j *jobs) add() { j.mu.Lock(); j.n++; j.mu.Unlock() }

func (j *jobs) done() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.n--; j.n == 0 && j.idle.L != nil {
		j.idle.Broadcast()
	}
}

func (j *jobs) wait() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.idle.L == nil {
		j.idle.L = &j.mu
	}
	for j.n > 0 {
		j.idle.Wait()
	}
}

func (j *jobs) count() int64 { j.mu.Lock(); defer j.mu.Unlock(); return j.n }

// openInitial shows the embedded default at once, then offers back the
// unsaved edits a previous run left in a recovery file, else opens the
// scenario given, else the last one used, in the background. A file given
// on the command line that cannot be opened is reported; a last-used file
// that has gone is passed over quietly.
func (u *UI) openInitial() {
	u.loadScenario(defaultScenario(), "", "")
	if u.opts.ScenarioPath == "" && u.offerRecovery(u.openLast) {
		return
	}
	u.openLast()
}

// openLast opens the scenario given, else the last one used.
func (u *UI) openLast() {
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

// loadScenario shows s (from path, whose text is source) and plans it.
func (u *UI) loadScenario(s planner.Scenario, path, source string) {
	u.m.Load(s, path, source)
	u.inputs.fill()
	u.changed()
}

// edit applies text typed or picked in the input key, then shows what
// follows from it; it is the one path from a widget to the scenario.
func (u *UI) edit(key, text string) {
	notice, err := u.m.Set(key, text)
	u.inputs.fillExcept(key)
	u.notice = notice
	if err != nil {
		u.setStatus(err.Error(), widget.DangerImportance)
	}
	u.changed()
}

// changed follows a change of the inputs: errors and title at once, the
// plan after a pause in typing, off the UI goroutine.
func (u *UI) changed() {
	u.inputs.showProblems()
	u.win.SetTitle(u.m.Title())
	u.search.showStale()
	u.showState()
	gen, snap := u.m.Gen(), u.m.Scenario()
	if gen == u.submitted {
		return // these inputs are planned or being planned
	}
	u.submitted = gen
	cat := u.cat
	u.planner.Submit(func() {
		var r model.Result
		err := protect("planning", func() error { r = model.Evaluate(gen, snap, cat); return nil })
		if err != nil {
			r = model.Result{Gen: gen, Err: err}
		}
		u.onUI(func() {
			u.apply(r)
			u.reportPanic(err)
		})
	})
}

// apply is where plan results reach the window, on the UI goroutine. A
// result for inputs that have changed since is dropped.
func (u *UI) apply(r model.Result) {
	if !u.m.Apply(r) {
		return
	}
	st := u.m.State()
	u.inputs.showProblems()
	u.inputs.refreshOptions()
	u.showState()
	if r.Err != nil {
		return
	}
	p := u.m.Plan()
	if st.Status == model.Current {
		msg := textfmt.Int(p.GPUs) + " GPUs, " + textfmt.Plural(p.Tiers, "tier") + ", " + textfmt.Int(p.TotalSwitches()) + " switches, " +
			p.MoneyScale().Format(p.Cost.Total) + " — planned." // the summary's scale
		imp := widget.MediumImportance
		if u.notice != "" { // what the last edit reset, said until the next edit
			msg, imp = u.notice+" "+msg, widget.WarningImportance
		}
		u.setStatus(msg, imp)
	}
	u.summary.update(p)
	u.charts.stale = true
	u.marketTab.stale = true
	u.compare.stale = true
	u.resil.stale = true
	u.topo.stale = true
	u.phases.stale = true
	u.layout.stale = true
	u.refreshVisible()
}

// showState dims the results and shows the banner with every problem
// when the inputs do not plan.
func (u *UI) showState() {
	st := u.m.State()
	u.summary.dim(st.Status == model.Stale)
	if st.Status == model.Stale {
		u.banner.SetText(st.Banner(u.m.Plan()))
		u.bannerBox.Show()
		u.setStatus("Not planned: see the problems above.", widget.DangerImportance)
	} else {
		u.bannerBox.Hide()
	}
	u.compare.stale = true
}

func (u *UI) setStatus(text string, imp widget.Importance) {
	u.status.Importance = imp
	u.status.SetText(text)
}

// refreshVisible redraws the visible tab if its content is stale: charts
// are drawn only when seen.
func (u *UI) refreshVisible() {
	if u.tabs == nil || u.m.Plan() == nil {
		return
	}
	switch u.tabs.Selected().Text {
	case TabCharts:
		u.charts.redraw()
	case TabMarket:
		u.marketTab.redraw()
	case TabCompare:
		u.compare.redraw()
	case TabResilience:
		u.resil.redraw()
	case TabTopology:
		u.topo.redraw()
	case TabPhases:
		u.phases.redraw()
	case TabLayout:
		u.layout.redraw()
	}
}

// Undo steps back one edit.
func (u *UI) Undo() {
	if u.m.Undo() {
		u.inputs.fill()
		u.changed()
	}
}

// Redo takes again the edit last undone.
func (u *UI) Redo() {
	if u.m.Redo() {
		u.inputs.fill()
		u.changed()
	}
}
