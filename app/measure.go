package app

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// textMeasurer measures text exactly as fyne.MeasureText does (Fyne
// 2.7.2's painter.MeasureString: the text split into runs by the
// go-text segmenter and each run shaped by HarfBuzz, its advances summed
// in the same order) but keeps its shaper, and so the HarfBuzz font and
// shape plan, from one measurement to the next: Fyne builds a new
// shaper, and a new HarfBuzz font, for every string it measures, which
// made measuring half the cost of laying out a wrapped label. Text the
// theme's own font does not cover (Fyne falls back to other fonts),
// tabs, carriage returns and symbol fonts are left to fyne.MeasureText.
// Each size is kept by string, size, style and font (up to
// measureCacheEntries; then the cache starts again).
type textMeasurer struct {
	mu     sync.Mutex
	shaper shaping.HarfbuzzShaper
	seg    shaping.Segmenter
	faces  map[string]*font.Face // by resource name, as Fyne keys its fonts
	line   map[lineKey]float32   // the line height by size and font
	sizes  map[measureKey]fyne.Size
	run    [1]shaping.Input // the one run of text oneRun settles
}

// measureFonts is how many HarfBuzz fonts the shaper keeps: the
// regular, bold, italic and bold italic theme fonts.
const measureFonts = 4

// measureCacheEntries bounds the sizes a textMeasurer keeps: several
// edits' worth of the Summary's rows and the words they wrap at.
const measureCacheEntries = 8192

type measureKey struct {
	text  string
	size  float32
	style fyne.TextStyle
	font  string // the name of the theme's font for style
}

type lineKey struct {
	size float32
	font string // the font resource's name
}

// measurer is the window's text measurer; it is used on the UI
// goroutine, and locks for any other.
var measurer = &textMeasurer{}

// measureText is fyne.MeasureText(text, size, style), through measurer.
func measureText(text string, size float32, style fyne.TextStyle) fyne.Size {
	return measurer.measure(text, size, style)
}

// measure is the size of text at size in style: its advance and the
// font's line height, as fyne.MeasureText gives them.
func (m *textMeasurer) measure(text string, size float32, style fyne.TextStyle) fyne.Size {
	m.mu.Lock()
	defer m.mu.Unlock()
	res := theme.Current().Font(style)
	key := measureKey{text, size, style, res.Name()}
	if s, ok := m.sizes[key]; ok {
		return s
	}
	s, ok := m.shape(text, size, style, res)
	if !ok {
		s = fyne.MeasureText(text, size, style)
	}
	if m.sizes == nil || len(m.sizes) >= measureCacheEntries {
		m.sizes = make(map[measureKey]fyne.Size, len(m.sizes))
	}
	m.sizes[key] = s
	return s
}

// shape measures text with res, the theme's font for style; false when
// that font alone does not give Fyne's answer (see textMeasurer).
func (m *textMeasurer) shape(text string, size float32, style fyne.TextStyle, res fyne.Resource) (fyne.Size, bool) {
	if style.Symbol || strings.ContainsAny(text, "\t\r") {
		return fyne.Size{}, false
	}
	face := m.face(res)
	m.shaper.SetFontCacheSize(measureFonts) // its default, 0, keeps none
	if face == nil {
		return fyne.Size{}, false
	}
	runes := []rune(text)
	for _, r := range runes {
		if _, ok := face.NominalGlyph(r); !ok {
			return fyne.Size{}, false
		}
	}
	textSize := float32ToFixed266(size)
	height, ok := m.line[lineKey{size, res.Name()}]
	if !ok {
		out := m.shaper.Shape(shaping.Input{Text: []rune{' '}, RunEnd: 1, Direction: di.DirectionLTR, Face: face, Size: textSize})
		height = fixed266ToFloat32(out.LineBounds.LineThickness())
		if m.line == nil {
			m.line = map[lineKey]float32{}
		}
		m.line[lineKey{size, res.Name()}] = height
	}
	if len(runes) == 0 {
		return fyne.NewSize(0, height), true
	}
	in := shaping.Input{Text: runes, RunEnd: len(runes), Direction: di.DirectionLTR, Face: face, Size: textSize}
	var runs []shaping.Input
	if script, ok := oneRun(runes); ok {
		in.Script = script
		m.run[0] = in
		runs = m.run[:]
	} else {
		runs = m.seg.Split(in, oneFace{face})
	}
	x := float32(0)
	for _, run := range runs {
		var adv fixed.Int26_6
		for _, g := range m.shaper.Shape(run).Glyphs {
			if g.GlyphID == 0 {
				return fyne.Size{}, false // Fyne sums around a missing glyph differently
			}
			adv += g.XAdvance
		}
		x += fixed266ToFloat32(adv)
	}
	return fyne.NewSize(x, height), true
}

// face is the font of resource res, parsed once; nil when it does not
// parse (Fyne then falls back to its own font).
func (m *textMeasurer) face(res fyne.Resource) *font.Face {
	if f, ok := m.faces[res.Name()]; ok {
		return f
	}
	f, err := font.ParseTTF(bytes.NewReader(res.Content()))
	if err != nil {
		fyne.LogError("measuring text", fmt.Errorf("font %s: %w", res.Name(), err))
		f = nil
	}
	if m.faces == nil {
		m.faces = map[string]*font.Face{}
	}
	m.faces[res.Name()] = f
	return f
}

// oneRun is the script of text the go-text segmenter leaves in one
// left-to-right run: printable ASCII and the signs of oneRunSigns, all
// of the Latin or the common script and none right-to-left; Latin if it
// has a letter, else common (as the segmenter resolves them). false for
// other text, which the segmenter splits. Splitting is bidirectional
// ordering and a fifth of a measurement.
func oneRun(text []rune) (language.Script, bool) {
	script := language.Common
	for _, r := range text {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			script = language.Latin
		case r >= ' ' && r <= '~':
		case strings.ContainsRune(oneRunSigns, r):
		default:
			return 0, false
		}
	}
	return script, true
}

// oneRunSigns are the signs beyond ASCII the window's figures and notes
// use that keep a text in one run: dashes, bullet, ellipsis, times,
// approximately, micro, quotes, degree, plus-minus, at most and at
// least, arrow, no-break space.
const oneRunSigns = "–—•…×≈µ‘’“”°±≤≥→ "

// oneFace resolves every rune to one face, as Fyne's font map does for
// text its first face covers.
type oneFace struct{ f *font.Face }

func (o oneFace) ResolveFace(rune) *font.Face { return o.f }

// fixed266ToFloat32 and float32ToFixed266 convert as Fyne's painter does.
func fixed266ToFloat32(i fixed.Int26_6) float32 { return float32(float64(i) / (1 << 6)) }

func float32ToFixed266(f float32) fixed.Int26_6 { return fixed.Int26_6(float64(f) * (1 << 6)) }
