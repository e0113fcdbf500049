package planner

import (
	"math"
	"strings"
	"testing"

	"fabricplan/planner/resilience"
)

// Spare lines round up per line and cover only switches, transceivers
// and active optical cables: 10% of 40 switches is 4 (not 5 from float
// rounding), 10% of 7 AOCs is 1, copper cables and NICs get none. Spares
// sit on the shelf: no watts. Mutations caught: rounding down, spares
// for DAC, spares drawing power, the optics counted on the wrong tier.
func TestSpareLines(t *testing.T) {
	p := &Plan{BOM: []BOMLine{
		{Category: CatNIC, Key: "nic", Qty: 1000, UnitUSD: 1},
		{Category: CatSwitch, Key: "sw", Where: "leaf", tier: "leaf", Qty: 40, UnitUSD: 100, UnitWatts: 500},
		{Category: CatTransceiver, Key: "osfp", Where: "switch side, leaf_spine", tier: "leaf_spine", Qty: 33, UnitUSD: 10, UnitWatts: 15},
		{Category: CatCable, Key: string(AOC), Where: "spine_core 30 m", tier: "spine_core", Qty: 7, UnitUSD: 20},
		{Category: CatCable, Key: string(DAC), Where: "server_leaf 2 m", tier: "server_leaf", Qty: 100, UnitUSD: 5},
	}}
	lines := p.spareLines(resilience.Spares{SwitchesPct: 10, OpticsPct: 10})
	want := map[string]int{"sw": 4, "osfp": 4, string(AOC): 1}
	if len(lines) != len(want) {
		t.Fatalf("spare lines %+v, want %v", lines, want)
	}
	for _, l := range lines {
		if l.Qty != want[l.Key] || !l.Spare || l.UnitWatts != 0 || !strings.HasPrefix(l.Where, "spares, ") {
			t.Errorf("spare line %+v, want %d of %s on the shelf", l, want[l.Key], l.Key)
		}
	}
	sp := p.Spares
	if sp.Switches != 4 || sp.Optics.LeafSpine != 4 || sp.Optics.SpineCore != 1 || sp.Optics.ServerLeaf != 0 || sp.Optics.Total != 5 {
		t.Errorf("spare counts %+v", sp)
	}
	if want := 4*100.0 + 4*10 + 1*20; sp.USD != want {
		t.Errorf("spares cost $%v, want $%v", sp.USD, want)
	}
}

// Spares in a whole plan, by hand from the 1,024-GPU NDR plan (32
// leaves, 16 spines; 1,024 server modules, 512 twin-port modules at the
// leaves' server side, 1,024 on leaf-spine ends): 10% of switches is 4 +
// 2, 5% of optics 52 + 26 + 52. At prices set to $10,000 a switch, $500
// and $1,000 a module the spares cost 6 x 10,000 + 52 x 500 + 78 x 1,000
// = $164,000, added to the fabric's cost, not its power or its counts.
// Mutations caught: spares left out of the cost, counted as switches in
// use, given power.
// At the flat per-tier lengths (flatLengths): its hand figures count one medium per tier.
func TestSparesInPlan(t *testing.T) {
	s := flatLengths(NewScenario())
	s.Prices = map[string]float64{"qm9700": 10000, "osfp-400x1": 500, "osfp-400x2": 1000}
	without := mustBuild(t, s)
	s.Reliability = &ReliabilityInputs{SpareSwitchesPct: f64(10), SpareOpticsPct: f64(5)}
	with := mustBuild(t, s)
	if with.Spares.Switches != 6 || with.Spares.Optics.Total != 130 || with.Spares.Optics.ServerLeaf != 78 || with.Spares.Optics.LeafSpine != 52 {
		t.Errorf("spares %+v, want 6 switches, 78 + 52 optics", with.Spares)
	}
	if d := with.Cost.Total - without.Cost.Total; d != 164000 || with.Spares.USD != 164000 {
		t.Errorf("spares add $%v (recorded $%v), want $164,000", d, with.Spares.USD)
	}
	if with.Power.Total != without.Power.Total || with.TotalSwitches() != without.TotalSwitches() ||
		with.SwitchTransceivers != without.SwitchTransceivers {
		t.Errorf("spares changed power or counts in use: %v W vs %v W, %d vs %d switches", with.Power.Total, without.Power.Total,
			with.TotalSwitches(), without.TotalSwitches())
	}
}

// Spares cut the time a failed switch or optical link stays down from
// the repair time to the swap time, and so the GPUs out and the JCT
// counting failures; parts without spares (NICs, servers) keep the
// repair time. Copper links are not covered by spare optics. Mutations
// caught: spares ignored in the repair time, optics spares applied to a
// DAC tier, spares shortening the restart itself.
func TestSparesShortenRepairs(t *testing.T) {
	s := NewScenario()
	without := mustBuild(t, s)
	s.Reliability = &ReliabilityInputs{SpareSwitchesPct: f64(10), SpareOpticsPct: f64(10), SwapHours: f64(2), RepairHours: f64(24)}
	with := mustBuild(t, s)
	for _, comp := range []string{resilience.FailLeaf, resilience.FailSpine, resilience.FailServerLink, resilience.FailLeafSpine} {
		c := failureCase(t, with, comp)
		if !(c.SpareCover > 0.999) || math.Abs(c.RepairHours-2) > 0.05 {
			t.Errorf("%s with spares: cover %v, repair %v h, want about 2 h", comp, c.SpareCover, c.RepairHours)
		}
		if c0 := failureCase(t, without, comp); c0.SpareCover != 0 || c0.RepairHours != 24 {
			t.Errorf("%s without spares: cover %v, repair %v h, want 24 h", comp, c0.SpareCover, c0.RepairHours)
		}
	}
	if c := failureCase(t, with, resilience.FailNIC); c.RepairHours != 24 {
		t.Errorf("NIC repair %v h with switch and optics spares, want 24 h", c.RepairHours)
	}
	g, g0 := with.Resilience.Goodput, without.Resilience.Goodput
	if !(g.GPUsDown < g0.GPUsDown) || !(g.JCTDays < g0.JCTDays) || g.ETTR != g0.ETTR {
		t.Errorf("spares: %v GPUs down, JCT %v d, ETTR %v; without: %v, %v d, %v", g.GPUsDown, g.JCTDays, g.ETTR, g0.GPUsDown, g0.JCTDays, g0.ETTR)
	}
	if txt := with.SparesText(); !strings.Contains(txt, "back in 2.0 hours on average, not 24.0 hours") || !strings.Contains(txt, "Restarts still take 5 min") {
		t.Errorf("spares text: %s", txt)
	}

	s.Network.Media.LeafSpine, s.Network.Media.LeafSpineM = DAC, 2
	dac := mustBuild(t, s)
	if c := failureCase(t, dac, resilience.FailLeafSpine); c.SpareCover != 0 || c.RepairHours != 24 {
		t.Errorf("DAC leaf-spine link with optics spares: cover %v, repair %v h, want 24 h", c.SpareCover, c.RepairHours)
	}
}

// GPUs down by hand: only servers fail, 0.365 a year each, so 128
// servers fail 0.128 times a day; each idles 8 GPUs for 24 h, so 0.128
// x 8 = 1.024 GPUs are out on average. Mutations caught: repair hours
// left out, GPUs affected (8) confused with a rack unit, survivable
// failures counted as GPUs down.
func TestGPUsDownByHand(t *testing.T) {
	s := NewScenario()
	zero := f64(0)
	s.Reliability = &ReliabilityInputs{GPUPerYear: zero, HostPerYear: f64(0.365), NICPerYear: zero, LinkPerYear: zero, SwitchPerYear: zero, RepairHours: f64(24)}
	p := mustBuild(t, s)
	g := p.Resilience.Goodput
	if math.Abs(g.GPUsDown-1.024) > 1e-9 {
		t.Errorf("GPUs down %v, want 1.024", g.GPUsDown)
	}
	// 0.128 of a server out: the step time is 0.872 of the intact one
	// and 0.128 of the one without a server.
	one := failureCase(t, p, resilience.FailHost).Slowdown
	if want := 0.872 + 0.128*one; math.Abs(g.DegradedSlowdown-want) > 1e-9 {
		t.Errorf("degraded slowdown %v, want %v", g.DegradedSlowdown, want)
	}
}
