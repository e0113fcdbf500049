package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"fabricplan/internal/safefile"
	"fabricplan/internal/safefile/fulldisk"
)

// saveThrough drives the app's save dialog: it types name into the
// dialog for folder and presses Save, accepting a replace question.
func saveThrough(t *testing.T, u *UI, folder, name, ext string, write func(string) error) (asked bool) {
	t.Helper()
	u.confirm = func(title, msg string, yes func()) { asked = true; yes() }
	sd := u.savePathDialog("Save", "ignored", ext, write)
	sd.setFolder(folder)
	sd.name.SetText("")
	test.Type(sd.name, name)
	sd.submit()
	return asked
}

// Mutation caught: Fyne's dialog.NewFileSave, which opens and truncates
// the chosen file before the app's write starts; a failed write then
// leaves the user's file empty (or the app removes it).
func TestSaveDialogNeverTouchesTheFileBeforeWriting(t *testing.T) {
	u := newTestUI(t)
	var shown []error
	u.showError = func(err error) { shown = append(shown, err) }
	dir := t.TempDir()
	existing := filepath.Join(dir, "plan.toml")
	os.WriteFile(existing, []byte("the user's plan"), 0o644)
	var sawBefore string
	asked := saveThrough(t, u, dir, "plan.toml", ".toml", func(path string) error {
		b, _ := os.ReadFile(path)
		sawBefore = string(b)
		return errors.New("disk full")
	})
	if !asked {
		t.Error("replacing an existing file was not confirmed")
	}
	if sawBefore != "the user's plan" {
		t.Errorf("the file read %q when the write began: the dialog touched it", sawBefore)
	}
	if b, _ := os.ReadFile(existing); string(b) != "the user's plan" {
		t.Errorf("after a failed write the file is %q", b)
	}
	if len(shown) != 1 || !strings.Contains(shown[0].Error(), "disk full") {
		t.Errorf("errors shown: %v", shown)
	}
}

// Mutation caught: the old dialog removed the "placeholder" it thought it
// had created under a name without an extension: a real file of the user's.
func TestSaveDialogKeepsExtensionlessFile(t *testing.T) {
	u := newTestUI(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	os.WriteFile(notes, []byte("my notes"), 0o644)
	var got string
	saveThrough(t, u, dir, "notes", ".toml", func(path string) error { got = path; return u.SavePath(path) })
	if got != notes+".toml" {
		t.Errorf("wrote %s, want %s", got, notes+".toml")
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "my notes" {
		t.Errorf("the extensionless file is now %q, %v", b, err)
	}
}

func TestSavePathNames(t *testing.T) {
	for _, tc := range []struct{ folder, name, want, err string }{
		{"/d", "plan", "/d/plan.toml", ""},
		{"/d", " plan.TOML ", "/d/plan.TOML", ""},
		{"/d", "chart.svg", "/d/chart.svg", ""},
		{"/d", "", "", "type a file name"},
		{"/d", "a/b.toml", "", "not a file name"},
		{"/d", "..", "", "not a file name"},
		{"", "x", "", "choose a folder"},
		{"/d", strings.Repeat("n", 240), "/d/" + strings.Repeat("n", 240) + ".toml", ""},
	} {
		got, err := savePath(tc.folder, tc.name, ".toml")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("savePath(%q, %q) err = %v, want %q", tc.folder, tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("savePath(%q, %q) = %q, %v; want %q", tc.folder, tc.name, got, err, tc.want)
		}
	}
}

// Mutations caught: exports written in place (a failure truncates the old
// chart or report), or an error that removes the target. A read-only
// target is refused (root included), and a real full disk (tmpfs, when
// root) keeps the old file.
func TestExportsKeepOldFilesOnFailure(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabCharts)
	u.WaitIdle()
	dir := t.TempDir()
	ro := filepath.Join(dir, "locked.png")
	os.WriteFile(ro, []byte("old chart"), 0o444)
	if err := ExportChart(u.visibleFigure(), ro); !errors.Is(err, safefile.ErrRefused) {
		t.Errorf("export over a read-only PNG: %v", err)
	}
	if b, _ := os.ReadFile(ro); string(b) != "old chart" {
		t.Errorf("read-only PNG is now %q", b)
	}
	full, ok := fulldisk.Mount(t, "16k") // else internal/safefile's failing-writer test covers the path
	if !ok {
		return
	}
	png := filepath.Join(full, "chart.png")
	pdf := filepath.Join(full, "report.pdf")
	os.WriteFile(png, []byte("old png"), 0o644)
	os.WriteFile(pdf, []byte("old pdf"), 0o644)
	if err := ExportChart(u.visibleFigure(), png); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("chart on a full disk: err = %v", err)
	}
	if err := u.ExportReport(pdf, u.Scenario(), nil); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("report on a full disk: err = %v", err)
	}
	for path, want := range map[string]string{png: "old png", pdf: "old pdf"} {
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("%s is now %d bytes, want the old contents", filepath.Base(path), len(b))
		}
	}
}

// Mutation caught: opening on the UI goroutine with os.ReadFile, which
// blocks forever on a FIFO and reads /dev/zero without end. The window
// must come up at once and report the file.
func TestHostileScenarioPathsDoNotFreeze(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, make([]byte, 2<<20), 0o644)
	for _, tc := range []struct{ path, want string }{
		{fifo, "FIFO"}, {"/dev/zero", "device"}, {big, "1 MiB"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			u := newTestUI(t)
			var shown error
			u.showError = func(err error) { shown = err }
			done := make(chan struct{})
			go func() { u.OpenPathInBackground(tc.path); u.WaitIdle(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("opening did not finish in 5 s")
			}
			if shown == nil || !strings.Contains(shown.Error(), tc.want) {
				t.Errorf("error shown: %v, want one naming %q", shown, tc.want)
			}
			if u.Plan() == nil || u.Plan().GPUs != 1024 {
				t.Error("the current scenario did not stay")
			}
		})
	}
}

// A scenario file with several mistakes reports all of them, with the
// file's name, in one dialog.
func TestOpenReportsEveryProblem(t *testing.T) {
	u := newTestUI(t)
	var shown error
	u.showError = func(err error) { shown = err }
	bad := filepath.Join(t.TempDir(), "five.toml")
	os.WriteFile(bad, []byte("schema = 1\n[cluster]\ngpus = -3\ngpus_per_server = \"eight\"\n[network]\nplanes = 0\nfabric = \"x\"\nplains = 1\n"), 0o644)
	u.OpenPathInBackground(bad)
	u.WaitIdle()
	if shown == nil {
		t.Fatal("no error shown")
	}
	for _, want := range []string{"five.toml", "cluster.gpus (line 3)", "cluster.gpus_per_server (line 4)", "network.planes (line 6)",
		"network.fabric (line 7)", "network.plains (line 8)"} {
		if !strings.Contains(shown.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, shown)
		}
	}
}

// Mutation caught: the extension filter alone, which offers a FIFO named
// plan.toml in Fyne's open dialog, whose open then blocks the UI.
func TestOpenDialogOffersRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	syscall.Mkfifo(fifo, 0o644)
	plan := filepath.Join(dir, "plan.toml")
	os.WriteFile(plan, []byte("schema = 1\n"), 0o644)
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, nil, 0o644)
	f := scenarioFilter
	for path, want := range map[string]bool{plan: true, fifo: false, notes: false, "/dev/null": false} {
		if got := f.Matches(storage.NewFileURI(path)); got != want {
			t.Errorf("%s offered: %v, want %v", path, got, want)
		}
	}
}
