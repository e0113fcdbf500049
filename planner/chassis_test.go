package planner

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/hall"
)

// testChassis adds to cat a chassis with round figures for hand sums: 8
// slots of 36 x 400G cards at $40,000 and 500 W, six fabric modules at
// $8,000 and 300 W, a base at $50,000 and 400 W; 100G lanes and OSFP
// twin-port cages so the catalog's Tomahawk 5 leaves join it.
func testChassis(t testing.TB, cat *Catalog) *Switch {
	t.Helper()
	sw := &Switch{Key: "test-chassis", Name: "Test chassis", RackUnits: 16, Fabric: Ethernet, LaneGbps: []int{100}, Form: "osfp",
		CageLinks: map[string]int{"400": 2}, Provenance: Provenance{Pricing: cat.Switches["tomahawk5"].Pricing},
		Chassis: &Chassis{Slots: 8, CardName: "test card", CardPorts: map[string]int{"400": 36},
			CardUSD: 40000, CardRangeUSD: [2]float64{40000, 40000}, CardWatts: 500,
			FabricModules: 6, FabricUSD: 8000, FabricRangeUSD: [2]float64{8000, 8000}, FabricWatts: 300,
			BaseUSD: 50000, BaseRangeUSD: [2]float64{50000, 50000}, BaseWatts: 400}}
	if err := sw.check(sw.Key); err != nil {
		t.Fatal(err)
	}
	if err := checkUnitPrice("switch "+sw.Key, sw); err != nil {
		t.Fatal(err)
	}
	cat.Switches[sw.Key] = sw
	return sw
}

// TestChassisSpineBOM: chassis spines over Tomahawk 5 leaves (128 x 400G,
// rail-optimized, 1:1: 64 servers a leaf, 64 uplinks), cards counted by
// hand. 192 GPUs: 24 servers, 8 leaves x 24 uplinks = 192 links on one
// spine, ceil(192/36) = 6 cards. 1,000 GPUs: 125 servers, 8 leaves of 64
// and 8 of 61, 1,000 links on 4 spines of 250, ceil(250/36) = 7 cards
// each, 28. 4,096 GPUs: 512 servers, 64 leaves x 64 = 4,096 links on 16
// spines of 256, ceil(256/36) = 8 cards each (full), 128. Spine tier
// cost = spines x ($50,000 + 6 x $8,000) + cards x $40,000; power =
// spines x (400 + 6 x 300) W + cards x 500 W. Mutations caught: every
// chassis bought full, fabric modules counted once per tier, the full
// chassis price charged beside its parts, cards counted per plane once.
func TestChassisSpineBOM(t *testing.T) {
	for _, tc := range []struct {
		gpus, spines, cards int
	}{
		{192, 1, 6},
		{1000, 4, 28},
		{4096, 16, 128},
	} {
		cat := testCatalog(t)
		sw := testChassis(t, cat)
		s := NewScenario()
		s.Cluster.GPUs = tc.gpus
		s.Network.Fabric, s.Network.Switch, s.Network.SpineSwitch = Ethernet, "tomahawk5", sw.Key
		p, err := Build(flatLengths(s), cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Switches(TierSpine) != tc.spines {
			t.Fatalf("%d GPUs: %d spines, want %d", tc.gpus, p.Switches(TierSpine), tc.spines)
		}
		var usd, watts float64
		cards := 0
		for _, l := range p.BOM {
			if l.Category == CatSwitch && l.Where == TierSpine {
				usd += l.TotalUSD
				watts += l.TotalWatts
				if strings.HasSuffix(l.Key, "/card") {
					cards += l.Qty
				}
			}
		}
		wantUSD := float64(tc.spines)*(50000+6*8000) + float64(tc.cards)*40000
		wantW := float64(tc.spines)*(400+6*300) + float64(tc.cards)*500
		if cards != tc.cards || math.Abs(usd-wantUSD) > 1e-6 || math.Abs(watts-wantW) > 1e-6 {
			t.Errorf("%d GPUs: %d cards, $%.0f, %.0f W; want %d, $%.0f, %.0f W", tc.gpus, cards, usd, watts, tc.cards, wantUSD, wantW)
		}
		if got := p.Cost.Switches - float64(p.Switches(TierLeaf))*150000; math.Abs(got-wantUSD) > 1e-6 {
			t.Errorf("%d GPUs: switch cost beside the leaves $%.0f, want the spines' $%.0f", tc.gpus, got, wantUSD)
		}
	}
}

// TestChassisSemiPopulated: over sizes off the grid, two and three
// tiers, planes and ratios, a chassis tier never holds more cards than
// its slots, never costs or draws more than its chassis bought full, and
// holds at least the cards its links need (links / ports per card).
// Mutations caught: a card count past the slots, a card for each port, a
// semi-populated chassis priced above a full one.
func TestChassisSemiPopulated(t *testing.T) {
	cat := testCatalog(t)
	sw := testChassis(t, cat)
	for _, tc := range []struct {
		gpus, tiers, planes int
		spineRatio          string
	}{
		{100, 0, 1, ""}, {333, 2, 1, ""}, {777, 0, 2, ""}, {3000, 3, 1, ""}, {5000, 3, 1, "7:1"}, {12000, 0, 1, ""},
	} {
		s := NewScenario()
		s.Cluster.GPUs = tc.gpus
		n := &s.Network
		n.Fabric, n.Switch, n.SpineSwitch, n.Tiers, n.Planes, n.SpineOversubscription = Ethernet, "tomahawk5", sw.Key, tc.tiers, tc.planes, tc.spineRatio
		p, err := Build(flatLengths(s), cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", tc.gpus, err)
		}
		for _, tier := range p.SwitchTiers[1:] {
			var usd, watts float64
			cards := 0
			for _, l := range p.BOM {
				if l.Category == CatSwitch && l.Where == tier.Name {
					usd += l.TotalUSD
					watts += l.TotalWatts
					if strings.HasSuffix(l.Key, "/card") {
						cards += l.Qty
					}
				}
			}
			full := float64(tier.Switches)
			if cards > tier.Switches*8 || usd > full*sw.PriceUSD+1e-6 || watts > full*sw.Watts+1e-6 {
				t.Errorf("%d GPUs %s: %d cards for %d chassis, $%.0f, %.0f W: past the full chassis ($%.0f, %.0f W each)",
					tc.gpus, tier.Name, cards, tier.Switches, usd, watts, sw.PriceUSD, sw.Watts)
			}
			ports := tier.DownLinks + tier.UpLinks
			if cards*36 < ports {
				t.Errorf("%d GPUs %s: %d cards hold %d ports, the tier has %d links ending on it", tc.gpus, tier.Name, cards, cards*36, ports)
			}
		}
	}
}

// TestChassisCatalogEntry: the catalog's 7808R3 takes its figures from
// its parts with all 8 slots filled (hand sums from the figures the
// entry cites): 8 x 36 = 288 x 400G (the white paper's 288); $53,400 + 6
// x $8,000 + 8 x $42,200 = $439,000; 300 + 6 x 370 + 8 x 533 = 6,784 W.
// Mutations caught: ports not multiplied by the slots, fabric modules or
// base left out of the price or power.
func TestChassisCatalogEntry(t *testing.T) {
	sw := testCatalog(t).Switches["arista-7808r3"]
	if sw == nil || sw.Chassis == nil {
		t.Fatal("no arista-7808r3 chassis in the catalog")
	}
	if sw.Radix(400) != 288 || sw.PriceUSD != 439000 || sw.Watts != 6784 {
		t.Errorf("7808R3: %d x 400G, $%.0f, %.0f W; want 288, $439,000, 6,784 W", sw.Radix(400), sw.PriceUSD, sw.Watts)
	}
}

// TestChassisCatalogErrors: a chassis table that cannot be built is
// refused by the catalog check with what to fix. Mutations caught: ports
// given beside card ports accepted (counted twice), no slots accepted.
func TestChassisCatalogErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(sw *Switch)
		want string
	}{
		{"ports and card ports", func(sw *Switch) { sw.Ports = map[string]int{"400": 288} }, "card_ports"},
		{"no slots", func(sw *Switch) { sw.Chassis.Slots = 0 }, "slots"},
		{"no card ports", func(sw *Switch) { sw.Chassis.CardPorts = nil }, "card ports"},
		{"range without base", func(sw *Switch) { sw.Chassis.CardRangeUSD = [2]float64{50000, 60000} }, "chassis card"},
	} {
		cat := testCatalog(t)
		sw := *cat.Switches["arista-7808r3"]
		c := *sw.Chassis
		sw.Chassis, sw.Ports = &c, nil
		tc.edit(&sw)
		err := sw.check(sw.Key)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
}

// FuzzChassisCards: whatever ports a switch uses, a chassis holds them in
// at least one and at most its slots' cards, and never in fewer cards
// than the ports need when they fit. Mutation caught: a count past the
// slots or below the ports' need.
func FuzzChassisCards(f *testing.F) {
	f.Add(192, 0, 36, 8)
	f.Add(250, 0, 36, 8)
	f.Add(24, 24, 36, 8)
	f.Add(0, 0, 1, 1)
	f.Add(1000, 7, 16, 4)
	f.Fuzz(func(t *testing.T, down, up, perCard, slots int) {
		if down < 0 || up < 0 || perCard < 1 || slots < 1 || down > 1<<20 || up > 1<<20 || perCard > 1<<10 || slots > 64 {
			return
		}
		c := &Chassis{Slots: slots, CardPorts: map[string]int{"400": perCard}}
		n := c.CardsFor(down, 400, up, 400)
		if n < 1 || n > slots {
			t.Fatalf("%d down %d up, %d a card, %d slots: %d cards", down, up, perCard, slots, n)
		}
		if need := (down + up + perCard - 1) / perCard; need <= slots && n < need {
			t.Fatalf("%d ports need %d cards of %d, got %d", down+up, need, perCard, n)
		}
	})
}

// TestChassisOverFixedLeaves: the catalog's 7808R3 (QSFP-DD, 8 x 50G
// lanes) over Tomahawk 5 leaves (OSFP, 100G lanes): the ends share no
// lane rate, so each end takes its own module of one optical interface
// (400GBASE-DR4): 4,096 GPUs, 512 servers, 64 leaves x 64 uplinks =
// 4,096 leaf-spine links; the leaves' twin-port cages take 64 x 64 / 2 =
// 2,048 osfp-400x2, the spines 4,096 qsfpdd-400x1, laid out in a hall or
// flat. A copper leaf-spine medium is refused naming its field.
// Mutations caught: one module for both ends (the leaf's OSFP in a
// QSFP-DD cage), the module tally sharing a choice across ends, copper
// between ends of different lanes.
func TestChassisOverFixedLeaves(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs = 4096
	s.Network.Fabric, s.Network.Switch, s.Network.SpineSwitch = Ethernet, "tomahawk5", "arista-7808r3"
	for _, sc := range []Scenario{s, flatLengths(s)} {
		p, err := Build(sc, cat)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, l := range p.BOM {
			if l.Category == CatTransceiver && l.tier == "leaf_spine" {
				got[l.Key] += l.Qty
			}
		}
		if got["osfp-400x2"] != 2048 || got["qsfpdd-400x1"] != 4096 || len(got) != 2 {
			t.Errorf("hall %v: leaf-spine modules %v, want 2,048 osfp-400x2 and 4,096 qsfpdd-400x1", p.Hall != nil, got)
		}
	}
	dac := flatLengths(s)
	dac.Network.Media.LeafSpine, dac.Network.Media.LeafSpineM = DAC, 2
	_, err := Build(dac, cat)
	if err == nil || !strings.Contains(err.Error(), "network.media.leaf_spine") {
		t.Errorf("DAC between 100G- and 50G-lane ends: error %v, want one naming network.media.leaf_spine", err)
	}
}

// TestDistributedSwitchEntry: the Arista 7700R4 DES as the catalog
// enters it, a frameless chassis of leaf "cards" and spine "fabric
// modules", against the figures its sources publish (Arista Engineers'
// Exchange 2026.1: a 7700R4C-38PE leaf has 18 x 800G (36 x 400G) host
// ports and 20 x 800G fabric ports, a 7720R4-128PE spine 128 x 800G
// fabric ports). By hand: one spine stage joins 128 leaves on 20 spines,
// 128 x 18 = 2,304 x 800G and 4,608 x 400G host ports; price 20 x
// $81,000 + 128 x $42,200 = $7,021,600; power 20 x 2,000 + 128 x 600 =
// 116,800 W. Plans naming it as the switch, one logical hop (one tier):
// 2,048 GPUs of one 800G port each (docs/scenarios/
// example-arista-7700r4-des-2k.toml): ceil(2,048 / 18) = 114 leaves and
// the 20 spines; 1,000 GPUs at 400G: ceil(1,000 / 36) = 28 leaves; no
// chassis-frame line (a DES has none); each leaf's 20 fabric links cabled
// with a module at each end: 2,280 fibres and 4,560 modules, 560 and
// 1,120. Mutations caught: the slot bound left at 64 (the catalog
// refuses the entry), the leaf's 38 ports all taken as host ports
// (2,048 / 38: 54 leaves), a $0 frame line in the BOM, the 400G host
// ports read at 800G (1,000 / 18: 56 leaves), the fabric links left out
// (as a backplane: no modules).
func TestDistributedSwitchEntry(t *testing.T) {
	cat := testCatalog(t)
	sw := cat.Switches["arista-7700r4"]
	if sw == nil || sw.Chassis == nil {
		t.Fatal("no arista-7700r4 distributed switch in the catalog")
	}
	if sw.Radix(800) != 2304 || sw.Radix(400) != 4608 || sw.Chassis.FabricModules != 20 {
		t.Errorf("7700R4: %d x 800G, %d x 400G, %d spines; want 2,304, 4,608, 20", sw.Radix(800), sw.Radix(400), sw.Chassis.FabricModules)
	}
	if sw.PriceUSD != 7021600 || sw.Watts != 116800 {
		t.Errorf("7700R4: $%.0f, %.0f W; want $7,021,600, 116,800 W", sw.PriceUSD, sw.Watts)
	}
	entered := func(gpus, nicGbps int) Scenario {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs, s.Cluster.GPUsPerServer = CustomSystem, gpus, 8
		s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Switch = Ethernet, nicGbps, 1, sw.Key
		return s
	}
	for _, tc := range []struct {
		s                     Scenario
		gpus, nicGbps, leaves int
	}{
		{docScenario(t, "example-arista-7700r4-des-2k"), 2048, 800, 114},
		{entered(1000, 400), 1000, 400, 28},
	} {
		p, err := Build(flatLengths(tc.s), cat)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("1 tiers, 1/0/0 switches, links %d/0/0", tc.gpus); tierCounts(p) != want || p.SwitchTiers[0].DownGbps != tc.nicGbps {
			t.Errorf("%d GPUs: %s at %dG; want %s at %dG", tc.gpus, tierCounts(p), p.SwitchTiers[0].DownGbps, want, tc.nicGbps)
		}
		qty := map[string]int{}
		for _, l := range p.BOM {
			qty[l.Key] += l.Qty
		}
		if qty[sw.Key+chassisCard] != tc.leaves || qty[sw.Key+chassisFabric] != 20 || qty[sw.Key] != 0 {
			t.Errorf("%d GPUs at %dG: %d leaves, %d spines, %d frames; want %d, 20, 0", tc.gpus, tc.nicGbps,
				qty[sw.Key+chassisCard], qty[sw.Key+chassisFabric], qty[sw.Key], tc.leaves)
		}
		var fabricMods, fabricFibres int
		for _, l := range p.BOM {
			if strings.HasPrefix(l.Where, "fabric links") {
				switch l.Category {
				case CatTransceiver:
					fabricMods += l.Qty
				case CatCable:
					fabricFibres += l.Qty
				}
			}
		}
		if links := 20 * tc.leaves; fabricFibres != links || fabricMods != 2*links {
			t.Errorf("%d GPUs: fabric links %d fibres, %d modules; want %d, %d", tc.gpus, fabricFibres, fabricMods, links, 2*links)
		}
	}
}

// TestChassisFabricLinkCheck: a distributed switch's cabled fabric links
// need a module the catalog has, carrying one link at the cards'
// fastest speed (the 7700R4's 800G), and the two fields together.
// Mutations caught: an unknown module accepted (a nil module at BOM
// time), a twin-port module accepted (half the modules counted), links
// without a module accepted, the catalog load not checking its chassis.
func TestChassisFabricLinkCheck(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name   string
		links  int
		module string
		ok     bool
	}{
		{"as catalogued", 20, "osfp-800x1-dr8", true},
		{"backplane", 0, "", true},
		{"unknown module", 20, "osfp-9000", false},
		{"twin-port module", 20, "osfp-800x2", false},
		{"module at another speed", 20, "osfp-400x1", false},
		{"links without a module", 20, "", false},
		{"a module without links", 0, "osfp-800x1-dr8", false},
	} {
		c := *cat.Switches["arista-7700r4"].Chassis
		c.FabricLinksPerCard, c.FabricLinkModule = tc.links, tc.module
		if err := c.checkFabricLinks(cat); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	src, err := data.FS.ReadFile("catalog.toml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `fabric_link_module = "osfp-800x1-dr8"`, `fabric_link_module = "osfp-9000"`, 1)
	if _, err := ParseCatalog([]byte(bad)); err == nil || !strings.Contains(err.Error(), "fabric_link_module") {
		t.Errorf("the catalog took an unknown fabric-link module: %v", err)
	}
}

// TestDistributedSwitchInHall: the 7700R4 DES of 2,048 GPUs (256
// servers of 8 x 800G, docs/scenarios/example-arista-7700r4-des-2k.toml)
// laid out in the default hall as its boxes, not one 336U frame. By
// hand: 256 servers of 8U and 10.2 kW, 5 a rack (40 free U, 60 kW):
// ceil(256 / 5) = 52 compute racks; 114 leaf boxes of 2U, 20 a rack
// (40 / 2; a box's 0.6 kW and 38 modules of 17 W, 1.246 kW, allow 48):
// 6 leaf racks; 20 spine boxes of 4U, 10 a rack (40 / 4; a spine's 2 kW
// and 114 links' modules, 3.938 kW, allow 15): 2 spine racks; 60 racks.
// Switch port k (server k / 8, its rail k mod 8) is on leaf box k / 18,
// so a leaf rack's 20 boxes take 360 server links, the sixth's 14 boxes
// 2,048 - 5 x 360 = 248. Each box's 20 fabric links, one to each spine,
// are measured: 2,280 fibres over the lengths sold, and the hall's
// links by length count them beside the 2,048 server links: 4,328.
//
// Mutations caught: every server link measured to the first box
// (leafBoxOf 0: 2,048 links in the first leaf rack); the fabric links
// left at one unmeasured length (no length in their bill lines, 2,048
// links by length); each checked.
func TestDistributedSwitchInHall(t *testing.T) {
	cat := testCatalog(t)
	p, err := Build(docScenario(t, "example-arista-7700r4-des-2k"), cat)
	if err != nil {
		t.Fatal(err)
	}
	h := p.Hall
	if h == nil {
		t.Fatalf("no hall: %v", p.Notes)
	}
	kinds := map[string]int{}
	rackKind := map[string]string{}
	var leafRacks []string
	for _, r := range h.Racks {
		kinds[r.Kind]++
		rackKind[r.Name] = r.Kind
		if r.Kind == hall.RackLeaf {
			leafRacks = append(leafRacks, r.Name)
		}
	}
	if kinds[hall.RackCompute] != 52 || kinds[hall.RackLeaf] != 6 || kinds[hall.RackSpine] != 2 || len(h.Racks) != 60 {
		t.Errorf("racks %v, %d in all; want 52 compute, 6 leaf, 2 spine, 60", kinds, len(h.Racks))
	}
	perRack := map[string]int{}
	err = p.WalkCableMap(func(c *CableRun) error {
		if c.Tier == linkTierNames[tierServerLeaf] {
			perRack[c.BRack]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range leafRacks {
		want := 360
		if i == 5 {
			want = 248
		}
		if perRack[name] != want || rackKind[name] != hall.RackLeaf {
			t.Errorf("leaf rack %s: %d server links, want %d", name, perRack[name], want)
		}
	}
	fibres := 0
	for _, l := range p.BOM {
		if l.Key == fiberKey && strings.HasPrefix(l.Where, "fabric links, leaf ") {
			if !strings.HasSuffix(l.Where, " m") {
				t.Errorf("fabric links billed %q, want a measured length", l.Where)
			}
			fibres += l.Qty
		}
	}
	byLength := 0
	for _, b := range h.Figures.Bins {
		byLength += b.Links
	}
	if fibres != 2280 || byLength != 4328 {
		t.Errorf("%d fabric-link fibres, %d links by length; want 2,280 and 4,328", fibres, byLength)
	}
}
