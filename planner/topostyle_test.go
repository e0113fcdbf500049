package planner

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"fabricplan/planner/resilience"
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
// plan, or shown for rail-optimized leaves (which have spines); the
// estimate handed the plan's check on no fabric (perfJob hands it over
// on rail-only fabrics alone, which it finds nothing beyond).
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

// TestAlibabaHPNPod reproduces a pod of Alibaba HPN (Qian et al., "Alibaba
// HPN: A Data Center Network for Large Language Model Training", SIGCOMM
// 2024; research/networks.md, reliability.md): hosts of 8 GPUs and 8 NICs
// of 2 x 200G, each port to one ToR of a pair in two planes; segments of
// 1,024 GPUs (128 hosts under each ToR); 51.2T single-chip switches; a
// ToR with 128 x 200G down and 60 x 400G (here 120 x 200G) up; 15
// segments, 15,360 GPUs, a pod of two tiers. Hand count on Tomahawk 5 at
// 200G (256 ports), leaf 16:15 (128:120):
//   - per plane 1,920 hosts x 8 rails: 15 units of 128 hosts, 8 leaves
//     each: 120 ToRs, 240 in both planes;
//   - 120 x 120 = 14,400 uplinks a plane: 57 aggregation switches carry
//     them (256 ports), strict balance needs a divisor of 120: 60, 3
//     more, within one unit's worth (8 x 120 / 256 = 4): 60 a plane, as
//     HPN's ToRs reach 60 aggregation switches; 120 in all;
//   - one ToR lost: every host keeps its other port: 15/16 of its
//     bandwidth, as HPN measured (section 9.3: -6.25% with one port down)
//     and no GPU idle.
//
// Mutations caught: the two ports of a NIC sent to one plane (a ToR loss
// cuts the NIC), the 2-port NIC refused on Ethernet (the issue's
// refusal), a dual-plane style that leaves the ports unsplit.
func TestAlibabaHPNPod(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs = 15360
	n := &s.Network
	n.Fabric, n.Switch, n.Topology, n.Oversubscription, n.UplinkGbps = Ethernet, "tomahawk5", TopoDualPlane, "16:15", 400
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	// HPN §4-5: a ToR has 128 x 200G down and 60 x 400G up (25.6 : 24
	// Tb/s = 16:15 in bandwidth); 15 segments x 8 rails = 120 ToRs and
	// 60 aggregation switches per plane, each ToR one 400G link to
	// every aggregation switch of its plane (7,200 links per plane).
	got := fmt.Sprint(p.NIC.Key, p.PortGbps, p.UplinkGbps, p.Planes, p.Tiers, p.Switches(TierLeaf), p.Switches(TierSpine), p.ServersPerUnit, p.NICs,
		p.SwitchTiers[0].DownPorts, p.SwitchTiers[0].UpPorts, p.Links.LeafSpine)
	want := fmt.Sprint("cx7-2x200", 200, 400, 2, 2, 240, 120, 128, 15360, 128, 60, 14400)
	if got != want {
		t.Errorf("HPN pod: NIC, port G, uplink G, planes, tiers, ToRs, aggs, hosts a segment, NICs, ToR down, ToR up, ToR-agg links = %s, want %s", got, want)
	}
	if o := p.BuiltOversubscription(); len(o) == 0 || math.Abs(o[0].Ratio-16.0/15) > 1e-9 {
		t.Errorf("HPN ToR built %v, want 16:15 in bandwidth (128 x 200G over 60 x 400G)", o)
	}
	leaf := failureCase(t, p, resilience.FailLeaf)
	if leaf.GPUsIdle != 0 || leaf.Fatal || math.Abs(leaf.BandwidthLeft-15.0/16) > 1e-9 {
		t.Errorf("one ToR lost: %d GPUs idle, fatal %v, %.4f of a host's bandwidth left, want 0, false, 0.9375", leaf.GPUsIdle, leaf.Fatal, leaf.BandwidthLeft)
	}
}

// TestDualPlaneSurvivesToRLoss: over sizes, systems and fabrics, a
// dual-plane fabric keeps every server reachable after one ToR's loss:
// the job continues, no GPU idles, and the worst server keeps all but
// one of its ports. Mutations caught: both ports of a NIC on one ToR
// (the loss would cut the NIC: a restart), ports-per-NIC left at one.
func TestDualPlaneSurvivesToRLoss(t *testing.T) {
	cat := testCatalog(t)
	configs := map[string]func(s *Scenario){
		"RoCE tomahawk5 400G": func(s *Scenario) { s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk5" },
		"RoCE sn5600 2:1": func(s *Scenario) {
			s.Network.Fabric, s.Network.Switch, s.Network.Oversubscription = Ethernet, "sn5600", "2:1"
		},
		"RoCE 800G cx8":  func(s *Scenario) { s.Network.Fabric, s.Network.NICGbps = Ethernet, 800 },
		"IB 400G qm9700": func(s *Scenario) { s.Network.Switch = "qm9700" },
		"dgx-b300 IB":    func(s *Scenario) { s.Cluster.System = "dgx-b300" },
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			for _, g := range []int{16, 200, 1000, 4104, 12000} {
				s := NewScenario()
				cfg(&s)
				s.Cluster.GPUs, s.Network.Topology = g, TopoDualPlane
				p, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%d GPUs: %v", g, err)
				}
				leaf := failureCase(t, p, resilience.FailLeaf)
				ports := float64(p.ServerPorts)
				if leaf.Fatal || leaf.GPUsIdle != 0 || leaf.BandwidthLeft < (ports-1)/ports-1e-9 {
					t.Errorf("%d GPUs: one ToR lost: fatal %v, %d GPUs idle, %.3f bandwidth left of %d ports", g, leaf.Fatal, leaf.GPUsIdle, leaf.BandwidthLeft, p.ServerPorts)
				}
				if p.Planes%2 != 0 || p.Scenario.Network.PortsPerNIC%2 != 0 {
					t.Errorf("%d GPUs: %d planes, %d ports a NIC", g, p.Planes, p.Scenario.Network.PortsPerNIC)
				}
			}
		})
	}
}
