package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A write never replaces a file this process read, whatever path it is
// reached by, and leaves it whole; a document saved over itself may.
// Mutations caught: the input check left out of WriteContext (every
// "refused" row writes), inputs compared by path instead of identity
// (the link and hard-link rows write), WriteDocument checked like an
// output (its row is refused), WriteDocument replacing a data input (the
// Save-As-over-the-quotes row writes), a file noted before it is read
// (the unread row is refused).
func TestWriteRefusesInputs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		target  func(dir, in string) string // the path written, given the input read
		read    bool                        // the input is read first
		readDoc bool                        // read as a document (ReadDocument)
		doc     bool                        // written as a document (WriteDocument)
		refused bool
	}{
		{"the input itself", func(_, in string) string { return in }, true, false, false, true},
		{"another spelling", func(dir, in string) string { return filepath.Join(dir, ".", "sub", "..", filepath.Base(in)) }, true, false, false, true},
		{"a symbolic link to it", func(dir, in string) string {
			l := filepath.Join(dir, "link.csv")
			must(t, os.Symlink(in, l))
			return l
		}, true, false, false, true},
		{"a hard link to it", func(dir, in string) string {
			l := filepath.Join(dir, "hard.csv")
			must(t, os.Link(in, l))
			return l
		}, true, false, false, true},
		{"a document saved over itself", func(_, in string) string { return in }, true, true, true, false},
		{"a document saved over a data input", func(_, in string) string { return in }, true, false, true, true},
		{"a file never read", func(_, in string) string { return in }, false, false, false, false},
		{"a new file beside it", func(dir, _ string) string { return filepath.Join(dir, "new.csv") }, true, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
			in := filepath.Join(dir, "quotes.csv")
			must(t, os.WriteFile(in, []byte("kept\n"), 0o644))
			read := Read
			if tc.readDoc {
				read = ReadDocument
			}
			if tc.read {
				if _, err := read(in, 1<<10); err != nil {
					t.Fatal(err)
				}
			}
			target := tc.target(dir, in)
			var err error
			if tc.doc {
				err = WriteDocument(target, []byte("new\n"))
			} else {
				err = Write(target, []byte("new\n"))
			}
			got, rerr := os.ReadFile(in)
			if rerr != nil {
				t.Fatal(rerr)
			}
			switch {
			case tc.refused && !errors.Is(err, ErrRefused):
				t.Errorf("write %s: err %v, want it refused (ErrRefused)", target, err)
			case tc.refused && string(got) != "kept\n":
				t.Errorf("the input now holds %q: a refused write changed it", got)
			case !tc.refused && err != nil:
				t.Errorf("write %s: %v, want it written", target, err)
			}
			if info, err := os.Stat(target); tc.refused && (err != nil || !isInput(info)) {
				t.Errorf("%s not noted as an input though it was read", target)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A document saved over itself stays an input under its new inode, and
// an input deleted stops being one. Mutations caught: WriteDocument not
// noting the replaced file again (the export after the save writes over
// the scenario), stale notes kept (a new file where a deleted input was
// cannot be written).
func TestInputsAcrossSaves(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "s.toml")
	must(t, os.WriteFile(doc, []byte("v1\n"), 0o644))
	if _, err := ReadDocument(doc, 1<<10); err != nil {
		t.Fatal(err)
	}
	must(t, WriteDocument(doc, []byte("v2\n")))
	if err := Write(doc, []byte("a chart\n")); !errors.Is(err, ErrRefused) {
		t.Errorf("an output over the saved document: err %v, want it refused", err)
	}
	if got, _ := os.ReadFile(doc); string(got) != "v2\n" {
		t.Errorf("the document holds %q, want the saved v2", got)
	}
	must(t, os.Remove(doc))
	other := filepath.Join(dir, "other.csv")
	must(t, os.WriteFile(other, []byte("x"), 0o644))
	if err := Write(other, []byte("y")); err != nil {
		t.Errorf("a file never read, after an input was deleted: %v", err)
	}
}

// isInput reports whether the file info describes was read as input.
func isInput(info os.FileInfo) bool {
	_, seen := readAs(info)
	return seen
}
