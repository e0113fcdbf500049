package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Chart, BOM and cable-map exports render and write off the UI
// goroutine, through the report's path: between the click and the
// result the status says the file is being written, and only once the
// background job has handed its result over does it name the file
// written; a failure reaches the error dialog the same way. Mutation
// caught: an export that renders and writes inside the dialog's
// callback on the UI goroutine (the status reads "Wrote" at once, as it
// did before: 28-84 ms per PNG with the window frozen).
func TestExportsRunInTheBackground(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabMarket) // one chart: the cheapest tab to draw
	u.WaitIdle()
	var shown []error
	u.showError = func(err error) { shown = append(shown, err) }
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file string
		open       func()
	}{
		{"chart", "chart.png", func() { u.ExportChartDialog(u.visibleFigure()) }},
		{"bom", "bom.csv", u.ExportBOMDialog},
		{"cable map", "cables.csv", u.ExportCablesDialog},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shown = nil
			u.saving = nil
			tc.open()
			sd := u.saving
			if sd == nil {
				t.Fatalf("no save dialog (errors %v)", shown)
			}
			sd.setFolder(dir)
			sd.name.SetText("")
			test.Type(sd.name, tc.file)
			sd.submit()
			if got := u.status.Text; !strings.HasPrefix(got, "Writing "+tc.file) {
				t.Errorf("status %q right after the click, want it busy writing %s", got, tc.file)
			}
			u.WaitIdle()
			if got := u.status.Text; !strings.HasPrefix(got, "Wrote ") || !strings.Contains(got, tc.file) || len(shown) != 0 {
				t.Errorf("status %q, errors %v after the export", got, shown)
			}
			if info, err := os.Stat(filepath.Join(dir, tc.file)); err != nil || info.Size() == 0 {
				t.Errorf("%s not written: %v", tc.file, err)
			}
		})
	}
	// A write that fails (its folder is a file) is shown as an error
	// once the job is done, and the status no longer says it is busy.
	shown = nil
	blocker := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	u.exportInBackground("writing the chart", filepath.Join(blocker, "x.png"), func(context.Context) error {
		return ExportChart(u.visibleFigure(), filepath.Join(blocker, "x.png"))
	}, nil, func() { t.Error("a failed export reported as written") })
	if len(shown) != 0 {
		t.Errorf("error shown before the job ran: %v", shown)
	}
	u.WaitIdle()
	if len(shown) != 1 || strings.HasPrefix(u.status.Text, "Writing") {
		t.Errorf("errors %v, status %q after a failed export", shown, u.status.Text)
	}
}
