package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// textRows is a label renderer's rows of text, each one canvas.Text with
// its measured size, stacked at the padding: what wrapLabel and
// ellipsisLabel share.
type textRows struct {
	rows  []*canvas.Text
	sizes []fyne.Size // each row's measured size
	objs  []fyne.CanvasObject
}

// setRows keeps n rows (reusing those there are) and empties the sizes
// and objects for add to fill again.
func (t *textRows) setRows(n int) {
	for len(t.rows) < n {
		t.rows = append(t.rows, &canvas.Text{})
	}
	t.rows = t.rows[:n]
	t.objs, t.sizes = t.objs[:0], t.sizes[:0]
}

// add sets row i's text and its measured size, and shows it.
func (t *textRows) add(i int, text string, size fyne.Size) {
	t.rows[i].Text = text
	t.sizes = append(t.sizes, size)
	t.objs = append(t.objs, t.rows[i])
}

// stack places each row at the padding, one under the other, each as
// wide as its text.
func (t *textRows) stack(pad float32) {
	y := pad
	for i, row := range t.rows {
		row.Resize(t.sizes[i])
		row.Move(fyne.NewPos(pad, y))
		y += t.sizes[i].Height
	}
}

// height is the rows' height, one above the other.
func (t *textRows) height() float32 {
	h := float32(0)
	for _, s := range t.sizes {
		h += s.Height
	}
	return h
}

// Objects is part of fyne.WidgetRenderer.
func (t *textRows) Objects() []fyne.CanvasObject { return t.objs }

// Destroy is part of fyne.WidgetRenderer.
func (t *textRows) Destroy() {}
