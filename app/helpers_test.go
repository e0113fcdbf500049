package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"fabricplan/data"
	"fabricplan/planner"
)

// newTestUI builds a UI on the headless test driver with the embedded
// default scenario; dialogs are replaced by recorders.
func newTestUI(t testing.TB) *UI {
	t.Helper()
	a := test.NewTempApp(t)
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	m, err := planner.LoadMarket(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, nil)
	u := New(a, w, cat, m, Options{Ephemeral: true})
	w.Resize(fyne.NewSize(1280, 800))
	return u
}

func newTestUIWith(t testing.TB, opts Options) *UI {
	t.Helper()
	a := test.NewTempApp(t)
	cat, _ := planner.LoadCatalog(data.FS)
	m, _ := planner.LoadMarket(data.FS)
	w := test.NewTempWindow(t, nil)
	u := New(a, w, cat, m, opts)
	u.WaitBackground() // the test driver applies results on the reading goroutine
	return u
}

func widgetCell(row int) widget.TableCellID { return widget.TableCellID{Row: row, Col: 0} }

// findButton finds a button by its label anywhere in the window.
func findButton(t testing.TB, u *UI, label string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == label {
			found = b
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, child := range c.Objects {
				walk(child)
			}
		}
		if s, ok := o.(*container.Scroll); ok {
			walk(s.Content)
		}
	}
	walk(u.inputs.content)
	if found == nil {
		t.Fatalf("no button %q", label)
	}
	return found
}
