package planner

import (
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

func bomKeys(p *Plan) map[string]int {
	out := map[string]int{}
	for _, l := range p.BOM {
		out[l.Key+" "+l.Where] += l.Qty
	}
	return out
}

// Each tier takes the cheapest medium offered at its speed that reaches
// its length, and each transceiver its reach. Hand checks on 1,024 GPUs of
// NDR in three tiers (forced) with the default lengths 20/50/150 m: server
// side 100 m DR4 modules; leaf-spine 100 m twin-port; spine-core beyond
// 100 m takes the 500 m twin-port part. Mutation caught: one module type
// for every tier (500 m parts rated 100 m).
// At the flat per-tier lengths (flatLengths): the test is about those lengths.
func TestMediaByReach(t *testing.T) {
	cat := testCatalog(t)
	s := flatIB(4096)
	s.Network.Tiers = 3
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	k := bomKeys(p)
	if k["osfp-400x2 switch side, leaf_spine"] == 0 || k["osfp-400x2-500m switch side, spine_core"] == 0 || k["osfp-400x2 switch side, spine_core"] != 0 {
		t.Errorf("tier modules: %v", k)
	}
	for _, tier := range p.LinkTiers {
		if tier.Medium != Optics {
			t.Errorf("%s at %g m on NDR: %s, want transceivers (no DAC/ACC reach, no twin-port AOC)", tier.Name, tier.Metres, tier.Medium)
		}
	}
	// Top-of-rack 2 m server links: passive copper is cheapest.
	s = flatIB(256)
	s.Network.RailOptimized = false
	if p, err = Build(s, cat); err != nil || p.LinkTiers[0].Medium != DAC {
		t.Errorf("ToR 2 m: %v, %v; want dac", p.LinkTiers[0].Medium, err)
	}
}

// Media that do not exist are errors naming the part and the reason.
// Mutations caught: DAC offered at 800G XDR; a twin-port AOC between NDR
// switches; a length past every transceiver's reach accepted.
func TestMediaThatDoNotExist(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name  string
		set   func(s *Scenario)
		field string
		want  string
	}{
		{"XDR DAC", func(s *Scenario) {
			s.Network.NICGbps, s.Network.Switch, s.Network.RailOptimized = 800, "q3400", false
			s.Network.Media.ServerLeaf = DAC
		}, "network.media.server_leaf", "XDR"},
		{"NDR twin-port AOC between switches", func(s *Scenario) { s.Network.Media.LeafSpine = AOC }, "network.media.leaf_spine", "twin-port"},
		{"past every transceiver", func(s *Scenario) { s.Network.Media.LeafSpineM = 900 }, "network.media.leaf_spine_m", "500 m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(1024)
			tc.set(&s)
			_, err := Build(s, cat)
			fes := fielderr.FieldErrors(err)
			if len(fes) == 0 || fes[0].Field != tc.field || !strings.Contains(fes[0].Error(), tc.want) {
				t.Errorf("err = %v, want %s naming %q", err, tc.field, tc.want)
			}
		})
	}
}

// A ConnectX-7 OSFP card has one 400G port: no transceiver splits it.
func TestCX7HasNoSplit(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(1024)
	s.Network.NIC, s.Network.PortsPerNIC = "cx7-400", 2
	if _, err := Build(s, cat); !namesField(err, "network.ports_per_nic") {
		t.Errorf("cx7-400 split in two: %v", err)
	}
}
