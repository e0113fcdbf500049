package safefile

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRemoveStale writes beside leftovers of every kind. Mutations
// caught: stale temporary files left for ever (issue #48: a 50 MB file
// after a SIGKILLed export), a file another writer holds locked removed
// (its rename then fails), a recent unlocked one removed (a writer of a
// version without the lock), a backup removed (it may hold the only copy
// of a file's old contents), names not ours removed, a link followed.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	old := processStart.Add(-time.Minute)
	leftover := func(name string, mtime time.Time) string {
		path := filepath.Join(dir, name)
		writeFile(t, path, "leftover", 0o644)
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale := leftover(".fp-0badc0de.tmp", old)
	staleLong := leftover(".fp-00000001.tmp", time.Now().Add(-2*staleAge))
	locked := leftover(".fp-00000002.tmp", old)
	recent := leftover(".fp-00000003.tmp", time.Now())
	backup := leftover(".fp-00000004.bak", old)
	notOurs := []string{leftover(".fp-nothex00.tmp", old), leftover("notes.tmp", old), leftover(".fp-00000005.tmp.keep", old), leftover(".fp-000000006.tmp", old)}
	victim := leftover("victim", old)
	link := filepath.Join(dir, ".fp-00000007.tmp")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	// Another writer's lock: flock locks belong to an open file, so one
	// taken here conflicts with removeStale's own open.
	lf, err := os.Open(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	if err := Write(filepath.Join(dir, "export.csv"), []byte("a,b\n")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{stale, staleLong} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s: stale, not removed (%v)", filepath.Base(p), err)
		}
	}
	for _, p := range append([]string{locked, recent, backup, victim, link}, notOurs...) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: removed, want it kept (%v)", filepath.Base(p), err)
		}
	}
}

// TestStaleAfterKill kills a writer mid-export (SIGKILL: no cleanup
// runs) and saves again. Mutations caught: the lock not held while
// writing (the still-running writer's file is removed: checked before
// the kill), no removal at the next write.
func TestStaleAfterKill(t *testing.T) {
	if os.Getenv("SAFEFILE_SLOW_WRITER") != "" {
		target := os.Getenv("SAFEFILE_SLOW_WRITER")
		_ = WriteWith(target, func(w io.Writer) error {
			w.Write(bytes.Repeat([]byte("x"), 1<<20))
			os.Stdout.WriteString("writing\n")
			time.Sleep(time.Minute) // killed long before
			return nil
		})
		return
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "cables.csv")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStaleAfterKill$")
	cmd.Env = append(os.Environ(), "SAFEFILE_SLOW_WRITER="+target)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, len("writing\n"))
	if _, err := io.ReadFull(out, buf); err != nil {
		t.Fatal(err)
	}
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".fp-*.tmp"))
		return m
	}
	if len(temps()) != 1 {
		t.Fatalf("temporary files while writing: %v", temps())
	}
	// While the writer runs, its file is locked: a save here keeps it,
	// even with its time set back past this process's start.
	back := processStart.Add(-time.Minute)
	os.Chtimes(temps()[0], back, back)
	if err := Write(target, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if len(temps()) != 1 {
		t.Fatal("a running writer's temporary file was removed")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(temps()) != 1 {
		t.Fatalf("after the kill: %v, want the leftover", temps())
	}
	if err := Write(target, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if len(temps()) != 0 {
		t.Errorf("left after the next save: %v", temps())
	}
	if got := readString(t, target); got != "second" {
		t.Errorf("target %q", got)
	}
}
