package safefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"fabricplan/internal/safefile/fulldisk"
)

const nobody = 65534

func writeFile(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // WriteFile applies the umask
		t.Fatal(err)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails if a temporary file was left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".fp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// Mutation caught: writing in place with os.Create (truncate first) loses
// the old contents when the producer fails midway.
func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chart.png")
	writeFile(t, path, "old contents", 0o644)
	boom := errors.New("disk full")
	err := WriteWith(path, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap %v", err, boom)
	}
	if got := readString(t, path); got != "old contents" {
		t.Errorf("file = %q after a failed write, want the old contents", got)
	}
	noTemps(t, dir)
}

// Mutations caught: a fixed 0644 (private plans become world-readable), a
// new file that ignores the umask, os.CreateTemp's 0600 left on new files.
func TestWriteModes(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private.toml")
	writeFile(t, private, "a", 0o600)
	if err := Write(private, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, private); m != 0o600 {
		t.Errorf("0600 file became %o", m)
	}
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	fresh := filepath.Join(dir, "new.toml")
	if err := Write(fresh, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, fresh); m != 0o640 {
		t.Errorf("new file under umask 027 has mode %o, want 640", m)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

// Mutation caught: renaming over the link replaces it with a regular file.
func TestWriteFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "plans", "real.toml")
	os.Mkdir(filepath.Dir(real), 0o755)
	writeFile(t, real, "old", 0o644)
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink("plans/real.toml", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Error("the symbolic link was replaced by a regular file")
	}
	if got := readString(t, real); got != "new" {
		t.Errorf("link target = %q, want new", got)
	}
	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling.toml")
	os.Symlink("made.toml", dangling)
	if err := Write(dangling, []byte("made")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "made.toml")); got != "made" {
		t.Errorf("dangling link target = %q", got)
	}
	// A loop is refused, not followed forever.
	os.Symlink("loop-b", filepath.Join(dir, "loop-a"))
	os.Symlink("loop-a", filepath.Join(dir, "loop-b"))
	if err := Write(filepath.Join(dir, "loop-a"), []byte("x")); !errors.Is(err, ErrRefused) {
		t.Errorf("symlink loop: err = %v, want ErrRefused", err)
	}
}

// Mutation caught: rename breaks the hard link (the other name keeps the
// old contents).
func TestWriteKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.toml"), filepath.Join(dir, "b.toml")
	writeFile(t, a, "old and longer", 0o640)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if err := Write(a, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, b); got != "new" {
		t.Errorf("other hard link = %q, want new", got)
	}
	if got := readString(t, a); got != "new" {
		t.Errorf("file = %q, want new", got)
	}
	noTemps(t, dir)
	// A failing producer leaves both names as they were.
	Write(a, []byte("kept"))
	WriteWith(a, func(w io.Writer) error { return errors.New("no") })
	if got := readString(t, b); got != "kept" {
		t.Errorf("after a failed write the link reads %q", got)
	}
}

// Mutations caught: overwriting read-only files (root may, so the check
// must be on the mode), replacing a folder or FIFO.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.toml")
	writeFile(t, ro, "keep", 0o444)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "folder")
	os.Mkdir(sub, 0o755)
	for _, tc := range []struct{ name, path, want string }{
		{"read-only", ro, "read-only"},
		{"fifo", fifo, "FIFO"},
		{"folder", sub, "folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(tc.path, []byte("x"))
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a refusal naming %q", err, tc.want)
			}
		})
	}
	if got := readString(t, ro); got != "keep" {
		t.Errorf("read-only file = %q", got)
	}
	noTemps(t, dir)
}

// Mutation caught: a temporary name built from the target's name (".name.tmp-123456")
// passes NAME_MAX for a valid 240-character name.
func TestWriteLongName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("n", 240)+".toml")
	if err := Write(path, []byte("ok")); err != nil {
		t.Fatalf("240-character name: %v", err)
	}
}

// Mutation caught: the owner of an existing file is lost (the new file is
// root's). Runs as root, which is how CI runs.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Log("not root: the owner can only be kept when it is the writer; checking that")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "theirs.toml")
	writeFile(t, path, "a", 0o664)
	uid := os.Geteuid()
	if uid == 0 {
		uid = nobody
		if err := os.Chown(path, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(path, []byte("b")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if got := int(info.Sys().(*syscall.Stat_t).Uid); got != uid {
		t.Errorf("owner = %d, want %d", got, uid)
	}
}

// Mutation caught: a full disk reported as success, or the old file
// deleted or truncated. A real full filesystem: a 64 KiB tmpfs. Mounting
// needs root; without it the same path is checked with a producer that
// fails midway (TestWriteFailureKeepsOldFile).
func TestWriteFullDisk(t *testing.T) {
	dir, ok := fulldisk.Mount(t, "64k") // else TestWriteFailureKeepsOldFile covers the path
	if !ok {
		return
	}
	path := filepath.Join(dir, "chart.png")
	writeFile(t, path, "old png", 0o644)
	err := Write(path, bytes.Repeat([]byte("x"), 256<<10))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want ENOSPC", err)
	}
	if got := readString(t, path); got != "old png" {
		t.Errorf("file = %q after a full disk, want the old contents", got)
	}
	noTemps(t, dir)
}

// The same promises hold for a user who is not root: a folder they may
// not write fails cleanly, and a file they may not write is refused. Runs
// this test binary again as user nobody (needs root to switch; as a
// normal user the checks run as that user directly).
func TestWriteAsNonRoot(t *testing.T) {
	if os.Getenv("SAFEFILE_AS_NOBODY") == "1" {
		nonRootChecks(t, os.Getenv("SAFEFILE_DIR"))
		return
	}
	// Not t.TempDir: its parent folder is 0700, closed to other users.
	dir, err := os.MkdirTemp("", "safefile-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	if os.Geteuid() != 0 {
		prepareNonRoot(t, dir, os.Geteuid())
		nonRootChecks(t, dir)
		return
	}
	prepareNonRoot(t, dir, nobody)
	// Copy the test binary where nobody can run it.
	bin := filepath.Join(dir, "safefile.test")
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err = os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestWriteAsNonRoot$", "-test.v")
	cmd.Env = append(os.Environ(), "SAFEFILE_AS_NOBODY=1", "SAFEFILE_DIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestWriteAsNonRoot") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

// prepareNonRoot makes a locked folder with a file in it, and a writable
// folder with a file owned by someone else (root when run as root).
func prepareNonRoot(t *testing.T, dir string, user int) {
	locked := filepath.Join(dir, "locked")
	os.Mkdir(locked, 0o755)
	writeFile(t, filepath.Join(locked, "plan.toml"), "locked plan", 0o666)
	os.Chmod(locked, 0o555)
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o777)
	os.Chmod(open, 0o777)
	writeFile(t, filepath.Join(open, "roots.toml"), "root's plan", 0o644)
	if user != nobody {
		return
	}
	os.Chown(locked, 0, 0)
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
}

func nonRootChecks(t *testing.T, dir string) {
	plan := filepath.Join(dir, "locked", "plan.toml")
	if err := Write(plan, []byte("new")); err == nil {
		t.Error("writing into a folder without write permission succeeded")
	}
	if got := readString(t, plan); got != "locked plan" {
		t.Errorf("locked folder's file = %q", got)
	}
	noTemps(t, filepath.Join(dir, "locked"))
	if os.Geteuid() == nobody {
		roots := filepath.Join(dir, "open", "roots.toml")
		if err := Write(roots, []byte("mine")); !errors.Is(err, ErrRefused) {
			t.Errorf("writing another user's 0644 file: err = %v, want ErrRefused", err)
		}
		if got := readString(t, roots); got != "root's plan" {
			t.Errorf("other user's file = %q", got)
		}
	}
}

// Mutations caught: os.ReadFile on /dev/zero (unbounded memory), opening a
// FIFO without O_NONBLOCK (blocks forever), no size limit.
func TestReadRefusesUnbounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	writeFile(t, big, strings.Repeat("#", 2048), 0o644)
	for _, tc := range []struct{ name, path, want string }{
		{"dev-zero", "/dev/zero", "device"},
		{"dev-urandom", "/dev/urandom", "device"},
		{"fifo", fifo, "FIFO"},
		{"folder", dir, "folder"},
		{"too-large", big, "1 KiB limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			done := make(chan error, 1)
			go func() {
				_, err := Read(tc.path, 1024)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want a refusal naming %q", err, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Read blocked for 5 s")
			}
			runtime.ReadMemStats(&ms)
			if grew := ms.TotalAlloc - before; grew > 1<<20 {
				t.Errorf("Read allocated %d bytes", grew)
			}
		})
	}
	ok := filepath.Join(dir, "ok.toml")
	writeFile(t, ok, "schema = 1\n", 0o644)
	if b, err := Read(ok, 1024); err != nil || string(b) != "schema = 1\n" {
		t.Errorf("Read(ok) = %q, %v", b, err)
	}
	// /proc files report size 0 and are read up to the limit.
	if _, err := Read("/proc/self/status", 1<<16); err != nil {
		t.Errorf("Read(/proc/self/status): %v", err)
	}
}

func BenchmarkWrite64KiB(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "chart.png")
	data := bytes.Repeat([]byte("x"), 64<<10)
	for b.Loop() {
		if err := Write(path, data); err != nil {
			b.Fatal(err)
		}
	}
}
