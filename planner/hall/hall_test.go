package hall

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// A small hall worked by hand. The facility: 42U racks with 2U kept at
// the top (40 free), 0.6 m wide and 1.1 m deep, a 1.2 m cold aisle and a
// 1.0 m hot one, the tray 2.4 m up, 2 m slack between racks and 0.5 m in
// one, 40 kW a rack, typical 70% of peak, 1U = 0.05 m (round for the
// hand sums), ten racks a row.
var handFacility = Facility{Layout: LayoutHall, RackKW: 40, RackUnits: 42, ReservedUnits: 2, RacksPerRow: 10, RackWidthM: 0.6, RackDepthM: 1.1,
	ColdAisleM: 1.2, HotAisleM: 1.0, TrayHeightM: 2.4, SlackM: 2, RackSlackM: 0.5, TypicalPct: 70, ServerKW: 10, ServerUnits: 8,
	LeafPlacement: PlaceEnd, RowOrder: RowsNetLast}

var handConstants = Constants{UnitM: 0.05, PropagationNsPerM: 5, CopperKgPerM: 0.1, FibreKgPerM: 0.02}

// handServers: 20 servers of 8U and 10 kW in two units of 10, two leaves
// a unit (1U, 1 kW), two spines (1U, 1 kW), one plane. A rack holds 4
// servers (40 kW / 10 kW; 40 U / 8 U would take 5), so a unit takes 3
// racks (4, 4, 2 servers) and the row is c0 c1 c2 c3 c4 c5 and one leaf
// rack at its end (4 leaves; 40 fit); the spines take one rack in a
// network row after it.
var handServers = Inputs{Servers: 20, Units: 2, ServersPerUnit: 10, LeavesPerUnit: 2, Planes: 1, LeavesPerPlane: 4, SpinesPerPlane: 2,
	PodSpines: []int{2}, NodeKW: 10, NodeUnits: 8, NodesPerSystem: 1, Cooling: "air", SwitchUnits: 1, SwitchKW: 1,
	UpperUnits: [2]int{1, 1}, UpperKW: [2]float64{1, 1}}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestHandHall checks racks, rows, positions, power and the floor of the
// hand-worked hall. Rows: the hall keeps one block (round(sqrt(2 rows x
// 2.2 m pitch / (4.2 m row + 1.2 m edge))) = round(0.90) = 1); row 1's
// centre is 1.2 m (perimeter aisle) + 0.55 m = 1.75 m, row 2's across a
// cold aisle 1.75 + 1.1 + 1.2 = 4.05 m; rack s stands at 1.2 + (s+0.5)
// x 0.6 m. The hall is 2 x 1.2 + 7 x 0.6 = 6.6 m wide and 4.05 + 0.55 +
// 1.2 = 5.8 m long. Mutations caught: the power budget ignored (5
// servers a rack), the unit not starting a rack, leaf racks at the row's
// start, the hot aisle used between the first two rows, the perimeter
// aisle left out, the row pitch without the rack depth, typical power
// not scaled, a row's peak not summed.
func TestHandHall(t *testing.T) {
	h, err := New(handServers, handFacility, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	type rk struct {
		name, kind      string
		nodes, switches int
		used            int
		x, y, peak, typ float64
	}
	want := []rk{
		{"R1-01", RackCompute, 4, 0, 32, 1.5, 1.75, 40, 28},
		{"R1-02", RackCompute, 4, 0, 32, 2.1, 1.75, 40, 28},
		{"R1-03", RackCompute, 2, 0, 16, 2.7, 1.75, 20, 14},
		{"R1-04", RackCompute, 4, 0, 32, 3.3, 1.75, 40, 28},
		{"R1-05", RackCompute, 4, 0, 32, 3.9, 1.75, 40, 28},
		{"R1-06", RackCompute, 2, 0, 16, 4.5, 1.75, 20, 14},
		{"R1-07", RackLeaf, 0, 4, 4, 5.1, 1.75, 4, 2.8},
		{"R2-01", RackSpine, 0, 2, 2, 1.5, 4.05, 2, 1.4},
	}
	if len(h.Racks) != len(want) {
		t.Fatalf("%d racks, want %d: %+v", len(h.Racks), len(want), h.Racks)
	}
	for i, w := range want {
		r := h.Racks[i]
		got := rk{r.Name, r.Kind, r.Nodes, r.Switches, r.UsedUnits, r.X, r.Y, r.PeakKW, r.TypicalKW}
		if got.name != w.name || got.kind != w.kind || got.nodes != w.nodes || got.switches != w.switches || got.used != w.used ||
			!near(got.x, w.x) || !near(got.y, w.y) || !near(got.peak, w.peak) || !near(got.typ, w.typ) {
			t.Errorf("rack %d: %+v, want %+v", i, got, w)
		}
	}
	if len(h.Rows) != 2 || !near(h.Rows[0].PeakKW, 204) || !near(h.Rows[1].PeakKW, 2) || h.Rows[0].Network || !h.Rows[1].Network {
		t.Errorf("rows %+v, want a compute row of 204 kW (4 x 40 + 2 x 20 + 4) and a network row of 2 kW", h.Rows)
	}
	if !near(h.WidthM, 6.6) || !near(h.LengthM, 5.8) || !near(h.AreaM2, 6.6*5.8) {
		t.Errorf("hall %.3f x %.3f m (%.3f m²), want 6.6 x 5.8 m", h.WidthM, h.LengthM, h.AreaM2)
	}
	f := h.Figures
	if f.Racks != 8 || f.Rows != 2 || f.NodesPerRack != 4 || f.RacksByKind[RackCompute] != 6 || f.RacksByKind[RackLeaf] != 1 ||
		f.RacksByKind[RackSpine] != 1 || !near(f.RackKWMax, 40) || !near(f.RackKWTypicalMax, 28) || !near(f.RowKWMax, 204) ||
		f.RacksOverBudget != 0 || f.AirRacks != 8 || f.LiquidRacks != 0 {
		t.Errorf("figures %+v", f)
	}
	if n := h.Notes(); n != nil {
		t.Errorf("notes %q at 40 kW racks of 40 kW budget, want none (at the budget is not over it)", n)
	}
}

// TestHandRuns measures links of the hand-worked hall. Server 5 is unit
// 0's sixth: rack R1-02 (index 1), second from the floor, U9, its port
// at (8 + 4) x 0.05 = 0.6 m. Leaf 3 is unit 1's second leaf: the leaf
// rack's fourth switch down from U40 (unit 1's leaves follow unit 0's
// two), U37, port at 36.5 x 0.05 = 1.825 m. Spine 1 is U39 of the spine
// rack, 1.925 m. Runs between racks: up to the 2.4 m tray from each
// port, along and across the rows, and 2 m slack; inside a rack the
// height between the ports and 0.5 m. Mutations caught: a run without
// the vertical drops or the slack, Euclidean instead of rectilinear
// distance, switches stacked from the floor, the second unit's leaves
// at the first's offset, the rack slack used between racks.
func TestHandRuns(t *testing.T) {
	h, err := New(handServers, handFacility, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	node5, leaf3, spine1 := h.NodePlace(5), h.LeafPlace(1, 3), h.SpinePlace(1, 0, 1)
	for _, tc := range []struct {
		name string
		got  Place
		want Place
	}{
		{"server 5", node5, Place{Rack: 1, U: 9, H: 0.6}},
		{"leaf 3", leaf3, Place{Rack: 6, U: 37, H: 1.825}},
		{"spine 1", spine1, Place{Rack: 7, U: 39, H: 1.925}},
		{"server 0", h.NodePlace(0), Place{Rack: 0, U: 1, H: 0.2}},
		{"server 19", h.NodePlace(19), Place{Rack: 5, U: 9, H: 0.6}},
	} {
		if tc.got.Rack != tc.want.Rack || tc.got.U != tc.want.U || !near(tc.got.H, tc.want.H) {
			t.Errorf("%s at %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		a, b Place
		want float64
	}{
		// (2.4-0.6) + (2.4-1.825) + |2.1-5.1| + 0 + 2
		{"server 5 to leaf 3", node5, leaf3, 1.8 + 0.575 + 3 + 2},
		// (2.4-1.825) + (2.4-1.925) + |5.1-1.5| + |1.75-4.05| + 2
		{"leaf 3 to spine 1", leaf3, spine1, 0.575 + 0.475 + 3.6 + 2.3 + 2},
		// one rack: |0.2-0.6| + 0.5
		{"server 0 to server 1", h.NodePlace(0), h.NodePlace(1), 0.4 + 0.5},
	} {
		if got := h.Run(tc.a, tc.b); !near(got, tc.want) {
			t.Errorf("%s: run %.4f m, want %.4f m", tc.name, got, tc.want)
		}
	}
}

// TestHandRackScaleToR: two 18-tray rack-scale systems (1U trays of
// 7 kW, 9 NVLink switch trays, liquid-cooled), one ToR leaf per system.
// Trays 1-9 take U1-9, the switch trays U10-18, trays 10-18 U19-27; the
// leaf stands at U40. Each rack draws 18 x 7 + 1 = 127 kW, over the
// 40 kW budget: a finding, named in the notes. Mutations caught: a
// rack-scale system split by the power budget, its switch trays not
// skipped, the ToR leaf not in its unit's rack, over-budget racks not
// counted or named, liquid cooling not kept.
func TestHandRackScaleToR(t *testing.T) {
	f := handFacility
	f.LeafPlacement = PlaceToR
	in := Inputs{Servers: 36, Units: 2, ServersPerUnit: 18, LeavesPerUnit: 1, Planes: 1, LeavesPerPlane: 2, NodeKW: 7, NodeUnits: 1,
		NodesPerSystem: 18, SwitchTrays: 9, Cooling: "liquid", SwitchUnits: 1, SwitchKW: 1, UpperUnits: [2]int{1, 1}}
	h, err := New(in, f, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Racks) != 2 || h.Racks[1].Nodes != 18 || h.Racks[1].Switches != 1 || h.Racks[1].UsedUnits != 18+9+1 || !near(h.Racks[1].PeakKW, 127) {
		t.Fatalf("racks %+v, want two of 18 trays, 9 switch trays and a leaf (28 U, 127 kW)", h.Racks)
	}
	for _, tc := range []struct {
		name string
		got  Place
		want Place
	}{
		{"tray 8 (the ninth)", h.NodePlace(8), Place{Rack: 0, U: 9, H: 0.425}},
		{"tray 9 (above the switch trays)", h.NodePlace(9), Place{Rack: 0, U: 19, H: 0.925}},
		{"tray 18 (second system)", h.NodePlace(18), Place{Rack: 1, U: 1, H: 0.025}},
		{"leaf 1", h.LeafPlace(1, 1), Place{Rack: 1, U: 40, H: 1.975}},
	} {
		if tc.got.Rack != tc.want.Rack || tc.got.U != tc.want.U || !near(tc.got.H, tc.want.H) {
			t.Errorf("%s at %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	if got := h.Run(h.NodePlace(18), h.LeafPlace(1, 1)); !near(got, 1.95+0.5) {
		t.Errorf("tray to its ToR leaf: %.3f m, want |0.025-1.975| + 0.5 = 2.45 m", got)
	}
	fg := h.Figures
	if fg.RacksOverBudget != 2 || !slices.Equal(fg.OverBudget, []string{"R1-01 (127.0 kW)", "R1-02 (127.0 kW)"}) || fg.LiquidRacks != 2 {
		t.Errorf("figures %+v, want both racks over budget and liquid-cooled", fg)
	}
	if n := h.Notes(); len(n) != 1 || !strings.Contains(n[0], "2 racks over the 40 kW rack budget (facility.rack_kw)") {
		t.Errorf("notes %q", n)
	}
	slots := h.Elevation(0, "GB300 NVL72", func(kind string) string { return "sn5600" })
	wantSlots := []RackSlot{{"node", "compute tray 1", 1, 1}, {"node", "compute tray 9", 9, 1}, {"node", "compute tray 10", 19, 1},
		{"node", "compute tray 18", 27, 1}, {"nvlink", "9 NVLink switch trays", 10, 9}, {"switch", "sn5600 leaf (ToR)", 40, 1},
		{"reserved", "reserved: patch, mgmt", 41, 2}}
	for _, w := range wantSlots {
		if !slices.Contains(slots, w) {
			t.Errorf("elevation lacks %+v: %+v", w, slots)
		}
	}
	if len(slots) != 18+3 {
		t.Errorf("%d slots, want 18 trays, the switch trays, the leaf and the reserved units", len(slots))
	}
}

// TestNewRefuses: a hall that cannot be laid out says which [facility]
// field to change and how. Mutations caught: the tray check against the
// free units instead of the rack top, a server taller than the rack
// accepted, top-of-rack leaves stacked past the free units.
func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(f *Facility, in *Inputs)
		field string
		fix   string
	}{
		{"tray through the racks", func(f *Facility, _ *Inputs) { f.TrayHeightM = 2.1 }, "facility.tray_height_m", "above the 2.10 m rack top"},
		{"server taller than the rack", func(_ *Facility, in *Inputs) { in.NodeUnits = 41 }, "facility.rack_units", "at least 43 U"},
		{"switch taller than the rack", func(_ *Facility, in *Inputs) { in.UpperUnits[0] = 41 }, "facility.rack_units", "at least 43 U"},
		{"ToR leaves past the free units", func(f *Facility, in *Inputs) {
			f.LeafPlacement = PlaceToR
			// a unit of 4 servers fills one rack (32 U); its two 5U
			// leaves would take 42 of the 40 free U
			in.LeavesPerUnit, in.LeavesPerPlane, in.SwitchUnits = 2, 4, 5
			in.ServersPerUnit, in.Servers, in.Units = 4, 8, 2
		}, "facility.leaf_placement", `use "middle" or "end"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, in := handFacility, handServers
			in.PodSpines = slices.Clone(in.PodSpines)
			tc.edit(&f, &in)
			_, err := New(in, f, handConstants)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(fe.Fix, tc.fix) {
				t.Errorf("err %v, want field %s with a fix containing %q", err, tc.field, tc.fix)
			}
		})
	}
}

// NewGeometry places every rack as New does (place, kind, contents and
// units, the hall's size), leaving out names, draw and figures, for the
// hand hall and for it with top-of-rack leaves. Mutations caught:
// NewGeometry skipping the top-of-rack leaves' placement (their racks'
// switches 0), the hall's width or length left unset (a bound's
// "cabled surely" reads them).
func TestNewGeometryPlacesAsNew(t *testing.T) {
	tor := handFacility
	tor.LeafPlacement = PlaceToR
	for name, f := range map[string]Facility{"end of row": handFacility, "top of rack": tor} {
		t.Run(name, func(t *testing.T) {
			full, err := New(handServers, f, handConstants)
			if err != nil {
				t.Fatal(err)
			}
			geo, err := NewGeometry(handServers, f, handConstants)
			if err != nil {
				t.Fatal(err)
			}
			if len(geo.Racks) != len(full.Racks) || geo.WidthM != full.WidthM || geo.LengthM != full.LengthM {
				t.Fatalf("%d racks, %g x %g m; New: %d, %g x %g m", len(geo.Racks), geo.WidthM, geo.LengthM, len(full.Racks), full.WidthM, full.LengthM)
			}
			for i, g := range geo.Racks {
				w := full.Racks[i]
				if g.Name != "" || g.PeakKW != 0 {
					t.Errorf("rack %d named %q at %g kW: geometry has neither", i, g.Name, g.PeakKW)
				}
				w.Name, w.PeakKW, w.TypicalKW = "", 0, 0
				if g != w {
					t.Errorf("rack %d: %+v, New's %+v", i, g, w)
				}
			}
		})
	}
}

// A hall laid out for counting (NewCounting) has New's rows, floor,
// figures and notes, and every rack's centre, name and row and every
// device's place as New's, to the bit, without the rack list: the hand
// hall, a rack-scale hall at the middle of its rows with racks over
// budget, and a larger hall over several blocks of rows with the
// network rows first. Mutations caught (each checked to fail here): a
// counted rack's centre a slot off (RackPos), the figures' rows and
// area taken before the rows are laid out (every case), a rack over
// budget named a slot off ("R1-02" for R1-01).
func TestNewCountingAsNew(t *testing.T) {
	scale := handFacility
	scale.LeafPlacement = PlaceMiddle
	blocks := handFacility
	blocks.RacksPerRow, blocks.RowOrder = 7, RowsNetFirst
	for _, tc := range []struct {
		name string
		in   Inputs
		f    Facility
	}{
		{"hand hall", handServers, handFacility},
		{"rack-scale, middle of row, over budget", Inputs{Servers: 90, Units: 5, ServersPerUnit: 18, LeavesPerUnit: 1, Planes: 2,
			LeavesPerPlane: 5, SpinesPerPlane: 3, PodSpines: []int{3}, NodeKW: 7, NodeUnits: 1, NodesPerSystem: 18, SwitchTrays: 9,
			Cooling: "liquid", SwitchUnits: 1, SwitchKW: 1, UpperUnits: [2]int{2, 1}, UpperKW: [2]float64{2, 1}}, scale},
		{"1,003 servers in blocks, network first", Inputs{Servers: 1003, Units: 32, ServersPerUnit: 32, LeavesPerUnit: 4, Planes: 1,
			LeavesPerPlane: 128, SpinesPerPlane: 64, CoresPerPlane: 32, PodSpines: []int{32, 32}, NodeKW: 10, NodeUnits: 8,
			NodesPerSystem: 1, Cooling: "air", SwitchUnits: 1, SwitchKW: 1, UpperUnits: [2]int{1, 1}, UpperKW: [2]float64{1, 1}}, blocks},
	} {
		t.Run(tc.name, func(t *testing.T) { countingAsNew(t, tc.in, tc.f) })
	}
}

// NodeRacks lists the racks of a run of nodes once each, in order. The
// hand hall's units of 10 servers take 3 racks each (4, 4, 2: racks 0-2
// and 3-5); servers 12-14 are unit 1's third to fifth (racks 3 and 4).
// Two 18-tray systems fill racks 0 and 1: trays 9-26 straddle both.
// Mutations caught (each checked to fail here): the rack after the last
// node's listed (rackOf(first+n)), the first node's rack left out.
func TestNodeRacks(t *testing.T) {
	scale := Inputs{Servers: 36, Units: 2, ServersPerUnit: 18, LeavesPerUnit: 1, Planes: 1, LeavesPerPlane: 2, NodeKW: 7, NodeUnits: 1,
		NodesPerSystem: 18, SwitchTrays: 9, Cooling: "liquid", SwitchUnits: 1, SwitchKW: 1, UpperUnits: [2]int{1, 1}}
	for _, tc := range []struct {
		name     string
		in       Inputs
		first, n int
		want     []int32
	}{
		{"unit 0", handServers, 0, 10, []int32{0, 1, 2}},
		{"unit 1", handServers, 10, 10, []int32{3, 4, 5}},
		{"servers 12-14", handServers, 12, 3, []int32{3, 4}},
		{"one server", handServers, 19, 1, []int32{5}},
		{"none", handServers, 4, 0, nil},
		{"trays 9-26", scale, 9, 18, []int32{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := New(tc.in, handFacility, handConstants)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.NodeRacks(nil, tc.first, tc.n); !slices.Equal(got, tc.want) {
				t.Errorf("NodeRacks(%d, %d) = %v, want %v", tc.first, tc.n, got, tc.want)
			}
		})
	}
}

// TestLeafBoxes: a leaf that stands as boxes (a distributed switch's
// leaves) takes a place per box, as a unit's leaves do. handServers'
// two leaves a unit as 15 boxes of 2U and 2 kW each: 30 boxes a unit,
// 60 in all, 20 a rack (40 free U / 2, 40 kW / 2): 3 leaf racks at the
// row's end, R1-07 to R1-09, after the 6 compute racks. A box's slot is
// its unit's 30 boxes before it, then 15 a leaf before it, then its own
// number; it stacks down from U40 in 2U steps. By hand: unit 1's leaf 1
// (g = 1) box 4 is slot 19 of R1-07 (19 / 20 = 0), U 40 - 20 x 2 + 1 =
// 1; unit 2's leaf 0 (g = 2) box 10 is slot 40: R1-09, U39; its box 0
// (LeafPlace) slot 30: R1-08, 11th from the top, U19. Mutations
// caught: boxes left out of the unit's leaves (the row's 1 leaf rack:
// R1-07 for all), a box taken as a leaf (g x boxes left out: R1-07 U29
// for the first case); each checked.
func TestLeafBoxes(t *testing.T) {
	in := handServers
	in.LeafBoxes, in.SwitchUnits, in.SwitchKW = 15, 2, 2
	h, err := New(in, handFacility, handConstants)
	if err != nil {
		t.Fatal(err)
	}
	leafRacks := 0
	for _, r := range h.Racks {
		if r.Kind == RackLeaf {
			leafRacks++
		}
	}
	if leafRacks != 3 || h.LeafBoxes() != 15 {
		t.Errorf("%d leaf racks, %d boxes a leaf; want 3 and 15", leafRacks, h.LeafBoxes())
	}
	for _, tc := range []struct {
		g, box int
		rack   string
		u      int
	}{{1, 4, "R1-07", 1}, {2, 10, "R1-09", 39}, {2, 0, "R1-08", 19}} {
		pl := h.LeafBoxPlace(1, tc.g, tc.box)
		if name, _ := h.RackName(pl.Rack); name != tc.rack || pl.U != tc.u {
			t.Errorf("leaf %d box %d in %s U%d, want %s U%d", tc.g, tc.box, name, pl.U, tc.rack, tc.u)
		}
	}
	if h.LeafPlace(1, 2) != h.LeafBoxPlace(1, 2, 0) {
		t.Error("LeafPlace is not the leaf's first box")
	}
}
