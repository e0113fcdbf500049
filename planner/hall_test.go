package planner

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/hall"
)

// Hand-worked geometry of the defaults in data/facility.toml, restated
// here from their sources (not read from the code's tables): 42U racks
// with 2U reserved at the top, 1U = 0.04445 m (EIA-310), racks 0.6 m
// wide and 1.1 m deep, cold aisle 1.2 m, tray 2.4 m above the floor,
// 2 m slack between racks, 0.5 m inside a rack.
const (
	uM       = 0.04445
	trayM    = 2.4
	slackM   = 2.0
	rackW    = 0.6
	dgxUnits = 8 // DGX H100 user guide: 8U
)

// hallScenario is DGX H100 on QM9700 with a [facility] table.
func hallScenario(gpus int, f hall.Facility) Scenario {
	s := ibScenario(gpus)
	s.Cluster.System = "dgx-h100"
	s.Facility = &f
	return s
}

func buildHall(t *testing.T, s Scenario) *Plan {
	t.Helper()
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if p.Hall == nil {
		t.Fatal("plan has no hall")
	}
	return p
}

// runsOf collects the laid-out links of a tier by "a_device>b_device".
func runsOf(t *testing.T, p *Plan, tier string) map[string]CableRun {
	t.Helper()
	out := map[string]CableRun{}
	err := p.WalkCables(func(c *CableRun) error {
		if c.Tier == tier {
			out[c.ADevice+">"+c.BDevice] = *c
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// One DGX H100 SU (32 servers) at 40.8 kW a rack (NVIDIA: 4 per rack)
// with its 8 leaves at the end of the row: compute racks in slots 1-8,
// the leaf rack in slot 9. Server k of a rack sits at U1+8k, its ports
// at mid-height (8k+4 U); leaf i stacks down from U40 (U40-i, port at
// 39.5-i U). A run between racks is: up from the server to the tray,
// along the row, down to the leaf, plus slack. Catches: a missing
// vertical drop, slack left out, the wrong rack pitch, leaves at the
// wrong end, lengths rounded to the nearest or down instead of up.
func TestHallDGXSUServerLeafRuns(t *testing.T) {
	p := buildHall(t, hallScenario(256, hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceEnd}))
	if got := p.Hall.Figures.NodesPerRack; got != 4 {
		t.Fatalf("nodes per rack = %d, want 4 (40.8 kW / 10.2 kW)", got)
	}
	if got := p.Hall.Figures.RacksByKind; got[hall.RackCompute] != 8 || got[hall.RackLeaf] != 1 {
		t.Fatalf("racks = %v, want 8 compute and 1 leaf", got)
	}
	runs := runsOf(t, p, "server_leaf")
	hand := func(rack, k, leaf int) float64 {
		up := trayM - float64(8*k+4)*uM
		down := trayM - (39.5-float64(leaf))*uM
		along := float64(8-rack) * rackW
		return up + down + along + slackM
	}
	cases := []struct {
		a, b        string
		rack, k, lf int
		sold        float64 // fibre lengths 7 and 10 m (MFP7E lengths)
	}{
		// 2.2222 + 0.644225 + 4.8 + 2 = 9.666425 -> 10 m
		{"su1-node1", "p1-su1-leaf-r1", 0, 0, 0, 10},
		// node 32: rack 8, k 3: 2.4-1.2446 + 0.644225 + 0 + 2... plus one pitch
		{"su1-node32", "p1-su1-leaf-r1", 7, 3, 0, 5},
		// node 20: rack 5 (index 4), k 3; leaf r8 (i 7): 1.1554 + 0.9554 + 2.4 + 2 = 6.5108 -> 7 m
		{"su1-node20", "p1-su1-leaf-r8", 4, 3, 7, 7},
	}
	for _, tc := range cases {
		c, ok := runs[tc.a+">"+tc.b]
		if !ok {
			t.Fatalf("no link %s > %s", tc.a, tc.b)
		}
		want := hand(tc.rack, tc.k, tc.lf)
		if math.Abs(c.RunM-want) > 1e-9 {
			t.Errorf("%s > %s run = %.6f m, want %.6f", tc.a, tc.b, c.RunM, want)
		}
		if c.Metres != tc.sold || c.Metres < c.RunM {
			t.Errorf("%s > %s sold %g m, want %g (the next length up)", tc.a, tc.b, c.Metres, tc.sold)
		}
		if c.BRack != "R2-09" || c.ARack != "R2-0"+string(rune('1'+tc.rack)) {
			t.Errorf("%s > %s racks %s > %s", tc.a, tc.b, c.ARack, c.BRack)
		}
	}
}

// An NVL72 SU: 8 GB200 NVL72 racks in one row (NVIDIA GB200 RA:
// "complete rack layout in one row") with the leaves at the end. Tray t
// of a rack sits at U1+t for the lower nine, above the 9 NVLink switch
// trays (U10-U18) for the upper nine (U19+), each 1U with its port at
// mid-height. Catches: trays placed over the switch trays, trays taken
// as 8-GPU servers (8U each), a rack-scale system split over racks.
func TestHallNVL72TrayLeafRuns(t *testing.T) {
	s := hallScenario(576, hall.Facility{RackKW: 140, LeafPlacement: hall.PlaceEnd})
	s.Cluster.System = "gb200-nvl72"
	p := buildHall(t, s)
	h := p.Hall
	if h.Figures.NodesPerRack != 18 || h.Figures.RacksByKind[hall.RackCompute] != 8 || h.Figures.LiquidRacks != 8 {
		t.Fatalf("figures %+v: want 8 liquid-cooled racks of 18 trays", h.Figures)
	}
	// the leaf rack stands after the 8 compute racks: slot 9
	leafRack := ""
	for _, r := range h.Racks {
		if r.Kind == hall.RackLeaf {
			leafRack = r.Name
		}
	}
	runs := runsOf(t, p, "server_leaf")
	for _, tc := range []struct {
		node     string
		tray, u  int
		rackSlot int
	}{
		{"su1-node1", 0, 1, 0},   // rack 1, tray 1 at U1
		{"su1-node10", 9, 19, 0}, // rack 1, tray 10 above the switch trays: U1+9+9
		{"su1-node19", 0, 1, 1},  // node 19 is tray 1 of rack 2
	} {
		var c CableRun
		for k, v := range runs {
			if strings.HasPrefix(k, tc.node+">") {
				c = v
				break
			}
		}
		if c.Tier == "" {
			t.Fatalf("no link from %s", tc.node)
		}
		if c.AU != tc.u || c.BRack != leafRack {
			t.Errorf("%s at U%d to %s, want U%d to %s", tc.node, c.AU, c.BRack, tc.u, leafRack)
		}
		var leafSlot int
		for _, r := range h.Racks {
			if r.Name == c.BRack {
				leafSlot = r.Slot
			}
		}
		up := trayM - (float64(tc.u-1)+0.5)*uM
		down := trayM - (float64(c.BU-1)+0.5)*uM
		want := up + down + float64(leafSlot-tc.rackSlot)*rackW + slackM
		if math.Abs(c.RunM-want) > 1e-9 {
			t.Errorf("%s run %.6f, want %.6f", tc.node, c.RunM, want)
		}
	}
}

// A hall whose racks are 2 m wide in rows of 200, with the leaves in the
// compute racks (ToR: one leaf per rack of each 8-rack SU), puts the last
// leaves of 4,096 GPUs (128 compute racks) some 250 m from the spine
// row at the hall's front; those
// leaf-spine links must take the 500 m single-mode twin-port module
// (MMS4X00-NM: 500 m; the 100 m MMS4X00-NS does not reach). Catches:
// modules chosen by the tier's default length instead of the link's,
// the 100 m module used past its reach.
func TestHallCrossingLinkPicksLongReach(t *testing.T) {
	p := buildHall(t, hallScenario(4096, hall.Facility{RackKW: 40.8, RacksPerRow: 200, RackWidthM: 2, LeafPlacement: hall.PlaceToR, RowOrder: hall.RowsNetFirst}))
	cat := testCatalog(t)
	long := 0
	err := p.WalkCables(func(c *CableRun) error {
		if c.Tier != "leaf_spine" {
			return nil
		}
		if c.Medium != Optics && (c.Medium != Multimode || c.Metres > 50) {
			t.Fatalf("leaf-spine link of %g m on %s: beyond 50 m only single-mode reaches", c.Metres, c.Medium)
		}
		for _, k := range []string{c.AModule, c.BModule} {
			if m := cat.Transceivers[k]; float64(m.ReachM) < c.Metres {
				t.Fatalf("%g m link on %s reaching %d m", c.Metres, k, m.ReachM)
			}
		}
		if c.RunM > 100 {
			long++
			if c.BModule != "osfp-400x2-500m" {
				t.Fatalf("%.1f m run takes %s, want the 500 m module", c.RunM, c.BModule)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if long == 0 {
		t.Fatal("no leaf-spine run beyond 100 m: the hall is not as wide as worked")
	}
}

// NVL72 racks draw 132 kW (catalog: yobitel 120-132 kW); in a hall of
// 60 kW racks (the scenario's rack_kw, which wins over the system's own
// rack budget) every compute rack is over budget and the plan says so. Catches: a budget never compared, network racks only,
// the count off by the partial rack.
func TestHallRackOverBudget(t *testing.T) {
	s := hallScenario(720, hall.Facility{RackKW: 60})
	s.Cluster.System = "gb200-nvl72"
	p := buildHall(t, s)
	f := p.Hall.Figures
	if f.RacksOverBudget != 10 || f.RackKWBudget != 60 {
		t.Fatalf("over budget %d of budget %g kW, want 10 racks of 60 kW", f.RacksOverBudget, f.RackKWBudget)
	}
	if math.Abs(f.RackKWMax-132) > 1e-9 {
		t.Errorf("hungriest rack %g kW, want 132", f.RackKWMax)
	}
	found := false
	for _, n := range p.Notes {
		found = found || strings.Contains(n, "10 racks over the 60 kW rack budget")
	}
	if !found {
		t.Errorf("no note on racks over budget: %q", p.Notes)
	}
	// Under a 140 kW budget none is over.
	s.Facility.RackKW = 140
	if p := buildHall(t, s); p.Hall.Figures.RacksOverBudget != 0 {
		t.Errorf("%d racks over a 140 kW budget", p.Hall.Figures.RacksOverBudget)
	}
}

// With the tray at 2.0 m and the SU's leaves in the middle of the row,
// the racks either side of the leaf rack are within 5 m of every leaf
// (worst case server k=0, leaf i=7: (2.0-0.1778)+(2.0-1.44463)+0.6+2 =
// 4.978 m), so their 64 links take 5 m ACC. Two racks away (1.2 m) a
// leaf's twin-port cage holds servers k=2 and 3 (worst (2.0-0.889)+
// (2.0-1.44463)+1.2+2 = 4.866 m: ACC) or k=0 and 1 (5.51 m: optics), so
// 2 x 2 x 8 = 32 more links take ACC: 96 in all. The other 160 take
// fibre and twin-port optics: 20 servers x 4 modules, and 10 optical
// cages on each of 8 leaves. Prices set in the scenario: ACC $600, fibre
// $50, module $700, so ACC ($600) beats optics ($50 + $350 + $350). By
// hand: 96 x 600 + 160 x 50 + (80 + 80) x 700 = 57,600 + 8,000 +
// 112,000 = $177,600, against $192,000 all optics (256 x 50 + 256 x
// 700). Multimode is priced out ($5,000 a module) to keep to these two
// media. Catches: one medium per tier, modules counted for copper
// cages, the price of copper not compared per link, media chosen per
// rack pair instead of per twin-port cage (64 ACC links, $182,400).
func TestHallMediumMixCost(t *testing.T) {
	s := hallScenario(256, hall.Facility{RackKW: 40.8, TrayHeightM: 2.0, LeafPlacement: hall.PlaceMiddle})
	s.Prices = map[string]float64{"acc": 600, "fiber": 50, "osfp-400x2": 700, "osfp-400x2-mm": 5000}
	serverLeafUSD := func(p *Plan) float64 {
		usd := 0.0
		for _, l := range p.BOM {
			if l.tier == "server_leaf" && !l.Spare && (l.Category == CatCable || l.Category == CatTransceiver) {
				usd += l.TotalUSD
			}
		}
		return usd
	}
	p := buildHall(t, s)
	if got := serverLeafUSD(p); got != 177600 {
		t.Errorf("mixed server-leaf cost $%.0f, want $177,600", got)
	}
	acc := 0
	for _, r := range p.LinkTiers[0].Runs {
		if r.Medium == ACC {
			acc += r.Links
			if r.Metres > 5 {
				t.Errorf("ACC sold at %g m, beyond its 5 m", r.Metres)
			}
		}
	}
	if acc != 96 {
		t.Errorf("%d ACC links, want 96", acc)
	}
	s.Network.Media.ServerLeaf = Optics
	if got := serverLeafUSD(buildHall(t, s)); got != 192000 {
		t.Errorf("all-optics server-leaf cost $%.0f, want $192,000", got)
	}
}

// Every system at odd sizes, on both fabrics and every placement: every
// link's medium reaches its sold length (and its modules reach it), the
// BOM's cables equal the cable map's rows by part and length, every
// node stands in exactly one rack, and no two racks share a place on
// the floor or overlap. Catches: a medium chosen for a shorter link of
// its rack pair, BOM lines grouped differently from the map, racks
// double-booked, a partial unit's racks dropped.
func TestHallPropertiesEverySystem(t *testing.T) {
	cat := testCatalog(t)
	for _, sys := range cat.SystemKeys() {
		for _, gpus := range []int{72, 1000, 3000, 9216} {
			for _, place := range hall.LeafPlacements {
				s := NewScenario()
				s.Cluster.System, s.Cluster.GPUs = sys, gpus
				if sys == CustomSystem {
					s.Cluster.GPUsPerServer = 8
				}
				if sys == "dgx-b300" || sys == "gb300-nvl72" {
					s.Network.NICGbps = 800
				}
				if gpus == 3000 {
					s.Network.Fabric = Ethernet
					if sys == "gb300-nvl72" || sys == "dgx-b300" {
						s.Network.PortsPerNIC = 2
					}
				}
				if gpus == 1000 {
					s.Network.Planes = 2 // two planes: leaves of both in each unit's leaf racks
				}
				s.Facility = &hall.Facility{LeafPlacement: place, RackKW: 150, RacksPerRow: 13}
				p, err := Build(s, cat)
				if err != nil {
					if strings.Contains(err.Error(), "facility.leaf_placement") && place == hall.PlaceToR {
						continue // no room for top-of-rack leaves: a finding
					}
					t.Errorf("%s %d %s: %v", sys, gpus, place, err)
					continue
				}
				checkHall(t, sys+" "+place, p, cat)
			}
		}
	}
}

func checkHall(t *testing.T, name string, p *Plan, cat *Catalog) {
	t.Helper()
	type key struct {
		part   string
		metres float64
	}
	mapped := map[key]int{}
	err := p.WalkCables(func(c *CableRun) error {
		reach := cat.Cables[c.Part].Reach(p.PortGbps)
		for _, k := range []string{c.AModule, c.BModule} {
			if m := cat.Transceivers[k]; m != nil {
				reach = min(reach, m.ReachM)
			}
		}
		if c.Metres > float64(reach) || c.Metres < c.RunM {
			t.Fatalf("%s: %s %s>%s sold %g m for a %.2f m run, reach %d", name, c.Tier, c.ADevice, c.BDevice, c.Metres, c.RunM, reach)
		}
		mapped[key{c.Part, c.Metres}]++
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	billed := map[key]int{}
	for _, l := range p.BOM {
		if l.Category == CatCable && !l.Spare {
			var m float64
			if _, err := fmtSscan(l.Where, &m); err != nil {
				t.Fatalf("%s: cable line %q: %v", name, l.Where, err)
			}
			billed[key{l.Key, m}] += l.Qty
		}
	}
	if len(billed) != len(mapped) {
		t.Errorf("%s: BOM cables %v, map %v", name, billed, mapped)
	}
	for k, n := range mapped {
		if billed[k] != n {
			t.Errorf("%s: %s %g m: BOM %d, map %d", name, k.part, k.metres, billed[k], n)
		}
	}
	h := p.Hall
	seen := map[[2]int]bool{}
	nodes := 0
	free := h.Facility.RackUnits - h.Facility.ReservedUnits
	for i, r := range h.Racks {
		if seen[[2]int{r.Row, r.Slot}] {
			t.Fatalf("%s: two racks at row %d slot %d", name, r.Row, r.Slot)
		}
		seen[[2]int{r.Row, r.Slot}] = true
		if r.UsedUnits > free {
			t.Errorf("%s: rack %s uses %d U of %d", name, r.Name, r.UsedUnits, free)
		}
		nodes += r.Nodes
		for _, o := range h.Racks[i+1:] {
			if math.Abs(r.X-o.X) < h.Facility.RackWidthM-1e-9 && math.Abs(r.Y-o.Y) < h.Facility.RackDepthM-1e-9 {
				t.Fatalf("%s: racks %s and %s overlap", name, r.Name, o.Name)
			}
		}
		if r.X+h.Facility.RackWidthM/2 > h.WidthM || r.Y+h.Facility.RackDepthM/2 > h.LengthM {
			t.Errorf("%s: rack %s outside the hall", name, r.Name)
		}
	}
	if nodes != p.Servers {
		t.Errorf("%s: racks hold %d nodes, plan has %d", name, nodes, p.Servers)
	}
}

// fmtSscan reads the length from a cable line's place ("tier 7 m").
func fmtSscan(where string, m *float64) (int, error) {
	f := strings.Fields(where)
	if len(f) < 3 {
		return 0, errShortWhere
	}
	return fmt.Sscan(f[len(f)-2], m)
}

var errShortWhere = errors.New("place has no length")

// FuzzParseFacilityData: data/facility.toml and mangled copies either
// parse to complete, in-range defaults or fail with a message; never a
// panic, never a default of 0. Catches: a missing default accepted (a
// 0 m rack pitch), a negative slack accepted.
func FuzzParseFacilityData(f *testing.F) {
	src, err := data.FS.ReadFile("facility.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte(strings.Replace(string(src), "slack_m = 2", "slack_m = -2", 1)))
	f.Add([]byte("schema = 1\n[defaults]\nrack_kw = 60\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseFacilityData(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if errs := d.Defaults.Validate(); len(errs) > 0 || d.Defaults.RackWidthM <= 0 || d.Defaults.RacksPerRow <= 0 {
			t.Fatalf("accepted bad defaults %+v: %v", d.Defaults, errs)
		}
	})
}

// Short optical links take multimode when it is cheaper: one DGX H100 SU
// with its leaves in the middle of the row runs at most 10 m, within
// OM4's 50 m (NVIDIA: MMA4Z00-NS, 50 m). Prices set in the scenario:
// multimode cord $40 and twin-port SR8 $500 against single-mode $50 and
// DR8 $700, ACC $5,000 (priced out): a multimode link costs 40 + 250 +
// 250 = $540 against 50 + 350 + 350 = $750. By hand: 256 cords and 128
// + 128 SR8 modules = 256 x 40 + 256 x 500 = $138,240, and no
// single-mode part on the server-leaf tier. Catches: multimode never
// offered, a multimode link with single-mode modules at either end, the
// server end's module not switched to its multimode counterpart.
func TestHallMultimodeWhereCheaper(t *testing.T) {
	s := hallScenario(256, hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceMiddle})
	s.Prices = map[string]float64{"acc": 5000, "fiber": 50, "fiber-mm": 40, "osfp-400x2": 700, "osfp-400x2-mm": 500}
	p := buildHall(t, s)
	usd := 0.0
	for _, l := range p.BOM {
		if l.tier != "server_leaf" || l.Spare || (l.Category != CatCable && l.Category != CatTransceiver) {
			continue
		}
		usd += l.TotalUSD
		if l.Key != "fiber-mm" && l.Key != "osfp-400x2-mm" {
			t.Errorf("server-leaf BOM line %s %s: want only multimode parts", l.Key, l.Where)
		}
	}
	if usd != 138240 {
		t.Errorf("server-leaf cost $%.0f, want $138,240", usd)
	}
	err := p.WalkCables(func(c *CableRun) error {
		if c.Tier == "server_leaf" && (c.Medium != Multimode || c.AModule != "osfp-400x2-mm" || c.BModule != "osfp-400x2-mm") {
			t.Fatalf("%s>%s on %s with %s/%s", c.ADevice, c.BDevice, c.Medium, c.AModule, c.BModule)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
