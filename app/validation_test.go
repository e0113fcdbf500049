package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"fabricplan/planner/validation"
)

// Help ▸ Model validation runs the published points off the UI goroutine
// and shows the same table as `fabricplan validate`: every point, with
// its fit and status, and a selected row's full source. Mutations
// caught: the menu item missing, the table empty or built before the
// work finished, the fitted column or source left out.
func TestModelValidationDialog(t *testing.T) {
	u := newTestUI(t)
	found := false
	for _, m := range u.win.MainMenu().Items {
		for _, it := range m.Items {
			found = found || (m.Label == "Help" && it.Label == "Model validation")
		}
	}
	if !found {
		t.Fatal("no Help ▸ Model validation")
	}
	u.ModelValidationDialog()
	if u.validation != nil {
		t.Fatal("the table was built on the UI goroutine before the work finished")
	}
	u.WaitIdle()
	tb := u.validation
	if tb == nil {
		t.Fatal("no validation table")
	}
	rows, cols := tb.Length()
	if rows < 25 || cols != len(validationColumns) {
		t.Fatalf("table %d x %d", rows, cols)
	}
	var sawFitted, sawUnfitted bool
	for r := range rows {
		cell := widget.NewLabel("")
		tb.UpdateCell(widget.TableCellID{Row: r, Col: 5}, cell)
		sawFitted = sawFitted || strings.HasPrefix(cell.Text, "yes: ")
		sawUnfitted = sawUnfitted || cell.Text == "no"
		tb.UpdateCell(widget.TableCellID{Row: r, Col: 6}, cell)
		if cell.Text != "ok" && cell.Text != validation.StatusMiss {
			t.Errorf("row %d status %q", r, cell.Text)
		}
	}
	if !sawFitted || !sawUnfitted {
		t.Errorf("fitted column: yes %v, no %v", sawFitted, sawUnfitted)
	}
	tb.Select(widget.TableCellID{Row: 0, Col: 0})
}
