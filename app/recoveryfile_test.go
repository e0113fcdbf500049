package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"fabricplan/planner"
)

// recoveryBase is the scenario a partial recovery file is decoded over
// in these tests: 512 GPUs, a value no test file holds.
func recoveryBase(string) planner.Scenario {
	s := defaultScenario()
	s.Cluster.GPUs = 512
	return s
}

// recoveryText is the recovery file of edits to 2048 GPUs with one
// typed input, as this version writes it.
func recoveryText(t testing.TB, schema int) []byte {
	t.Helper()
	s := defaultScenario()
	s.Cluster.GPUs = 2048
	b, err := encodeRecovery(recoveryFile{Schema: schema, Written: time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC),
		Typed: map[string]string{"workload.tp": "8x"}, Scenario: s})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeRecoveryStrict reads whole, cut and foreign recovery files.
// Mutations caught: decoding loosely without the completeness line (a
// cut file offered as whole: missing nil), keeping a line cut short
// ("gpus = 20" of 2048 restored as 20 GPUs), decoding a partial file over
// a zero scenario (0 GPUs instead of the saved file's 512), accepting a
// later schema, accepting unknown keys in a whole file.
func TestDecodeRecoveryStrict(t *testing.T) {
	whole := recoveryText(t, recoverySchema)
	body, _ := cutRecoveryEnd(whole)
	gpus := bytes.Index(whole, []byte("gpus = 2048"))
	if gpus < 0 {
		t.Fatalf("no gpus line in\n%s", whole)
	}
	for _, tc := range []struct {
		name     string
		src      []byte
		gpus     int    // 0: an error is wanted
		missing  string // a key named as missing; "" for a whole file
		errorHas string
	}{
		{"whole", whole, 2048, "", ""},
		{"completeness line lost", body, 2048, "the end of the file", ""},
		{"cut inside the gpus line", whole[:gpus+len("gpus = 20")], 512, "scenario.cluster.gpus", ""},
		{"cut after the gpus line", whole[:gpus+len("gpus = 2048\n")], 2048, "scenario.network", ""},
		{"one byte changed", bytes.Replace(whole, []byte("gpus = 2048"), []byte("gpus = 2049"), 1), 2049, "the end of the file", ""},
		{"later schema, whole", recoveryText(t, recoverySchema+1), 0, "", "later version"},
		{"later schema, cut", recoveryText(t, recoverySchema+1)[:gpus], 0, "", "later version"},
		{"unknown key, whole", reEnd(t, bytes.Replace(body, []byte("schema = 1\n"), []byte("schema = 1\nsurprise = 1\n"), 1)), 0, "", "unknown key surprise"},
		{"no schema, whole", reEnd(t, bytes.Replace(body, []byte("schema = 1\n"), nil, 1)), 0, "", "no schema"},
		{"nothing readable", []byte("= = =\n"), 0, "", "damaged too far back"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rf, missing, err := decodeRecovery(tc.src, recoveryBase)
			if tc.gpus == 0 {
				if err == nil || !strings.Contains(err.Error(), tc.errorHas) {
					t.Fatalf("err = %v, want one saying %q", err, tc.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rf.Scenario.Cluster.GPUs != tc.gpus {
				t.Errorf("gpus %d, want %d", rf.Scenario.Cluster.GPUs, tc.gpus)
			}
			if tc.missing == "" && missing != nil {
				t.Errorf("whole file read as partial, missing %v", missing)
			}
			if tc.missing != "" && !strings.Contains(strings.Join(missing, " "), tc.missing) {
				t.Errorf("missing %v, want it to name %s", missing, tc.missing)
			}
		})
	}
}

// reEnd gives body a matching completeness line, as a whole file has.
func reEnd(t *testing.T, body []byte) []byte {
	t.Helper()
	sum := sha256.Sum256(body)
	return append(bytes.Clone(body), []byte(recoveryEnd+hex.EncodeToString(sum[:])+"\n")...)
}

// TestRecoveryFilePrivate checks the written file: owner-only, a link at
// its path neither followed nor replaced, and a partial file offered as
// partial. Mutations caught: writing through WriteDocument (follows the
// link, keeps 0644), offering a partial file with the whole-file question.
func TestRecoveryFilePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	r := &recovery{dir: dir, path: filepath.Join(dir, "recovery-"+strconv.Itoa(os.Getpid())+".toml")}
	if err := r.write(1, recoveryFile{Schema: recoverySchema, Scenario: defaultScenario()}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(r.path); err != nil || info.Mode() != 0o600 {
		t.Fatalf("recovery file mode %v (%v), want -rw-------", info.Mode(), err)
	}
	victim := filepath.Join(dir, "victim.toml")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(r.path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, r.path); err != nil {
		t.Fatal(err)
	}
	if err := r.write(2, recoveryFile{Schema: recoverySchema, Scenario: defaultScenario()}); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("link target overwritten: %q", b)
	}

	// A partial file left by an ended run is offered as partial.
	whole := recoveryText(t, recoverySchema)
	left := filepath.Join(dir, "recovery-999999999.toml")
	if err := os.WriteFile(left, whole[:bytes.Index(whole, []byte("gpus = 2048"))], 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(r.path)
	u := newTestUIWith(t, Options{Ephemeral: true, RecoveryDir: dir})
	var title, asked string
	u.decide = func(ti, msg string, yes, no func()) { title, asked = ti, msg; no() }
	u.offerRecovery(func() {})
	u.WaitIdle()
	if title != "Recover partial edits?" || !strings.Contains(asked, "scenario.cluster.gpus") {
		t.Errorf("asked %q: %q", title, asked)
	}
}

// FuzzDecodeRecovery: any bytes either are refused or decode to a file
// of a schema this version reads; a file read as whole has a matching
// completeness line and holds exactly what it says; a partial one names
// what it lacks. Seeded with a whole file, cuts of it and the strict
// test's cases. Catches a cut file offered as whole, a later schema
// let by, a panic on damaged TOML.
func FuzzDecodeRecovery(f *testing.F) {
	whole := recoveryText(f, recoverySchema)
	for _, n := range []int{0, 10, len(whole) / 3, len(whole) / 2, len(whole) - 2, len(whole)} {
		f.Add(whole[:n])
	}
	f.Add(recoveryText(f, recoverySchema+1))
	f.Fuzz(func(t *testing.T, src []byte) {
		rf, missing, err := decodeRecovery(src, recoveryBase)
		if err != nil {
			return
		}
		_, isWhole := cutRecoveryEnd(src)
		switch {
		case rf.Schema > recoverySchema:
			t.Fatalf("schema %d accepted", rf.Schema)
		case isWhole != (missing == nil):
			t.Fatalf("whole %v but missing %v", isWhole, missing)
		case missing != nil && len(missing) == 0:
			t.Fatal("partial without saying what is missing")
		}
	})
}
