package hall

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// countingAsNew lays in out on f with New and with NewCounting and
// checks the counting hall against New's, to the bit: no rack listed;
// the rows, floor, figures and notes; every rack's centre, name and
// row; every node's place; each unit's racks (NodeRacks, UnitRacks);
// every leaf's, spine's and core's place.
func countingAsNew(t *testing.T, in Inputs, f Facility) {
	t.Helper()
	full, err := New(in, f, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounting(in, f, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	if c.Racks != nil && f.LeafPlacement != PlaceToR {
		t.Fatalf("%d racks listed: a hall laid out for counting lists none", len(c.Racks))
	}
	if !slices.Equal(c.Rows, full.Rows) || c.WidthM != full.WidthM || c.LengthM != full.LengthM || c.AreaM2 != full.AreaM2 {
		t.Fatalf("rows %+v, %g x %g m; New: %+v, %g x %g m", c.Rows, c.WidthM, c.LengthM, full.Rows, full.WidthM, full.LengthM)
	}
	if !reflect.DeepEqual(c.Figures, full.Figures) || !slices.Equal(c.Notes(), full.Notes()) {
		t.Fatalf("figures %+v, notes %q; New: %+v, %q", c.Figures, c.Notes(), full.Figures, full.Notes())
	}
	for i, r := range full.Racks {
		x, y := c.RackPos(int32(i))
		name, row := c.RackName(int32(i))
		if x != r.X || y != r.Y || name != r.Name || row != r.Row {
			t.Fatalf("rack %d at (%v, %v), %s row %d; New: (%v, %v), %s row %d", i, x, y, name, row, r.X, r.Y, r.Name, r.Row)
		}
	}
	for n := range in.Servers {
		if c.NodePlace(n) != full.NodePlace(n) {
			t.Fatalf("node %d at %+v, New's %+v", n, c.NodePlace(n), full.NodePlace(n))
		}
	}
	for u := range in.Units {
		first, n := u*in.ServersPerUnit, min(in.ServersPerUnit, in.Servers-u*in.ServersPerUnit)
		if a, b := c.NodeRacks(nil, first, n), full.NodeRacks(nil, first, n); !slices.Equal(a, b) || !slices.Equal(c.UnitRacks(u), full.UnitRacks(u)) {
			t.Fatalf("unit %d's racks %v (%v), New's %v (%v)", u, a, c.UnitRacks(u), b, full.UnitRacks(u))
		}
	}
	if a, b := c.NodeRacks(nil, 0, in.Servers), full.NodeRacks(nil, 0, in.Servers); !slices.Equal(a, b) {
		t.Fatalf("every node's racks %v, New's %v", a, b)
	}
	for plane := 1; plane <= in.Planes; plane++ {
		for g := range in.LeavesPerPlane {
			if a, b := c.LeafPlace(plane, g), full.LeafPlace(plane, g); a != b || c.Run(c.NodePlace(0), a) != full.Run(full.NodePlace(0), b) {
				t.Fatalf("plane %d leaf %d at %+v, New's %+v", plane, g, a, b)
			}
		}
		for pod, n := range in.PodSpines {
			for j := range n {
				if a, b := c.SpinePlace(plane, pod, j), full.SpinePlace(plane, pod, j); a != b {
					t.Fatalf("plane %d pod %d spine %d at %+v, New's %+v", plane, pod, j, a, b)
				}
			}
		}
		for i := range in.CoresPerPlane {
			if a, b := c.CorePlace(plane, i), full.CorePlace(plane, i); a != b {
				t.Fatalf("plane %d core %d at %+v, New's %+v", plane, i, a, b)
			}
		}
	}
}

// offGridInputs is a hall of servers (or, with system > 1, trays of
// system-tray racks) in units of perUnit, with leaves, spines and cores
// sized from them: odd sizes, a partial last unit, several planes.
func offGridInputs(servers, perUnit, planes, system int, nodeKW float64) Inputs {
	units := (servers + perUnit - 1) / perUnit
	lpu := 1 + perUnit%3
	spines := max(1, units*lpu/2)
	pods := []int{spines - spines/2, spines / 2}
	if pods[1] == 0 {
		pods = pods[:1]
	}
	in := Inputs{Servers: servers, Units: units, ServersPerUnit: perUnit, LeavesPerUnit: lpu, Planes: planes,
		LeavesPerPlane: units * lpu, SpinesPerPlane: spines, CoresPerPlane: spines / 3, PodSpines: pods, NodeKW: nodeKW,
		NodeUnits: 2, NodesPerSystem: 1, Cooling: "air", SwitchUnits: 1, SwitchKW: 1.3, UpperUnits: [2]int{2, 1},
		UpperKW: [2]float64{2.2, 1.1}}
	if system > 1 {
		in.NodesPerSystem, in.NodeUnits, in.SwitchTrays, in.Cooling = system, 1, 9, "liquid"
	}
	return in
}

// The counting hall, laid out by rows, is New's to the bit over designs
// off the grid: odd server counts and unit sizes with a partial last
// unit, servers that fill a rack to its power (10.2 kW: 3 of 2U a 40 kW
// rack, the unit's last rack partly filled) or one a rack over budget
// (41.7 kW), rack-scale systems over budget, one and three planes,
// leaves at the middle and end of the rows and top of rack, network rows
// first, in the middle and last, 5 and 13 racks a row. Mutations caught
// (each checked to fail here): a unit's partly filled rack counted with
// the full ones (sameNodes returning full-j+1); a compute row's racks
// after its leaf racks counted from the leaf racks' first slot (lo for
// hi: the names of the racks over budget); the rows' draw multiplied,
// not added rack by rack (s+float64(n)*p for addN); a run's first rack
// taken for the run before's (countedRun's second loop with <).
func TestCountingHallOffGrid(t *testing.T) {
	designs := 0
	for _, d := range []struct {
		perUnit, system int
		nodeKW          float64
	}{{7, 1, 10.2}, {16, 1, 10.2}, {5, 1, 41.7}, {18, 18, 7.3}, {9, 9, 3.1}} {
		for _, servers := range []int{1, d.perUnit - 1, 3*d.perUnit + 1, 11*d.perUnit - 2, 37*d.perUnit + 5} {
			if servers < 1 || (d.system > 1 && servers%d.system != 0) {
				servers = max(1, servers/d.system) * d.system
			}
			for _, planes := range []int{1, 3} {
				for _, place := range LeafPlacements {
					for _, order := range RowOrders {
						for _, perRow := range []int{5, 13} {
							f := handFacility
							f.LeafPlacement, f.RowOrder, f.RacksPerRow, f.RackUnits, f.TrayHeightM = place, order, perRow, 52, 3
							in := offGridInputs(servers, d.perUnit, planes, d.system, d.nodeKW)
							name := fmt.Sprintf("%d of %d a unit %.1f kW, %d planes, %s, %s, %d a row", servers, d.perUnit, d.nodeKW, planes, place, order, perRow)
							t.Run(name, func(t *testing.T) { countingAsNew(t, in, f) })
							designs++
						}
					}
				}
			}
		}
	}
	t.Logf("%d designs", designs)
}

// addN adds p n times over as a loop of additions does, to the bit:
// draws of racks (10.2 kW, 0.1, 126 kW of a rack-scale system), from 0
// and from an odd start, to a million racks; p half an ulp of the sum
// past a binade's start (a tie, rounded to even by the sum's last bit);
// a sum crossing many binades. Mutations caught (each checked to fail
// here): the tie left to the steps (math.Mod test dropped), the steps
// run a step past the binade's top (k = (top-s)/d+1).
func TestAddNAsLoop(t *testing.T) {
	loop := func(s, p float64, n int) float64 {
		for range n {
			s += p
		}
		return s
	}
	for _, tc := range []struct {
		s, p float64
		n    int
	}{
		{0, 10.2, 1}, {0, 10.2, 7}, {0, 10.2, 1_000_000}, {3.7, 0.1, 999_983}, {0, 126, 40_001},
		{13.31, 1.3, 317}, {1 << 53, 1, 99}, {1<<53 + 2, 1, 129}, {1 << 52, 0.5, 111}, {9.9, 10.2, 64}, {9.9, 10.2, 65}, {0.3, 7.3 * 18, 100_003},
		{1e-3, 1e-3, 65_537}, {0, math.Nextafter(10.2, 20), 123_457}, {5, 0, 10},
	} {
		if got, want := addN(tc.s, tc.p, tc.n), loop(tc.s, tc.p, tc.n); got != want {
			t.Errorf("addN(%v, %v, %d) = %v, a loop gives %v", tc.s, tc.p, tc.n, got, want)
		}
	}
}
