package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// wrapLabel is a label wrapped by words, drawn as widget.Label with
// fyne.TextWrapWord draws one (Fyne 2.7.2: the same rows, one
// canvas.Text each at the inner padding of its theme, in the text size
// and colour of its size name and importance, and the same least size)
// but measured through measurer, a row and the row with its next word
// at a time (wrapWords). A Label measured a dozen new strings a row,
// each with a new HarfBuzz font: the Summary's cards and whole-cluster
// line, whose figures change with every edit, were a third of an edit.
type wrapLabel struct {
	widget.BaseWidget
	// Text is the label's text; set it with SetText.
	Text string
	// TextStyle, SizeName (the theme's text size when empty) and
	// Importance (the colour, as a Label's) are the text's look; call
	// Refresh after changing them.
	TextStyle  fyne.TextStyle
	SizeName   fyne.ThemeSizeName
	Importance widget.Importance
}

// newWrapLabel is a wrapLabel showing text.
func newWrapLabel(text string) *wrapLabel {
	l := &wrapLabel{Text: text}
	l.ExtendBaseWidget(l)
	return l
}

// SetText shows text.
func (l *wrapLabel) SetText(text string) {
	l.Text = text
	l.Refresh()
}

// CreateRenderer is part of fyne.Widget.
func (l *wrapLabel) CreateRenderer() fyne.WidgetRenderer {
	l.ExtendBaseWidget(l)
	r := &wrapLabelRenderer{l: l}
	r.Refresh()
	return r
}

// wrapLabelRenderer lays a wrapLabel's rows out for the width it was
// last given.
type wrapLabelRenderer struct {
	l *wrapLabel
	textRows
	// text, wrapAt, size and style are what the rows were wrapped for.
	text        string
	wrapAt      float32
	size        float32
	style       fyne.TextStyle
	wrappedOnce bool
}

// look is the label's text size, colour and inner padding in its theme.
func (r *wrapLabelRenderer) look() (size float32, col fyne.ThemeColorName, pad float32) {
	l := r.l
	name := l.SizeName
	if name == "" {
		name = theme.SizeNameText
	}
	return theme.SizeForWidget(name, l), importanceColor(l.Importance), theme.SizeForWidget(theme.SizeNameInnerPadding, l)
}

// wrap splits the text into rows at the label's width, as a Label does
// on each refresh and resize (a width under the padding wraps nothing),
// and sets the rows' text, size, style and colour.
func (r *wrapLabelRenderer) wrap() {
	l := r.l
	size, colName, pad := r.look()
	wrapAt := l.Size().Width - 2*pad
	col := theme.ColorForWidget(colName, l)
	if !r.wrappedOnce || l.Text != r.text || wrapAt != r.wrapAt || size != r.size || l.TextStyle != r.style {
		r.wrappedOnce, r.text, r.wrapAt, r.size, r.style = true, l.Text, wrapAt, size, l.TextStyle
		style := l.TextStyle
		runes := []rune(l.Text)
		spans := wrapWords(runes, wrapAt, func(s string) float32 { return measureText(s, size, style).Width })
		r.setRows(len(spans))
		for i, s := range spans {
			text := string(runes[s.begin:s.end])
			r.add(i, text, measureText(text, size, style))
		}
	}
	for _, t := range r.rows {
		t.TextSize, t.TextStyle, t.Color = size, l.TextStyle, col
	}
}

// Layout places each row at the padding, one under the other, each as
// wide as its text.
func (r *wrapLabelRenderer) Layout(fyne.Size) {
	r.wrap()
	_, _, pad := r.look()
	r.stack(pad)
}

// MinSize is a wrapped Label's: its rows' height, and no width, with the
// padding around.
func (r *wrapLabelRenderer) MinSize() fyne.Size {
	_, _, pad := r.look()
	return fyne.NewSize(2*pad, r.height()+2*pad)
}

// Refresh wraps the text again and redraws the rows.
func (r *wrapLabelRenderer) Refresh() {
	r.Layout(r.l.Size())
	for _, t := range r.rows {
		t.Refresh()
	}
}
