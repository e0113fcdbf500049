package charts

import (
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// textMeasures keeps the text widths and wrapped lines of one report.
// The report is laid out three or four times over (the page index
// settles on dry runs, the summary tries smaller type until it fits a
// page) and sets the same strings in the same styles each time;
// measuring a string shapes it glyph by glyph with kerning, so each
// string is measured once per style and each paragraph wrapped once per
// width. A nil *textMeasures measures afresh every time.
type textMeasures struct {
	widths map[textKey]vg.Length
	wraps  map[wrapKey][]string
}

// textKey is a string in a font (face and size).
type textKey struct {
	text string
	font font.Font
}

// wrapKey is a paragraph wrapped to a width in a font.
type wrapKey struct {
	textKey
	width vg.Length
}

func newTextMeasures() *textMeasures {
	return &textMeasures{widths: map[textKey]vg.Length{}, wraps: map[wrapKey][]string{}}
}

// width is sty.Width(s), measured once per string and font.
func (m *textMeasures) width(s string, sty draw.TextStyle) vg.Length {
	if m == nil {
		return sty.Width(s)
	}
	k := textKey{s, sty.Font}
	w, ok := m.widths[k]
	if !ok {
		w = sty.Width(s)
		m.widths[k] = w
	}
	return w
}

// wrap is wrapToWidth(text, width, sty), wrapped once per text, width
// and font. The lines returned are shared: callers must not change them.
func (m *textMeasures) wrap(text string, width vg.Length, sty draw.TextStyle) []string {
	if m == nil {
		return wrapToWidth(text, width, sty)
	}
	k := wrapKey{textKey{text, sty.Font}, width}
	lines, ok := m.wraps[k]
	if !ok {
		lines = wrapToWidth(text, width, sty)
		m.wraps[k] = lines
	}
	return lines
}
