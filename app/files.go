package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/charts"
	"fabricplan/data"
	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// Preference keys.
const (
	prefLastScenario = "lastScenario"
	prefLastDir      = "lastDir"
	prefRecent       = "recentFiles"
	prefWidth        = "windowWidth"
	prefHeight       = "windowHeight"
	maxRecent        = 8
)

func defaultScenario() planner.Scenario {
	src, err := data.FS.ReadFile(data.DefaultScenario)
	if err == nil {
		if s, err := scenariofile.Parse(src); err == nil {
			return s
		}
	}
	return planner.NewScenario()
}

func (u *UI) mainMenu() *fyne.MainMenu {
	item := func(label string, key fyne.KeyName, mod fyne.KeyModifier, action func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, action)
		if key != "" {
			it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: mod}
		}
		return it
	}
	ctrl := fyne.KeyModifierShortcutDefault
	recent := fyne.NewMenuItem("Open Recent", nil)
	var recentItems []*fyne.MenuItem
	for _, path := range u.recentFiles() {
		path := path
		recentItems = append(recentItems, fyne.NewMenuItem(path, func() { u.guarded(func() { u.openOrReport(path, u.showError) }) }))
	}
	if len(recentItems) == 0 {
		none := fyne.NewMenuItem("(none yet)", nil)
		none.Disabled = true
		recentItems = append(recentItems, none)
	}
	recent.ChildMenu = fyne.NewMenu("", recentItems...)
	quit := fyne.NewMenuItem("Quit", u.requestQuit)
	quit.IsQuit = true
	quit.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: ctrl}
	file := fyne.NewMenu("File",
		item("New", fyne.KeyN, ctrl, func() { u.guarded(u.NewScenario) }),
		item("Open…", fyne.KeyO, ctrl, func() { u.guarded(u.OpenDialog) }),
		recent,
		fyne.NewMenuItemSeparator(),
		item("Save", fyne.KeyS, ctrl, u.Save),
		item("Save As…", fyne.KeyS, ctrl|fyne.KeyModifierShift, u.SaveAsDialog),
		fyne.NewMenuItemSeparator(),
		item("Export chart…", fyne.KeyE, ctrl, func() { u.ExportChartDialog(u.visibleFigure()) }),
		item("Export report…", fyne.KeyR, ctrl, u.ExportReportDialog),
		item("Export BOM…", fyne.KeyB, ctrl, u.ExportBOMDialog),
		fyne.NewMenuItem("Export cable map…", u.ExportCablesDialog),
		fyne.NewMenuItemSeparator(),
		quit,
	)
	edit := fyne.NewMenu("Edit",
		item("Undo", fyne.KeyZ, ctrl, u.Undo),
		item("Redo", fyne.KeyZ, ctrl|fyne.KeyModifierShift, u.Redo),
	)
	plan := fyne.NewMenu("Plan",
		fyne.NewMenuItem("Pin current plan…", u.PinDialog),
		fyne.NewMenuItem("Search designs", func() { u.SelectTab(TabSearch); u.search.start() }),
	)
	help := fyne.NewMenu("Help",
		fyne.NewMenuItem("Model validation", u.ModelValidationDialog),
	)
	return fyne.NewMainMenu(file, edit, plan, help)
}

// addShortcuts binds the menu shortcuts on the canvas too, so they work
// where the driver shows no native menu.
func (u *UI) addShortcuts(menu *fyne.MainMenu) {
	for _, m := range menu.Items {
		for _, it := range m.Items {
			if sc, ok := it.Shortcut.(*desktop.CustomShortcut); ok && it.Action != nil {
				action := it.Action
				u.win.Canvas().AddShortcut(sc, func(fyne.Shortcut) { action() })
			}
		}
	}
}

// guarded runs action now, or, when there are unsaved changes, after the
// user chose to save them (and the save worked) or not to.
func (u *UI) guarded(action func()) {
	if !u.m.Dirty() {
		action()
		return
	}
	u.askUnsaved(action)
}

// saveThen saves the scenario (asking where if it has no file yet) and
// runs action once it is saved; a failed or cancelled save runs nothing.
func (u *UI) saveThen(action func()) {
	if u.m.Path() == "" {
		u.savePathDialog("Save scenario as", "scenario.toml", ".toml", func(path string) error {
			if err := u.SavePath(path); err != nil {
				return err
			}
			action()
			return nil
		})
		return
	}
	save := func() {
		if err := u.SavePath(u.m.Path()); err != nil {
			u.showError(err)
			return
		}
		action()
	}
	info, err := os.Stat(u.m.Path())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		info = nil
	}
	if !u.m.ChangedOnDisk(info) {
		save()
		return
	}
	what := "changed on disk since you opened or saved it"
	if info == nil {
		what = "was removed or renamed since you opened or saved it"
	}
	u.decide("File changed on disk", fmt.Sprintf("%s %s. Overwrite it with your version? (No keeps the file as it is on disk; your edits stay in the window.)",
		textfmt.DisplayName(filepath.Base(u.m.Path())), what), save, func() {})
}

// requestQuit closes the window, asking first when there are unsaved
// changes, and remembers the window size.
func (u *UI) requestQuit() {
	u.guarded(func() {
		u.stopRecovery(true) // saved, or the user chose not to: nothing to recover
		u.rememberWindow()
		u.win.Close()
		u.app.Quit()
	})
}

func (u *UI) rememberWindow() {
	if u.opts.Ephemeral {
		return
	}
	s := u.win.Canvas().Size()
	if s.Width > 100 && s.Height > 100 {
		u.app.Preferences().SetFloat(prefWidth, float64(s.Width))
		u.app.Preferences().SetFloat(prefHeight, float64(s.Height))
	}
}

// WindowSize is the remembered window size, or 1280 x 800.
func WindowSize(a fyne.App) fyne.Size {
	w := a.Preferences().FloatWithFallback(prefWidth, 1280)
	h := a.Preferences().FloatWithFallback(prefHeight, 800)
	return fyne.NewSize(float32(max(w, 800)), float32(max(h, 560)))
}

// NewScenario replaces the inputs with the default scenario, untitled.
func (u *UI) NewScenario() {
	u.loadScenario(defaultScenario(), "", "")
}

// OpenPath loads a scenario file and shows it; on error the current
// scenario stays. It reads on the calling goroutine: the window's menus
// use openOrReport, which reads in the background.
func (u *UI) OpenPath(path string) error {
	stamp := stampOf(path) // before the read: a change during it makes Save ask
	s, src, err := scenariofile.LoadSource(path, u.cat)
	if err != nil {
		return err
	}
	u.loadScenario(s, path, string(src))
	u.m.SetStamp(stamp)
	u.remember(path)
	return nil
}

// openOrReport reads and checks path off the UI goroutine (the read is
// bounded: regular files of at most 1 MiB, never a FIFO or device), then
// shows the scenario, or passes the error, with every problem the file
// has, to onError on the UI goroutine. The current scenario stays until
// the new one is ready.
func (u *UI) openOrReport(path string, onError func(error)) {
	u.status.SetText("Opening " + filepath.Base(path) + "…")
	gen, typed := u.m.Gen(), len(u.m.Typed())
	u.work.add()
	go func() {
		defer u.work.done()
		var s planner.Scenario
		var src []byte
		stamp := stampOf(path)
		err := protect("opening "+filepath.Base(path), func() (err error) {
			s, src, err = scenariofile.LoadSource(path, u.cat)
			return err
		})
		u.onUI(func() {
			if err != nil {
				u.status.SetText("Could not open " + textfmt.DisplayName(filepath.Base(path)))
				if !u.reportPanic(err) {
					onError(err)
				}
				return
			}
			load := func() {
				u.loadScenario(s, path, string(src))
				u.m.SetStamp(stamp)
				u.remember(path)
			}
			if u.m.Gen() == gen && len(u.m.Typed()) == typed {
				load()
				return
			}
			// The user edited while the file was read: ask before the
			// file replaces the edits (and their undo history).
			u.status.SetText("Opened " + textfmt.DisplayName(filepath.Base(path)) + ": replace your edits?")
			u.decide("Replace your edits?", fmt.Sprintf("You edited the inputs while %s was being read. Replace your edits (and their undo history) with the file? No keeps your edits.",
				textfmt.DisplayName(filepath.Base(path))), load, func() {
				u.status.SetText("Kept your edits; " + textfmt.DisplayName(filepath.Base(path)) + " was not opened.")
			})
		})
	}()
}

// OpenPathInBackground opens path as File ▸ Open does: read off the UI
// goroutine, errors shown in a dialog.
func (u *UI) OpenPathInBackground(path string) { u.openOrReport(path, u.showError) }

// SavePath writes the scenario to path atomically and makes it the
// scenario's file. A path without an extension gets ".toml".
func (u *UI) SavePath(path string) error {
	if filepath.Ext(path) == "" {
		path += ".toml"
	}
	written, err := scenariofile.SaveEdit(path, []byte(u.m.Source()), u.m.Saved(), u.m.Scenario())
	if err != nil {
		return err
	}
	u.m.MarkSaved(path, string(written))
	u.m.SetStamp(stampOf(path))
	if !u.m.Unsaved() {
		u.clearRecovery()
	}
	u.win.SetTitle(u.m.Title())
	u.remember(path)
	return nil
}

// Save writes to the scenario's file, or asks for one.
func (u *UI) Save() { u.saveThen(func() {}) }

// remember records path as the last scenario, its folder as the last
// folder, and puts it first in the recent files.
func (u *UI) remember(path string) {
	if u.opts.Ephemeral {
		return
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	p := u.app.Preferences()
	p.SetString(prefLastScenario, path)
	p.SetString(prefLastDir, filepath.Dir(path))
	recent := []string{path}
	for _, r := range p.StringList(prefRecent) {
		if r != path && len(recent) < maxRecent {
			recent = append(recent, r)
		}
	}
	p.SetStringList(prefRecent, recent)
	u.win.SetMainMenu(u.mainMenu())
}

func (u *UI) recentFiles() []string {
	if u.opts.Ephemeral {
		return nil
	}
	return u.app.Preferences().StringList(prefRecent)
}

// lastDirPath is the folder dialogs start in: the last one used, else
// the working folder.
func (u *UI) lastDirPath() string {
	dir := u.app.Preferences().String(prefLastDir)
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	return dir
}

// lastDir is lastDirPath as a URI Fyne's dialogs take.
func (u *UI) lastDir() fyne.ListableURI {
	l, err := storage.ListerForURI(storage.NewFileURI(u.lastDirPath()))
	if err != nil {
		return nil
	}
	return l
}

// rememberDir makes dir the folder the next dialog starts in.
func (u *UI) rememberDir(dir string) {
	if !u.opts.Ephemeral {
		u.app.Preferences().SetString(prefLastDir, dir)
	}
}

// regularFiles lists files with one of its extensions that are regular
// files. Fyne's open dialog opens the chosen file on the UI goroutine
// before the app sees it, so a FIFO or device with a matching name must
// never be offered: opening it would block the window.
type regularFiles []string

// scenarioFilter offers scenario files.
var scenarioFilter = regularFiles{".toml"}

// Matches implements storage.FileFilter.
func (exts regularFiles) Matches(u fyne.URI) bool {
	if !slices.ContainsFunc(exts, func(e string) bool { return strings.EqualFold(u.Extension(), e) }) {
		return false
	}
	if u.Scheme() != "file" {
		return true
	}
	info, err := os.Stat(u.Path()) // Stat never blocks on a FIFO
	return err == nil && info.Mode().IsRegular()
}

// openPathDialog asks for a regular file that filter offers, starting
// in the last folder used, and hands its path to then.
func (u *UI) openPathDialog(filter regularFiles, then func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			u.showError(err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		then(path)
	}, u.win)
	d.SetFilter(filter)
	if l := u.lastDir(); l != nil {
		d.SetLocation(l)
	}
	d.Show()
}

// OpenDialog asks for a scenario file to open.
func (u *UI) OpenDialog() {
	u.openPathDialog(scenarioFilter, func(path string) { u.openOrReport(path, u.showError) })
}

// SaveAsDialog asks where to save the scenario.
func (u *UI) SaveAsDialog() {
	name := "scenario.toml"
	if u.m.Path() != "" {
		name = filepath.Base(u.m.Path())
	}
	u.savePathDialog("Save scenario as", name, ".toml", u.SavePath)
}

// visibleFigure is the chart on the visible tab, if any.
func (u *UI) visibleFigure() *charts.Figure {
	switch u.tabs.Selected().Text {
	case TabMarket:
		return u.marketTab.view.fig
	case TabCompare:
		return u.compare.view.fig
	case TabSearch:
		return u.search.view.fig
	case TabPhases:
		return u.phases.view.fig
	}
	return u.charts.view.fig
}

// ExportChart writes fig to path in the format its extension names, at
// the default export size; nothing is written if drawing fails.
func ExportChart(fig *charts.Figure, path string) error {
	if fig == nil {
		return errors.New("no chart to export: open a chart first")
	}
	format, err := charts.FormatOf(path)
	if err != nil {
		return err
	}
	b, err := fig.Bytes(format, ExportSize(path))
	if err != nil {
		return err
	}
	return safefile.Write(path, b)
}

// ExportSize is the size a chart exports at: the default 1200 x 800, or
// twice the pixels and DPI for a file named NAME@2x.png, the high-DPI
// convention slide tools recognise.
func ExportSize(path string) charts.Size {
	if strings.HasSuffix(strings.ToLower(filepath.Base(path)), "@2x.png") {
		return charts.DefaultSize.Scaled(2)
	}
	return charts.DefaultSize
}

// ExportChartDialog asks where to export fig (PNG, SVG or PDF by the
// extension; PNG when there is none).
func (u *UI) ExportChartDialog(fig *charts.Figure) {
	if fig == nil {
		u.showError(errors.New("no chart to export: open a chart first"))
		return
	}
	name := u.m.Scenario().Name
	u.savePathDialog("Export chart (PNG, SVG or PDF; NAME@2x.png for double resolution)", fig.Name+".png", ".png", func(path string) error {
		u.exportInBackground("writing the chart", path, func(context.Context) error { return ExportChart(fig, path) },
			nil, func() { u.wroteStatus(path, name) })
		return nil
	}).
		allow(".png", ".svg", ".pdf")
}

// exportInBackground renders and writes path off the UI goroutine: the
// one path of every export (chart, BOM, cable map, report). While write
// runs the status says what is being written; then, on the UI
// goroutine, after runs (closing a progress dialog, say) and wrote
// reports the file, or the error is shown (a recovered panic in the
// crash dialog, with the edits saved for recovery).
func (u *UI) exportInBackground(what, path string, write func(ctx context.Context) error, after, wrote func()) {
	u.setStatus("Writing "+textfmt.DisplayName(filepath.Base(path))+"…", widget.MediumImportance)
	ctx := u.ctx()
	u.work.add()
	go func() {
		defer u.work.done()
		err := protect(what, func() error { return write(ctx) })
		u.onUI(func() {
			if after != nil {
				after()
			}
			if err != nil {
				u.setStatus("", widget.MediumImportance)
				if !u.reportPanic(err) {
					u.showError(err)
				}
				return
			}
			wrote()
		})
	}()
}

// ExportBOM writes the bill of materials of the plan of the current
// inputs as CSV.
func (u *UI) ExportBOM(path string) error {
	p, err := u.currentPlan()
	if err != nil {
		return err
	}
	return writeBOM(p, path)
}

// writeBOM writes the bill of materials of p to path as CSV; it may run
// on any goroutine.
func writeBOM(p *planner.Plan, path string) error {
	var b bytes.Buffer
	if err := planner.WriteBOMCSV(&b, p); err != nil {
		return err
	}
	return safefile.Write(path, b.Bytes())
}

// ExportBOMDialog asks where to write the BOM CSV, then writes it off
// the UI goroutine.
func (u *UI) ExportBOMDialog() {
	p, err := u.currentPlan()
	if err != nil {
		u.showError(err)
		return
	}
	name := u.m.Scenario().Name
	u.savePathDialog("Export bill of materials (CSV)", "bom.csv", ".csv", func(path string) error {
		u.exportInBackground("writing the bill of materials", path, func(context.Context) error { return writeBOM(p, path) },
			nil, func() { u.wroteStatus(path, name) })
		return nil
	})
}

// ExportCables writes the cable map of plan p to path: CSV, JSON, or
// with .topo the expected topology for ibdiagnet. It streams into a
// temporary file that replaces path only when whole, so it may run on
// any goroutine.
func ExportCables(p *planner.Plan, path string) error {
	return exportCables(context.Background(), p, path)
}

// exportCables is ExportCables that stops, leaving path as it was, when
// ctx is done.
func exportCables(ctx context.Context, p *planner.Plan, path string) error {
	write := planner.WriteCablesCSV
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
	case ".json":
		write = planner.WriteCablesJSON
	case ".topo":
		write = planner.WriteTopoFile
	default:
		return fmt.Errorf("cannot tell the format of %q: name it .csv, .json or .topo (ibdiagnet topology)", filepath.Base(path))
	}
	return safefile.WriteContext(ctx, path, func(w io.Writer) error { return write(w, p) })
}

// ExportCablesDialog asks where to write the cable map, then writes it
// off the UI goroutine: a million-GPU map takes seconds.
func (u *UI) ExportCablesDialog() {
	p, err := u.currentPlan()
	if err != nil {
		u.showError(err)
		return
	}
	sd := u.savePathDialog("Export cable map (.csv, .json, or .topo for ibdiagnet)", "cables.csv", ".csv", func(path string) error {
		u.exportInBackground("writing the cable map", path, func(ctx context.Context) error { return exportCables(ctx, p, path) }, nil, func() {
			u.status.SetText(fmt.Sprintf("Wrote %s (%s links)", path, textfmt.Int(cableMapLinks(p, path))))
		})
		return nil
	})
	sd.allow(".csv", ".json", ".topo")
}

// currentPlan is the plan of the inputs shown; a stale plan is refused.
func (u *UI) currentPlan() (*planner.Plan, error) {
	switch st := u.m.State(); {
	case st.Status == model.Stale:
		return nil, model.ErrStale
	case u.m.Plan() == nil:
		return nil, errNoPlan
	case st.Status == model.Planning:
		return planner.Build(u.m.Scenario(), u.cat)
	}
	return u.m.Plan(), nil
}

// ExportReport writes the PDF report of scenario s; it may run on any
// goroutine (it uses only s and read-only data) and calls progress there.
func (u *UI) ExportReport(path string, s planner.Scenario, progress func(done, total int)) error {
	if !strings.EqualFold(filepath.Ext(path), ".pdf") {
		return fmt.Errorf("the report is a PDF: name it .pdf, not %q", filepath.Base(path))
	}
	in, err := charts.NewInput(s, u.cat, u.market, charts.DefaultMarketYear, true)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := charts.WriteReport(&b, in, u.cat, progress); err != nil {
		return err
	}
	return safefile.WriteContext(u.ctx(), path, func(w io.Writer) error { _, err := b.WriteTo(w); return err })
}

// ExportReportDialog asks where to write the report, then writes it off
// the UI goroutine with a progress bar. The file is replaced only once
// the whole report is written.
func (u *UI) ExportReportDialog() {
	p, err := u.currentPlan()
	if err != nil {
		u.showError(err)
		return
	}
	snap := p.Scenario.Clone()
	u.savePathDialog("Export report (PDF)", "fabric-report.pdf", ".pdf", func(path string) error {
		bar := widget.NewProgressBar()
		prog := dialog.NewCustomWithoutButtons("Writing the report…", container.NewVBox(widget.NewLabel(filepath.Base(path)), bar), u.win)
		prog.Show()
		progress := func(done, total int) { u.onUI(func() { bar.SetValue(float64(done) / float64(total)) }) }
		u.exportInBackground("writing the report", path, func(context.Context) error { return u.ExportReport(path, snap, progress) },
			prog.Hide, func() { u.wroteStatus(path, snap.Name) })
		return nil
	})
}

// stampOf is the file's modification time and size now (zero if it
// cannot be read).
func stampOf(path string) model.FileStamp {
	info, err := os.Stat(path)
	if err != nil {
		return model.FileStamp{}
	}
	return model.StampOf(info)
}

// wroteStatus says in the status line that path was written, and which
// characters of the scenario's name the chart font could not draw in it.
func (u *UI) wroteStatus(path, name string) {
	msg, imp := "Wrote "+textfmt.DisplayName(path), widget.MediumImportance
	if w := charts.GlyphWarning(name); w != "" {
		msg, imp = msg+"; "+w, widget.WarningImportance
	}
	u.setStatus(msg, imp)
}

// cableMapLinks is the links a cable map written to path lists: every
// cable the plan buys in CSV and JSON, the fabric's tiers' own in an
// ibdiagnet topology file (which has no storage or peer links).
func cableMapLinks(p *planner.Plan, path string) int {
	if strings.EqualFold(filepath.Ext(path), ".topo") {
		return p.Links.Fabric()
	}
	return p.Links.Total
}
