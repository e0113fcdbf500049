package cli

import (
	"math"
	"runtime/debug"
	"strings"
	"testing"
	"testing/fstest"

	"fabricplan/internal/memguard"
)

// A command too large for the memory the process may take stops before
// any work with exit 1 and a message naming its need and the bound;
// within the bound it runs. Under a 128 MiB cgroup with 32 MiB used, a
// 2,000,000-GPU cable map (57 bytes a GPU: 114,000,000 bytes, about
// 108.7 MiB) is refused, and so are a 3,000,000-GPU plan (40 bytes a
// GPU: 120,000,000 bytes, 114.4 MiB) and a sweep whose largest size is 3,000,000;
// 1,024 GPUs (about 0.1 MiB) run. Catches: the check skipped on one path (sweep's sizes,
// a scenario file's GPU count); a refusal that exits 2 (bad input) or
// writes a partial output first.
func TestMemoryRefusedBeforeWork(t *testing.T) {
	defer func(h func() memguard.System) { hostMemory = h }(hostMemory)
	hostMemory = func() memguard.System {
		return memguard.System{FS: fstest.MapFS{
			"sys/fs/cgroup/memory.max":     {Data: []byte("134217728")},
			"sys/fs/cgroup/memory.current": {Data: []byte("33554432")},
		}, AddressLimit: math.MaxUint64}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cables", "--csv", "--gpus", "2000000", "--nic-gbps", "800", "--switch", "q3400", "--planes", "2"}, ExitFailure, "fabricplan cables for 2,000,000 GPUs needs about 108.7 MiB of memory and 96 MiB is free (cgroup limit 128 MiB, 32 MiB in use)"},
		{[]string{"sweep", "--gpus", "1024,3000000", "--nic-gbps", "800", "--switch", "q3400", "--planes", "2"}, ExitFailure, "fabricplan sweep for 3,000,000 GPUs needs about"},
		{[]string{"plan", "../data/scenarios/ib-xdr-100k.toml", "--gpus", "3000000", "--planes", "2"}, ExitFailure, "fabricplan plan for 3,000,000 GPUs needs about 114.4 MiB"},
		{[]string{"cables", "--csv", "--gpus", "1024"}, ExitOK, ""},
	} {
		out, errOut, code := runArgs(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
		if tc.code != ExitOK && out != "" {
			t.Errorf("%v: refused but wrote %d bytes first", tc.args, len(out))
		}
	}
}

// A command that passes its memory check asks the collector to keep the
// Go heap under the larger of heapFloor and what it needs, unless the
// user set GOMEMLIMIT. Expected: report at 1,000,000 GPUs needs 77 MB,
// under the 80 MiB floor; at 10,000,000 GPUs 770 MB (77 bytes a GPU).
// Mutations caught: no limit set (the 1M report peaked at 161-188 MiB),
// the floor alone at every size (a 10M report's collector would run
// without pause), GOMEMLIMIT overridden.
func TestBudgetMemoryLimitsTheHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func(h func() memguard.System) { hostMemory = h }(hostMemory)
	hostMemory = func() memguard.System {
		return memguard.System{FS: fstest.MapFS{
			"sys/fs/cgroup/memory.max":     {Data: []byte("68719476736")},
			"sys/fs/cgroup/memory.current": {Data: []byte("33554432")},
		}, AddressLimit: math.MaxUint64}
	}
	for _, tc := range []struct {
		env  string
		gpus int
		want int64
	}{
		{"", 1_000_000, 80 << 20},
		{"", 10_000_000, 770_000_000},
		{"", 1_024, 80 << 20},
		{"200MiB", 10_000_000, 12345},
	} {
		t.Setenv("GOMEMLIMIT", tc.env)
		debug.SetMemoryLimit(12345)
		if err := budgetMemory("report", tc.gpus); err != nil {
			t.Fatalf("%d GPUs: %v", tc.gpus, err)
		}
		if got := debug.SetMemoryLimit(-1); got != tc.want {
			t.Errorf("GOMEMLIMIT=%q, %d GPUs: heap limit %d, want %d", tc.env, tc.gpus, got, tc.want)
		}
	}
}
