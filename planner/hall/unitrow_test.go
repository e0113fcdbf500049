package hall

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// unitGaps is what AppendUnitPlace stands for, unit u's nodes first to
// first+n-1 and its leaves measured one by one: each node's height and
// each leaf's, and every gap along and across the rows between a node's
// rack and a leaf's (the racks' centres subtracted, as a run is
// measured), to the bit.
func unitGaps(h *Hall, in Inputs, u, first, n int) string {
	var b []byte
	for plane := 1; plane <= in.Planes; plane++ {
		for r := range in.LeavesPerUnit {
			lp := h.LeafPlace(plane, u*in.LeavesPerUnit+r)
			xb, yb := h.RackPos(lp.Rack)
			b = binary.AppendVarint(b, int64(lp.U))
			for s := range n {
				np := h.NodePlace(first + s)
				xa, ya := h.RackPos(np.Rack)
				b = binary.AppendVarint(b, int64(np.U))
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(xa-xb))
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ya-yb))
			}
		}
	}
	return string(b)
}

// Units of one place (AppendUnitPlace) have the same heights and gaps
// to the bit (unitGaps), over TestCountingHallOffGrid's halls laid out
// for counting (odd sizes, partial units, rack-scale trays, one and
// three planes, leaves at the middle and end, every row order, 5 and 13
// racks a row, the 13 at odd rack widths and aisles, and rack-scale
// units that start mid-rack): some units share a place, and a hall that lists its
// racks (New, top-of-rack leaves) or a unit of no nodes gives none.
// Mutation caught (checked to fail here): the rows' centre-line offsets
// left out (units a cold and a hot aisle from their leaf row alike).
// Not caught, each left out alone: the rows' left ends (units of two
// blocks gave gaps equal to the bit here), the first node's place in
// its rack, the unit's first leaf switch and the leaf rack's slot
// (implied here by the other fields); the place keeps them so that it
// stands for the gaps without relying on that.
func TestUnitPlaceGivesGaps(t *testing.T) {
	shared := 0
	for _, d := range []struct {
		perUnit, system int
		nodeKW          float64
	}{{7, 1, 10.2}, {16, 1, 10.2}, {5, 1, 41.7}, {18, 18, 7.3}, {9, 9, 3.1}, {27, 18, 7.3}, {40, 1, 10.2}} {
		for _, servers := range []int{d.perUnit - 1, 11*d.perUnit - 2, 37*d.perUnit + 5, 120*d.perUnit + 1} {
			if servers < 1 || (d.system > 1 && servers%d.system != 0) {
				servers = max(1, servers/d.system) * d.system
			}
			for _, planes := range []int{1, 3} {
				for _, place := range LeafPlacements {
					for _, order := range RowOrders {
						for _, perRow := range []int{5, 13} {
							f := handFacility
							f.LeafPlacement, f.RowOrder, f.RacksPerRow, f.RackUnits, f.TrayHeightM = place, order, perRow, 52, 3
							if perRow == 13 { // odd widths: the rows' left ends round differently
								f.RackWidthM, f.ColdAisleM, f.RackDepthM = 0.613, 1.237, 1.071
							}
							in := offGridInputs(servers, d.perUnit, planes, d.system, d.nodeKW)
							name := fmt.Sprintf("%d of %d a unit, %d planes, %s, %s, %d a row", servers, d.perUnit, planes, place, order, perRow)
							shared += unitPlacesAsGaps(t, name, in, f)
						}
					}
				}
			}
		}
	}
	t.Logf("%d units share a place with a unit before them", shared)
	if shared < 1000 {
		t.Errorf("%d units share a place: the test no longer tests the place", shared)
	}
}

// unitPlacesAsGaps checks AppendUnitPlace on in laid out on f (see
// TestUnitPlaceGivesGaps) and returns how many units share a place
// with a unit before them.
func unitPlacesAsGaps(t *testing.T, name string, in Inputs, f Facility) int {
	t.Helper()
	c, err := NewCounting(in, f, handConstants)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	full, err := New(in, f, handConstants)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, ok := full.AppendUnitPlace(nil, 0, 0, 1); ok {
		t.Errorf("%s: a hall that lists its racks gave a place", name)
	}
	if _, ok := c.AppendUnitPlace(nil, 0, 0, 0); ok {
		t.Errorf("%s: a unit of no nodes has a place", name)
	}
	if f.LeafPlacement == PlaceToR {
		return 0
	}
	gaps, shared := map[string]string{}, 0
	for u := range in.Units {
		first := u * in.ServersPerUnit
		for _, n := range []int{min(in.ServersPerUnit, in.Servers-first), 1} {
			key, ok := c.AppendUnitPlace(binary.AppendVarint(nil, int64(n)), u, first, n)
			if !ok {
				t.Fatalf("%s: unit %d (%d nodes) has no place", name, u, n)
			}
			g := unitGaps(c, in, u, first, n)
			if had, ok := gaps[string(key)]; ok {
				shared++
				if had != g {
					t.Fatalf("%s: unit %d (%d nodes) has the place of a unit before it, not its gaps", name, u, n)
				}
			}
			gaps[string(key)] = g
		}
	}
	return shared
}
