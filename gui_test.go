//go:build !nogui

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fabricplan/cli"
)

// TestMain removes the screenshot binary the tests shared.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	binOnce sync.Once
	binDir  string // holds the screenshot binary, removed by TestMain
	binPath string
	binErr  error
)

// screenshotBinary builds fabricplan in screenshot mode once for every
// test that runs the real window (a link of the GUI binary takes tens of
// seconds of CPU).
func screenshotBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "fabricplan-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "fabricplan")
		if out, err := exec.Command("go", "build", "-tags", "migrated_fynedo screenshot", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// screenshotSizes are the window sizes every tab must fit: a small
// laptop, a common laptop and a full-HD screen.
var screenshotSizes = []struct{ w, h int }{{1024, 640}, {1280, 720}, {1920, 1080}}

// TestScreenshotsFitTheWindow builds fabricplan, opens the real window on
// an X display (its own Xvfb when there is one) in screenshot mode at
// each size in screenshotSizes, for every example scenario, and shoots
// every tab. The screenshot mode fails when a widget reaches past the
// canvas, a text widget is narrower than its text, or the window needs
// more than the size asked; the test also checks each PNG is the size
// asked with real content. The PNGs stay in $FABRICPLAN_SCREENSHOTS (else
// a fabricplan-screenshots folder in the temporary directory) to look at.
// Mutations caught: a row of controls in an HBox that cannot wrap (the
// window's minimum width passes 1,024 px), a label squeezed under its
// text, a check box whose caption cannot wrap.
func TestScreenshotsFitTheWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	bin := screenshotBinary(t)
	keep := os.Getenv("FABRICPLAN_SCREENSHOTS")
	if keep == "" {
		keep = filepath.Join(os.TempDir(), "fabricplan-screenshots")
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", keep)
	scenarios, err := filepath.Glob("data/scenarios/*.toml")
	if err != nil || len(scenarios) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	var more []string
	for _, sz := range screenshotSizes[1:] {
		more = append(more, fmt.Sprintf("%dx%d", sz.w, sz.h))
	}
	first := screenshotSizes[0]
	// Two windows at a time, each on its own X display (the screenshot
	// reads the screen, so windows must not overlap): each spends most of
	// its time waiting for frames to draw.
	names := make(chan string, len(scenarios))
	for _, sc := range scenarios {
		names <- sc
	}
	close(names)
	var wg sync.WaitGroup
	workers := 2
	for w := range workers {
		display, own := ownDisplay(t)
		if !own && w > 0 {
			break // one shared display: one window at a time
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sc := range names {
				shootAll(t, bin, dir, keep, display, sc, first, more)
			}
		}()
	}
	wg.Wait()
}

// shootAll shoots every tab of scenario sc at every size on display.
func shootAll(t *testing.T, bin, dir, keep, display, sc string, first struct{ w, h int }, more []string) {
	name := strings.TrimSuffix(filepath.Base(sc), ".toml")
	home := filepath.Join(dir, name) // fresh preferences
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Error(err)
		return
	}
	cmd := exec.Command(bin, "--screenshot", filepath.Join(keep, name+".png"), "--tab", "all",
		"--size", fmt.Sprintf("%dx%d", first.w, first.h), "--then-sizes", strings.Join(more, ","), sc)
	cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8", "HOME="+home, "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: %v\n%s", name, err, out)
		return
	}
	for _, sz := range screenshotSizes {
		checkShots(t, keep, fmt.Sprintf("%s-%dx%d", name, sz.w, sz.h), sz.w, sz.h)
	}
}

// checkShots checks every tab's PNG of one run: the size asked, and real
// content.
func checkShots(t *testing.T, dir, name string, w, h int) {
	pngs, _ := filepath.Glob(filepath.Join(dir, name+"-*.png"))
	if len(pngs) < 8 { // seven tabs and the step-time table
		t.Errorf("%s: %d screenshots, want one per tab (8)", name, len(pngs))
	}
	for _, p := range pngs {
		f, err := os.Open(p)
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Errorf("%s: screenshot %dx%d, want %dx%d", p, b.Dx(), b.Dy(), w, h)
		}
		if n := colours(img); n < 50 {
			t.Errorf("%s: only %d colours: a blank or broken window", p, n)
		}
	}
}

// ownDisplay starts an Xvfb large enough for the biggest size and
// returns its display name; without Xvfb it uses $DISPLAY (own false).
func ownDisplay(t *testing.T) (string, bool) {
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		if d := os.Getenv("DISPLAY"); d != "" {
			return d, false
		}
		t.Fatal("no Xvfb and no X display: install xvfb (scripts/deps.sh does)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", "2000x1200x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	num, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb gave no display number: %v", err)
	}
	return ":" + strings.TrimSpace(num), true
}

// colours counts distinct colours on a sampling grid.
func colours(img image.Image) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return len(seen)
}

// Without a display the window command says so in one line and exits 1.
// Mutation caught: letting GLFW panic with a stack trace.
func TestNoDisplayOneLine(t *testing.T) {
	var out bytes.Buffer
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if code := runGUI(nil, &out); code != cli.ExitFailure {
		t.Errorf("exit %d, want %d", code, cli.ExitFailure)
	}
	if msg := out.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "no display") {
		t.Errorf("stderr %q, want one line saying there is no display", msg)
	}
}

// TestSummaryKeyFiguresOnScreen opens the real window in screenshot mode
// on the Summary tab at 1024x640 and 1280x800, for the default scenario,
// the NVL72 examples, 100,000 GPUs, the Meta Llama 3 example and the
// inference and RL examples: the screenshot mode fails when one of the
// six key figures (GPUs, switches, cost, cost per GPU, power, and the
// workload's headline: JCT gain, tokens/s per GPU or the RL weight sync)
// is not wholly inside the window
// without scrolling. Mutation caught: the key figures laid out after the
// other cards or the whole cluster's line (the old Summary, where cost,
// power and the JCT gain needed scrolling at 1024x640 and the third row
// was hidden at 1280x800).
func TestSummaryKeyFiguresOnScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	bin := screenshotBinary(t)
	scenarios := []string{""} // the default
	for _, pattern := range []string{"data/scenarios/*nvl72*.toml", "data/scenarios/*100k*.toml", "docs/scenarios/meta-*.toml",
		"data/scenarios/inference-*.toml", "data/scenarios/rl-*.toml"} {
		found, err := filepath.Glob(pattern)
		if err != nil || len(found) == 0 {
			t.Fatalf("no scenario %s: %v", pattern, err)
		}
		scenarios = append(scenarios, found...)
	}
	display, _ := ownDisplay(t)
	for _, sc := range scenarios {
		name := strings.TrimSuffix(filepath.Base(sc), ".toml")
		if sc == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			home := filepath.Join(dir, name)
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			args := []string{"--screenshot", filepath.Join(dir, name+".png"), "--tab", "Summary", "--size", "1024x640", "--then-sizes", "1280x800"}
			if sc != "" {
				args = append(args, sc)
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8", "HOME="+home, "DISPLAY="+display)
			out, err := cmd.CombinedOutput()
			if err != nil || bytes.Contains(out, []byte("off-screen")) {
				t.Errorf("%v\n%s", err, out)
			}
			if n := bytes.Count(out, []byte("wrote ")); n != 2 {
				t.Errorf("%d screenshots, want 1024x640 and 1280x800:\n%s", n, out)
			}
		})
	}
}

// The headless build (-tags nogui) links no GUI package: nothing of
// Fyne, its Markdown parser or its font scanner is initialised when a
// script runs `fabricplan plan` many times (2.3 ms of package init
// against 20 ms with the window, measured with GODEBUG=inittrace=1).
// With nocharts too it links no chart package either: not gonum/plot
// (whose init loads its fonts), the PDF writer or charts (0.65 ms of
// package init against 1.5 ms, 9 MB resident against 13.6). Mutations
// caught: cli, or main without the window, importing app or anything
// that pulls Fyne in; cli's output.go importing charts again.
func TestHeadlessBuildLinksNoGUI(t *testing.T) {
	for _, tc := range []struct {
		tags  string
		never []string
	}{
		{"migrated_fynedo nogui", []string{"fyne.io/", "github.com/yuin/goldmark", "github.com/go-text/typesetting/fontscan", "fabricplan/app"}},
		{"migrated_fynedo nogui nocharts", []string{"fyne.io/", "fabricplan/app", "fabricplan/charts", "gonum.org/v1/plot", "codeberg.org/go-pdf/"}},
	} {
		out, err := exec.Command("go", "list", "-tags", tc.tags, "-deps", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -tags %q: %v\n%s", tc.tags, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, never := range tc.never {
				if strings.HasPrefix(dep, never) {
					t.Errorf("the build with -tags %q links %s", tc.tags, dep)
				}
			}
		}
	}
}
