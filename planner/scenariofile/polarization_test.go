package scenariofile

import (
	"path/filepath"
	"strings"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// A scenario's polarization survives save and load at 0 (no
// polarization, not "the data's default"), 1 and in between, and a
// scenario without one writes no key and loads without one; editing a
// file to 0 writes the key. Mutations caught: omitempty dropping a
// pointer to 0 (the user's 0 silently becoming the default 0.5), a
// key written for the default, an edit that leaves 0 out.
func TestPolarizationSurvivesTheFile(t *testing.T) {
	cat := testCatalog(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		pol  *float64
	}{{"none", nil}, {"zero", ptr(0)}, {"one", ptr(1)}, {"off grid", ptr(0.37)}} {
		t.Run(c.name, func(t *testing.T) {
			s := planner.NewScenario()
			w := perf.NewWorkload()
			w.Polarization = c.pol
			s.Workload = &w
			path := filepath.Join(dir, c.name+".toml")
			if err := Save(path, s); err != nil {
				t.Fatal(err)
			}
			src, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			if written := strings.Contains(string(src), "polarization"); written != (c.pol != nil) {
				t.Errorf("file writes polarization %v, want %v:\n%s", written, c.pol != nil, src)
			}
			got, err := Load(path, cat)
			if err != nil {
				t.Fatal(err)
			}
			gp := got.Workload.Polarization
			if (gp == nil) != (c.pol == nil) || gp != nil && *gp != *c.pol {
				t.Errorf("loaded polarization %v, saved %v", gp, c.pol)
			}
		})
	}
	old := planner.NewScenario()
	w := perf.NewWorkload()
	old.Workload = &w
	src, err := Encode(old)
	if err != nil {
		t.Fatal(err)
	}
	edited := old
	ew := w
	ew.Polarization = ptr(0)
	edited.Workload = &ew
	out, err := Edit(src, old, edited)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "polarization = 0") {
		t.Errorf("edit to 0 wrote no key:\n%s", out)
	}
}

func ptr(v float64) *float64 { return &v }
