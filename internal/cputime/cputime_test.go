package cputime

import (
	"runtime"
	"testing"
)

// TestUsedGrows: spinning a core for a while adds CPU time. Mutations
// caught: the user or the system time read alone as zero (a constant),
// the other process's usage (RUSAGE_CHILDREN stays 0 here).
func TestUsedGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		return // Used is documented as 0 there
	}
	start := Used()
	x := 0
	for i := 0; Used()-start < 2e6 && i < 1e9; i++ { // until 2 ms of CPU
		x += i
	}
	if Used()-start < 2e6 {
		t.Errorf("CPU time grew %v after a busy loop (x %d), want at least 2ms", Used()-start, x)
	}
}
