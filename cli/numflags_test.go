package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// The plan flags read counts in the window's grammar: every way of
// writing 16,384 (or 16 thousand) plans that many GPUs, and a mistake
// exits 2 with the field table's words. Worked by hand: 16k is 16,000,
// not 16,384 (k is a thousand, as on the window's GPUs entry). Mutation
// caught: the CLI's own Atoi, under which --gpus 16k and --gpus 16,384
// exited 2.
func TestPlanFlagsTakeTheCountGrammar(t *testing.T) {
	for _, tc := range []struct {
		flag, value string
		gpus        int
		err         string
	}{
		{"--gpus", "16k", 16000, ""},
		{"--gpus", "16,384", 16384, ""},
		{"--gpus", "16_384", 16384, ""},
		{"--gpus", "1.5k", 1500, ""},
		{"--gpus", "16x", 0, `--gpus: "16x" is not a whole number`},
		{"--gpus", "0", 0, "--gpus: give a number from 1 to 10,000,000"},
		{"--planes", "65", 0, "--planes: give a number from 1 to 64"},
		{"--tiers", "4", 0, "--tiers: choose 1, 2 or 3 tiers, or 0 for the fewest that fit"},
	} {
		t.Run(tc.flag+" "+tc.value, func(t *testing.T) {
			out, errOut, code := runArgs(t, "plan", "--json", tc.flag, tc.value)
			if tc.err != "" {
				if code != 2 || !strings.Contains(errOut, tc.err) {
					t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.err)
				}
				return
			}
			var doc struct{ GPUs int }
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d: %v\n%s", code, err, errOut)
			}
			if doc.GPUs != tc.gpus {
				t.Errorf("planned %d GPUs, want %d", doc.GPUs, tc.gpus)
			}
		})
	}
}

// Numeric flags outside the plan flags take the same grammar: a 1,920
// pixel wide chart and 1.5k pixels tall. Mutation caught: flag.Int,
// which refuses "1,920".
func TestNumericFlagsTakeTheCountGrammar(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := runArgs(t, "export", "--chart", "cost", "--out", dir+"/x.png", "--width", "1,920", "--height", "1.5k")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, errOut, code = runArgs(t, "export", "--chart", "cost", "--out", dir+"/y.png", "--width", "wide")
	if code != 2 || !strings.Contains(errOut, `"wide" is not a whole number`) {
		t.Errorf("exit %d, stderr %q; want 2 and the count grammar's error", code, errOut)
	}
}

// --servers-per-tor and --topology given together must agree: a ToR size
// with another style is refused (exit 2), as the same pair in a scenario
// file is ("a ToR size needs top-of-rack leaves"), in either order on the
// command line. With top-of-rack the ToR size holds: 1,024 GPUs of 8 at 2
// servers per ToR are 64 leaves by hand. Mutation caught: the flags
// applied in table order with the style clearing the ToR size, so that
// --servers-per-tor 16 --topology dual-plane planned HPN's rail-aligned
// ToRs and said nothing.
func TestToRSizeFlagNeedsToRStyle(t *testing.T) {
	for _, args := range [][]string{
		{"--servers-per-tor", "16", "--topology", "dual-plane"},
		{"--topology", "rail-only", "--servers-per-tor", "2"},
		{"--topology", "rail-optimized", "--servers-per-tor", "2"},
	} {
		_, errOut, code := runArgs(t, append([]string{"plan", "--json"}, args...)...)
		if code != 2 || !strings.Contains(errOut, "--servers-per-tor: a ToR size needs --topology top-of-rack") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the ToR size refused", args, code, errOut)
		}
	}
	out, errOut, code := runArgs(t, "plan", "--json", "--topology", "top-of-rack", "--servers-per-tor", "2")
	var doc struct {
		Switches struct{ Leaf int }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d: %v\n%s", code, err, errOut)
	}
	if doc.Switches.Leaf != 64 {
		t.Errorf("top-of-rack at 2 servers per ToR: %d leaves, want 64", doc.Switches.Leaf)
	}
}
