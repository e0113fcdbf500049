//go:build screenshot

package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"fabricplan/app"
	"fabricplan/cli"
	"fabricplan/internal/safefile"
)

func init() {
	cli.ExtraUsage = append(cli.ExtraUsage, "fabricplan --screenshot FILE.png [SCENARIO.toml] [--tab NAME] [--chart NAME] [--size WxH]")
	screenshotMode = func(fs *flag.FlagSet) screenshotter {
		s := &shot{}
		fs.StringVar(&s.path, "screenshot", "", "render the window to this PNG file and exit")
		fs.StringVar(&s.tab, "tab", app.TabSummary, "tab to show: Summary, Charts, Market, Compare, Search or Resilience")
		fs.StringVar(&s.chart, "chart", "", "with --tab Charts: the chart to show ("+strings.Join(app.ChartNames(), ", ")+")")
		return s
	}
}

// shot is the --screenshot mode: the window rendered to a PNG.
type shot struct{ path, tab, chart string }

func (s *shot) wanted() bool { return s.path != "" }

func (s *shot) prepare(ui *app.UI, stderr io.Writer) bool {
	if !ui.SelectTab(s.tab) {
		fmt.Fprintf(stderr, "fabricplan: unknown tab %q: use one of %s\n", s.tab, strings.Join(ui.TabNames(), ", "))
		return false
	}
	if s.chart != "" && !ui.SelectChart(s.chart) {
		fmt.Fprintf(stderr, "fabricplan: unknown chart %q: use one of %s\n", s.chart, strings.Join(app.ChartNames(), ", "))
		return false
	}
	return true
}

// take waits for the window to draw, captures it and writes a PNG.
func (s *shot) take(w fyne.Window, ui *app.UI, stderr io.Writer) int {
	ui.WaitIdle()                       // the scenario, read and planned off the UI goroutine
	time.Sleep(1500 * time.Millisecond) // first frames: layout, fonts
	fyne.DoAndWait(func() { ui.SelectTab(s.tab) })
	if s.tab == app.TabSearch {
		fyne.DoAndWait(ui.StartSearch)
	}
	ui.WaitIdle() // plans, charts and the search
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
	if err := safefile.Write(s.path, b.Bytes()); err != nil {
		fmt.Fprintln(stderr, "fabricplan: screenshot:", err)
		return cli.ExitFailure
	}
	fmt.Fprintf(stderr, "wrote %s (%s tab)\n", s.path, s.tab)
	return cli.ExitOK
}
