package charts

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// squash collapses every run of white space to one space, so text that
// a chart wraps or a PDF reader breaks differently still compares.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestExportsReadBack exports every chart for the default plan and for
// 100,000 GPUs (non-power-of-two, three tiers) in every format and reads
// each back with an outside tool: pdftotext must find every panel title
// and the whole footnote, rsvg-convert must render the SVG to a PNG of the
// export's size, and the PNG must decode at 1x and 2x size.
//
// Mutations caught: text handed to the PDF in the wrong encoding ("â€”"),
// a footnote cut short or dropped from one format, a title drawn in the
// window but not exported, an SVG another tool rejects (invalid colour or
// markup), a 2x export drawn at 1x.
func TestExportsReadBack(t *testing.T) {
	for _, tool := range []string{"pdftotext", "rsvg-convert"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not installed: run scripts/deps.sh", tool)
		}
	}
	dir := t.TempDir()
	for _, name := range []string{"default", "large"} {
		in := inputs(t)[name]
		for _, c := range All() {
			if hallCharts[c.Name] && in.Plan.Hall == nil {
				continue // TestHallCharts draws these
			}
			if servingCharts[c.Name] && in.Plan.Inference == nil {
				continue // training: TestTokensChart draws these
			}
			fig, err := c.Build(in)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, c.Name, err)
			}
			pdfBytes, err := fig.Bytes("pdf", DefaultSize)
			if err != nil {
				t.Fatal(err)
			}
			text := squash(pdfText(t, pdfBytes))
			var want []string
			for _, row := range fig.Panels {
				for _, p := range row {
					// Lines of a two-line title may interleave with
					// the next panel's title: each is found on its own.
					want = append(want, strings.Split(p.Title.Text, "\n")...)
				}
			}
			want = append(want, fig.Footnote)
			for _, w := range want {
				if !strings.Contains(text, squash(w)) {
					t.Errorf("%s/%s.pdf: pdftotext does not find %q in:\n%s", name, c.Name, squash(w), text)
				}
			}

			svg, err := fig.Bytes("svg", DefaultSize)
			if err != nil {
				t.Fatal(err)
			}
			in := filepath.Join(dir, c.Name+".svg")
			out := filepath.Join(dir, c.Name+"-svg.png")
			if err := os.WriteFile(in, svg, 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command("rsvg-convert", "-o", out, in).CombinedOutput(); err != nil {
				t.Fatalf("%s/%s.svg: rsvg-convert: %v %s", name, c.Name, err, msg)
			}
			checkPNG(t, name+"/"+c.Name+".svg", mustRead(t, out), DefaultSize.WidthPx, DefaultSize.HeightPx)

			for _, scale := range []int{1, 2} {
				b, err := fig.Bytes("png", DefaultSize.Scaled(scale))
				if err != nil {
					t.Fatal(err)
				}
				checkPNG(t, name+"/"+c.Name+".png", b, DefaultSize.WidthPx*scale, DefaultSize.HeightPx*scale)
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkPNG(t *testing.T, what string, b []byte, w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: PNG does not decode: %v", what, err)
	}
	if r := img.Bounds(); r.Dx() != w || r.Dy() != h {
		t.Errorf("%s: %dx%d, want %dx%d", what, r.Dx(), r.Dy(), w, h)
	}
}

// Footers must read at least as large as tick labels, at every export
// size (text scales with the DPI). Mutation caught: a footer size set
// below the tick size (it was 8.5 pt, about 8 px at 1200x800).
func TestFooterNotSmallerThanTicks(t *testing.T) {
	if footSize < tickSize {
		t.Errorf("footer %v pt, tick labels %v pt", footSize, tickSize)
	}
	if got := footStyle().Font.Size; got != footSize {
		t.Errorf("footer drawn at %v pt, want %v", got, footSize)
	}
}
