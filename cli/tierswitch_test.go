package cli

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// TestSweepNamesEachTiersSwitch: a sweep of a design whose spines run
// another model (the Meta scenario: Arista 7808R3 chassis spines and
// cores over Tomahawk 6 ToRs, three tiers at every size) names every
// tier's model in the CSV's switch column, at sizes on and off the
// scenario's 3,072-GPU pod grid.
// Mutation caught: the switch column reading only the leaf's model
// (p.Switch.Key), which made a chassis-spine design look like a fixed
// Tomahawk 6 fabric.
func TestSweepNamesEachTiersSwitch(t *testing.T) {
	out, errOut, code := runArgs(t, "sweep", "../data/scenarios/meta-roce-24k.toml", "--gpus", "3072,7000,10001", "--csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range recs[0] {
		if h == "switch" {
			col = i
		}
	}
	if col < 0 || len(recs) != 4 {
		t.Fatalf("no switch column or not 3 rows:\n%s", out)
	}
	const want = "leaf tomahawk4, spine arista-7808r3, core arista-7808r3"
	for _, r := range recs[1:] {
		if r[col] != want {
			t.Errorf("%s GPUs: switch %q, want %q", r[1], r[col], want)
		}
	}
}

// TestSearchJSONNamesEachTiersSwitch: the design search's JSON names the
// spines' and cores' models beside the leaves' switch. In the Meta
// scenario every design keeps the file's Arista 7808R3 chassis spines and
// cores, so every design listed must name them, and a design whose tiers
// all run the leaf's model names none.
// Mutation caught: the design JSON giving only the leaf's key
// (d.Plan.Switch.Key), which showed a chassis-spine design as a fabric
// of fixed switches.
func TestSearchJSONNamesEachTiersSwitch(t *testing.T) {
	for _, tc := range []struct {
		file, spine, core string
	}{
		{"../data/scenarios/meta-roce-24k.toml", "arista-7808r3", "arista-7808r3"},
		{"../data/scenarios/ib-ndr-1k.toml", "", ""},
	} {
		out, errOut, code := runArgs(t, "search", tc.file, "--json")
		if code != 0 {
			t.Fatal(errOut)
		}
		var got struct {
			Designs []designJSON `json:"designs"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if len(got.Designs) == 0 {
			t.Fatalf("%s: no designs listed", tc.file)
		}
		for _, d := range got.Designs {
			if d.SpineSwitch != tc.spine || d.CoreSwitch != tc.core {
				t.Errorf("%s: %s: spine %q core %q, want %q and %q", tc.file, d.Label, d.SpineSwitch, d.CoreSwitch, tc.spine, tc.core)
			}
		}
	}
}
