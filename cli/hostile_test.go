package cli

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fabricplan/internal/safefile/fulldisk"
)

func writeScenario(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Mutation caught: compare returns at the first bad file, and the field
// errors are printed without the file they came from.
func TestCompareNamesEveryBadFile(t *testing.T) {
	dir := t.TempDir()
	good := writeScenario(t, dir, "good.toml", "schema = 1\n")
	bad1 := writeScenario(t, dir, "bad1.toml", "schema = 1\n[cluster]\ngpus = 0\ngpus_per_server = \"x\"\n")
	bad2 := writeScenario(t, dir, "bad2.toml", "schema = 1\n[network]\nplanes = 3\n")
	_, errOut, code := runArgs(t, "compare", good, bad1, bad2)
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d", code, ExitUsage)
	}
	for _, want := range []string{bad1 + ": invalid input", "cluster.gpus (line 3)", "cluster.gpus_per_server (line 4)",
		bad2 + ": invalid input", "network.planes (line 3)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// Mutation caught: names written raw to CSV, where a spreadsheet runs
// "=HYPERLINK(…)", "+cmd" or "@SUM" as a formula.
func TestCSVNeutralisesFormulas(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, name := range []string{`=HYPERLINK("http://x","y")`, "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "\tTab", "Plain"} {
		paths = append(paths, writeScenario(t, dir, string(rune('a'+i))+".toml", fmt.Sprintf("schema = 1\nname = %q\n", name)))
	}
	out, errOut, code := runArgs(t, append([]string{"compare", "--csv"}, paths...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		if c := r[0]; c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			t.Errorf("cell %q starts a formula", c)
		}
	}
	if recs[len(recs)-1][0] != "Plain" {
		t.Errorf("plain name changed to %q", recs[len(recs)-1][0])
	}
}

// Mutation caught: a name with escape sequences printed to the terminal
// as is (it can clear the screen or retitle the terminal).
func TestPlanStripsControlCharacters(t *testing.T) {
	path := writeScenario(t, t.TempDir(), "esc.toml", "schema = 1\nname = \"evil\\u001b]0;owned\\u0007\\u001b[2J\\nname\"\n")
	out, errOut, code := runArgs(t, "plan", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Error("plan printed a control character from the name")
	}
	if !strings.Contains(out, "Fabric plan: evil ]0;owned [2J name") {
		t.Errorf("name not shown cleaned:\n%s", out[:200])
	}
	// An unknown key holding an escape is also cleaned in the error.
	bad := writeScenario(t, t.TempDir(), "key.toml", "schema = 1\n\"\\u001b[31mred\" = 1\n")
	_, errOut, _ = runArgs(t, "plan", bad)
	if strings.Contains(errOut, "\x1b") {
		t.Errorf("error printed an escape: %q", errOut)
	}
}

// Mutations caught: os.ReadFile on a scenario path (/dev/zero grows
// without bound, a FIFO blocks forever); refusals exiting 1 instead of 2.
func TestCLIRefusesHostileScenarioPaths(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", "/dev/urandom", fifo} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			done := make(chan int, 1)
			var errOut string
			go func() { _, e, code := runArgs(t, "plan", path); errOut = e; done <- code }()
			select {
			case code := <-done:
				if code != ExitUsage || !strings.Contains(errOut, "not a regular file") {
					t.Errorf("exit %d, stderr %q", code, errOut)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("plan blocked for 5 s")
			}
		})
	}
}

// Mutation caught: every write error exits 2 ("bad input"), so a full
// disk looks like the user's mistake; and a refused (read-only) target
// exits 1. Disk full needs a tmpfs, so root; CI runs as root.
func TestExportExitCodes(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.png")
	os.WriteFile(ro, []byte("old"), 0o444)
	_, errOut, code := runArgs(t, "export", "--chart", "cost", "--out", ro)
	if code != ExitUsage || !strings.Contains(errOut, "read-only") {
		t.Errorf("read-only target: exit %d, %q", code, errOut)
	}
	full, ok := fulldisk.Mount(t, "8k")
	if !ok {
		return
	}
	out := filepath.Join(full, "r.pdf")
	os.WriteFile(out, []byte("old report"), 0o644)
	_, errOut, code = runArgs(t, "report", "--out", out)
	if code != ExitFailure || !strings.Contains(errOut, "no space left") {
		t.Errorf("full disk: exit %d, %q", code, errOut)
	}
	if b, _ := os.ReadFile(out); string(b) != "old report" {
		t.Errorf("report after a full disk: %d bytes", len(b))
	}
}

// Mutation caught: NaN passes `v < 0` and `v <= 0` checks, so the search
// ran without the target the user asked for.
func TestSearchRejectsNaN(t *testing.T) {
	for _, args := range [][]string{
		{"--target-days", "NaN"}, {"--target-days", "Inf"}, {"--within", "NaN%"}, {"--budget", "NaN"}, {"--budget", "1e400"},
	} {
		_, errOut, code := runArgs(t, append([]string{"search"}, args...)...)
		if code != ExitUsage {
			t.Errorf("search %v: exit %d (%s)", args, code, errOut)
		}
	}
}
