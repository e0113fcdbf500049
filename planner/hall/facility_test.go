package hall

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestResolve: every field a [facility] table leaves out takes the
// default, every field it sets wins, and the layout is "hall" unless
// asked. Mutations caught: a field not copied from the table (each
// numeric field is set to its default + 1 below), inRack ignored or
// winning over an asked placement, a nil table refused.
func TestResolve(t *testing.T) {
	d := handFacility
	d.Layout = ""
	if got := (*Facility)(nil).Resolve(d, false); got.Layout != LayoutHall || got.RackKW != 40 || got.LeafPlacement != PlaceEnd {
		t.Errorf("nil table: %+v, want the defaults laid out in the hall", got)
	}
	if got := (*Facility)(nil).Resolve(d, true); got.LeafPlacement != PlaceToR {
		t.Errorf("nil table, leaf in rack: placement %q, want tor", got.LeafPlacement)
	}
	asked := Facility{Layout: LayoutFlat, RackKW: 41, RackUnits: 43, ReservedUnits: 3, RacksPerRow: 11, RackWidthM: 1.6, RackDepthM: 2.1,
		ColdAisleM: 2.2, HotAisleM: 2.0, TrayHeightM: 3.4, SlackM: 3, RackSlackM: 1.5, TypicalPct: 71, ServerKW: 11, ServerUnits: 9,
		LeafPlacement: PlaceMiddle, RowOrder: RowsNetFirst}
	if got := asked.Resolve(d, true); got != asked {
		t.Errorf("every field asked:\n got %+v\nwant %+v", got, asked)
	}
	if got := (&Facility{RackKW: 60}).Resolve(d, false); got.RackKW != 60 || got.RackUnits != 42 || got.RowOrder != RowsNetLast {
		t.Errorf("one field asked: %+v", got)
	}
}

// TestValidate names each bad field with its fix. Mutations caught: a
// limit checked on the wrong side, NaN accepted, 0 (the default)
// refused, an unknown choice accepted, reserved units filling the rack.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     *Facility
		field string // "" for no error
	}{
		{"nil", nil, ""},
		{"zero takes defaults", &Facility{}, ""},
		{"every number at its limits", &Facility{RackKW: 2000, RackUnits: 10, ReservedUnits: 9, RacksPerRow: 2, TypicalPct: 100, ServerUnits: 60}, ""},
		{"rack power over", &Facility{RackKW: 2000.5}, "facility.rack_kw"},
		{"rack power NaN", &Facility{RackKW: math.NaN()}, "facility.rack_kw"},
		{"rack units under", &Facility{RackUnits: 9}, "facility.rack_units"},
		{"row of one rack", &Facility{RacksPerRow: 1}, "facility.racks_per_row"},
		{"negative slack", &Facility{SlackM: -1}, "facility.slack_m"},
		{"typical over 100", &Facility{TypicalPct: 101}, "facility.typical_pct"},
		{"unknown placement", &Facility{LeafPlacement: "top"}, "facility.leaf_placement"},
		{"unknown layout", &Facility{Layout: "room"}, "facility.layout"},
		{"unknown row order", &Facility{RowOrder: "network-east"}, "facility.row_order"},
		{"reserved fills the rack", &Facility{RackUnits: 20, ReservedUnits: 20}, "facility.reserved_units"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := tc.f.Validate()
			if tc.field == "" {
				if len(errs) != 0 {
					t.Errorf("errors %v, want none", errs)
				}
				return
			}
			var fe *fielderr.FieldError
			if len(errs) != 1 || !errors.As(errs[0], &fe) || fe.Field != tc.field || fe.Fix == "" {
				t.Errorf("errors %v, want one on %s with a fix", errs, tc.field)
			}
		})
	}
}

// TestNumbersCoverTheTable: Numbers lists every numeric field of the
// table once, reading the value given. Mutation caught: a field left
// out of Numbers (its limit never checked, the window's field without
// a range).
func TestNumbersCoverTheTable(t *testing.T) {
	f := Facility{RackKW: 1, RackUnits: 2, ReservedUnits: 3, RacksPerRow: 4, RackWidthM: 5, RackDepthM: 6, ColdAisleM: 7, HotAisleM: 8,
		TrayHeightM: 9, SlackM: 10, RackSlackM: 11, TypicalPct: 12, ServerKW: 13, ServerUnits: 14}
	ns := f.Numbers()
	if len(ns) != 14 {
		t.Fatalf("%d numbers, want the table's 14", len(ns))
	}
	for i, n := range ns {
		if n.Value != float64(i+1) || !strings.Contains(n.Key, "_") && n.Key != "" || n.Lo > n.Hi {
			t.Errorf("number %d: %+v, want value %d and a range", i, n, i+1)
		}
	}
}

// TestAddCables sums length, weight and bins by hand: 4 DAC of 2.5 m
// (copper, 0.1 kg/m) and 10 optics of 3 m and 2 of 600 m (fibre, 0.02
// kg/m). DAC: 10 m = 0.01 km, 1 kg; optics: 30 + 1,200 m = 1.23 km,
// 24.6 kg. Bins: 2.5 m is over 2 and at most 3 (with the 3 m links, a
// bound belongs to its own bin), 600 m beyond the last (500 m).
// Mutations caught: copper weighed as fibre, a bound put in the next
// bin, links counted as groups, the last open bin missing.
func TestAddCables(t *testing.T) {
	h := &Hall{Constants: handConstants}
	h.AddCables([]Cables{{Medium: "dac", Copper: true, Metres: 2.5, Links: 4}, {Medium: "optics", Metres: 3, Links: 10}, {Medium: "optics", Metres: 600, Links: 2}})
	f := h.Figures
	if !near(f.CableKM["dac"], 0.01) || !near(f.CableKg["dac"], 1) || !near(f.CableKM["optics"], 1.23) || !near(f.CableKg["optics"], 24.6) {
		t.Errorf("km %v kg %v", f.CableKM, f.CableKg)
	}
	want := map[float64]int{3: 14, 0: 2}
	if len(f.Bins) != 12 || f.Bins[11].UpToM != 0 || f.Bins[0].UpToM != 1 || f.Bins[10].UpToM != 500 {
		t.Fatalf("bins %+v, want 11 bounds from 1 to 500 m and one beyond", f.Bins)
	}
	for _, b := range f.Bins {
		if b.Links != want[b.UpToM] {
			t.Errorf("bin up to %g m: %d links, want %d", b.UpToM, b.Links, want[b.UpToM])
		}
	}
}
