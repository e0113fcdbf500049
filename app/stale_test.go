package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenLandingAfterEditsAsks acts between starting an open and its
// result: an edit typed while the file is read makes the open ask; No
// keeps the edits and their undo, Yes opens the file. An open with no
// edit in between asks nothing. Mutation caught: the background open
// applied over the edits without asking (issue 26: it also cleared undo).
func TestOpenLandingAfterEditsAsks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "other.toml")
	if err := os.WriteFile(path, []byte("schema = 1\n[cluster]\ngpus = 512\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		edit     bool
		answer   bool
		wantAsk  bool
		wantGPUs string
	}{
		{"no edit meanwhile", false, false, false, "512"},
		{"edit meanwhile, keep edits", true, false, true, "3000"},
		{"edit meanwhile, open", true, true, true, "512"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newTestUI(t)
			asked := false
			u.decide = func(_, _ string, yes, no func()) {
				asked = true
				if tc.answer {
					yes()
				} else {
					no()
				}
			}
			u.OpenPathInBackground(path) // the result waits in the queue until WaitIdle
			if tc.edit {
				entry(u, "cluster.gpus").SetText("3000") // as typed: the entry tells the model
			}
			u.WaitIdle()
			if asked != tc.wantAsk || entry(u, "cluster.gpus").Text != tc.wantGPUs {
				t.Fatalf("asked %v, gpus %q; want asked %v, gpus %s", asked, entry(u, "cluster.gpus").Text, tc.wantAsk, tc.wantGPUs)
			}
			if tc.edit && !tc.answer {
				u.Undo()
				u.WaitIdle()
				if entry(u, "cluster.gpus").Text == "3000" {
					t.Error("the kept edit lost its undo")
				}
			}
		})
	}
}

// TestSaveAsksWhenTheFileChangedOnDisk: Save of a file another program
// changed since it was opened asks first; No leaves the other program's
// text, Yes overwrites; after a save, Save asks nothing. Mutation caught:
// Save without comparing the file's time and size (issue 26: it
// overwrote a file changed on disk).
func TestSaveAsksWhenTheFileChangedOnDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.toml")
	if err := os.WriteFile(path, []byte("schema = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newTestUI(t)
	if err := u.OpenPath(path); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	typeIn(u, "cluster.gpus", "2048")
	theirs := "schema = 1\n# edited elsewhere\n"
	if err := os.WriteFile(path, []byte(theirs), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second) // a coarse clock could keep the time
	os.Chtimes(path, later, later)
	var asked []string
	answer := false
	u.decide = func(_, msg string, yes, no func()) {
		asked = append(asked, msg)
		if answer {
			yes()
		} else {
			no()
		}
	}
	u.Save()
	if got, _ := os.ReadFile(path); len(asked) != 1 || !strings.Contains(asked[0], "changed on disk") || string(got) != theirs {
		t.Fatalf("asked %q; file %q", asked, got)
	}
	answer = true
	u.Save()
	if got, _ := os.ReadFile(path); len(asked) != 2 || !strings.Contains(string(got), "2048") {
		t.Fatalf("asked %d times; file %q", len(asked), got)
	}
	typeIn(u, "cluster.gpus", "4096")
	u.Save()
	if got, _ := os.ReadFile(path); len(asked) != 2 || !strings.Contains(string(got), "4096") {
		t.Fatalf("a save after our own save asked again (%d) or did not write: %q", len(asked), got)
	}
}
