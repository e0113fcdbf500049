package planner

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// The detail of one DGX H100 SU's server-leaf tier, leaves at the end
// of the row (the geometry of TestHallDGXSUServerLeafRuns): the longest
// runs are server 1 (rack 1, the farthest, port at U4) to the leaves
// stacked lowest, 8, 7 and 6 (ports at U32.5, 33.5, 34.5): (2.4 -
// 4 x 0.04445) + (2.4 - 32.5 x 0.04445) + 8 x 0.6 + 2 = 9.977575 m,
// then 0.04445 m less for each leaf up; all three sold at 10 m. 256
// links. Catches: the shortest kept instead of the longest, the list
// unsorted, another tier's links kept, the ends' racks or rows swapped.
func TestRunsOfLongest(t *testing.T) {
	p := buildHall(t, hallScenario(256, hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceEnd}))
	d, err := p.RunsOf(context.Background(), "server-leaf", 3)
	if err != nil {
		t.Fatal(err)
	}
	if d.Tier != "server_leaf" || d.Links != 256 || !d.Laid {
		t.Fatalf("tier %q, %d links, laid %v; want server_leaf, 256, laid", d.Tier, d.Links, d.Laid)
	}
	first := (trayM - 4*uM) + (trayM - 32.5*uM) + 8*rackW + slackM
	want := []struct {
		leaf string
		run  float64
	}{{"p1-su1-leaf-r8", first}, {"p1-su1-leaf-r7", first - uM}, {"p1-su1-leaf-r6", first - 2*uM}}
	if len(d.Longest) != len(want) {
		t.Fatalf("%d longest runs, want %d", len(d.Longest), len(want))
	}
	for i, w := range want {
		l := d.Longest[i]
		if l.ADevice != "su1-node1" || l.BDevice != w.leaf || math.Abs(l.RunM-w.run) > 1e-9 || l.Metres != 10 {
			t.Errorf("longest %d: %s > %s %.6f m sold %g; want su1-node1 > %s %.6f m sold 10", i+1, l.ADevice, l.BDevice, l.RunM, l.Metres, w.leaf, w.run)
		}
		if l.From != "R2-01" || l.To != "R2-09" || l.FromRow != 2 || l.ToRow != 2 || l.FromU != 1 {
			t.Errorf("longest %d ends %s row %d U%d > %s row %d; want R2-01 row 2 U1 > R2-09 row 2", i+1, l.From, l.FromRow, l.FromU, l.To, l.ToRow)
		}
	}
}

// The medium mix of TestHallMediumMixCost (worked there by hand): 96
// ACC links and 160 on fibre, 80 server-side and 80 leaf-side twin-port
// modules, and $177,600 for the tier's cables and modules. The cable
// metres are the runs' lengths sold summed, checked against a walk of
// every link. Catches: the cost of every tier summed, spares or switches
// counted as cabling, optics counted on one end only, metres counted
// per group instead of per link.
func TestRunsOfMediumMix(t *testing.T) {
	s := hallScenario(256, hall.Facility{RackKW: 40.8, TrayHeightM: 2.0, LeafPlacement: hall.PlaceMiddle})
	s.Prices = map[string]float64{"acc": 600, "fiber": 50, "osfp-400x2": 700, "osfp-400x2-mm": 5000}
	p := buildHall(t, s)
	d, err := p.RunsOf(context.Background(), "Server leaf", 0)
	if err != nil {
		t.Fatal(err)
	}
	byMedium := map[Medium]int{}
	for _, r := range d.Runs {
		byMedium[r.Medium] += r.Links
	}
	if byMedium[ACC] != 96 || byMedium[Optics] != 160 || len(byMedium) != 2 {
		t.Errorf("links by medium %v, want 96 ACC and 160 optics", byMedium)
	}
	if d.Optics != 160 || d.CostUSD != 177600 {
		t.Errorf("%d transceivers, $%.0f; want 160 and $177,600", d.Optics, d.CostUSD)
	}
	walked := 0.0
	for _, c := range runsOf(t, p, "server_leaf") {
		walked += c.Metres
	}
	if math.Abs(d.CableM-walked) > 1e-6 || d.Longest != nil {
		t.Errorf("cable %.1f m, want %.1f m (every link walked); longest %v with none asked", d.CableM, walked, d.Longest)
	}
}

// Tier names as typed, and tiers a plan lacks. Catches: a hyphenated
// or capitalised name refused, a two-tier plan's spine-core detailed as
// empty instead of refused, an error that does not list the tiers.
func TestRunsOfNames(t *testing.T) {
	p, err := Build(ibScenario(1000), testCatalog(t)) // 1,000 GPUs on QM9700: two tiers
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key, err string
	}{
		{"leaf-spine", "leaf_spine", ""},
		{" Leaf Spine ", "leaf_spine", ""},
		{"server_leaf", "server_leaf", ""},
		{"spine-core", "", "server-leaf, leaf-spine"},
		{"core", "", "are server-leaf, leaf-spine"},
	} {
		d, err := p.RunsOf(context.Background(), tc.name, 5)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one naming %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || d.Tier != tc.key {
			t.Errorf("%q: tier %q, %v; want %s", tc.name, d.Tier, err, tc.key)
		}
	}
}

// Without a hall every link of a tier has its fixed length: one run of
// 1,000 links at 20 m (the scenario's server-leaf length) = 20,000 m,
// and no longest runs to walk. Catches: an empty detail without a hall,
// metres taken from a hall that is not there.
// Without a hall: layout = "flat" (flatLengths).
func TestRunsOfWithoutHall(t *testing.T) {
	p, err := Build(flatIB(1000), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.RunsOf(context.Background(), "server-leaf", 5)
	if err != nil {
		t.Fatal(err)
	}
	if d.Laid || len(d.Runs) != 1 || d.Links != 1000 || d.CableM != 20000 || d.Longest != nil {
		t.Errorf("no hall: laid %v, runs %v, %d links, %.0f m, longest %v; want one run of 1,000 x 20 m", d.Laid, d.Runs, d.Links, d.CableM, d.Longest)
	}
}

// A cancelled walk stops with the context's error. Catches: the context
// never checked (the window could not drop a stale detail's walk).
func TestRunsOfCancelled(t *testing.T) {
	p := buildHall(t, hallScenario(8192, hall.Facility{RackKW: 40.8}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.RunsOf(ctx, "leaf-spine", 5); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: %v, want context.Canceled", err)
	}
}
