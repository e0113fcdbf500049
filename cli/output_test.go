package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputNeverOverInput: an --out that is the scenario the command
// reads, by any name (the same path, a symbolic link, a hard link), is a
// usage error and the scenario stays. Mutation caught: the check dropped
// or done by path text (issue 26: `cables plan.toml --csv --out
// plan.toml` replaced the scenario it reads).
func TestOutputNeverOverInput(t *testing.T) {
	dir := t.TempDir()
	const body = "schema = 1\n[cluster]\ngpus = 64\n"
	for _, tc := range []struct {
		name string
		out  func(scenario string) string
		args func(scenario, out string) []string
	}{
		{"same path", func(s string) string { return s }, func(s, o string) []string { return []string{"cables", s, "--csv", "--out", o} }},
		{"symbolic link", func(s string) string {
			l := filepath.Join(dir, "link.csv")
			os.Symlink(s, l)
			return l
		}, func(s, o string) []string { return []string{"cables", s, "--csv", "--out", o} }},
		{"hard link", func(s string) string {
			l := filepath.Join(dir, "hard.pdf")
			os.Link(s, l)
			return l
		}, func(s, o string) []string { return []string{"report", "--out", o, s} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scenario := writeScenario(t, dir, "plan-"+strings.ReplaceAll(tc.name, " ", "-")+".csv", body)
			out := tc.out(scenario)
			_, errOut, code := runArgs(t, tc.args(scenario, out)...)
			if code != ExitUsage || !strings.Contains(errOut, "is the scenario this command reads") {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got, _ := os.ReadFile(scenario); string(got) != body {
				t.Errorf("scenario changed: %q", got)
			}
		})
	}
}

// TestOutputExtensionChecked: the extension must match what is written,
// for every writing command; the file is not created. Mutation caught:
// the extension not checked (issue 26: TOML written into chart.png,
// CSV into a .json name).
func TestOutputExtensionChecked(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"cables", "--csv", "--out", filepath.Join(dir, "map.json")},
		{"cables", "--json", "--out", filepath.Join(dir, "map.csv")},
		{"cables", "--topo", "--out", filepath.Join(dir, "map.txt")},
		{"cables", "--csv", "--out", filepath.Join(dir, "map")},
		{"export", "--chart", "ports", "--out", filepath.Join(dir, "chart.toml")},
		{"report", "--out", filepath.Join(dir, "report.png")},
	} {
		_, errOut, code := runArgs(t, args...)
		if code != ExitUsage || !strings.Contains(errOut, "end the name in") && !strings.Contains(errOut, "cannot export") && !strings.Contains(errOut, "no extension") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
		if _, err := os.Stat(args[len(args)-1]); err == nil {
			t.Errorf("%v: the file was written", args)
		}
	}
	// The matching extension, in any case, writes.
	out := filepath.Join(dir, "map.CSV")
	if _, errOut, code := runArgs(t, "cables", "--gpus", "64", "--csv", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestLongNamesAreUsageErrors: a 256-byte file name, read or written, is
// the user's to fix: exit 2. Mutation caught: ENAMETOOLONG reported as a
// failure (exit 1).
func TestLongNamesAreUsageErrors(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("n", 252)+".toml") // 256 bytes
	for _, args := range [][]string{{"plan", long}, {"cables", "--csv", "--out", long[:len(long)-5] + ".csv"}} {
		if _, errOut, code := runArgs(t, args...); code != ExitUsage {
			t.Errorf("%s: exit %d: %s", args[0], code, errOut)
		}
	}
}

// TestWriteOutInterrupted sends this process SIGINT while a write is
// running: the producer stops, no temporary file is left, the target is
// as it was, and the command's exit code is 130. Mutations caught: no
// signal handling during writes (the test binary dies), the handler
// without a context reaching the writer (the output is finished and
// renamed into place), the temp file left.
func TestWriteOutInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cables.csv")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := 0
	err := writeOut(path, func(w io.Writer) error {
		for rows = 0; rows < 1<<20; rows++ {
			if rows == 100 {
				syscall.Kill(os.Getpid(), syscall.SIGINT)
			}
			if _, err := w.Write([]byte("leaf-1,1,spine-1,1\n")); err != nil {
				return err
			}
			if rows > 100 {
				// The signal arrives asynchronously; give it time.
				syscall.Nanosleep(&syscall.Timespec{Nsec: 1e6}, nil)
			}
		}
		return nil
	})
	if code := report(io.Discard, "cables", err); code != ExitInterrupted || rows >= 1<<20 {
		t.Fatalf("err %v (exit %d) after %d rows", err, code, rows)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("target = %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left in the folder: %v", ents)
	}
}

// TestOutputNeverOverAnyInput: no command writes over any file it reads,
// not only the scenario named on the command line: the quotes file given
// by --quotes or named by the scenario's pricing.quotes, also through a
// link; and phases --moves checks its --out like every other command.
// The input stays whole and the exit is a usage error. Mutations
// caught: the output check comparing only the positional arguments
// (issue 48: `cables --csv --quotes q.csv --out q.csv` replaced the
// quotes file and exited 0), phases --moves skipping the output check
// (it wrote CSV over the scenario and into m.png).
func TestOutputNeverOverAnyInput(t *testing.T) {
	const body = "schema = 1\n[cluster]\ngpus = 64\n"
	const quotes = "part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme Networks,2026-10-01,2026-12-31\n"
	for _, tc := range []struct {
		name string
		args func(dir, scenario, quoted, q string) []string
		kept func(scenario, q string) string // the input that must stay whole
	}{
		{"--quotes file as --out", func(_, s, _, q string) []string {
			return []string{"cables", s, "--csv", "--quotes", q, "--out", q}
		}, func(_, q string) string { return q }},
		{"--quotes file through a link", func(dir, s, _, q string) []string {
			l := filepath.Join(dir, "link.csv")
			if err := os.Symlink(q, l); err != nil {
				t.Fatal(err)
			}
			return []string{"cables", s, "--csv", "--quotes", q, "--out", l}
		}, func(_, q string) string { return q }},
		{"pricing.quotes as --out", func(_, _, quoted, q string) []string {
			return []string{"cables", quoted, "--csv", "--out", q}
		}, func(_, q string) string { return q }},
		{"pricing.quotes as a report's --out", func(dir, _, quoted, q string) []string {
			pdf := filepath.Join(dir, "q.pdf")
			if err := os.Link(q, pdf); err != nil {
				t.Fatal(err)
			}
			return []string{"report", "--out", pdf, quoted}
		}, func(_, q string) string { return q }},
		{"phases --moves over the scenario", func(_, s, _, _ string) []string {
			return []string{"phases", s, "--moves", "--out", s}
		}, func(s, _ string) string { return s }},
		{"phases --moves into a PNG name", func(dir, s, _, _ string) []string {
			return []string{"phases", s, "--moves", "--out", filepath.Join(dir, "m.png")}
		}, func(s, _ string) string { return s }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := writeScenario(t, dir, "s.toml", body)
			q := writeScenario(t, dir, "q.csv", quotes)
			quoted := writeScenario(t, dir, "quoted.toml", "schema = 1\n[cluster]\ngpus = 64\n[pricing]\nquotes = \"q.csv\"\n")
			args := tc.args(dir, s, quoted, q)
			kept := tc.kept(s, q)
			before, err := os.ReadFile(kept)
			if err != nil {
				t.Fatal(err)
			}
			_, errOut, code := runArgs(t, args...)
			if code != ExitUsage {
				t.Errorf("%v: exit %d, want %d: %s", args, code, ExitUsage, errOut)
			}
			if after, _ := os.ReadFile(kept); string(after) != string(before) {
				t.Errorf("%v: %s changed: %q", args, filepath.Base(kept), after)
			}
			if _, err := os.Stat(filepath.Join(dir, "m.png")); err == nil {
				t.Errorf("%v: m.png was written", args)
			}
		})
	}
}
