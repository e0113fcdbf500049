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

// Unbounded reports whether no bound was found.
func (b Budget) Unbounded() bool { return b.Bytes == math.MaxUint64 }

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

// cgroup reads the process's cgroup memory limit and use: cgroup v2's
// memory.max and memory.current, else v1's limit_in_bytes and
// usage_in_bytes. ok is false without a limit.
func (s System) cgroup() (limit, used uint64, ok bool) {
	for _, f := range [][2]string{
		{"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory.current"},
		{"sys/fs/cgroup/memory/memory.limit_in_bytes", "sys/fs/cgroup/memory/memory.usage_in_bytes"},
	} {
		l, lok := s.number(f[0])
		u, uok := s.number(f[1])
		if lok && uok && l < 1<<60 { // v1 writes a huge number for "no limit"
			return l, u, true
		}
	}
	return 0, 0, false
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
