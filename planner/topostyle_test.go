package planner

import (
	"fmt"
	"strings"
	"testing"
)

// TestRailOnlyHandCount reproduces the rail-only design of Wang et al.,
// "How to Build Low-cost Networks for Large Language Models (without
// Sacrificing Performance)" (arXiv 2307.12169): the spine joining rails
// removed, each rail its own Clos ("per-rail Clos networks"). Hand counts
// on QM9700 (64 x 400G), 8-GPU servers, one NIC per GPU:
//   - 512 GPUs: 64 servers, one rail's 64 ports fill one switch: 8
//     switches, one tier, 512 links (rail-optimized needs 16 leaves and 8
//     spines, two tiers);
//   - 4,096 GPUs: a rail's 512 ports need a two-tier Clos of its own: 16
//     leaves of 32 down and 32 up, 512 uplinks on 8 switches of 64; 8
//     rails: 128 leaves, 64 upper switches, 4,096 + 4,096 links.
//
// Mutations caught: rail-only refused past one tier (the issue's
// `--tiers 1` refusal), the rails sized as one plane (spines joining
// rails), the rail networks not multiplied out.
func TestRailOnlyHandCount(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		gpus                                 int
		tiers, leaves, upper, serverLeaf, up int
	}{
		{512, 1, 8, 0, 512, 0},
		{4096, 2, 128, 64, 4096, 4096},
	} {
		s := ibScenario(tc.gpus)
		s.Network.Topology = TopoRailOnly
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", tc.gpus, err)
		}
		got := fmt.Sprint(p.Tiers, p.Switches(TierLeaf), p.Switches(TierSpine), p.Links.ServerLeaf, p.Links.LeafSpine)
		want := fmt.Sprint(tc.tiers, tc.leaves, tc.upper, tc.serverLeaf, tc.up)
		if got != want {
			t.Errorf("%d GPUs rail-only: tiers, leaves, upper, server links, uplinks = %s, want %s", tc.gpus, got, want)
		}
	}
}

// TestRailOnlyNeverJoinsRails: over sizes, systems and fabrics, no switch
// of a rail-only fabric carries two rails (every switch reached from a
// server reaches only switches of that server port's rail), a rail that
// fits one switch has no spine at all, and the cable map has the plan's
// links. Mutations caught: a spine joining rails (rails sized together),
// NIC ports of one rail spread over two rail networks, an upper tier
// added where one switch holds the rail.
func TestRailOnlyNeverJoinsRails(t *testing.T) {
	cat := testCatalog(t)
	configs := map[string]func(s *Scenario){
		"qm9700 NDR":          func(s *Scenario) { s.Network.Switch = "qm9700" },
		"tomahawk5 RoCE":      func(s *Scenario) { s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk5" },
		"gb300-nvl72 q3400":   func(s *Scenario) { s.Cluster.System, s.Network.Switch = "gb300-nvl72", "q3400" },
		"dgx-b200 2 planes":   func(s *Scenario) { s.Cluster.System, s.Network.Planes = "dgx-b200", 2 },
		"cx8 2x400 tomahawk5": func(s *Scenario) { s.Network.Fabric, s.Network.NICGbps, s.Network.Switch = Ethernet, 800, "tomahawk5" },
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			for _, g := range []int{8, 72, 500, 1000, 1152, 4100, 9001} {
				s := NewScenario()
				cfg(&s)
				s.Cluster.GPUs, s.Network.Topology = g, TopoRailOnly
				p, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%d GPUs: %v", g, err)
				}
				checkPlanInvariants(t, g, p)
				perRail := p.Servers * p.RailsPerPlane
				if perRail <= p.Switch.Radix(p.PortGbps) && (p.Tiers != 1 || p.Switches(TierSpine) != 0) {
					t.Errorf("%d GPUs: a rail of %d ports fits one switch, got %d tiers, %d spines", g, perRail, p.Tiers, p.Switches(TierSpine))
				}
				checkOneRailPerSwitch(t, p)
			}
		})
	}
}

// checkOneRailPerSwitch walks the cable map: a switch takes the rails of
// the node ports (U<NIC>/P<port>) below it, and of the switches below
// it; each must end with one rail.
func checkOneRailPerSwitch(t *testing.T, p *Plan) {
	t.Helper()
	rails := map[string]map[string]bool{}
	links := 0
	err := p.WalkCables(func(c *CableRun) error {
		links++
		if rails[c.BDevice] == nil {
			rails[c.BDevice] = map[string]bool{}
		}
		if c.Tier == "server_leaf" {
			rails[c.BDevice][c.APort] = true
			return nil
		}
		for r := range rails[c.ADevice] {
			rails[c.BDevice][r] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if links != p.Links.Total {
		t.Errorf("%d GPUs: cable map has %d links, the plan %d", p.GPUs, links, p.Links.Total)
	}
	for dev, rs := range rails {
		if len(rs) != 1 {
			t.Fatalf("%d GPUs: switch %s carries node ports %v, more than one rail", p.GPUs, dev, rs)
		}
	}
}

// TestRailOnlyNVLinkFinding: rail-only moves traffic between rails over
// NVLink, so servers whose NVLink domain is smaller than the server
// (16 H100 with 8-GPU NVLink) leave cross-rail traffic without a path: a
// finding, with the plan still built. DGX H100 (domain 8 = server) has
// none. Mutations caught: the finding missing, shown on every rail-only
// plan, or shown for rail-optimized leaves (which have spines).
func TestRailOnlyNVLinkFinding(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name    string
		edit    func(s *Scenario)
		finding bool
	}{
		{"16-GPU servers, rail-only", func(s *Scenario) { s.Cluster.GPUsPerServer, s.Network.Topology = 16, TopoRailOnly }, true},
		{"dgx-h100, rail-only", func(s *Scenario) { s.Cluster.System, s.Network.Topology = "dgx-h100", TopoRailOnly }, false},
		{"16-GPU servers, rail-optimized", func(s *Scenario) { s.Cluster.GPUsPerServer = 16 }, false},
	} {
		s := ibScenario(1024)
		tc.edit(&s)
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := strings.Contains(strings.Join(p.JCT.Findings, "\n"), "rail-only without NVLink reach")
		if got != tc.finding {
			t.Errorf("%s: finding %v, want %v (%q)", tc.name, got, tc.finding, p.JCT.Findings)
		}
	}
}

// TestTopologyErrors: an unknown style names the field and the choices.
// Mutation caught: an unknown topology silently planned as the default.
func TestTopologyErrors(t *testing.T) {
	s := ibScenario(1024)
	s.Network.Topology = "dragonfly"
	_, err := Build(s, testCatalog(t))
	if err == nil || !strings.Contains(err.Error(), "network.topology") || !strings.Contains(err.Error(), "rail-only") {
		t.Errorf("error %v, want one naming network.topology and the styles", err)
	}
}
