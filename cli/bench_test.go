package cli

import (
	"io"
	"path/filepath"
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
	for _, c := range charts.All() {
		cases = append(cases, struct {
			name string
			args []string
		}{"export-" + c.Name, []string{"export", "--chart", c.Name, "--out", filepath.Join(dir, c.Name+".png"), xdr100k}})
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
