package safefile

import (
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"
)

// staleName matches the temporary files of a write (createTemp with
// tempSuffix) and nothing else: not a backup (backupSuffix), which may
// hold the only copy of a file's old contents. Compiled on first use,
// so a start that writes no file does not pay for it.
var staleName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.fp-[0-9a-f]{8}\.tmp$`) })

// processStart is when this process started, near enough: a temporary
// file last written before it was written by another process.
var processStart = time.Now()

// staleAge is how long a temporary file nobody holds a lock on may go
// unwritten before any writer removes it, even one that started before it
// was last written: a write streams without pausing, so an hour without
// a byte is a writer that is gone (a version without the lock, killed).
const staleAge = time.Hour

// removeStale removes from dir the temporary files of writes that ended
// without cleaning up (a SIGKILL, a power cut): our own files only, by
// name (staleName), and only when no process holds their lock (createTemp
// keeps one until the file is renamed) and they were last written before
// this process started or more than staleAge ago. It runs at the start of
// every write, so the next save into the folder cleans up after a killed
// one; what it cannot remove it leaves.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !staleName().MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if m := info.ModTime(); m.After(processStart) && time.Since(m) < staleAge {
			continue
		}
		removeUnlocked(filepath.Join(dir, e.Name()))
	}
}

// removeUnlocked removes the file at path if it can take its lock without
// waiting (no writer holds it) and the name still names the file locked.
func removeUnlocked(path string) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return
	}
	held, err := f.Stat()
	if err != nil {
		return
	}
	if now, err := os.Lstat(path); err == nil && os.SameFile(held, now) {
		os.Remove(path)
	}
}
