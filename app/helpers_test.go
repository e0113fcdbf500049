package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/market"
)

// newTestUI builds a UI on the headless test driver with the embedded
// default scenario, planned.
func newTestUI(t testing.TB) *UI {
	t.Helper()
	u := newTestUIWith(t, Options{Ephemeral: true})
	u.win.Resize(fyne.NewSize(1280, 800))
	return u
}

func newTestUIWith(t testing.TB, opts Options) *UI {
	t.Helper()
	a := test.NewTempApp(t)
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	m, err := market.Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	w := test.NewTempWindow(t, nil)
	u := newUI(a, w, cat, m, opts, make(chan func(), 4096))
	u.planner.Delay = 0
	u.WaitIdle()
	return u
}

// entry, choice, radio and check are the widgets bound to a key.
func entry(u *UI, key string) *widget.Entry   { return u.inputs.byKey[key].widget.(*widget.Entry) }
func choice(u *UI, key string) *widget.Select { return u.inputs.byKey[key].widget.(*widget.Select) }
func radio(u *UI, key string) *widget.RadioGroup {
	return u.inputs.byKey[key].widget.(*widget.RadioGroup)
}
func errLabel(u *UI, key string) *widget.Label { return u.inputs.byKey[key].errText }
func widgetCell(row int) widget.TableCellID    { return widget.TableCellID{Row: row, Col: 0} }

// typeIn replaces the text of key's entry as a user would, keystroke by
// keystroke, and waits for the plan.
func typeIn(u *UI, key, text string) {
	e := entry(u, key)
	e.SetText("")
	test.Type(e, text)
	u.WaitIdle()
}

// pick chooses label in key's select or radio group and waits for the plan.
func pick(u *UI, key, label string) {
	switch w := u.inputs.byKey[key].widget.(type) {
	case *widget.Select:
		w.SetSelected(label)
	case *widget.RadioGroup:
		w.SetSelected(label)
	}
	u.WaitIdle()
}

// findButton finds a button by its label in o, nil if none.
func findButton(t *testing.T, o fyne.CanvasObject, label string) *widget.Button {
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Button:
			if v.Text == label {
				found = v
			}
		case *fyne.Container:
			for _, child := range v.Objects {
				walk(child)
			}
		case *container.Scroll:
			walk(v.Content)
		case fyne.Widget:
			r := test.TempWidgetRenderer(t, v)
			for _, child := range r.Objects() {
				walk(child)
			}
		}
	}
	walk(o)
	return found
}

// topDialog is the dialog's content shown over the window, nil if none.
func topDialog(u *UI) fyne.CanvasObject { return u.win.Canvas().Overlays().Top() }

// pressKey sends a key to the window, as a keyboard does when no entry
// has the focus.
func pressKey(u *UI, k fyne.KeyName) {
	if h := u.win.Canvas().OnTypedKey(); h != nil {
		h(&fyne.KeyEvent{Name: k})
	}
}
