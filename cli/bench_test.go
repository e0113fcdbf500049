package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fabricplan/charts"
	"fabricplan/internal/cputime"
)

// xdr100k is the 100,000-GPU XDR example the speed targets are set on.
const xdr100k = "../data/scenarios/ib-xdr-100k.toml"

// BenchmarkCommands100k runs the commands a user waits for at scale, each
// as the command line does it (Run: the catalog decoded, so no memo
// carries over from the run before), and reports the CPU time of one
// run (cpu-ms/op: this process's, all threads; the wall time on a
// shared machine also counts waits for a core). Targets (issue #49): the
// report under 1 s, any chart export under 0.3 s, plan --json at
// 1,000,000 GPUs under 0.5 s. The process start (package init, about
// 20 ms) is not counted, nor the PDF fonts made once per process.
func BenchmarkCommands100k(b *testing.B) {
	dir := b.TempDir()
	cases := []struct {
		name string
		args []string
	}{
		{"report", []string{"report", "--out", filepath.Join(dir, "r.pdf"), xdr100k}},
		{"plan-json-1M", []string{"plan", "--json", xdr100k, "--gpus", "1000000", "--planes", "2"}},
	}
	inference := inference100k(b, dir)
	for _, c := range charts.All() {
		scenario, extra := xdr100k, []string(nil)
		if c.Name == "tokens" { // the serving chart needs an inference workload
			scenario, extra = inference, []string{"--planes", "2"}
		}
		cases = append(cases, struct {
			name string
			args []string
		}{"export-" + c.Name, append([]string{"export", "--chart", c.Name, "--out", filepath.Join(dir, c.Name+".png"), scenario}, extra...)})
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var cpu time.Duration
			n := 0
			for b.Loop() {
				c0 := cputime.Used()
				if code := Run(tc.args, io.Discard, io.Discard); code != ExitOK {
					b.Fatalf("%v: exit %d", tc.args, code)
				}
				cpu, n = cpu+cputime.Used()-c0, n+1
			}
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
			}
		})
	}
}

// inference100k writes the DeepSeek-V3 serving example at 100,000 GPUs
// to dir: its fine-tuning batch raised to 1 Gi tokens, which gives each
// of the data-parallel ranks a micro-batch (its own 4 Mi tokens would
// not), so the tokens chart is timed at the size the others are.
func inference100k(b *testing.B, dir string) string {
	b.Helper()
	src, err := os.ReadFile("../data/scenarios/inference-deepseek-h100.toml")
	if err != nil {
		b.Fatal(err)
	}
	text := string(src)
	for _, r := range [][2]string{{"\ngpus = 256\n", "\ngpus = 100000\n"}, {"\nglobal_batch_tokens = 4194304\n", "\nglobal_batch_tokens = 1073741824\n"}} {
		if !strings.Contains(text, r[0]) {
			b.Fatalf("inference example: %q not found", r[0])
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	path := filepath.Join(dir, "inference-100k.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkBytesPerGPU runs plan --json, layout --json, cables --csv,
// search and report on the 100,000-GPU XDR example resized to 1,000,
// 100,000 and 1,000,000 GPUs (two planes of Q3400 at 800G), each as the
// command line does it, and reports its memory per GPU: peak-B/GPU, the
// most live heap sampled during the run (every millisecond,
// runtime/metrics) above the heap before it, and alloc-B/GPU, all it
// allocated. Two planes of Q3400 stop at three tiers short of
// 10,000,000 GPUs, so with FABRICPLAN_BENCH_10M set (minutes and about a
// gigabyte on a small machine) the series "th6x8" runs a design that
// reaches it, at 100,000, 1,000,000 and 10,000,000 GPUs: RoCE 400G on
// eight planes of Tomahawk 6 (100G lanes), laid out in its hall. One
// hall of 10,000,000 GPUs cannot be cabled (a 1,035 m leaf-spine run
// against 500 m of reach): plan, the cable map and search price it at
// one length per tier and say why, and layout refuses it, so layout's
// series stops at 1,000,000.
// Issue 48's bound: a peak flat per GPU from 100,000 on, a
// 1,000,000-GPU command in 64 MB of heap.
func BenchmarkBytesPerGPU(b *testing.B) {
	type series struct {
		name   string
		sizes  []int
		design []string
	}
	all := []series{{"", []int{1_000, 100_000, 1_000_000}, []string{"--nic-gbps", "800", "--switch", "q3400", "--planes", "2"}}}
	if os.Getenv("FABRICPLAN_BENCH_10M") != "" {
		all = append(all, series{"th6x8-", []int{100_000, 1_000_000, 10_000_000},
			[]string{"--fabric", "ethernet", "--nic-gbps", "400", "--switch", "tomahawk6-100g", "--planes", "8"}})
	}
	report := filepath.Join(b.TempDir(), "report.pdf")
	for _, cmd := range [][]string{{"plan", "--json"}, {"layout", "--json"}, {"cables", "--csv"}, {"search"}, {"report", "--out", report}} {
		for _, se := range all {
			for _, gpus := range se.sizes {
				if cmd[0] == "layout" && gpus > 1_000_000 {
					continue // no hall to lay out (see above)
				}
				args := append(append(slices.Clone(cmd), xdr100k, "--gpus", strconv.Itoa(gpus)), se.design...)
				b.Run(cmd[0]+"-"+se.name+strconv.Itoa(gpus), func(b *testing.B) { benchBytes(b, args, gpus) })
			}
		}
	}
}

// benchBytes runs the command line args once a loop and reports its peak
// live heap and its allocations per GPU of gpus.
func benchBytes(b *testing.B, args []string, gpus int) {
	var peak, alloc uint64
	n := 0
	for b.Loop() {
		p, a := heapDuring(func() {
			if code := Run(args, io.Discard, io.Discard); code != ExitOK {
				b.Fatalf("%v: exit %d", args, code)
			}
		})
		peak, alloc, n = max(peak, p), alloc+a, n+1
	}
	b.ReportMetric(float64(peak)/float64(gpus), "peak-B/GPU")
	b.ReportMetric(float64(alloc)/float64(n)/float64(gpus), "alloc-B/GPU")
}

// heapDuring runs fn and returns the most live heap sampled while it
// ran above the heap before it, and the bytes it allocated.
func heapDuring(fn func()) (peak, alloc uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	base, alloc0 := s[0].Value.Uint64(), s[1].Value.Uint64()
	done := make(chan struct{})
	var top atomic.Uint64
	go func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		probe := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(probe)
				if v := probe[0].Value.Uint64(); v > top.Load() {
					top.Store(v)
				}
			}
		}
	}()
	fn()
	close(done)
	metrics.Read(s)
	if t := top.Load(); t > base {
		peak = t - base
	}
	return peak, s[1].Value.Uint64() - alloc0
}

// BenchmarkStart3072 runs what a headless `plan --json` on Calculon's
// 3,072-GPU example does after the process starts (issue 49's side by
// side: scripts/calculon-compare.sh), and its first step alone, and
// reports the CPU time of one run: "load-data" is loadData (the
// shipped catalog and market tables, decoded at build time), "plan-json"
// the whole command as Run does it. The process's own start (the
// runtime and package init, about 1.5 ms in the headless build) is not
// counted, nor encoding/json's encoder for each type, built once per
// process (about 1.5 ms of a process's plan --json).
func BenchmarkStart3072(b *testing.B) {
	const scenario = "../docs/scenarios/calculon-megatron-1t-3072.toml"
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"load-data", func() error { _, _, err := loadData(); return err }},
		{"plan-json", func() error {
			if code := Run([]string{"plan", "--json", scenario}, io.Discard, io.Discard); code != ExitOK {
				return fmt.Errorf("plan --json %s: exit %d", scenario, code)
			}
			return nil
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var cpu time.Duration
			n := 0
			for b.Loop() {
				c0 := cputime.Used()
				if err := tc.run(); err != nil {
					b.Fatal(err)
				}
				cpu, n = cpu+cputime.Used()-c0, n+1
			}
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
			}
		})
	}
}
