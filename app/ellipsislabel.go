package app

import (
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ellipsisLabel is a label whose lines are cut with an ellipsis where
// they do not fit, drawn as widget.Label with fyne.TextTruncateEllipsis
// draws one (Fyne 2.7.2: each line one canvas.Text at the inner padding,
// cut where go-text's line wrapper cuts it, the same least size) but
// shaped with measurer's shaper: Fyne shaped the whole text twice with a
// new HarfBuzz font on every SetText, and the status line is set after
// every edit. Text the theme's font does not cover is left to a Label.
type ellipsisLabel struct {
	widget.BaseWidget
	// Text is the label's text; set it with SetText.
	Text string
	// Importance is the text's colour, as a Label's; call Refresh after
	// changing it.
	Importance widget.Importance
}

// newEllipsisLabel is an ellipsisLabel showing text.
func newEllipsisLabel(text string) *ellipsisLabel {
	l := &ellipsisLabel{Text: text}
	l.ExtendBaseWidget(l)
	return l
}

// SetText shows text.
func (l *ellipsisLabel) SetText(text string) {
	l.Text = text
	l.Refresh()
}

// CreateRenderer is part of fyne.Widget.
func (l *ellipsisLabel) CreateRenderer() fyne.WidgetRenderer {
	l.ExtendBaseWidget(l)
	r := &ellipsisRenderer{l: l}
	r.Refresh()
	return r
}

// ellipsisRenderer lays an ellipsisLabel's lines out, cut for the width
// it was last given; or a Label's, for text measurer leaves to Fyne.
type ellipsisRenderer struct {
	l *ellipsisLabel
	textRows
	// fallback draws text the theme's font does not cover.
	fallback *widget.Label
	// text, width and size are what the rows were cut for.
	text        string
	width, size float32
	cutOnce     bool
}

// look is the label's text size, colour and inner padding in its theme.
func (r *ellipsisRenderer) look() (size float32, col fyne.ThemeColorName, pad float32) {
	return theme.SizeForWidget(theme.SizeNameText, r.l), importanceColor(r.l.Importance), theme.SizeForWidget(theme.SizeNameInnerPadding, r.l)
}

// cut splits the text into lines and cuts each to the label's width, as
// a Label does on each refresh and resize (a width under the padding
// cuts nothing), and sets the rows' text, size and colour.
func (r *ellipsisRenderer) cut() {
	l := r.l
	size, colName, pad := r.look()
	width := l.Size().Width - 2*pad
	if !measurer.covers(l.Text+"…", fyne.TextStyle{}) {
		r.useLabel()
		return
	}
	if r.fallback != nil {
		r.fallback = nil
		r.cutOnce = false
	}
	col := theme.ColorForWidget(colName, l)
	if !r.cutOnce || l.Text != r.text || width != r.width || size != r.size {
		r.cutOnce, r.text, r.width, r.size = true, l.Text, width, size
		runes := []rune(l.Text)
		lines := splitLines(runes)
		r.setRows(len(lines))
		for i, ln := range lines {
			text := string(runes[ln.begin:ln.end])
			if width >= 0 && ln.begin < ln.end {
				end, full := measurer.truncate(text, size, int(width))
				text = string(runes[ln.begin : ln.begin+end])
				if !full {
					text += "…"
				}
			}
			r.add(i, text, measureText(text, size, fyne.TextStyle{}))
		}
	}
	for _, t := range r.rows {
		t.TextSize, t.Color = size, col
	}
}

// useLabel draws the text with a Label.
func (r *ellipsisRenderer) useLabel() {
	if r.fallback == nil {
		r.fallback = widget.NewLabel("")
		r.fallback.Truncation = fyne.TextTruncateEllipsis
		r.objs = []fyne.CanvasObject{r.fallback}
	}
	r.fallback.Importance = r.l.Importance
	r.fallback.SetText(r.l.Text)
}

// Layout places each line at the padding, one under the other, each as
// wide as its text.
func (r *ellipsisRenderer) Layout(size fyne.Size) {
	r.cut()
	if r.fallback != nil {
		r.fallback.Resize(size)
		return
	}
	_, _, pad := r.look()
	r.stack(pad)
}

// MinSize is a cut Label's: an "M" and an ellipsis wide, its lines high
// with the padding above and below.
func (r *ellipsisRenderer) MinSize() fyne.Size {
	if r.fallback != nil {
		return r.fallback.MinSize()
	}
	size, _, pad := r.look()
	h := r.height()
	if len(r.sizes) == 0 {
		h = measureText("M", size, fyne.TextStyle{}).Height
	}
	return fyne.NewSize(measureText("M", size, fyne.TextStyle{}).Width+measureText("…", size, fyne.TextStyle{}).Width, h+2*pad)
}

// Refresh cuts the text again and redraws it.
func (r *ellipsisRenderer) Refresh() {
	r.Layout(r.l.Size())
	if r.fallback != nil {
		return
	}
	for _, t := range r.rows {
		t.Refresh()
	}
}

// importanceColor is the colour a Label of importance imp draws in.
func importanceColor(imp widget.Importance) fyne.ThemeColorName {
	switch imp {
	case widget.LowImportance:
		return theme.ColorNameDisabled
	case widget.HighImportance:
		return theme.ColorNamePrimary
	case widget.DangerImportance:
		return theme.ColorNameError
	case widget.WarningImportance:
		return theme.ColorNameWarning
	case widget.SuccessImportance:
		return theme.ColorNameSuccess
	}
	return theme.ColorNameForeground
}

// covers reports whether the theme's font for style has every rune of
// text (Fyne then shapes it with that font alone).
func (m *textMeasurer) covers(text string, style fyne.TextStyle) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	face := m.face(theme.Current().Font(style))
	if face == nil {
		return false
	}
	for _, r := range text {
		if _, ok := face.NominalGlyph(r); !ok {
			return false
		}
	}
	return true
}

// truncate is how many runes of text, in the theme's regular font at
// size, show in limit pixels, and whether it shows whole: the whole text
// when its advance fits, else the longest beginning that fits with an
// ellipsis after it (advances grow with every rune added, so a binary
// search finds it), as a Label cut with an ellipsis shows it.
func (m *textMeasurer) truncate(text string, size float32, limit int) (int, bool) {
	fits := func(s string) bool { return m.measure(s, size, fyne.TextStyle{}).Width <= float32(limit) }
	runes := []rune(text)
	if fits(text) {
		return len(runes), true
	}
	// The first count whose beginning and ellipsis no longer fit.
	over := sort.Search(len(runes), func(k int) bool { return !fits(string(runes[:k]) + "…") })
	return max(over-1, 0), false
}
