//go:build !nogui

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"fabricplan/app"
	_ "fabricplan/app/locale" // before Fyne initialises
	"fabricplan/assets"
	"fabricplan/cli"
)

// screenshotMode, set in builds tagged "screenshot" (tests and docs,
// never the release), adds --screenshot and --tab: render the window to
// a PNG and exit.
var screenshotMode func(fs *flag.FlagSet) screenshotter

// screenshotter takes one screenshot of the window.
type screenshotter interface {
	// wanted says whether --screenshot was given.
	wanted() bool
	// prepare shows the asked tab; false (after saying why) if none.
	// size is the window size asked (zero: the default).
	prepare(ui *app.UI, size fyne.Size, stderr io.Writer) bool
	// take waits for the window to draw, writes the PNG and returns the
	// exit code; it runs off the UI goroutine.
	take(w fyne.Window, ui *app.UI, stderr io.Writer) int
}

// runGUI opens the window (and, built with the screenshot tag and given
// --screenshot, renders it to a PNG and exits).
func runGUI(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("fabricplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var shot screenshotter
	if screenshotMode != nil {
		shot = screenshotMode(fs)
	}
	shooting := func() bool { return shot != nil && shot.wanted() }
	sizeFlag := fs.String("size", "", "window size WxH, e.g. 1280x800")
	path, err := cli.ScenarioArg(fs, args)
	if err != nil {
		return cli.Report(stderr, err)
	}
	var size fyne.Size
	if *sizeFlag != "" {
		if size, err = parseSize(*sizeFlag); err != nil {
			return cli.Report(stderr, cli.Usage(err))
		}
	}
	cat, market, err := cli.LoadData()
	if err != nil {
		fmt.Fprintln(stderr, "fabricplan:", err)
		return cli.ExitFailure
	}
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return cli.Report(stderr, cli.Usage(fmt.Errorf("open scenario: %w", err)))
		}
	}
	if err := displayAvailable(); err != nil {
		fmt.Fprintln(stderr, "fabricplan:", err)
		return cli.ExitFailure
	}
	a := fyneapp.NewWithID(app.AppID)
	a.SetIcon(assets.Icon)
	w := a.NewWindow("Fabric Planner")
	w.SetIcon(assets.Icon)
	// SIGINT, SIGTERM and SIGHUP (a logout) stop running exports (their
	// temporary files removed), keep unsaved edits in the recovery file
	// and close the window.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ui := app.New(a, w, cat, market, app.Options{ScenarioPath: path, Ephemeral: shooting(), Context: ctx})
	go func() {
		<-ctx.Done()
		fyne.Do(ui.Interrupted)
	}()
	asked := size
	if size.Width == 0 {
		size = app.WindowSize(a)
	}
	w.Resize(size)
	w.SetMaster()
	code := cli.ExitOK
	if shooting() {
		if !shot.prepare(ui, asked, stderr) {
			return cli.ExitUsage
		}
		go func() {
			code = shot.take(w, ui, stderr)
			fyne.Do(a.Quit)
		}()
	}
	w.ShowAndRun()
	return code
}

// displayAvailable says, on X11/Wayland systems, that there is no display
// to open the window on, in one line with what to do (GLFW would panic).
func displayAvailable() error {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios", "js":
		return nil
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset): run it in a desktop session, " +
			"or under Xvfb with scripts/run.sh; the subcommands (fabricplan plan, report, ...) need no display")
	}
	return nil
}

func parseSize(s string) (fyne.Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 320 || hi < 240 || wi > 8000 || hi > 8000 {
		return fyne.Size{}, fmt.Errorf("--size %q: write WIDTHxHEIGHT in pixels, e.g. 1280x800", s)
	}
	return fyne.NewSize(float32(wi), float32(hi)), nil
}
