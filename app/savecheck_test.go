package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestSaveDialogsCheckTheExtension drives every save dialog of the window
// with a name whose extension does not fit what it writes: each refuses
// before writing, and no file appears. A fitting name in another case
// passes the check. Mutations caught: a dialog without the check (issue
// 26: Save As wrote TOML into chart.png, BOM export took any name), the
// check comparing case-sensitively.
func TestSaveDialogsCheckTheExtension(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabMarket) // one chart: the cheapest tab to draw
	u.WaitIdle()
	var shown []error
	u.showError = func(err error) { shown = append(shown, err) }
	u.confirm = func(_, _ string, yes func()) { yes() }
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		open   func()
		bad    string
		good   string
		saysIn string
	}{
		{"save as", u.SaveAsDialog, "chart.png", "plan.TOML", ".toml"},
		{"bom", u.ExportBOMDialog, "bom.toml", "bom.Csv", ".csv"},
		{"chart", func() { u.ExportChartDialog(u.visibleFigure()) }, "chart.toml", "chart.SVG", ".png, .svg, .pdf"},
		{"report", u.ExportReportDialog, "report.png", "report.PDF", ".pdf"},
		{"cable map", u.ExportCablesDialog, "cables.pdf", "cables.Topo", ".csv, .json, .topo"},
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
			test.Type(sd.name, tc.bad)
			sd.submit()
			u.WaitIdle()
			if len(shown) != 1 || !strings.Contains(shown[0].Error(), tc.saysIn) {
				t.Fatalf("%s: errors %v, want one naming %s", tc.bad, shown, tc.saysIn)
			}
			if _, err := os.Stat(filepath.Join(dir, tc.bad)); err == nil {
				t.Errorf("%s was written", tc.bad)
			}
			shown = nil
			if err := sd.checkTarget(filepath.Join(dir, tc.good)); err != nil {
				t.Errorf("%s refused: %v", tc.good, err)
			}
			sd.dlg.Hide()
		})
	}
}

// TestExportNeverOverTheOpenScenario: an export named like the scenario
// file open in the window (same extension by chance) is refused. Mutation
// caught: exports not compared with the open file by os.SameFile.
func TestExportNeverOverTheOpenScenario(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.csv") // a scenario saved under an odd name
	if err := os.WriteFile(path, []byte("schema = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newTestUI(t)
	if err := u.OpenPath(path); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	u.ExportBOMDialog()
	if err := u.saving.checkTarget(path); err == nil || !strings.Contains(err.Error(), "open in this window") {
		t.Fatalf("BOM over the open scenario: %v", err)
	}
	u.saving.dlg.Hide()
}
