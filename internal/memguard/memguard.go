// Package memguard says, before a command starts, whether the memory it
// will need is there: it reads what the machine lets this process have
// (the cgroup's limit less its use, the memory the kernel calls
// available, the address-space limit less what the process has mapped)
// and compares it with an estimate, so that a run too large for the
// machine stops with a message naming both figures instead of dying in
// the middle with the runtime's "out of memory".
package memguard

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Budget is the memory a process may still take, and what sets it.
type Budget struct {
	Bytes uint64 // math.MaxUint64 when nothing bounds it
	// From names the bound that set Bytes: "cgroup limit 512 MiB, 300 MiB
	// in use", "available memory", "address-space limit 1.5 GiB".
	From string
}

// System reads the bounds of a process of this machine: its files under
// /sys/fs/cgroup and /proc, and its address-space limit.
type System struct {
	// FS reads the files: the machine's root (os.DirFS("/")) or, in
	// tests, a fake.
	FS fs.FS
	// AddressLimit is the RLIMIT_AS soft limit (math.MaxUint64: none).
	AddressLimit uint64
}

// Host is the running process's System.
func Host() System {
	s := System{FS: os.DirFS("/"), AddressLimit: math.MaxUint64}
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err == nil && r.Cur != math.MaxUint64 { // RLIM_INFINITY
		s.AddressLimit = r.Cur
	}
	return s
}

// addressGrowth is how much address space the Go runtime maps for each
// byte a run keeps resident, and addressSlack what it maps besides (heap
// arenas are reserved 64 MiB at a time): measured on fabricplan's cables
// and report at 1M GPUs (2026-11-28), whose mapped size grew by about
// 1.2x their resident size.
const (
	addressGrowth = 1.25
	addressSlack  = 64 << 20
)

// Free is the tightest bound on the resident memory the process may
// still take.
func (s System) Free() Budget {
	b := Budget{Bytes: math.MaxUint64}
	tighten := func(bytes uint64, from string) {
		if bytes < b.Bytes {
			b = Budget{bytes, from}
		}
	}
	if limit, used, ok := s.cgroup(); ok {
		tighten(sub(limit, used), fmt.Sprintf("cgroup limit %s, %s in use", IEC(limit), IEC(used)))
	}
	if avail, ok := s.meminfo("MemAvailable"); ok {
		tighten(avail, "memory the system has available")
	}
	if s.AddressLimit != math.MaxUint64 {
		if mapped, ok := s.status("VmSize"); ok {
			// The address space bounds resident growth through the
			// runtime's mapping of it.
			room := sub(s.AddressLimit, mapped+addressSlack)
			tighten(uint64(float64(room)/addressGrowth), fmt.Sprintf("address-space limit %s, %s mapped", IEC(s.AddressLimit), IEC(mapped)))
		}
	}
	return b
}

// cgroup reads the tightest cgroup memory bound on the process: for each
// cgroup from the process's own (/proc/self/cgroup) up to the root, v2's
// memory.max less memory.current, or v1's limit_in_bytes less
// usage_in_bytes; the use less the page cache the kernel would reclaim
// first (inactive_file in memory.stat), so a build's cache does not read
// as memory taken. ok is false without a limit anywhere.
func (s System) cgroup() (limit, used uint64, ok bool) {
	best := uint64(math.MaxUint64)
	for _, g := range s.cgroupDirs() {
		l, lok := s.number(g.dir + "/" + g.limit)
		u, uok := s.number(g.dir + "/" + g.usage)
		if !lok || !uok || l >= 1<<60 { // v1 writes a huge number for "no limit"
			continue
		}
		if cache, ok := s.stat(g.dir+"/memory.stat", g.inactive); ok {
			u = sub(u, cache)
		}
		if room := sub(l, u); !ok || room < best {
			limit, used, ok, best = l, u, true, room
		}
	}
	return limit, used, ok
}

// cgroupDir is one cgroup's folder and the names of its files.
type cgroupDir struct{ dir, limit, usage, inactive string }

// cgroupDirs lists the process's memory cgroups, its own first, then
// each parent to the mount's root: v2 from the "0::" line of
// /proc/self/cgroup, v1 from the memory controller's line. A path that
// is not under the mount (a container's own namespace) is read at the
// mount's root.
func (s System) cgroupDirs() []cgroupDir {
	v2 := cgroupDir{"sys/fs/cgroup", "memory.max", "memory.current", "inactive_file"}
	v1 := cgroupDir{"sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"}
	paths := map[string]string{}
	if b, err := fs.ReadFile(s.FS, "proc/self/cgroup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) != 3 {
				continue
			}
			switch {
			case parts[0] == "0" && parts[1] == "":
				paths["v2"] = parts[2]
			case slices.Contains(strings.Split(parts[1], ","), "memory"):
				paths["v1"] = parts[2]
			}
		}
	}
	var out []cgroupDir
	for _, base := range []struct {
		g    cgroupDir
		path string
	}{{v2, paths["v2"]}, {v1, paths["v1"]}} {
		p := strings.Trim(base.path, "/")
		for {
			g := base.g
			if p != "" {
				g.dir += "/" + p
			}
			if _, err := fs.Stat(s.FS, g.dir); err == nil {
				out = append(out, g)
			}
			if p == "" {
				break
			}
			if i := strings.LastIndex(p, "/"); i >= 0 {
				p = p[:i]
			} else {
				p = ""
			}
		}
	}
	return out
}

// stat reads a "key N" line of a cgroup's memory.stat, in bytes.
func (s System) stat(name, key string) (uint64, bool) {
	b, err := fs.ReadFile(s.FS, name)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == key {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// number reads a file holding one integer ("max" or a missing file:
// not ok).
func (s System) number(name string) (uint64, bool) {
	b, err := fs.ReadFile(s.FS, name)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
	return v, err == nil
}

// meminfo reads a "Key: N kB" line of /proc/meminfo, in bytes.
func (s System) meminfo(key string) (uint64, bool) { return s.kB("proc/meminfo", key) }

// status reads a "Key: N kB" line of /proc/self/status, in bytes.
func (s System) status(key string) (uint64, bool) { return s.kB("proc/self/status", key) }

// kB reads a "Key:   N kB" line of a /proc file, in bytes.
func (s System) kB(name, key string) (uint64, bool) {
	f, err := s.FS.Open(name)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, rest, found := strings.Cut(sc.Text(), ":")
		if !found || k != key {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		v, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil || v > math.MaxUint64/1024 {
			return 0, false
		}
		return v * 1024, true
	}
	return 0, false
}

// TooLarge says a run needs more memory than the machine lets it have.
type TooLarge struct {
	What   string // the run, "cables for 1,000,000 GPUs"
	Need   uint64
	Budget Budget
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s needs about %s of memory and %s is free (%s): nothing was started; plan fewer GPUs at once, or run where more memory is free",
		e.What, IEC(e.Need), IEC(e.Budget.Bytes), e.Budget.From)
}

// Check returns a *TooLarge when need bytes do not fit in s's budget.
func (s System) Check(what string, need uint64) error {
	b := s.Free()
	if need <= b.Bytes {
		return nil
	}
	return &TooLarge{What: what, Need: need, Budget: b}
}

// IEC formats bytes in binary units: "512 MiB", "1.5 GiB".
func IEC(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[i]
}

// sub is a - b, or 0 below zero.
func sub(a, b uint64) uint64 {
	if b >= a {
		return 0
	}
	return a - b
}
