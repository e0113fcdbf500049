package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export --tier draws a tier's runs on the floor plan; a tier asked of
// another chart, a word that names no tier and a tier the plan lacks
// exit 2 naming the flag or the tier. Catches: --tier ignored on a
// chart that cannot draw it, a bad tier drawn as a plain floor plan.
func TestExportFloorPlanTier(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fp.png")
	if _, errOut, code := runArgs(t, "export", "--chart", "floorplan", "--tier", "leaf-spine", "--out", out); code != 0 {
		t.Fatalf("export --tier leaf-spine: exit %d, %s", code, errOut)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no picture written: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--chart", "cost", "--tier", "leaf-spine"}, "--tier draws runs on the floorplan chart only"},
		{[]string{"--chart", "floorplan", "--tier", "uplinks"}, `--tier "uplinks"`},
		{[]string{"--chart", "floorplan", "--tier", "spine-core"}, "spine_core"},
	} {
		args := append([]string{"export", "--out", filepath.Join(dir, "x.png")}, tc.args...)
		if _, errOut, code := runArgs(t, args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
}

// export --rack rings a rack of the floor plan (its name in any case);
// asked of another chart, or naming a rack the hall lacks, it exits 2
// naming the flag or the rack. Catches: --rack ignored, a lower-case
// name refused, a missing rack drawn as a plain floor plan.
func TestExportFloorPlanRack(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fp.png")
	if _, errOut, code := runArgs(t, "export", "--chart", "floorplan", "--rack", "r1-08", "--tier", "leaf-spine", "--out", out); code != 0 {
		t.Fatalf("export --rack r1-08: exit %d, %s", code, errOut)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no picture written: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--chart", "racks", "--rack", "R1-08"}, "--rack rings a rack on the floorplan chart only"},
		{[]string{"--chart", "floorplan", "--rack", "R9-99"}, `rack "R9-99": the hall has no such rack`},
	} {
		args := append([]string{"export", "--out", filepath.Join(dir, "x.png")}, tc.args...)
		if _, errOut, code := runArgs(t, args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
}
