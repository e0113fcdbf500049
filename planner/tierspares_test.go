package planner

import (
	"math"
	"testing"

	"fabricplan/planner/hall"
	"fabricplan/planner/resilience"
)

// TestSparesPerSwitchModel: a failed switch draws on the spares of its
// own model. In the Meta scenario (Tomahawk 6 ToRs, Arista 7808R3 chassis
// spines and cores) at 10% spares and a switch failure rate of 0.00612
// per year (data/reliability.toml) set here, 7808R3 at 0.75
// (data/catalog.toml, Alibaba HPN's chassis figure), by hand:
//   - spare switches: ceil(10% of ToRs) + ceil(10% of spines) + ceil(10%
//     of cores), whole switches only (a chassis's spare line cards and
//     fabric modules are parts, not switches);
//   - a ToR's cover: SpareCover(ceil(0.1 L), L, 0.00612, 24 h);
//   - a spine's and a core's: SpareCover(ceil(0.1 S) + ceil(0.1 C), S +
//     C, 0.75, 24 h), the two chassis tiers sharing their spares.
//
// Sizes on and off the 3,072-GPU pod grid.
// Mutations caught: every tier drawing on one pool of all spare switches
// at the fleet's rate (a spare ToR counted as covering a chassis spine);
// spare line cards counted as spare switches.
func TestSparesPerSwitchModel(t *testing.T) {
	cat := testCatalog(t)
	meta := scenarioFile(t, "meta-roce-24k")
	const repair, fleet, chassis = 24.0, 0.00612, 0.75
	for _, gpus := range []int{3072, 7001, 12288} {
		s := flatLengths(meta)
		s.Cluster.GPUs = gpus
		s.Reliability = &ReliabilityInputs{SpareSwitchesPct: f64(10), RepairHours: f64(repair), SwitchPerYear: f64(fleet)}
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		L, S, C := p.Switches(TierLeaf), p.Switches(TierSpine), p.Switches(TierCore)
		tenth := func(n int) int { return (n + 9) / 10 }
		if want := tenth(L) + tenth(S) + tenth(C); p.Spares.Switches != want {
			t.Errorf("%d GPUs: %d spare switches, want %d + %d + %d", gpus, p.Spares.Switches, tenth(L), tenth(S), tenth(C))
		}
		for _, c := range []struct {
			comp          string
			spares, parts int
			rate          float64
		}{
			{resilience.FailLeaf, tenth(L), L, fleet},
			{resilience.FailSpine, tenth(S) + tenth(C), S + C, chassis},
			{resilience.FailCore, tenth(S) + tenth(C), S + C, chassis},
		} {
			want := resilience.SpareCover(c.spares, c.parts, c.rate, repair)
			if got := failureCase(t, p, c.comp).SpareCover; math.Abs(got-want) > 1e-12 {
				t.Errorf("%d GPUs: %s cover %v, want %v (%d spares for %d switches at %g a year)", gpus, c.comp, got, want, c.spares, c.parts, c.rate)
			}
		}
	}
}

// TestChassisInstalledPortsAndPeak: a semi-populated chassis installs
// only its bought cards' ports and draws only their power. The Meta
// scenario (Tomahawk 4 ToRs at 64 x 400G, Arista 7808R3 spines and
// cores of 7800R3A-36D cards, 36 x 400G each), by hand: ports installed
// = ToRs x 64 + chassis cards x 36; a spine rack's peak = its spines x
// (300 W base + 6 x 370 W fabric modules + cards x (533 W + 36 x the
// 400G QSFP-DD module's watts)), cards those of the fullest spine; a
// core rack's alike (Meta's spines run nearly full, its cores do not).
// Sizes on and off the pod grid.
// Mutations caught: installed ports counting every slot (8 x 36 = 288
// a chassis), a spine or core rack budgeted at a full chassis's peak.
func TestChassisInstalledPortsAndPeak(t *testing.T) {
	cat := testCatalog(t)
	meta := scenarioFile(t, "meta-roce-24k")
	for _, gpus := range []int{1000, 3072, 7001, 24576} {
		s := meta
		s.Cluster.GPUs = gpus
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		cards := 0
		for _, l := range p.BOM {
			if l.Key == "arista-7808r3/card" && !l.Spare {
				cards += l.Qty
			}
		}
		if want := p.Switches(TierLeaf)*64 + cards*36; p.PortsTotal != want {
			t.Errorf("%d GPUs: %d ports installed, want %d ToRs x 64 + %d cards x 36 = %d", gpus, p.PortsTotal, p.Switches(TierLeaf), cards, want)
		}
		mod, _ := cat.Module("qsfp-dd", 400, 1, p.endLane("leaf_spine", cat.Switches["arista-7808r3"]), 0)
		racks := 0
		for tier, kind := range map[int]string{1: hall.RackSpine, 2: hall.RackCore} {
			maxCards := 0 // the fullest switch's cards: 36 ports each
			for _, l := range p.tierLoads[tier] {
				maxCards = max(maxCards, ceilDiv(l.Down+l.Up, 36))
			}
			perSwitch := (300 + 6*370 + float64(maxCards)*(533+36*mod.Watts)) / 1000
			for _, r := range p.Hall.Racks {
				if r.Kind != kind {
					continue
				}
				racks++
				if want := float64(r.Switches) * perSwitch; math.Abs(r.PeakKW-want) > 1e-6 {
					t.Errorf("%d GPUs: %s rack %s peaks at %.3f kW, want %d x %.3f kW (%d cards)", gpus, kind, r.Name, r.PeakKW, r.Switches, perSwitch, maxCards)
				}
			}
		}
		if racks == 0 {
			t.Errorf("%d GPUs: no spine rack", gpus)
		}
	}
}

// TestLeafChassisPeak: a chassis named as the leaf's switch is budgeted
// in its rack, as the spines' and cores' are, at its base, fabric modules
// and the line cards of the fullest leaf with one module a cage of their
// ports (Arista 7808R3 figures from data/catalog.toml: 300 W base, six
// 370 W fabric modules, 533 W a 36-port card; 400G single-link cages), at
// sizes that leave a leaf's slots empty (100 and 1,000 GPUs) and fill
// more (3,000).
// Mutation caught: the leaf's rack budgeted at every slot of the chassis
// (switchPeakKW of the whole frame) where the spines' count bought cards.
func TestLeafChassisPeak(t *testing.T) {
	cat := testCatalog(t)
	sw := cat.Switches["arista-7808r3"]
	for _, gpus := range []int{100, 1000, 3000} {
		s := NewScenario()
		s.Cluster.GPUs = gpus
		s.Network.Fabric, s.Network.NICGbps, s.Network.Switch = Ethernet, 400, "arista-7808r3"
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", gpus, err)
		}
		mod, _ := cat.Module("qsfp-dd", 400, 1, p.endLane("server_leaf", sw), 0)
		if mod == nil {
			t.Fatalf("%d GPUs: no 400G module for the 7808R3", gpus)
		}
		maxCards := 0
		for _, l := range p.tierLoads[0] {
			maxCards = max(maxCards, ceilDiv(l.Down+l.Up, 36))
		}
		if maxCards >= 8 && gpus < 3000 {
			t.Fatalf("%d GPUs: the leaf fills all 8 slots (%d cards): no empty slot to test", gpus, maxCards)
		}
		perSwitch := (300 + 6*370 + float64(maxCards)*(533+36*mod.Watts)) / 1000
		racks := 0
		for _, r := range p.Hall.Racks {
			if r.Kind != hall.RackLeaf {
				continue
			}
			racks++
			if want := float64(r.Switches) * perSwitch; math.Abs(r.PeakKW-want) > 1e-6 {
				t.Errorf("%d GPUs: leaf rack %s peaks at %.3f kW, want %d x %.3f kW (%d cards)", gpus, r.Name, r.PeakKW, r.Switches, perSwitch, maxCards)
			}
		}
		if racks == 0 {
			t.Errorf("%d GPUs: no leaf rack", gpus)
		}
	}
}
