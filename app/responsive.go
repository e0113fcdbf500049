package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// wrapRow lays a bar of controls out left to right and moves what does
// not fit onto the next line, so a narrow window keeps every control in
// reach instead of widening past the screen.
func wrapRow(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(&flowLayout{}, objs...)
}

// flowLayout places objects at their minimum size in rows, starting a new
// row where the next would pass the right edge. Its minimum width is the
// widest object; its minimum height is what the rows took at the width it
// was last laid out at (one row before the first layout: the canvas lays
// the parent out again when that changes).
type flowLayout struct {
	width float32 // the width of the last layout; 0 before it
}

// rows places objects in rows within width; place, when set, gets each
// object's position. It returns the height the rows take.
func (l *flowLayout) rows(objects []fyne.CanvasObject, width float32, place func(fyne.CanvasObject, fyne.Position)) float32 {
	pad := theme.Padding()
	var x, y, rowH float32
	first := true
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		s := o.MinSize()
		if !first && width > 0 && x+s.Width > width {
			x, y, rowH = 0, y+rowH+pad, 0
		}
		first = false
		if place != nil {
			place(o, fyne.NewPos(x, y))
		}
		x += s.Width + pad
		rowH = max(rowH, s.Height)
	}
	return y + rowH
}

// MinSize implements fyne.Layout.
func (l *flowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w float32
	for _, o := range objects {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	return fyne.NewSize(w, l.rows(objects, max(l.width, w), nil))
}

// Layout implements fyne.Layout.
func (l *flowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	l.rows(objects, size.Width, func(o fyne.CanvasObject, at fyne.Position) {
		o.Resize(o.MinSize())
		o.Move(at)
	})
}

// rowDetail is the pane under a table that shows the selected row in
// full, column by column and wrapped, so text a narrow cell cuts with an
// ellipsis can still be read.
type rowDetail struct {
	label   *widget.Label
	columns []string
	cell    func(row, col int) string
	rows    func() int
	row     int // the row shown; -1: none
}

// detailHint is what the pane says before a row is picked.
const detailHint = "Select a row to read it in full here."

// withRowDetail puts a detail pane under table t (whose columns and
// cells are given) and returns the pair and the pane; selecting a row
// shows it, and any OnSelected set before still runs.
func withRowDetail(t *widget.Table, columns []string, rows func() int, cell func(row, col int) string) (fyne.CanvasObject, *rowDetail) {
	d := &rowDetail{label: widget.NewLabel(detailHint), columns: columns, cell: cell, rows: rows, row: -1}
	d.label.Wrapping = fyne.TextWrapWord
	d.label.Importance = widget.LowImportance
	prev := t.OnSelected
	t.OnSelected = func(id widget.TableCellID) {
		if prev != nil {
			prev(id)
		}
		d.show(id.Row)
	}
	return container.NewBorder(nil, d.label, nil, nil, t), d
}

// show puts row in the pane (the hint when row is out of range).
func (d *rowDetail) show(row int) {
	d.row = row
	d.label.SetText(d.text())
}

// refresh shows the row again after the table's data changed.
func (d *rowDetail) refresh() { d.show(d.row) }

// text is the selected row as "Column: value · Column: value", skipping
// empty cells.
func (d *rowDetail) text() string {
	if d.row < 0 || d.row >= d.rows() {
		return detailHint
	}
	var parts []string
	for c, name := range d.columns {
		v := strings.TrimSpace(d.cell(d.row, c))
		if v == "" {
			continue
		}
		if name == "" {
			parts = append(parts, v)
			continue
		}
		parts = append(parts, name+": "+v)
	}
	return strings.Join(parts, " · ")
}

// wrappedCheck is a check box whose caption wraps to the width it is
// given (a Check's own caption never wraps, so a long one widens the
// whole input column). Tapping the caption toggles the box, as tapping a
// Check's own caption does.
type wrappedCheck struct {
	widget.BaseWidget
	check   *widget.Check
	caption *tapLabel
}

func newWrappedCheck(text string, changed func(bool)) *wrappedCheck {
	w := &wrappedCheck{check: widget.NewCheck("", changed)}
	w.caption = newTapLabel(text, func() {
		if !w.check.Disabled() {
			w.check.SetChecked(!w.check.Checked)
		}
	})
	w.ExtendBaseWidget(w)
	return w
}

// CreateRenderer implements fyne.Widget.
func (w *wrappedCheck) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, w.check, nil, w.caption))
}

// Enable, Disable and Disabled implement fyne.Disableable.
func (w *wrappedCheck) Enable()        { w.check.Enable() }
func (w *wrappedCheck) Disable()       { w.check.Disable() }
func (w *wrappedCheck) Disabled() bool { return w.check.Disabled() }

// tapLabel is a word-wrapped label that runs a function when tapped.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel(text string, onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Text = text
	l.Wrapping = fyne.TextWrapWord
	l.ExtendBaseWidget(l)
	return l
}

// Tapped implements fyne.Tappable.
func (l *tapLabel) Tapped(*fyne.PointEvent) { l.onTap() }
