package app

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/shaping"
)

// measureText gives fyne.MeasureText's size to the bit, for text in
// the theme's font at the sizes and styles the window uses and at odd
// ones, and for text it leaves to Fyne (runes of fallback fonts, tabs).
// Mutations caught: runes the theme's font lacks measured in it (the
// missing-glyph box instead of Fyne's fallback font), a string's size
// kept for another style.
func TestMeasureTextAsFyne(t *testing.T) {
	test.NewTempApp(t)
	texts := []string{
		"", " ", "M", "100,008", "$2.24B", "1,152 per server at 800G, cx8",
		"estimate, hall basis, $2.06B–$2.52B; 8.3% of cluster capex, within analysts' 5–15%",
		"• JCT: step 1.9 s vs 2.3 s; 41 d vs 49 d (Llama 3.1 405B) — ≈ ×1.2, µs …",
		"AV To Ty ffi fl Wa", "tab\there", "日本語 mixed", "emoji 🚀",
	}
	sizes := []float32{11, 12, 13.7, 14, 22, 9.33}
	styles := []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Bold: true, Italic: true}, {Monospace: true}}
	for _, text := range texts {
		for _, size := range sizes {
			for _, style := range styles {
				if got, want := measureText(text, size, style), fyne.MeasureText(text, size, style); got != want {
					t.Errorf("%q at %v %+v: %v, Fyne's %v", text, size, style, got, want)
				}
			}
		}
	}
}

// A wrapLabel draws what a Label with word wrapping draws: the same
// rows of text, each at the same place and size, in the same colour,
// size and style, and has the same least size, before it is laid out
// and after, at odd widths, in the app's theme and under the Summary's
// compact theme, as its text changes. The texts are the Summary's own
// (every card's detail and the whole-cluster line of plans of several
// systems and sizes) and odd ones. Mutations caught: the padding taken
// from the app's theme under the compact one, the caption size or the
// importance's colour not followed, rows not wrapped again when the
// width changes, a row's size taken from the label's width, the least
// size counting the widest row (a Label's counts none).
func TestWrapLabelDrawsAsLabel(t *testing.T) {
	texts := summaryTexts(t)
	texts = append(texts, "", "word", "two  spaces\n\nand a blank line", "AVeryLongWordThatDoesNotFitInANarrowCardAtAll and more")
	type look struct {
		name  string
		style fyne.TextStyle
		size  fyne.ThemeSizeName
		imp   widget.Importance
	}
	looks := []look{
		{"caption", fyne.TextStyle{}, theme.SizeNameCaptionText, widget.MediumImportance},
		{"bold", fyne.TextStyle{Bold: true}, "", widget.MediumImportance},
		{"dimmed", fyne.TextStyle{}, theme.SizeNameCaptionText, widget.LowImportance},
	}
	widths := []float32{0, 23, 97, 150.5, 211, 333, 487, 1024}
	for _, compact := range []bool{false, true} {
		for _, lk := range looks {
			t.Run(fmt.Sprintf("%s compact=%v", lk.name, compact), func(t *testing.T) {
				test.NewTempApp(t)
				l := widget.NewLabel("")
				l.Wrapping = fyne.TextWrapWord
				l.TextStyle, l.SizeName, l.Importance = lk.style, lk.size, lk.imp
				w := newWrapLabel("")
				w.TextStyle, w.SizeName, w.Importance = lk.style, lk.size, lk.imp
				var content fyne.CanvasObject = container.NewVBox(l, w)
				if compact {
					content = container.NewThemeOverride(content, compactTheme{})
				}
				test.NewTempWindow(t, content)
				for _, text := range texts {
					l.SetText(text)
					w.SetText(text)
					for _, width := range widths {
						size := fyne.NewSize(width, 300)
						l.Resize(size)
						w.Resize(size)
						sameDrawing(t, fmt.Sprintf("%q at %v", text, width), w, l)
					}
				}
			})
		}
	}
}

// sameDrawing fails t unless w draws the texts l draws, where and as l
// draws them, and has l's least size.
func sameDrawing(t *testing.T, what string, w *wrapLabel, l *widget.Label) {
	t.Helper()
	if got, want := w.MinSize(), l.MinSize(); got != want {
		t.Errorf("%s: least size %v, a Label's %v", what, got, want)
	}
	var got, want []*canvas.Text
	collectTexts(w, &got)
	collectTexts(l, &want)
	if len(got) != len(want) {
		t.Errorf("%s: %d rows %q, a Label's %d %q", what, len(got), texts(got), len(want), texts(want))
		return
	}
	for i := range got {
		g, x := got[i], want[i]
		if g.Text != x.Text || g.Position() != x.Position() || g.Size() != x.Size() {
			t.Errorf("%s, row %d: %q at %v size %v, a Label's %q at %v size %v", what, i, g.Text, g.Position(), g.Size(), x.Text, x.Position(), x.Size())
		}
		if g.Color != x.Color || g.TextSize != x.TextSize || g.TextStyle != x.TextStyle {
			t.Errorf("%s, row %d: %v %v %+v, a Label's %v %v %+v", what, i, g.Color, g.TextSize, g.TextStyle, x.Color, x.TextSize, x.TextStyle)
		}
	}
}

func texts(ts []*canvas.Text) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Text)
	}
	return out
}

// summaryTexts are the texts of the Summary's wrapped labels for plans
// of several systems, fabrics and sizes.
func summaryTexts(t *testing.T) []string {
	t.Helper()
	u := newTestUI(t)
	var out []string
	for _, gpus := range []string{"1000", "100008", "24577"} {
		typeIn(u, "cluster.gpus", gpus)
		for _, c := range u.summary.cards {
			out = append(out, c.detail.Text)
		}
		out = append(out, u.summary.nets.adds.Text)
	}
	return out
}

// An ellipsisLabel draws what a Label cut with an ellipsis draws: each
// line cut where the Label cuts it, with the ellipsis, at the same place
// and size, in the importance's colour, with the same least size, at
// odd widths, for the status line's texts and odd ones, and through a
// Label for text the theme's font lacks. Mutations caught: the ellipsis
// not counted in the cut (one rune too many), the least size with the
// padding on its width, lines not cut at a width under the padding
// (a Label leaves them whole), the colour of the importance not
// followed, a width change not cutting again.
func TestEllipsisLabelDrawsAsLabel(t *testing.T) {
	cases := []string{
		"", "Ready.", "100,008 GPUs, 3 tiers, 5,121 switches, $2.24B — planned.",
		"Switch qm9700 does not build 100,008 GPUs at 2 tiers: back to auto. 100,008 GPUs, 3 tiers — planned.",
		"two lines\nthe second one longer than the first", "日本語のファイル.toml を開けません", "Ready.",
	}
	widths := []float32{0, 9, 31, 57.5, 133, 301, 640, 1600}
	for _, imp := range []widget.Importance{widget.MediumImportance, widget.WarningImportance, widget.DangerImportance} {
		t.Run(fmt.Sprint(imp), func(t *testing.T) {
			test.NewTempApp(t)
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			l.Importance = imp
			e := newEllipsisLabel("")
			e.Importance = imp
			test.NewTempWindow(t, container.NewVBox(l, e))
			for _, text := range cases {
				l.SetText(text)
				e.SetText(text)
				for _, width := range widths {
					size := fyne.NewSize(width, 80)
					l.Resize(size)
					e.Resize(size)
					what := fmt.Sprintf("%q at %v", text, width)
					if got, want := e.MinSize(), l.MinSize(); got != want {
						t.Errorf("%s: least size %v, a Label's %v", what, got, want)
					}
					var got, want []*canvas.Text
					collectTexts(e, &got)
					collectTexts(l, &want)
					if len(got) != len(want) {
						t.Errorf("%s: %d rows %q, a Label's %d %q", what, len(got), texts(got), len(want), texts(want))
						continue
					}
					for i := range got {
						g, x := got[i], want[i]
						if g.Text != x.Text || g.Position() != x.Position() || g.Size() != x.Size() || g.Color != x.Color || g.TextSize != x.TextSize {
							t.Errorf("%s, row %d: %q at %v size %v %v %v, a Label's %q at %v size %v %v %v", what, i,
								g.Text, g.Position(), g.Size(), g.Color, g.TextSize, x.Text, x.Position(), x.Size(), x.Color, x.TextSize)
						}
					}
				}
			}
		})
	}
}

// oneRun gives text the one run go-text's segmenter gives it (whole,
// left to right, in the script it resolves) wherever it answers, for
// every printable ASCII rune and sign it knows alone and in company,
// and declines text the segmenter splits or gives another script.
// Mutations caught: a text of digits and signs called Latin (the
// segmenter leaves it common), a Greek letter let through (its own
// script and run).
func TestOneRunAsSegmenter(t *testing.T) {
	test.NewTempApp(t)
	face := measurer.face(theme.Current().Font(fyne.TextStyle{}))
	var texts []string
	for r := ' '; r <= '~'; r++ {
		texts = append(texts, string(r), "a"+string(r)+"1", "("+string(r)+")")
	}
	for _, r := range oneRunSigns {
		texts = append(texts, string(r), "12"+string(r)+"34", "x "+string(r)+" y")
	}
	texts = append(texts, "100,008", "$2.24B", "(1) [2] {3}", "estimate, hall basis, $2.06B–$2.52B; 8.3%",
		"• JCT: step 1.9 s vs 2.3 s — ≈ ×1.2, 5 µs …", "αβγ", "x = α", "שלום world", "日本")
	var seg shaping.Segmenter
	for _, text := range texts {
		runes := []rune(text)
		in := shaping.Input{Text: runes, RunEnd: len(runes), Direction: di.DirectionLTR, Face: face, Size: float32ToFixed266(14)}
		runs := seg.Split(in, oneFace{face})
		script, ok := oneRun(runes)
		if !ok {
			if strings.ContainsAny(text, "αβγשלום日本") {
				continue
			}
			t.Errorf("%q: not settled as one run", text)
			continue
		}
		in.Script = script
		if len(runs) != 1 {
			t.Errorf("%q: one run, the segmenter's %d", text, len(runs))
			continue
		}
		got := runs[0]
		if got.RunStart != in.RunStart || got.RunEnd != in.RunEnd || got.Direction != in.Direction || got.Face != in.Face ||
			got.Size != in.Size || got.Script != in.Script || got.Language != in.Language || len(got.FontFeatures) != 0 {
			t.Errorf("%q: one run %+v, the segmenter's %+v", text, in, got)
		}
	}
}
