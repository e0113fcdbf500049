package planner

import (
	"testing"

	"fabricplan/planner/hall"
)

// TestGeometryMemoKeepsBounds bounds designs whose halls differ in one
// input each (the facility's rows, aisles and leaf placement, the
// cluster's size, the switch's height) one after the other, so that
// each finds the one before it kept: every tight bound equals the bound
// of a hall laid out afresh, and only the same inputs again find a kept
// hall. Mutations caught: a geometry key that leaves out the facility
// or the layout inputs (a design takes another's racks), a hall kept
// under a key and changed after.
func TestGeometryMemoKeepsBounds(t *testing.T) {
	cat := testCatalog(t)
	withFacility := func(gpus int, f hall.Facility) Scenario {
		s := ibScenario(gpus)
		s.Facility = &f
		return s
	}
	oversubscribed := func(gpus int, ratio string) Scenario {
		s := ibScenario(gpus)
		s.Network.Oversubscription = ratio
		return s
	}
	cases := []struct {
		name string
		s    Scenario
	}{
		{"qm9700 1,000", ibScenario(1000)},
		{"qm9700 1,000, 9 racks a row", withFacility(1000, hall.Facility{RacksPerRow: 9})},
		{"qm9700 1,000, wide cold aisle", withFacility(1000, hall.Facility{ColdAisleM: 2.4})},
		{"qm9700 1,000, leaves at the row end", withFacility(1000, hall.Facility{LeafPlacement: hall.PlaceEnd})},
		{"qm9700 1,000, network rows first", withFacility(1000, hall.Facility{RowOrder: hall.RowsNetFirst})},
		{"qm9700 1,016", ibScenario(1016)},
		{"qm9700 1,016 at 3:1", oversubscribed(1016, "3:1")},
		{"qm9700 3,001", ibScenario(3001)},
		{"qm9700 1,000 again", ibScenario(1000)},
	}
	fresh := func(s Scenario) (float64, float64) {
		t.Helper()
		geometryMemo.Forget()
		p, err := Build(s.FlatLinks(), cat)
		if err != nil {
			t.Fatal(err)
		}
		return p.HallBound(&s, cat, true)
	}
	want := make([][2]float64, len(cases))
	for i, c := range cases {
		want[i][0], want[i][1] = fresh(c.s)
	}
	geometryMemo.Forget()
	for i, c := range cases {
		p, err := Build(c.s.FlatLinks(), cat)
		if err != nil {
			t.Fatal(err)
		}
		hits := geometryMemo.Hits()
		usd, low := p.HallBound(&c.s, cat, true)
		if usd != want[i][0] || low != want[i][1] {
			t.Errorf("%s: tight bound %.2f (low %.2f) after the designs before it, %.2f (%.2f) laid out afresh", c.name, usd, low, want[i][0], want[i][1])
		}
		again := i == len(cases)-1 // the only inputs met before
		if found := geometryMemo.Hits() > hits; found != again {
			t.Errorf("%s: found a kept hall %v, want %v", c.name, found, again)
		}
	}
}
