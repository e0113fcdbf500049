package app

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A text cell of the BOM draws its text where, in the size and in the
// colour a Label of the same theme does: the same least size, the text
// at the same place. Mutations caught: the padding taken from the app's
// theme instead of the table's compact one (every row 8 px taller), the
// dimmed colour left at the foreground, the size left at the app's.
func TestTextCellDrawsAsLabel(t *testing.T) {
	u := newTestUI(t)
	table := u.summary.bom
	if got, want := theme.SizeForWidget(theme.SizeNameInnerPadding, table), (compactTheme{}).Size(theme.SizeNameInnerPadding); got != want {
		t.Fatalf("the BOM's inner padding is %v, want the compact theme's %v", got, want)
	}
	for _, tc := range []struct {
		name, text string
		imp        widget.Importance
	}{
		{"empty (the template)", "", widget.MediumImportance},
		{"quantity", "12,501", widget.MediumImportance},
		{"part, dimmed", "q3400 leaf switch (XDR, 144 ports)", widget.LowImportance},
		{"money with a star", "$180,000 *", widget.MediumImportance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := widget.NewLabel(tc.text)
			l.Importance = tc.imp
			_ = container.NewThemeOverride(l, compactTheme{})
			c := newTextCell(table)
			setTextCell(c, tc.text, tc.imp)
			if got, want := c.MinSize(), l.MinSize(); got != want {
				t.Errorf("least size %v, a Label's %v", got, want)
			}
			size := fyne.NewSize(230, l.MinSize().Height)
			l.Resize(size)
			c.Resize(size)
			got, want := c.(*fyne.Container).Objects[0].(*canvas.Text), labelText(t, l)
			if got.Position() != want.Position() || got.Size() != want.Size() {
				t.Errorf("text at %v size %v, a Label's at %v size %v", got.Position(), got.Size(), want.Position(), want.Size())
			}
			if got.Color != want.Color || got.TextSize != want.TextSize || got.TextStyle != want.TextStyle {
				t.Errorf("text %v %v %v, a Label's %v %v %v", got.Color, got.TextSize, got.TextStyle, want.Color, want.TextSize, want.TextStyle)
			}
		})
	}
}

// labelText is the one line of text a Label draws.
func labelText(t *testing.T, l *widget.Label) *canvas.Text {
	t.Helper()
	var found []*canvas.Text
	collectTexts(l, &found)
	if len(found) != 1 {
		t.Fatalf("the label draws %d texts, want 1", len(found))
	}
	return found[0]
}

// collectTexts appends every text o draws, through containers and the
// renderers of widgets.
func collectTexts(o fyne.CanvasObject, out *[]*canvas.Text) {
	switch x := o.(type) {
	case *canvas.Text:
		*out = append(*out, x)
	case *fyne.Container:
		for _, c := range x.Objects {
			collectTexts(c, out)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			collectTexts(c, out)
		}
	}
}

// holdsWidget reports whether o is or contains a widget.
func holdsWidget(o fyne.CanvasObject) bool {
	switch x := o.(type) {
	case fyne.Widget:
		return true
	case *fyne.Container:
		return slices.ContainsFunc(x.Objects, holdsWidget)
	}
	return false
}

// The BOM's cells hold no widget, and show the plan's new figures after
// an edit, greyed out while the plan is stale. A widget in a cell costs
// every label on the Summary its measurement: Fyne puts the template
// cell of each Table.Refresh into the Summary's ThemeOverride, which
// empties its cache of measured text. Mutations caught: the cells back
// to Labels, a cell left showing the old figure (no refresh on a change),
// the dimmed colour never reset.
func TestBOMCellsHoldNoWidget(t *testing.T) {
	u := newTestUI(t)
	s := u.summary
	if c := s.bom.CreateCell(); holdsWidget(c) {
		t.Fatalf("a BOM cell holds a widget: %T", c)
	}
	shown := func() map[string]fyne.CanvasObject {
		var texts []*canvas.Text
		collectTexts(s.bom, &texts)
		out := map[string]fyne.CanvasObject{}
		for _, x := range texts {
			out[x.Text] = x
		}
		return out
	}
	for _, gpus := range []string{"4096", "4104"} {
		typeIn(u, "cluster.gpus", gpus)
		want := fitText(s.bomCell(0, 0), bomWidths[0])
		x, ok := shown()[want]
		if !ok {
			t.Fatalf("%s GPUs: the BOM does not show %q", gpus, want)
		}
		if c := x.(*canvas.Text).Color; c != theme.Color(theme.ColorNameForeground) {
			t.Errorf("%s GPUs: %q in %v, want the foreground", gpus, want, c)
		}
		if q := fitText(s.bomCell(0, 2), bomWidths[2]); shown()[q] == nil {
			t.Errorf("%s GPUs: the BOM does not show the quantity %q", gpus, q)
		}
	}
	s.dim(true)
	if c := shown()[fitText(s.bomCell(0, 0), bomWidths[0])].(*canvas.Text).Color; c != theme.Color(theme.ColorNameDisabled) {
		t.Errorf("dimmed: %v, want the disabled colour", c)
	}
	s.dim(false)
	if c := shown()[fitText(s.bomCell(0, 0), bomWidths[0])].(*canvas.Text).Color; c != theme.Color(theme.ColorNameForeground) {
		t.Errorf("no longer dimmed: %v, want the foreground", c)
	}
}
