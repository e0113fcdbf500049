package cli

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"fabricplan/internal/memguard"
)

// A command too large for the memory the process may take stops before
// any work with exit 1 and a message naming its need and the bound;
// within the bound it runs. Under a 128 MiB cgroup with 32 MiB used, a
// 2,000,000-GPU cable map (60 bytes a GPU: 120,000,000 bytes, about
// 114.4 MiB) is refused, and so are a 3,000,000-GPU plan (40 bytes a
// GPU: also 114.4 MiB) and a sweep whose largest size is 3,000,000;
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
		{[]string{"cables", "--csv", "--gpus", "2000000", "--nic-gbps", "800", "--switch", "q3400", "--planes", "2"}, ExitFailure, "fabricplan cables for 2,000,000 GPUs needs about 114.4 MiB of memory and 96 MiB is free (cgroup limit 128 MiB, 32 MiB in use)"},
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
