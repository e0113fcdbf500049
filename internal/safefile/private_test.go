package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWritePrivate writes over each kind of thing that can sit at the
// path. Mutations caught: following a symbolic link at the path (the
// link's target is overwritten: the recovery-file attack), creating the
// file with 0666 less the umask (others can read unsaved work), writing
// in place instead of through a renamed temporary file (a crash leaves
// half a file; the old inode is reused), leaving a temporary file behind
// on refusal.
func TestWritePrivate(t *testing.T) {
	old := syscall.Umask(0o022) // the usual umask: 0666 would give 0644
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir, path string)
		refused bool
	}{
		{"new file", func(*testing.T, string, string) {}, false},
		{"existing file, readable by all", func(t *testing.T, _, path string) { writeFile(t, path, "old", 0o644) }, false},
		{"symbolic link to another file", func(t *testing.T, dir, path string) {
			writeFile(t, filepath.Join(dir, "victim"), "keep me", 0o644)
			if err := os.Symlink("victim", path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"dangling symbolic link", func(t *testing.T, dir, path string) {
			if err := os.Symlink(filepath.Join(dir, "created-through-link"), path); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"folder", func(t *testing.T, _, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"FIFO", func(t *testing.T, _, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "recovery-1.toml")
			tc.setup(t, dir, path)
			before, _ := os.Lstat(path)
			err := WritePrivate(path, []byte("unsaved edits"))
			noTemps(t, dir)
			if tc.refused {
				if !errors.Is(err, ErrRefused) {
					t.Fatalf("err = %v, want ErrRefused", err)
				}
				after, _ := os.Lstat(path)
				if after.Mode() != before.Mode() {
					t.Errorf("refused target changed: %v -> %v", before.Mode(), after.Mode())
				}
				if b, err := os.ReadFile(filepath.Join(dir, "victim")); err == nil && string(b) != "keep me" {
					t.Errorf("link target overwritten: %q", b)
				}
				if _, err := os.Lstat(filepath.Join(dir, "created-through-link")); err == nil {
					t.Error("a file was created through a dangling link")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			info, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode() != 0o600 {
				t.Errorf("mode %v, want -rw-------", info.Mode())
			}
			if got := readString(t, path); got != "unsaved edits" {
				t.Errorf("contents %q", got)
			}
			if before != nil && os.SameFile(before, info) {
				t.Error("written in place: the old inode was reused, not replaced by a rename")
			}
		})
	}
}
