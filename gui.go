package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"fabricplan/app"
	_ "fabricplan/app/locale" // before Fyne initialises
	"fabricplan/assets"
	"fabricplan/internal/safefile"
)

// isGUIArgs says whether the arguments ask for the window: none, a
// scenario file, or the screenshot flags.
func isGUIArgs(args []string) bool {
	if len(args) == 0 {
		return true
	}
	a := args[0]
	return strings.HasSuffix(strings.ToLower(a), ".toml") ||
		strings.HasPrefix(a, "--screenshot") || strings.HasPrefix(a, "-screenshot") ||
		strings.HasPrefix(a, "--tab") || strings.HasPrefix(a, "--size")
}

// runGUI opens the window; with --screenshot it renders the window to a
// PNG and exits.
func runGUI(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("fabricplan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shot := fs.String("screenshot", "", "render the window to this PNG file and exit")
	tab := fs.String("tab", app.TabSummary, "tab to show: Summary, Charts, Market, Compare or Search")
	sizeFlag := fs.String("size", "", "window size WxH, e.g. 1280x800")
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return report(stderr, "", err)
	}
	path, err := onePositional(pos)
	if err != nil {
		return report(stderr, "", err)
	}
	var size fyne.Size
	if *sizeFlag != "" {
		if size, err = parseSize(*sizeFlag); err != nil {
			return report(stderr, "", usageError{err})
		}
	}
	cat, market, err := loadData()
	if err != nil {
		fmt.Fprintln(stderr, "fabricplan:", err)
		return exitFailure
	}
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return report(stderr, "", usagef("open scenario: %v", err))
		}
	}
	if err := displayAvailable(); err != nil {
		fmt.Fprintln(stderr, "fabricplan:", err)
		return exitFailure
	}
	a := fyneapp.NewWithID(app.AppID)
	a.SetIcon(assets.Icon)
	w := a.NewWindow("Fabric Planner")
	w.SetIcon(assets.Icon)
	ui := app.New(a, w, cat, market, app.Options{ScenarioPath: path, Ephemeral: *shot != ""})
	if size.Width == 0 {
		size = app.WindowSize(a)
	}
	w.Resize(size)
	w.SetMaster()
	if *shot != "" && !ui.SelectTab(*tab) {
		fmt.Fprintf(stderr, "fabricplan: unknown tab %q: use one of %s\n", *tab, strings.Join(ui.TabNames(), ", "))
		return exitUsage
	}
	code := exitOK
	if *shot != "" {
		go func() {
			code = screenshot(a, w, ui, *tab, *shot, stderr)
			fyne.Do(a.Quit)
		}()
	}
	w.ShowAndRun()
	return code
}

// screenshot waits for the window to draw, captures it and writes a PNG.
func screenshot(a fyne.App, w fyne.Window, ui *app.UI, tab, path string, stderr io.Writer) int {
	ui.WaitIdle()                       // the scenario, read and planned off the UI goroutine
	time.Sleep(1500 * time.Millisecond) // first frames: layout, fonts
	fyne.DoAndWait(func() { ui.SelectTab(tab) })
	if tab == app.TabSearch {
		fyne.DoAndWait(ui.StartSearch)
		ui.WaitIdle()
	}
	ui.WaitIdle()
	time.Sleep(1500 * time.Millisecond)
	var img image.Image
	var size fyne.Size
	var scale float32
	fyne.DoAndWait(func() {
		img = w.Canvas().Capture()
		size, scale = w.Canvas().Size(), w.Canvas().Scale()
	})
	if blank(img) {
		// Under Xvfb the GL front buffer reads back empty: take the
		// window's pixels from the X server instead.
		grabbed, err := grabX11(int(size.Width*scale), int(size.Height*scale))
		if err != nil {
			fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
			return exitFailure
		}
		img = grabbed
	}
	if blank(img) {
		fmt.Fprintln(stderr, "fabricplan: screenshot: the window drew nothing")
		return exitFailure
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
		return exitFailure
	}
	if err := safefile.Write(path, b.Bytes()); err != nil {
		fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
		return exitFailure
	}
	fmt.Fprintf(stderr, "wrote %s (%s tab)\n", path, tab)
	return exitOK
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
