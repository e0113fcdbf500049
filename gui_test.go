package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fabricplan/cli"
)

// TestScreenshotRealWindow builds fabricplan, opens the real window on
// the X display (Xvfb in CI) in screenshot mode for each tab, and checks
// the PNG is a window of the asked size with real content.
func TestScreenshotRealWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run under xvfb-run (scripts/test.sh does)")
	}
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "fabricplan")
	if out, err := exec.Command("go", "build", "-tags", "migrated_fynedo screenshot", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tab := range []string{"Summary", "Charts", "Search"} {
		shot := filepath.Join(dir, tab+".png")
		cmd := exec.Command(bin, "--screenshot", shot, "--tab", tab, "--size", "1280x800", "data/scenarios/ib-ndr-1k.toml")
		cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8", "HOME="+dir) // fresh preferences
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tab, err, out)
		}
		f, err := os.Open(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tab, err)
		}
		if b := img.Bounds(); b.Dx() != 1280 || b.Dy() < 800 {
			t.Errorf("%s: screenshot %v, want 1280x800", tab, b)
		}
		if n := colours(img); n < 50 {
			t.Errorf("%s: only %d colours: a blank or broken window", tab, n)
		}
	}
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
