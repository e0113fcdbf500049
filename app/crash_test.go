package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"fabricplan/charts"
	"fabricplan/data"
	"fabricplan/internal/workers"
	"fabricplan/planner"
	"fabricplan/planner/market"
)

// TestBackgroundPanicKeepsWindowAndEdits edits, forces panics in
// background work (a job, a chart drawing), and finds the window, its
// inputs and the recovery file intact; a next start offers the edits
// back, and a clean quit removes the file. Mutations caught: a background
// goroutine without recover (the test binary dies), the crash not
// reported, the recovery file not written at the panic or written
// without the typed text, the next start not offering it, a clean quit
// leaving it behind.
func TestBackgroundPanicKeepsWindowAndEdits(t *testing.T) {
	dir := t.TempDir()
	u := newTestUIOwnWindow(t, Options{Ephemeral: true, RecoveryDir: dir}) // requestQuit closes it
	var crashes []*PanicError
	u.showCrash = func(pe *PanicError) { crashes = append(crashes, pe) }
	content := u.win.Content()

	typeIn(u, "cluster.gpus", "2048")
	typeIn(u, "workload.tp", "8x") // does not parse: kept as typed
	u.background("testing a forced panic", func() { panic("forced for the test") })
	u.WaitIdle()
	u.views[0].draw(func() (*charts.Figure, error) { panic("forced in a chart") })
	u.WaitIdle()

	if len(crashes) != 2 || !strings.Contains(crashes[0].Report(), "forced for the test") ||
		!strings.Contains(crashes[0].Report(), "goroutine") || crashes[1].What != "drawing a chart" {
		t.Fatalf("crashes reported: %v", crashes)
	}
	if u.win.Content() != content || entry(u, "cluster.gpus").Text != "2048" || entry(u, "workload.tp").Text != "8x" || !u.Dirty() {
		t.Fatalf("window or inputs lost: gpus %q tp %q dirty %v", entry(u, "cluster.gpus").Text, entry(u, "workload.tp").Text, u.Dirty())
	}
	own := filepath.Join(dir, "recovery-"+strconv.Itoa(os.Getpid())+".toml")
	rf, err := readRecovery(own)
	if err != nil {
		t.Fatalf("recovery file: %v", err)
	}
	if rf.Scenario.Cluster.GPUs != 2048 || rf.Typed["workload.tp"] != "8x" {
		t.Fatalf("recovery file holds gpus %d, typed %v", rf.Scenario.Cluster.GPUs, rf.Typed)
	}

	// The next start: the file of a run that has ended (a PID no
	// process has: Linux PIDs stop at 4,194,304).
	left := filepath.Join(dir, "recovery-999999999.toml")
	if err := os.Rename(own, left); err != nil {
		t.Fatal(err)
	}
	next := newTestUIWith(t, Options{Ephemeral: true, RecoveryDir: dir})
	if entry(next, "cluster.gpus").Text == "2048" {
		t.Fatal("edits restored before the user was asked")
	}
	var asked string
	next.decide = func(title, msg string, yes, no func()) { asked = msg; yes() }
	next.offerRecovery(func() { t.Error("recovery declined") })
	next.WaitIdle()
	if !strings.Contains(asked, "untitled") || entry(next, "cluster.gpus").Text != "2048" || entry(next, "workload.tp").Text != "8x" || !next.Dirty() {
		t.Fatalf("asked %q; restored gpus %q tp %q dirty %v", asked, entry(next, "cluster.gpus").Text, entry(next, "workload.tp").Text, next.Dirty())
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the recovered file is still there: %v", err)
	}
	next.Undo() // back to the default: the recovered edits are one undoable step
	next.WaitIdle()
	if entry(next, "cluster.gpus").Text == "2048" {
		t.Error("undo does not step back over the recovered edits")
	}

	// A clean quit (here: nothing unsaved) removes this run's file.
	u.saveRecoveryNow()
	u.WaitIdle()
	if _, err := os.Stat(own); err != nil {
		t.Fatalf("no recovery file while dirty: %v", err)
	}
	u.m.MarkSaved("", "")
	u.requestQuit()
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Errorf("clean quit left the recovery file: %v", err)
	}
}

// newTestUIOwnWindow is newTestUIWith on a window the test closes itself
// (the test driver panics when a temporary window is closed twice).
func newTestUIOwnWindow(t *testing.T, opts Options) *UI {
	t.Helper()
	test.NewTempApp(t)
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	m, err := market.Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(fyne.CurrentApp(), test.NewWindow(nil), cat, m, opts, make(chan func(), 4096))
	u.planner.Delay = 0
	u.WaitIdle()
	return u
}

// TestInterruptedKeepsEdits: a signal (SIGTERM at logout) writes the
// unsaved edits to the recovery file and leaves it for the next start;
// a cable map being written under the cancelled context stops and
// leaves no temporary file. Mutations caught: the signal handled as a
// clean quit (the recovery file removed), the export not given the
// signal's context.
func TestInterruptedKeepsEdits(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	u := newTestUIOwnWindow(t, Options{Ephemeral: true, RecoveryDir: dir, Context: ctx})
	typeIn(u, "cluster.gpus", "4096")
	out := t.TempDir()
	cancel()
	err := exportCables(u.ctx(), u.Plan(), filepath.Join(out, "cables.csv"))
	if err == nil {
		t.Error("the cable map was written after the signal")
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	u.Interrupted()
	u.WaitIdle()
	rf, err := readRecovery(filepath.Join(dir, "recovery-"+strconv.Itoa(os.Getpid())+".toml"))
	if err != nil || rf.Scenario.Cluster.GPUs != 4096 {
		t.Fatalf("recovery file after the signal: %v, %d GPUs", err, rf.Scenario.Cluster.GPUs)
	}
}

// A panic the engine's workers recovered (workers.PanicError, returned
// by a search or a phased plan run on goroutines of the engine's own)
// reaches the window as its own *PanicError, named for what was running,
// with the worker's value and stack: the crash dialog shows it and the
// window stays. Mutations caught: protect passing the worker's error on
// as a plain error (no crash report), the worker's stack or value lost.
func TestWorkerPanicBecomesCrashReport(t *testing.T) {
	g := workers.NewGroup(2)
	g.Go(func() { panic("a worker broke") })
	err := protect("searching designs", g.Wait)
	pe, ok := errors.AsType[*PanicError](err)
	if !ok || pe.What != "searching designs" || pe.Value != "a worker broke" || !strings.Contains(string(pe.Stack), "crash_test.go") {
		t.Fatalf("protect = %#v, want the window's crash report of the worker's panic", err)
	}
	if err := protect("planning the phases", func() error { return errors.New("plain") }); err == nil || err.Error() != "plain" {
		t.Errorf("a plain error became %v", err)
	}
}
