package safefile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestWriteResolvesThroughRealFolders: ".." after a symbolic link to a
// folder climbs out of the folder the link points to, in a relative link
// and in the path typed. Mutation caught: the link joined to the link's
// own folder as text (filepath.Join drops "linkdir/.." without following
// it), which replaced an unrelated ./target.csv and left the link's real
// target stale (issue 26).
func TestWriteResolvesThroughRealFolders(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string // written, relative to the test folder
		link string // out.csv inside real/sub is a link to this ("" none)
	}{
		{name: "relative link with ..", path: "linkdir/out.csv", link: "../target.csv"},
		{name: "typed path with ..", path: "linkdir/../target.csv"},
		{name: "link with .. to a link", path: "linkdir/out.csv", link: "../hop.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// dir/real/sub holds the files; dir/linkdir -> real/sub.
			sub := filepath.Join(dir, "real", "sub")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "linkdir")); err != nil {
				t.Fatal(err)
			}
			realTarget := filepath.Join(dir, "real", "target.csv")
			decoy := filepath.Join(dir, "target.csv") // what text-joining hits
			writeFile(t, realTarget, "real old", 0o644)
			writeFile(t, decoy, "decoy", 0o644)
			if tc.link != "" {
				if err := os.Symlink(tc.link, filepath.Join(sub, "out.csv")); err != nil {
					t.Fatal(err)
				}
			}
			if tc.link == "../hop.csv" {
				if err := os.Symlink("target.csv", filepath.Join(dir, "real", "hop.csv")); err != nil {
					t.Fatal(err)
				}
			}
			if err := Write(dir+string(filepath.Separator)+tc.path, []byte("new")); err != nil { // not Join: it would clean ".." as text
				t.Fatal(err)
			}
			if got := readString(t, realTarget); got != "new" {
				t.Errorf("real target = %q, want new", got)
			}
			if got := readString(t, decoy); got != "decoy" {
				t.Errorf("unrelated ./target.csv replaced: %q", got)
			}
			noTemps(t, sub)
			noTemps(t, filepath.Join(dir, "real"))
		})
	}
}

// TestWriteContextCancelled: a cancelled write (a signal) stops the
// producer at its next write, removes the temporary file and leaves the
// target as it was. Mutations caught: the context not reaching the
// producer's writer (the whole map is produced and renamed into place),
// the temporary file left behind.
func TestWriteContextCancelled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cables.csv")
	writeFile(t, path, "old", 0o644)
	ctx, cancel := context.WithCancelCause(context.Background())
	signal := errors.New("interrupt signal received")
	rows := 0
	err := WriteContext(ctx, path, func(w io.Writer) error {
		for range 1_000_000 {
			if rows == 10 {
				cancel(signal)
			}
			if _, err := w.Write([]byte("a,b,c\n")); err != nil {
				return err
			}
			rows++
		}
		return nil
	})
	if !errors.Is(err, signal) || rows != 10 {
		t.Fatalf("err %v after %d rows, want the signal after 10", err, rows)
	}
	if got := readString(t, path); got != "old" {
		t.Errorf("target = %q, want old", got)
	}
	noTemps(t, dir)
	// Cancelled after the last write but before the rename: still nothing.
	ctx, cancel = context.WithCancelCause(context.Background())
	err = WriteContext(ctx, path, func(w io.Writer) error {
		_, err := w.Write([]byte("new"))
		cancel(signal)
		return err
	})
	if !errors.Is(err, signal) || readString(t, path) != "old" {
		t.Errorf("cancelled before rename: %v, file %q", err, readString(t, path))
	}
	noTemps(t, dir)
}

// TestConcurrentHardLinkRewrites: writers racing on a hard-linked file
// take turns, so it always holds one writer's whole output. Mutation
// caught: the in-place rewrite without the lock (issue 26: 2 of 6 rounds
// ended as a mix of writers).
func TestConcurrentHardLinkRewrites(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	writeFile(t, a, "start", 0o644)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	const writers = 12
	outputs := make([][]byte, writers)
	for i := range outputs {
		// Different lengths and bytes: a mix is always visible.
		outputs[i] = bytes.Repeat([]byte{byte('a' + i)}, 256<<10+i*4099)
	}
	for round := range 4 {
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := WriteWith(a, func(w io.Writer) error {
					for off := 0; off < len(outputs[i]); off += 4096 {
						if _, err := w.Write(outputs[i][off:min(off+4096, len(outputs[i]))]); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		got, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		whole := false
		for _, o := range outputs {
			whole = whole || bytes.Equal(got, o)
		}
		if !whole {
			t.Fatalf("round %d: the file (%d bytes) is no writer's output", round, len(got))
		}
		noTemps(t, dir)
	}
}
