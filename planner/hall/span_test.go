package hall

import (
	"math"
	"testing"
)

// TestLeastSpanM checks the least width plus length against sums by
// hand and against the halls New lays out: never more than any of them,
// whatever the leaf placement and row order. Hand sums on handFacility
// (0.6 m wide, 1.1 m deep racks, the narrower aisle the 1.0 m hot one,
// 40 free U and 40 kW a rack): 20 servers of 8U and 10 kW take 4 a rack
// (power; units would take 5), 5 racks: 2√(5 × 0.6 × 2.1) = 2√6.3;
// without a draw 5 a rack, 4 racks: 2√5.04; 1,001 such servers, 251
// racks: 2√316.26; rack-scale systems of 18 trays, 36 trays in 2 racks:
// 2√2.52; a 41U server fits no rack: 0. Mutations caught: the rack's
// power left out (4 racks for the first, 2√5.04), the wider aisle taken
// (2√6.9), a bound above a hall New lays out (the hall's own width or
// length taken for both).
func TestLeastSpanM(t *testing.T) {
	with := func(edit func(in *Inputs)) Inputs {
		in := handServers
		edit(&in)
		return in
	}
	cases := []struct {
		name string
		in   Inputs
		want float64
	}{
		{"hand hall, power-bound", handServers, 2 * math.Sqrt(6.3)},
		{"no draw, unit-bound", with(func(in *Inputs) { in.NodeKW = 0 }), 2 * math.Sqrt(5.04)},
		{"1,001 servers", with(func(in *Inputs) {
			in.Servers, in.Units, in.ServersPerUnit, in.LeavesPerPlane = 1001, 101, 10, 202
		}), 2 * math.Sqrt(316.26)},
		{"rack-scale, 2 systems", with(func(in *Inputs) {
			in.Servers, in.Units, in.ServersPerUnit, in.NodesPerSystem, in.NodeUnits, in.SwitchTrays = 36, 2, 18, 18, 1, 9
		}), 2 * math.Sqrt(2.52)},
		{"server taller than the rack", with(func(in *Inputs) { in.NodeUnits = 41 }), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := LeastSpanM(tc.in, handFacility); !near(got, tc.want) {
				t.Errorf("LeastSpanM = %.6f m, want %.6f m", got, tc.want)
			}
			for _, place := range []string{PlaceEnd, PlaceMiddle, PlaceToR} {
				for _, order := range []string{RowsNetLast, RowsNetFirst} {
					f := handFacility
					f.LeafPlacement, f.RowOrder = place, order
					h, err := New(tc.in, f, handConstants)
					if err != nil {
						continue
					}
					if got := LeastSpanM(tc.in, f); got > h.WidthM+h.LengthM {
						t.Errorf("%s, %s: LeastSpanM %.3f m above the hall's %.3f + %.3f m", place, order, got, h.WidthM, h.LengthM)
					}
				}
			}
		})
	}
}
