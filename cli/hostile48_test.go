package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileCase is one hostile input or fault of issue #48's held-out
// set: files written into a fresh folder, links made there, a command
// run on them, and what must hold: the exit code, the words the error
// must carry (the field and its fix), files that must keep their
// contents, files that must not exist afterwards. A run that succeeds
// must print finite numbers only.
type hostileCase struct {
	name  string
	files map[string]string
	// setup makes what files cannot: links, FIFOs, folders, old
	// temporary files.
	setup func(t *testing.T, dir string)
	// args are the command line; "{d}" stands for the folder.
	args      []string
	code      int
	stderr    []string
	unchanged []string
	absent    []string
}

// ndr1k is data/scenarios/ib-ndr-1k.toml without its comments, the base
// every hostile scenario changes one thing in.
const ndr1k = `schema = 1
name = "1k-GPU InfiniBand NDR"

[cluster]
gpus = 1024
gpus_per_server = 8
server_price_usd = 300000

[network]
fabric = "infiniband"
nic_gbps = 400
switch = "qm9700"
oversubscription = "1:1"
rail_optimized = true
`

// quotesCSV is a valid quotes file for the day the cases run on
// (hostileToday).
const quotesCSV = "part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme,2026-10-01,2026-12-31\n"

var hostileToday = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// phased is data/scenarios/dgx-b200-phased.toml's phases over ndr1k's
// system, with the second phase's date left to the case.
func phased(date2, date3 string) string {
	return "schema = 1\n[cluster]\nsystem = \"dgx-b200\"\ngpus = 2040\n[network]\nfabric = \"infiniband\"\nswitch = \"qm9700\"\n" +
		"[[phase]]\nunits = 2\ndate = \"2026-Q2\"\n[[phase]]\nunits = 4\ndate = \"" + date2 + "\"\n[[phase]]\ngpus = 2040\ndate = \"" + date3 + "\"\n"
}

func symlink(from, to string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		if err := os.Symlink(filepath.Join(dir, to), filepath.Join(dir, from)); err != nil {
			t.Fatal(err)
		}
	}
}

func hostileCases() []hostileCase {
	withQuotes := ndr1k + "\n[pricing]\nquotes = \"q.csv\"\n"
	return []hostileCase{
		// Outputs that are inputs by another name.
		{name: "cables --out the --quotes file", files: map[string]string{"s.toml": ndr1k, "q.csv": quotesCSV},
			args: []string{"cables", "{d}/s.toml", "--csv", "--quotes", "{d}/q.csv", "--out", "{d}/q.csv"}, code: ExitUsage,
			stderr: []string{"reads as input"}, unchanged: []string{"q.csv"}},
		{name: "cables --out the quotes the scenario names", files: map[string]string{"s.toml": withQuotes, "q.csv": quotesCSV},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/q.csv"}, code: ExitUsage,
			stderr: []string{"reads as input"}, unchanged: []string{"q.csv"}},
		{name: "cables --out a hard link to the quotes", files: map[string]string{"s.toml": withQuotes, "q.csv": quotesCSV},
			setup: func(t *testing.T, dir string) {
				if err := os.Link(filepath.Join(dir, "q.csv"), filepath.Join(dir, "h.csv")); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/h.csv"}, code: ExitUsage,
			stderr: []string{"the same file as"}, unchanged: []string{"q.csv"}},
		{name: "cables --out a symlink to the quotes", files: map[string]string{"s.toml": withQuotes, "q.csv": quotesCSV},
			setup: symlink("l.csv", "q.csv"), args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/l.csv"}, code: ExitUsage,
			stderr: []string{"reads as input"}, unchanged: []string{"q.csv"}},
		{name: "cables --out the scenario named .csv, spelt with ..", files: map[string]string{"s.csv": ndr1k},
			setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "sub"), 0o755) },
			args:  []string{"cables", "{d}/s.csv", "--csv", "--out", "{d}/sub/../s.csv"}, code: ExitUsage,
			stderr: []string{"this command reads"}, unchanged: []string{"s.csv"}},
		{name: "phases --moves --out the scenario", files: map[string]string{"s.toml": ndr1k},
			args: []string{"phases", "{d}/s.toml", "--moves", "--out", "{d}/s.toml"}, code: ExitUsage,
			stderr: []string{"end the name in .csv"}, unchanged: []string{"s.toml"}},
		{name: "export --out a symlink to the scenario", files: map[string]string{"s.toml": ndr1k},
			setup: symlink("c.png", "s.toml"), args: []string{"export", "--chart", "cost", "--out", "{d}/c.png", "{d}/s.toml"}, code: ExitUsage,
			stderr: []string{"this command reads"}, unchanged: []string{"s.toml"}},
		{name: "report --out the scenario named .pdf", files: map[string]string{"s.pdf": ndr1k},
			args: []string{"report", "--out", "{d}/./s.pdf", "{d}/s.pdf"}, code: ExitUsage,
			stderr: []string{"this command reads"}, unchanged: []string{"s.pdf"}},
		// Caught: --update-ratchet wrote the ratchet over any file it was
		// given, a scenario included, and exited 0.
		{name: "validate --update-ratchet over a scenario", files: map[string]string{"s.toml": ndr1k},
			args: []string{"validate", "--update-ratchet", "{d}/s.toml"}, code: ExitUsage,
			stderr: []string{"--update-ratchet", "not a validation ratchet", "validation-ratchet.toml"}, unchanged: []string{"s.toml"}},
		{name: "validate --update-ratchet to a .csv", files: map[string]string{"r.csv": "a,b\n"},
			args: []string{"validate", "--update-ratchet", "{d}/r.csv"}, code: ExitUsage,
			stderr: []string{"--update-ratchet", ".toml"}, unchanged: []string{"r.csv"}},
		{name: "cables --out a folder", files: map[string]string{"s.toml": ndr1k},
			setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "d.csv"), 0o755) },
			args:  []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/d.csv"}, code: ExitUsage, stderr: []string{"is a folder"}},
		{name: "cables --out a FIFO", files: map[string]string{"s.toml": ndr1k},
			setup: func(t *testing.T, dir string) { syscall.Mkfifo(filepath.Join(dir, "f.csv"), 0o644) },
			args:  []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/f.csv"}, code: ExitUsage, stderr: []string{"is a FIFO"}},
		{name: "cables --out in a folder that is not there", files: map[string]string{"s.toml": ndr1k},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/none/x.csv"}, code: ExitUsage, stderr: []string{"does not exist"}},
		// Caught: "--out x.csv/: this output is CSV; end the name in
		// .csv" for a name that ends in .csv and a slash.
		{name: "cables --out with a trailing slash", files: map[string]string{"s.toml": ndr1k},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/x.csv/"}, code: ExitUsage,
			stderr: []string{"ends in a slash", "give a file name"}, absent: []string{"x.csv"}},
		// Caught: --out .csv wrote a hidden file named only ".csv".
		{name: "cables --out a name that is only the extension", files: map[string]string{"s.toml": ndr1k},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/.csv"}, code: ExitUsage,
			stderr: []string{"has no name before .csv"}, absent: []string{".csv"}},
		{name: "a killed run's temporary file removed by the next write", files: map[string]string{"s.toml": ndr1k, ".fp-0badc0de.tmp": "half"},
			setup: func(t *testing.T, dir string) {
				old := time.Now().Add(-2 * time.Hour)
				os.Chtimes(filepath.Join(dir, ".fp-0badc0de.tmp"), old, old)
			},
			args: []string{"cables", "{d}/s.toml", "--csv", "--out", "{d}/c.csv"}, absent: []string{".fp-0badc0de.tmp"}},

		// Scenario files of every shape.
		{name: "scenario is a folder", setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "d.toml"), 0o755) },
			args: []string{"plan", "{d}/d.toml"}, code: ExitUsage, stderr: []string{"is a folder"}},
		{name: "scenario is a FIFO (no hang)", setup: func(t *testing.T, dir string) { syscall.Mkfifo(filepath.Join(dir, "f.toml"), 0o644) },
			args: []string{"layout", "{d}/f.toml"}, code: ExitUsage, stderr: []string{"is a FIFO"}},
		{name: "scenario empty", files: map[string]string{"s.toml": ""},
			args: []string{"resilience", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"schema", "add schema = 1"}},
		{name: "scenario UTF-16", files: map[string]string{"s.toml": "\xff\xfes\x00c\x00h\x00e\x00m\x00a\x00 \x00=\x00 \x001\x00\n\x00"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"UTF-16", "save it as UTF-8"}},
		{name: "scenario with a BOM", files: map[string]string{"s.toml": "\ufeff" + ndr1k}, args: []string{"plan", "{d}/s.toml"}},
		{name: "scenario CRLF", files: map[string]string{"s.toml": strings.ReplaceAll(ndr1k, "\n", "\r\n")}, args: []string{"layout", "{d}/s.toml"}},
		{name: "scenario invalid UTF-8", files: map[string]string{"s.toml": "schema = 1\nname = \"\xff\xfe\"\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"line 2", "save it as UTF-8"}},
		{name: "scenario NUL byte", files: map[string]string{"s.toml": "schema = 1\nname = \"a\x00b\"\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"NUL"}},
		{name: "duplicate table", files: map[string]string{"s.toml": ndr1k + "[cluster]\ngpus = 8\n"},
			args: []string{"sweep", "{d}/s.toml", "--gpus", "64,128"}, code: ExitUsage, stderr: []string{"already been defined", "line 15", "the table is written twice"}},
		{name: "deep nesting", files: map[string]string{"s.toml": "schema = 1\nx = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"nested more than"}},
		{name: "2 MB name", files: map[string]string{"s.toml": "schema = 1\nname = \"" + strings.Repeat("a", 2<<20) + "\"\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"larger than the 1 MiB limit"}},
		{name: "zero-width space in a key", files: map[string]string{"s.toml": "schema = 1\n[cluster]\ng\u200bpus = 8\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"invisible U+200B"}},
		{name: "unknown fabric", files: map[string]string{"s.toml": strings.Replace(ndr1k, `"infiniband"`, `"token-ring"`, 1)},
			args: []string{"cables", "{d}/s.toml", "--csv"}, code: ExitUsage, stderr: []string{"network.fabric", `write "infiniband" or "ethernet"`}},

		// Numbers past their floors and caps.
		{name: "gpus 0", files: map[string]string{"s.toml": strings.Replace(ndr1k, "gpus = 1024", "gpus = 0", 1)},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"cluster.gpus (line 5)", "from 1 to 10000000"}},
		{name: "gpus 2^31", files: map[string]string{"s.toml": strings.Replace(ndr1k, "gpus = 1024", "gpus = 2147483648", 1)},
			args: []string{"layout", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"cluster.gpus", "from 1 to 10000000"}},
		{name: "gpus 10^12", files: map[string]string{"s.toml": strings.Replace(ndr1k, "gpus = 1024", "gpus = 1000000000000", 1)},
			args: []string{"search", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"cluster.gpus"}},
		{name: "gpus NaN", files: map[string]string{"s.toml": strings.Replace(ndr1k, "gpus = 1024", "gpus = nan", 1)},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"cluster.gpus", "whole number"}},
		{name: "server price 1e308", files: map[string]string{"s.toml": strings.Replace(ndr1k, "300000", "1e308", 1)},
			args: []string{"plan", "{d}/s.toml", "--json"}, code: ExitUsage, stderr: []string{"cluster.server_price_usd", "0 or from 0.01 to 100000000"}},
		{name: "server price -inf", files: map[string]string{"s.toml": strings.Replace(ndr1k, "300000", "-inf", 1)},
			args: []string{"compare", "{d}/s.toml", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"cluster.server_price_usd"}},
		// Caught: a floor of 0 on storage_gbs_per_gpu: 1e-300 GB/s made
		// goodput +Inf and plan --json fail with a raw JSON error (exit 1).
		{name: "storage bandwidth 1e-300 GB/s per GPU", files: map[string]string{"s.toml": ndr1k + "[networks]\nstorage_gbs_per_gpu = 1e-300\n"},
			args: []string{"plan", "{d}/s.toml", "--json"}, code: ExitUsage, stderr: []string{"networks.storage_gbs_per_gpu", "from 0.01 to 100"}},
		{name: "storage bandwidth 1e-300 in resilience", files: map[string]string{"s.toml": ndr1k + "[networks]\nstorage_gbs_per_gpu = 1e-300\n"},
			args: []string{"resilience", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"networks.storage_gbs_per_gpu"}},
		{name: "checkpoint interval 1e-300 min", files: map[string]string{"s.toml": ndr1k + "[reliability]\ncheckpoint_interval_min = 1e-300\n"},
			args: []string{"resilience", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"reliability.checkpoint_interval_min", "under a second"}},
		{name: "phase date 2026-02-30", files: map[string]string{"s.toml": phased("2026-02-30", "2027-Q2")},
			args: []string{"phases", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"phase[2].date", "is not a date"}},
		{name: "phase dates running backwards", files: map[string]string{"s.toml": phased("2026-Q4", "2025-Q1")},
			args: []string{"phases", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"phase[3].date", "before phase 2's date"}},
		{name: "quote at usd_per 1e-300", files: map[string]string{"s.toml": withQuotes,
			"q.csv": "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,30000,EUR,A,2026-10-01,2026-12-31,1e-300\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"pricing.quotes", "usd_per 1e-300"}},
		// Caught: every quotes error told the user to "check the path",
		// a bad price in a file read whole included.
		{name: "--quotes with a bad price: fix the file, not the path", files: map[string]string{"s.toml": ndr1k,
			"q.csv": "part,unit_price,currency,vendor,date,valid_until\nqm9700,cheap,USD,A,2026-10-01,2026-12-31\n"},
			args: []string{"plan", "{d}/s.toml", "--quotes", "{d}/q.csv"}, code: ExitUsage,
			stderr: []string{"--quotes", `unit_price "cheap" is not a number; correct the quotes file where the error says`}},
		{name: "--quotes that is not there: check the path", files: map[string]string{"s.toml": ndr1k},
			args: []string{"plan", "{d}/s.toml", "--quotes", "{d}/none.csv"}, code: ExitUsage, stderr: []string{"--quotes", "no such file or directory; check the path"}},
		{name: "quotes naming the scenario itself", files: map[string]string{"s.toml": ndr1k + "\n[pricing]\nquotes = \"s.toml\"\n"},
			args: []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"pricing.quotes"}, unchanged: []string{"s.toml"}},
		{name: "quotes naming a folder", files: map[string]string{"s.toml": withQuotes},
			setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "q.csv"), 0o755) },
			args:  []string{"plan", "{d}/s.toml"}, code: ExitUsage, stderr: []string{"pricing.quotes", "is a folder"}},

		// Flags past their floors and caps.
		// Caught: --units errors named --phases (and counted GPUs).
		{name: "phases --units 10^12", files: map[string]string{"s.toml": ndr1k},
			args: []string{"phases", "{d}/s.toml", "--units", "1000000000000"}, code: ExitUsage, stderr: []string{"--units: scalable units"}},
		// Caught: a --year without a market split failed after planning
		// with exit 1 (export) or was taken without a word (report).
		{name: "export --year 99999", files: map[string]string{"s.toml": ndr1k},
			args: []string{"export", "--chart", "market", "--out", "{d}/m.png", "{d}/s.toml", "--year", "99999"}, code: ExitUsage,
			stderr: []string{"--year 99999", "2021 to 2028"}, absent: []string{"m.png"}},
		{name: "report --year 2020", files: map[string]string{"s.toml": ndr1k},
			args: []string{"report", "--out", "{d}/r.pdf", "{d}/s.toml", "--year", "2020"}, code: ExitUsage,
			stderr: []string{"--year 2020"}, absent: []string{"r.pdf"}},
		{name: "sweep to 10^12 GPUs", args: []string{"sweep", "--gpus", "1:1000000000000", "--csv"}, code: ExitUsage, stderr: []string{"--gpus", "1 to 10,000,000"}},
		{name: "search --budget NaN", args: []string{"search", "--budget", "NaN"}, code: ExitUsage, stderr: []string{"--budget"}},
		{name: "search --target-days -1", args: []string{"search", "--target-days", "-1"}, code: ExitUsage, stderr: []string{"target-days"}},
		{name: "export --width 0", args: []string{"export", "--chart", "cost", "--out", "{d}/c.png", "--width", "0"}, code: ExitUsage,
			stderr: []string{"too small"}, absent: []string{"c.png"}},
		{name: "jct --sweep unknown", args: []string{"jct", "--sweep", "bogus"}, code: ExitUsage, stderr: []string{"--sweep", "gpus, nic or fabric"}},
		{name: "compare a folder", files: map[string]string{"s.toml": ndr1k},
			setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "d.toml"), 0o755) },
			args:  []string{"compare", "{d}/s.toml", "{d}/d.toml"}, code: ExitUsage, stderr: []string{"is a folder"}},
		{name: "one GPU: plan", args: []string{"plan", "--gpus", "1", "--json"}},
		{name: "one GPU: resilience", args: []string{"resilience", "--gpus", "1"}},
		{name: "one GPU: layout", args: []string{"layout", "--gpus", "1"}},
		{name: "one GPU: phases", args: []string{"phases", "--gpus", "1"}},
		{name: "one GPU: cables", args: []string{"cables", "--gpus", "1", "--csv"}},
	}
}

// nonFinite finds a printed NaN or infinity, or a number of 16 or more
// digits before its point (a value past any real cluster's).
var nonFinite = regexp.MustCompile(`\bNaN\b|\b[Ii]nf\b|(^|[^.\d])\d{16,}`)

// TestHostileSet48 runs issue #48's held-out hostile set through Run.
func TestHostileSet48(t *testing.T) {
	defer func(f func() time.Time) { today = f }(today)
	today = func() time.Time { return hostileToday }
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			before := map[string]string{}
			for _, name := range tc.unchanged {
				before[name] = tc.files[name]
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "{d}", dir)
			}
			out, errOut, code := runArgs(t, args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, errOut)
			}
			for _, want := range tc.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			for _, bad := range []string{"panic", "goroutine "} {
				if strings.Contains(errOut, bad) {
					t.Errorf("stderr shows a %s:\n%s", bad, errOut)
				}
			}
			if code == ExitOK {
				if m := nonFinite.FindString(out); m != "" {
					t.Errorf("printed a non-finite number %q", m)
				}
			}
			for name, want := range before {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || string(got) != want {
					t.Errorf("%s changed (err %v): it is an input", name, err)
				}
			}
			for _, name := range tc.absent {
				if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
					t.Errorf("%s is left behind", name)
				}
			}
			if tc.code != ExitOK {
				assertNoTemps(t, dir)
			}
		})
	}
}

// assertNoTemps fails when a write left a temporary file in dir.
func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".fp-") {
			t.Errorf("temporary file %s left in the folder", e.Name())
		}
	}
}
