//go:build screenshot && !nogui

package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"fabricplan/app"
	"fabricplan/cli"
	"fabricplan/internal/safefile"
	"fabricplan/internal/uicheck"
)

func init() {
	cli.ExtraUsage = append(cli.ExtraUsage, "fabricplan --screenshot FILE.png [SCENARIO.toml] [--tab NAME] [--chart NAME] [--size WxH]")
	screenshotMode = func(fs *flag.FlagSet) screenshotter {
		s := &shot{}
		fs.StringVar(&s.path, "screenshot", "", "render the window to this PNG file and exit")
		fs.StringVar(&s.tab, "tab", app.TabSummary, "tab to show: Summary, Charts, Market, Compare, Search, Resilience, Topology, Layout (Layout/Leaf-spine: a tier's runs), or all (one PNG each, FILE-TAB.png)")
		fs.StringVar(&s.chart, "chart", "", "with --tab Charts: the chart to show ("+strings.Join(app.ChartNames(), ", ")+")")
		fs.StringVar(&s.more, "then-sizes", "", "after --size, resize the window to each of these (WxH,WxH) and shoot again (FILE-WxH-TAB.png)")
		return s
	}
}

// shot is the --screenshot mode: the window rendered to a PNG.
type shot struct {
	path, tab, chart string
	size             fyne.Size // the window size asked (zero: the default)
	more             string    // --then-sizes
	sizes            []fyne.Size
}

func (s *shot) wanted() bool { return s.path != "" }

func (s *shot) prepare(ui *app.UI, size fyne.Size, stderr io.Writer) bool {
	s.size = size
	s.sizes = []fyne.Size{size}
	for _, f := range strings.FieldsFunc(s.more, func(r rune) bool { return r == ',' || r == ' ' }) {
		sz, err := parseSize(f)
		if err != nil || size == (fyne.Size{}) {
			fmt.Fprintf(stderr, "fabricplan: --then-sizes %q: give --size too, and sizes as WxH,WxH\n", s.more)
			return false
		}
		s.sizes = append(s.sizes, sz)
	}
	if !strings.EqualFold(s.tab, tabAll) && !ui.SelectTab(s.tab) {
		fmt.Fprintf(stderr, "fabricplan: unknown tab %q: use one of %s\n", s.tab, strings.Join(ui.TabNames(), ", "))
		return false
	}
	if s.chart != "" && !ui.SelectChart(s.chart) {
		fmt.Fprintf(stderr, "fabricplan: unknown chart %q: use one of %s\n", s.chart, strings.Join(app.ChartNames(), ", "))
		return false
	}
	return true
}

// take waits for the window to draw, captures it and writes a PNG; with
// --tab all, one PNG per tab (FILE-TAB.png), and with --then-sizes, one
// set per size (FILE-WxH-TAB.png). It fails when a widget is cut off at
// the window's edge or the window is not the size asked.
func (s *shot) take(w fyne.Window, ui *app.UI, stderr io.Writer) int {
	ui.WaitIdle()                      // the scenario, read and planned off the UI goroutine
	time.Sleep(800 * time.Millisecond) // first frames: layout, fonts
	tabs := []string{s.tab}
	if strings.EqualFold(s.tab, tabAll) {
		tabs = append(ui.TabNames(), app.TabSummary+"/Step time")
	}
	code := cli.ExitOK
	searched := false
	for k, size := range s.sizes {
		if k > 0 {
			s.size = size
			fyne.DoAndWait(func() { w.Resize(size) })
		}
		for i, tab := range tabs {
			fyne.DoAndWait(func() { ui.SelectTab(tab) })
			if tab == app.TabSearch && !searched {
				fyne.DoAndWait(ui.StartSearch)
				searched = true
			}
			ui.WaitIdle()                    // plans, charts and the search
			settle := 500 * time.Millisecond // the chart drawn again at its new size
			if i == 0 {
				settle = time.Second
			}
			time.Sleep(settle)
			if c := s.captureSettled(w, ui, tab, s.pathFor(size, tab, len(tabs) > 1), stderr); c != cli.ExitOK {
				code = c
			}
		}
	}
	return code
}

// captureSettled captures one tab, and again up to three times, a little
// later each time, while what it finds may be a frame in motion (a tab's
// underline sliding, a chart redrawn at its new size on a busy machine):
// only the last attempt's messages are written, so a layout that settles
// passes and one that stays cut off fails with what it cuts off.
func (s *shot) captureSettled(w fyne.Window, ui *app.UI, tab, path string, stderr io.Writer) int {
	var msg bytes.Buffer
	code := s.capture(w, ui, tab, path, &msg)
	for try := 1; code != cli.ExitOK && try <= 3; try++ {
		time.Sleep(time.Duration(try) * time.Second)
		ui.WaitIdle()
		msg.Reset()
		code = s.capture(w, ui, tab, path, &msg)
	}
	_, _ = stderr.Write(msg.Bytes())
	return code
}

// pathFor names the PNG of one tab at one size.
func (s *shot) pathFor(size fyne.Size, tab string, allTabs bool) string {
	ext := filepath.Ext(s.path)
	name := strings.TrimSuffix(s.path, ext)
	if len(s.sizes) > 1 {
		name += fmt.Sprintf("-%.0fx%.0f", size.Width, size.Height)
	}
	if allTabs {
		name += "-" + strings.NewReplacer("/", "-", " ", "-").Replace(tab)
	}
	return name + ext
}

// tabAll, given to --tab, shoots every tab.
const tabAll = "all"

// capture writes the window as a PNG to path and checks what it cuts off
// and, on the Summary tab, that every key figure is on screen.
func (s *shot) capture(w fyne.Window, ui *app.UI, tab, path string, stderr io.Writer) int {
	var img image.Image
	var size fyne.Size
	var scale float32
	var problems []uicheck.Problem
	var hidden []string
	fyne.DoAndWait(func() {
		img = w.Canvas().Capture()
		size, scale = w.Canvas().Size(), w.Canvas().Scale()
		problems = uicheck.Check(w.Canvas())
		if tab == app.TabSummary {
			hidden = ui.HiddenKeyFigures()
		}
	})
	if blank(img) {
		// Under Xvfb the GL front buffer reads back empty: take the
		// window's pixels from the X server instead.
		grabbed, err := grabX11(int(size.Width*scale), int(size.Height*scale))
		if err != nil {
			fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
			return cli.ExitFailure
		}
		img = grabbed
	}
	if blank(img) {
		fmt.Fprintln(stderr, "fabricplan: screenshot: the window drew nothing")
		return cli.ExitFailure
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
		return cli.ExitFailure
	}
	if err := safefile.Write(path, b.Bytes()); err != nil {
		fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
		return cli.ExitFailure
	}
	fmt.Fprintf(stderr, "wrote %s (%s tab, window %.0fx%.0f)\n", path, tab, size.Width, size.Height)
	code := cli.ExitOK
	if s.size != (fyne.Size{}) && (size.Width > s.size.Width+1 || size.Height > s.size.Height+1) {
		fmt.Fprintf(stderr, "fabricplan: screenshot: %s tab: the window needs %.0fx%.0f, more than the %.0fx%.0f asked\n",
			tab, size.Width, size.Height, s.size.Width, s.size.Height)
		code = cli.ExitFailure
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "fabricplan: screenshot: %s tab: cut off: %s\n", tab, p)
		code = cli.ExitFailure
	}
	// The key figures must be read without scrolling, at every size.
	for _, name := range hidden {
		fmt.Fprintf(stderr, "fabricplan: screenshot: %s tab: the key figure %q is off-screen\n", tab, name)
		code = cli.ExitFailure
	}
	return code
}
