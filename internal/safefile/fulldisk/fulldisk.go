// Package fulldisk gives tests a real filesystem that runs out of space:
// a small tmpfs mounted on a temporary folder. Mounting needs root, which
// is how CI runs; as another user it says so and reports false, and the
// caller checks the same path with a writer that fails midway.
package fulldisk

import (
	"os"
	"os/exec"
	"testing"
)

// Mount mounts a tmpfs of size (e.g. "16k") on a new temporary folder,
// unmounted when the test ends, and returns the folder; false when the
// process is not root.
func Mount(t testing.TB, size string) (string, bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Log("not root: cannot mount a tmpfs for a full-disk check")
		return "", false
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a %s tmpfs: %v: %s", size, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir, true
}
