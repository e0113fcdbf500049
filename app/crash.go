package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"fabricplan/internal/workers"
)

// PanicError is a panic recovered in the window's background work or in
// a result handed to the UI goroutine: what was running, the panic's
// value and the goroutine's stack. The window and its inputs stay; the
// crash dialog shows Report for the user to send us.
type PanicError struct {
	What  string // "searching designs", "drawing a chart", ...
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error while %s: %v", e.What, e.Value)
}

// Report is the text to send the developers: the program's version, Go
// and platform, what was running, the panic and its stack.
func (e *PanicError) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Fabric Planner %s, %s, %s/%s\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "while %s: panic: %v\n\n", e.What, e.Value)
	b.Write(e.Stack)
	return b.String()
}

// issuesURL is where crash reports go: the issue tracker of the project's
// website (FyneApp.toml).
const issuesURL = "https://github.com/fabricplanner/fabricplan/issues"

// buildVersion is the module version and VCS revision the binary was
// built from, as far as the build recorded them.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// protect runs f and turns a panic in it into a *PanicError naming what,
// as it does a panic the engine's workers recovered and returned
// (workers.PanicError); every background job of the window runs its
// work through it.
func protect(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{What: what, Value: r, Stack: debug.Stack()}
		}
	}()
	err = f()
	if wp, ok := errors.AsType[*workers.PanicError](err); ok {
		return &PanicError{What: what, Value: wp.Value, Stack: wp.Stack}
	}
	return err
}

// background runs work as one counted background job (WaitIdle waits
// for it); a panic in it is recovered and shown in the crash dialog.
func (u *UI) background(what string, work func()) {
	u.work.add()
	go func() {
		defer u.work.done()
		if err := protect(what, func() error { work(); return nil }); err != nil {
			u.onUI(func() { u.reportPanic(err) })
		}
	}()
}

// reportPanic shows the crash dialog when err is a recovered panic, saves
// the unsaved edits to the recovery file at once, and says whether it did.
func (u *UI) reportPanic(err error) bool {
	var pe *PanicError
	if !errors.As(err, &pe) {
		return false
	}
	u.setStatus("Internal error while "+pe.What+": your inputs are kept.", widget.DangerImportance)
	if pe.What != whatRecovery {
		u.saveRecoveryNow()
	}
	u.showCrash(pe)
	return true
}

// crashDialog shows a recovered panic: what happened, that the window
// and the inputs are kept, and the report to send with a copy button.
func (u *UI) crashDialog(pe *PanicError) {
	intro := widget.NewLabel("Fabric Planner hit an internal error while " + pe.What + ". " +
		"Your window and inputs are kept, and unsaved edits are in the recovery file. " +
		"Please send us the report below and, if you can, the scenario file, as an issue at " + issuesURL + ".")
	intro.Wrapping = fyne.TextWrapWord
	report := widget.NewMultiLineEntry()
	report.SetText(pe.Report())
	report.Wrapping = fyne.TextWrapOff
	report.SetMinRowsVisible(8)
	copyBtn := widget.NewButton("Copy report", func() { u.app.Clipboard().SetContent(pe.Report()) })
	d := dialog.NewCustom("Internal error", "Close", container.NewBorder(intro, copyBtn, nil, nil, report), u.win)
	d.Resize(fyne.NewSize(640, 420))
	d.Show()
}

// guard wraps f, run on the UI goroutine, so a panic in it shows the
// crash dialog instead of closing the window.
func (u *UI) guard(what string, f func()) func() {
	return func() {
		if err := protect(what, func() error { f(); return nil }); err != nil {
			u.reportPanic(err)
		}
	}
}

// ctx is the context long writes run under (Options.Context).
func (u *UI) ctx() context.Context {
	if u.opts.Context != nil {
		return u.opts.Context
	}
	return context.Background()
}

// interruptGrace is how long Interrupted waits for running writes to
// stop and the recovery file to be written before the window closes.
const interruptGrace = 5 * time.Second

// Interrupted ends the window after a signal (SIGINT, SIGTERM, SIGHUP):
// unsaved edits go to the recovery file (kept, to be offered at the next
// start), running writes stop on the cancelled Options.Context and
// remove their temporary files, then the app quits. Call it on the UI
// goroutine.
func (u *UI) Interrupted() {
	u.saveRecoveryNow()
	u.stopRecovery(false)
	go func() {
		done := make(chan struct{})
		go func() { u.work.wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(interruptGrace):
		}
		fyne.Do(u.app.Quit)
	}()
}
