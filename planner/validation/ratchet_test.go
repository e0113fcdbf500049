package validation

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
)

// The ratchet's verdicts, by hand against records of 10% and 20% with
// an epsilon of 0.5 percentage points: 10.5% holds (the epsilon), 10.6%
// is worse, 9.9% rounds up to the 10.0% recorded and holds, 9.8% is
// better; an unrecorded key is new, with a figure or without one (then
// nothing was lost), a recorded one without a figure is lost, a listed
// one without a figure holds, and a record nothing measures is stale.
// Mutations caught: the epsilon ignored or applied twice, a new point
// passing, a new point without a figure called lost, a lost figure
// passing, stale records ignored.
func TestRatchetCheck(t *testing.T) {
	r := &Ratchet{EpsilonPP: 0.5, ErrorPct: map[string]float64{"a": 10, "b": 10, "c": 10, "d": 10, "lost": 20, "gone": 20},
		NoFigure: []string{"none"}}
	noFig := errors.New("no GPU")
	ms := []Measure{{Key: "a", AbsErrorPct: 10.5}, {Key: "b", AbsErrorPct: 10.6}, {Key: "c", AbsErrorPct: 9.91}, {Key: "d", AbsErrorPct: 9.8},
		{Key: "new", AbsErrorPct: 1}, {Key: "new-none", Err: noFig}, {Key: "lost", Err: noFig}, {Key: "none", Err: noFig}}
	want := map[string]string{"a": RatchetHeld, "b": RatchetWorse, "c": RatchetHeld, "d": RatchetBetter, "new": RatchetNew,
		"new-none": RatchetNew, "lost": RatchetLost, "none": RatchetNoFigure, "gone": RatchetStale}
	got := r.Check(ms)
	if len(got) != len(want) {
		t.Fatalf("%d verdicts, want %d", len(got), len(want))
	}
	for _, v := range got {
		if v.Status != want[v.Key] {
			t.Errorf("%s: %s, want %s", v.Key, v.Status, want[v.Key])
		}
		fails := v.Status != RatchetHeld && v.Status != RatchetBetter && v.Status != RatchetNoFigure
		if v.Fails() != fails {
			t.Errorf("%s: fails %v", v.Key, v.Fails())
		}
	}
}

// Updating lowers what fell (rounded up to the tenth kept), keeps what
// held, adds new keys (without a figure to no_figure), drops stale
// ones, and refuses while anything is worse or lost a figure; the file
// it writes reads back the same. Mutations caught: an update that
// raises a record (a worse model re-recorded), a lost figure moved to
// no_figure, rounding down (a later identical run would be "worse").
func TestRatchetUpdate(t *testing.T) {
	r := &Ratchet{EpsilonPP: 0.5, ErrorPct: map[string]float64{"held": 10, "fell": 10, "gone": 3}}
	next, err := r.Updated([]Measure{{Key: "held", AbsErrorPct: 10.3}, {Key: "fell", AbsErrorPct: 4.21}, {Key: "new", AbsErrorPct: 7},
		{Key: "none", Err: errors.New("x")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"held": 10, "fell": 4.3, "new": 7}
	if len(next.ErrorPct) != len(want) {
		t.Errorf("records %v, want %v", next.ErrorPct, want)
	}
	for k, v := range want {
		if math.Abs(next.ErrorPct[k]-v) > 1e-9 {
			t.Errorf("%s: %g, want %g", k, next.ErrorPct[k], v)
		}
	}
	if !slices.Equal(next.NoFigure, []string{"none"}) {
		t.Errorf("no_figure %v", next.NoFigure)
	}
	back, err := ParseRatchet(next.Marshal())
	if err != nil || back.EpsilonPP != 0.5 || len(back.ErrorPct) != 3 || back.ErrorPct["fell"] != 4.3 || !slices.Equal(back.NoFigure, next.NoFigure) {
		t.Errorf("read back %+v (%v)", back, err)
	}
	for _, bad := range [][]Measure{{{Key: "held", AbsErrorPct: 10.6}}, {{Key: "held", Err: errors.New("x")}}} {
		if _, err := r.Updated(bad, nil); err == nil || !strings.Contains(err.Error(), "only moves down") {
			t.Errorf("%+v: %v, want a refusal", bad, err)
		}
	}
	for _, src := range []string{"schema = 1\nepsilon_pp = 5\n", "schema = 1\nepsilon_pp = 0.5\n[error_pct]\na = -1\n", "schema = 1\ncolour = 1\n"} {
		if _, err := ParseRatchet([]byte(src)); err == nil {
			t.Errorf("%q accepted", src)
		}
	}
}

// An accepted growth, by hand against records of 10% (a, b) and 20%
// (c, accepted before from 15% "old"), epsilon 0.5: a grows to 12.34%
// and is accepted, so its record is 12.4% (rounded up) with from 10 and
// the reason; b grows to 10.6% unaccepted and the update refuses, naming
// b alone; c falls to 14.9%, below its first record, and its acceptance
// goes; accepting a key that did not grow (b at 10.2%) or that nothing
// measures is refused. The file reads back with the acceptance, and
// Check carries it on a's verdict. A growth on top of an accepted one
// keeps the first record. Mutations caught: --accept recording without
// the reason or the old figure, accepting an unchanged point, an
// acceptance kept after the error fell back, growth re-based on the
// raised record, the accepted table lost on the round trip.
func TestRatchetAccept(t *testing.T) {
	r := &Ratchet{EpsilonPP: 0.5, ErrorPct: map[string]float64{"a": 10, "b": 10, "c": 20},
		Accepted: map[string]Acceptance{"c": {FromPct: 15, Why: "old"}}}
	why := map[string]string{"a": "sourced: causal attention"}
	if _, err := r.Updated([]Measure{{Key: "a", AbsErrorPct: 12.34}, {Key: "b", AbsErrorPct: 10.6}, {Key: "c", AbsErrorPct: 14.9}}, why); err == nil ||
		!strings.Contains(err.Error(), "b (10.6%") || strings.Contains(err.Error(), "a (") {
		t.Errorf("b grew unaccepted: %v", err)
	}
	next, err := r.Updated([]Measure{{Key: "a", AbsErrorPct: 12.34}, {Key: "b", AbsErrorPct: 10.2}, {Key: "c", AbsErrorPct: 14.9}}, why)
	if err != nil {
		t.Fatal(err)
	}
	if next.ErrorPct["a"] != 12.4 || next.Accepted["a"] != (Acceptance{FromPct: 10, Why: why["a"]}) || next.ErrorPct["c"] != 14.9 || len(next.Accepted) != 1 {
		t.Errorf("records %v, accepted %v", next.ErrorPct, next.Accepted)
	}
	back, err := ParseRatchet(next.Marshal())
	if err != nil || back.Accepted["a"] != next.Accepted["a"] || len(back.Accepted) != 1 {
		t.Fatalf("read back %+v (%v)", back, err)
	}
	v := back.Check([]Measure{{Key: "a", AbsErrorPct: 12.34}, {Key: "b", AbsErrorPct: 10}, {Key: "c", AbsErrorPct: 14.9}})
	if v[0].Status != RatchetHeld || v[0].Grew == nil || v[0].Grew.FromPct != 10 || v[1].Grew != nil {
		t.Errorf("verdicts %+v", v)
	}
	again, err := back.Updated([]Measure{{Key: "a", AbsErrorPct: 13.5}, {Key: "b", AbsErrorPct: 10}, {Key: "c", AbsErrorPct: 14.9}}, map[string]string{"a": "more"})
	if err != nil || again.Accepted["a"].FromPct != 10 || again.ErrorPct["a"] != 13.5 {
		t.Errorf("growth on growth: %+v (%v)", again, err)
	}
	for _, acc := range []map[string]string{{"b": "no growth"}, {"zz": "nothing"}} {
		if _, err := r.Updated([]Measure{{Key: "a", AbsErrorPct: 10}, {Key: "b", AbsErrorPct: 10.2}, {Key: "c", AbsErrorPct: 20}}, acc); err == nil {
			t.Errorf("accepting %v passed", acc)
		}
	}
	for _, src := range []string{
		"schema = 1\nepsilon_pp = 0.5\n[error_pct]\na = 5\n[accepted]\na = { from_pct = 4, why = \"\" }\n",
		"schema = 1\nepsilon_pp = 0.5\n[error_pct]\na = 5\n[accepted]\na = { from_pct = 6, why = \"x\" }\n",
		"schema = 1\nepsilon_pp = 0.5\n[error_pct]\na = 5\n[accepted]\nb = { from_pct = 4, why = \"x\" }\n",
	} {
		if _, err := ParseRatchet([]byte(src)); err == nil {
			t.Errorf("%q read", src)
		}
	}
	ms := []Measure{{Key: RunKey(SplitDev, "x")}, {Key: PointKey("y")}}
	if k, err := AcceptKey(ms, "x"); k != "dev: x" || err != nil {
		t.Errorf("AcceptKey x: %q %v", k, err)
	}
	if _, err := AcceptKey(ms, "z"); err == nil {
		t.Error("AcceptKey z passed")
	}
}

// The checked-in ratchet holds on the shipped model and records every
// point and run; with the H100's GEMM ceiling (gpus.h100
// efficiency_max) scaled by 0.9 it fails: H100 runs get worse past
// their records. Mutations caught: a ratchet that cannot fail (records
// raised to absorb anything, Check passing WORSE), a stale checked-in
// file.
func TestRatchetHoldsOnMain(t *testing.T) {
	cat := testCatalog(t)
	points, err := Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := LoadRuns(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	r, err := LoadRatchet(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	prices := shippedPriceCheck(t)
	failing := func(c *planner.Catalog) []string {
		var out []string
		for _, v := range r.Check(append(Measures(Run(points, c), TimeRuns(runs, c)), PriceMeasures(CheckPricePoints(prices, c))...)) {
			if v.Fails() {
				out = append(out, v.Key+" "+v.Status)
			}
		}
		return out
	}
	if f := failing(cat); len(f) > 0 {
		t.Errorf("the shipped model fails the ratchet: %v", f)
	}
	worse := failing(slowerGPU(t, cat, "h100", 0.9))
	if len(worse) < 3 || !slices.ContainsFunc(worse, func(s string) bool { return strings.HasPrefix(s, "heldout: ") }) {
		t.Errorf("H100 efficiency_max x 0.9: failing %v, want several, held-out runs among them", worse)
	}
}
