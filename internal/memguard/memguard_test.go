package memguard

import (
	"errors"
	"math"
	"strings"
	"testing"
	"testing/fstest"
)

// meminfo is a /proc/meminfo with avail kB available.
func meminfo(avail string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("MemTotal:       24576000 kB\nMemFree:         1000 kB\nMemAvailable:   " + avail + " kB\n")}
}

// TestFree reads the tightest bound from each source by hand: cgroup v2
// (512 MiB limit, 312 MiB used: 200 MiB), v1 (1 GiB, 24 MiB used), v2
// "max" and v1's huge "no limit" (no bound there), MemAvailable (kB),
// and the address-space limit (2 GiB less 1 GiB mapped less 64 MiB of
// arena slack, over 1.25: 768 MiB); the process's own cgroup found from
// /proc/self/cgroup, its page cache not counted as use, and a tighter
// parent taking over. Catches: the limit taken without its use; "max"
// or v1's 2^63 read as a limit; kB taken as bytes; the address space
// compared with resident bytes one for one; only the mount's root read
// (no bound found in a container); reclaimable cache counted as used.
func TestFree(t *testing.T) {
	const MiB = 1 << 20
	for _, tc := range []struct {
		name     string
		files    fstest.MapFS
		as       uint64
		want     uint64
		fromPart string
	}{
		{"cgroup v2", fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("536870912\n")}, "sys/fs/cgroup/memory.current": {Data: []byte("327155712\n")},
			"proc/meminfo": meminfo("20000000")}, math.MaxUint64, 200 * MiB, "cgroup limit 512 MiB, 312 MiB in use"},
		{"cgroup v2 without a limit", fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("max\n")}, "sys/fs/cgroup/memory.current": {Data: []byte("1000\n")},
			"proc/meminfo": meminfo("1048576")}, math.MaxUint64, 1024 * MiB, "available"},
		{"cgroup v1", fstest.MapFS{"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("1073741824")}, "sys/fs/cgroup/memory/memory.usage_in_bytes": {Data: []byte("25165824")},
			"proc/meminfo": meminfo("20000000")}, math.MaxUint64, 1000 * MiB, "cgroup limit 1 GiB, 24 MiB in use"},
		{"cgroup v1 without a limit", fstest.MapFS{"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712")}, "sys/fs/cgroup/memory/memory.usage_in_bytes": {Data: []byte("1")},
			"proc/meminfo": meminfo("524288")}, math.MaxUint64, 512 * MiB, "available"},
		{"address space", fstest.MapFS{"proc/meminfo": meminfo("20000000"), "proc/self/status": {Data: []byte("Name:\tfabricplan\nVmSize:\t 1048576 kB\n")}},
			2048 * MiB, 768 * MiB, "address-space limit 2 GiB, 1 GiB mapped"},
		// The process's own cgroup, not the mount's root: this machine's
		// layout (v1, memory:/process_api/<id>, root without a limit).
		{"cgroup v1 of the process", fstest.MapFS{"proc/self/cgroup": {Data: []byte("4:memory:/process_api/95b9\n0::/\n")},
			"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712")}, "sys/fs/cgroup/memory/memory.usage_in_bytes": {Data: []byte("5000000000")},
			"sys/fs/cgroup/memory/process_api/95b9/memory.limit_in_bytes": {Data: []byte("2147483648")},
			"sys/fs/cgroup/memory/process_api/95b9/memory.usage_in_bytes": {Data: []byte("1073741824")},
			"proc/meminfo": meminfo("20000000")}, math.MaxUint64, 1024 * MiB, "cgroup limit 2 GiB, 1 GiB in use"},
		// v2: use less the inactive page cache (1 GiB limit, 900 MiB
		// current of which 500 MiB inactive file: 400 MiB used, 624 free);
		// a tighter parent wins (512 MiB limit, 400 MiB used: 112 MiB).
		{"cgroup v2, cache not counted", fstest.MapFS{"proc/self/cgroup": {Data: []byte("0::/user.slice/app\n")},
			"sys/fs/cgroup/user.slice/app/memory.max": {Data: []byte("1073741824")}, "sys/fs/cgroup/user.slice/app/memory.current": {Data: []byte("943718400")},
			"sys/fs/cgroup/user.slice/app/memory.stat": {Data: []byte("anon 1\ninactive_file 524288000\n")},
			"proc/meminfo": meminfo("20000000")}, math.MaxUint64, 624 * MiB, "cgroup limit 1 GiB, 400 MiB in use"},
		{"cgroup v2, a tighter parent", fstest.MapFS{"proc/self/cgroup": {Data: []byte("0::/user.slice/app\n")},
			"sys/fs/cgroup/user.slice/app/memory.max": {Data: []byte("1073741824")}, "sys/fs/cgroup/user.slice/app/memory.current": {Data: []byte("419430400")},
			"sys/fs/cgroup/user.slice/memory.max": {Data: []byte("536870912")}, "sys/fs/cgroup/user.slice/memory.current": {Data: []byte("419430400")},
			"proc/meminfo": meminfo("20000000")}, math.MaxUint64, 112 * MiB, "cgroup limit 512 MiB, 400 MiB in use"},
		{"nothing known", fstest.MapFS{}, math.MaxUint64, math.MaxUint64, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := System{FS: tc.files, AddressLimit: tc.as}.Free()
			if b.Bytes != tc.want || !strings.Contains(b.From, tc.fromPart) {
				t.Errorf("free %d (%s) from %q, want %d (%s) from %q", b.Bytes, IEC(b.Bytes), b.From, tc.want, IEC(tc.want), tc.fromPart)
			}
		})
	}
}

// A need past the budget is refused with both figures named; one within
// it passes. Catches: the comparison turned round; a refusal that does
// not say what bounds the run.
func TestCheck(t *testing.T) {
	s := System{FS: fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("134217728")}, "sys/fs/cgroup/memory.current": {Data: []byte("33554432")}}, AddressLimit: math.MaxUint64}
	if err := s.Check("cables for 1,000 GPUs", 50<<20); err != nil {
		t.Errorf("50 MiB in 96 MiB free: %v", err)
	}
	err := s.Check("cables for 1,000,000 GPUs", 265<<20)
	var tl *TooLarge
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "needs about 265 MiB") || !strings.Contains(err.Error(), "96 MiB is free (cgroup limit 128 MiB, 32 MiB in use)") {
		t.Errorf("265 MiB in 96 MiB free: %v", err)
	}
}

// The host's own figures are read without error and bound something on
// a Linux machine (MemAvailable at least). Catches: a path read from the
// wrong root.
func TestHost(t *testing.T) {
	if b := Host().Free(); b.Bytes == math.MaxUint64 {
		t.Errorf("no bound found on this machine: %+v", b)
	}
}

// TestIEC by hand. Catches: 1000 taken for 1024; a trailing ".0".
func TestIEC(t *testing.T) {
	for n, want := range map[uint64]string{512: "512 B", 1536: "1.5 KiB", 1 << 20: "1 MiB", 1610612736: "1.5 GiB"} {
		if got := IEC(n); got != want {
			t.Errorf("IEC(%d) = %q, want %q", n, got, want)
		}
	}
}
