package planner

import (
	"testing"

	"fabricplan/planner/hall"
)

// TestBoundHallKeptAndFloor bounds designs whose halls differ in one
// input each (the facility's rows, aisles and leaf placement, the
// cluster's size, the leaves' ratio), each right after the one before
// it, so that each finds what the one before kept: every tight bound
// equals the bound of a hall laid out afresh, and only the same inputs
// again find a kept hall. The floor a bound first lays out
// (hall.NewCounting) has the width, length and errors of the racks'
// hall (hall.NewGeometry), so it decides cabledSurely as the racks
// would; the 100,003-GPU hall (two planes) is not surely cabled (bounded from its
// floor), the small ones are. A bound lays out no hall whose least floor
// (hall.LeastSpanM) is past a tier's reach (mayBeCabled): the 100,003-GPU
// one, found again by no bound, whose racks are not surely cabled
// either. Mutations caught: a key that leaves out
// the facility or the layout inputs (a design takes another's racks),
// the floor taken for the racks when surely cabled (no rack list to
// bound from), the racks laid out for a hall not surely cabled, a hall
// skipped that its media could cable (mayBeCabled false, cabledSurely
// true), a skip that never happens (the 100,003-GPU hall found again).
func TestBoundHallKeptAndFloor(t *testing.T) {
	cat := testCatalog(t)
	withFacility := func(gpus int, f hall.Facility) Scenario {
		s := ibScenario(gpus)
		s.Facility = &f
		return s
	}
	twoPlanes := func(gpus int) Scenario {
		s := ibScenario(gpus)
		s.Network.Planes = 2
		return s
	}
	oversubscribed := func(gpus int, ratio string) Scenario {
		s := ibScenario(gpus)
		s.Network.Oversubscription = ratio
		return s
	}
	cases := []struct {
		name         string
		s            Scenario
		again, floor bool // the inputs of the case before; bounded from the floor alone
	}{
		{"qm9700 1,000", ibScenario(1000), false, false},
		{"qm9700 1,000 again", ibScenario(1000), true, false},
		{"qm9700 1,000, 9 racks a row", withFacility(1000, hall.Facility{RacksPerRow: 9}), false, false},
		{"qm9700 1,000, wide cold aisle", withFacility(1000, hall.Facility{ColdAisleM: 2.4}), false, false},
		{"qm9700 1,000, leaves at the row end", withFacility(1000, hall.Facility{LeafPlacement: hall.PlaceEnd}), false, false},
		{"qm9700 1,000, leaves in the racks", withFacility(1000, hall.Facility{LeafPlacement: hall.PlaceToR}), false, false},
		{"qm9700 1,000, network rows first", withFacility(1000, hall.Facility{RowOrder: hall.RowsNetFirst}), false, false},
		{"qm9700 1,016", ibScenario(1016), false, false},
		{"qm9700 1,016 at 3:1", oversubscribed(1016, "3:1"), false, false},
		{"qm9700 3,001", ibScenario(3001), false, false},
		{"qm9700 100,003, 2 planes", twoPlanes(100003), false, true},
		{"qm9700 100,003, 2 planes again", twoPlanes(100003), false, true},
	}
	fresh := func(s Scenario) (float64, float64) {
		t.Helper()
		boundHallMemo.Forget()
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
	boundHallMemo.Forget()
	for i, c := range cases {
		p, err := Build(c.s.FlatLinks(), cat)
		if err != nil {
			t.Fatal(err)
		}
		hits := boundHallMemo.Hits()
		usd, low := p.HallBound(&c.s, cat, true)
		if usd != want[i][0] || low != want[i][1] {
			t.Errorf("%s: tight bound %.2f (low %.2f) after the designs before it, %.2f (%.2f) laid out afresh", c.name, usd, low, want[i][0], want[i][1])
		}
		if found := boundHallMemo.Hits() > hits; found != c.again {
			t.Errorf("%s: found a kept hall %v, want %v", c.name, found, c.again)
		}
		f := c.s.Facility.Resolve(cat.Facility.Defaults, leafInRack(&c.s))
		in := p.layoutInputs(f, cat)
		racks, rerr := hall.NewGeometry(in, f, cat.Facility.Constants)
		floor, ferr := hall.NewCounting(in, f, cat.Facility.Constants)
		if (rerr == nil) != (ferr == nil) || rerr == nil && (racks.WidthM != floor.WidthM || racks.LengthM != floor.LengthM) {
			t.Errorf("%s: the floor (%v) is not the racks' hall (%v)", c.name, ferr, rerr)
			continue
		}
		fb := c.s.Facility.Resolve(c.s.hallDefaults(cat), leafInRack(&c.s)) // as boundInHall resolves it
		inb := p.layoutInputs(fb, cat)
		if m := newMediaChooser(p, cat); rerr == nil && !p.mayBeCabled(fb, inb, m) && cabledSurely(racks, m) {
			t.Errorf("%s: not laid out for its bound, though its media cable its racks surely", c.name)
		}
		h := p.boundHall(&c.s, cat, fb, inb, newMediaChooser(p, cat))
		if h == nil || rerr != nil {
			if h != nil || rerr == nil {
				t.Errorf("%s: a hall to bound %v, the racks' error %v", c.name, h != nil, rerr)
			}
			continue
		}
		if gotFloor := h.Racks == nil; gotFloor != c.floor || c.floor == cabledSurely(racks, newMediaChooser(p, cat)) {
			t.Errorf("%s: bounded from the floor alone %v, want %v (surely cabled %v)", c.name, gotFloor, c.floor, cabledSurely(racks, newMediaChooser(p, cat)))
		}
	}
}
