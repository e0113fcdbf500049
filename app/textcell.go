package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// newTextCell is a cell of table, one line of text, drawn as a Label
// draws it (at the inner padding of the table's theme, in the text size
// and the colour of its importance) but made of no widget. Fyne 2.7.2
// builds a new template cell on every Table.Refresh and, under a
// ThemeOverride, puts each widget in it into the override's scope, which
// empties Fyne's whole cache of measured text (internal/cache's
// overrideWidget calls ResetThemeCaches): after one BOM refresh every
// label on the Summary was measured, wrapped and shaped again. A cell
// without a widget leaves the cache alone.
func newTextCell(table fyne.Widget) fyne.CanvasObject {
	c := &fyne.Container{Layout: &textCellLayout{scope: table}, Objects: []fyne.CanvasObject{&canvas.Text{}}}
	setTextCell(c, "", widget.MediumImportance)
	return c
}

// setTextCell shows text in a cell of newTextCell in the colour of
// importance imp, as a Label would (LowImportance is the disabled
// colour, any other the foreground) and in the theme's text size,
// refreshing only what changed.
func setTextCell(o fyne.CanvasObject, text string, imp widget.Importance) {
	c := o.(*fyne.Container)
	t := c.Objects[0].(*canvas.Text)
	scope := c.Layout.(*textCellLayout).scope
	name := theme.ColorNameForeground
	if imp == widget.LowImportance {
		name = theme.ColorNameDisabled
	}
	col, size := theme.ColorForWidget(name, scope), theme.SizeForWidget(theme.SizeNameText, scope)
	if text == t.Text && col == t.Color && size == t.TextSize {
		return
	}
	t.Text, t.Color, t.TextSize = text, col, size
	t.Resize(minSize(t))
	t.Refresh()
}

// textCellLayout places the text of a newTextCell as a Label's RichText
// places one line: at the inner padding, at its own size; the cell's
// least size is the text's with the padding on every side.
type textCellLayout struct {
	scope fyne.Widget // the table, whose theme gives the padding
}

func (l *textCellLayout) pad() float32 {
	return theme.SizeForWidget(theme.SizeNameInnerPadding, l.scope)
}

func (l *textCellLayout) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	p := l.pad()
	for _, o := range objs {
		o.Move(fyne.NewPos(p, p))
		o.Resize(minSize(o))
	}
}

func (l *textCellLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(minSize(o))
	}
	return m.Add(fyne.NewSquareSize(2 * l.pad()))
}

// minSize is o's least size, a text's through measurer (the size its
// MinSize gives, without Fyne shaping it again).
func minSize(o fyne.CanvasObject) fyne.Size {
	if t, ok := o.(*canvas.Text); ok && t.FontSource == nil {
		return measureText(t.Text, t.TextSize, t.TextStyle)
	}
	return o.MinSize()
}
