package cli

import (
	"encoding/csv"
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
	const want = "leaf tomahawk6-100g, spine arista-7808r3, core arista-7808r3"
	for _, r := range recs[1:] {
		if r[col] != want {
			t.Errorf("%s GPUs: switch %q, want %q", r[1], r[col], want)
		}
	}
}
