package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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
