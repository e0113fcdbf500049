package planner

import (
	"fmt"
	"strings"
	"testing"
)

// TestPublishedDesignsNotBuiltOn enters, as a user would (system, GPUs,
// fabric, switch, style, speeds), published designs the planner was not
// built on, and checks the switches per tier, links per tier, the
// scalable unit and the port speeds against the documents' own counts
// or hand counts from the rules they state. docs/superpod.md
// ("Published designs checked") lists what matched and what differs.
//
//   - DeepSeek multi-plane fat tree (Zhao et al., "Insights into
//     DeepSeek-V3", arXiv 2505.09343; its topology table as quoted by
//     eeumee.net, the paper's own text not stored): 8 planes, each GPU's
//     400G ConnectX-7 in its own plane, each plane a two-layer fat tree
//     of 64-port 400G InfiniBand switches, 16,384 endpoints and 768
//     switches. By hand: a plane has 2,048 ports = 64 leaves
//     of 32 down, 32 up, 2,048 uplinks on 32 spines of 64 = 96 switches;
//     8 planes 512 + 256 = 768, 16,384 links at each tier. The same
//     table's three-tier fat tree (FT3): 65,536 endpoints and 5,120
//     switches; by hand k^3/4 = 65,536 ports of k = 64 take 2,048 leaves,
//     2,048 spines (64 pods of 32) and 1,024 cores. Rail-only
//     here: no switch joins two planes, traffic between them crosses
//     NVLink, as the paper's cross-plane forwarding does.
//   - ByteDance MegaScale (Jiang et al., NSDI 2024, the "Network
//     topology" paragraph, quoted whole by the7.net and CSDN): 64 x 400G
//     switches, every tier 32 down and 32 up (1:1);
//     each ToR 400G down port split into two 200G ports, eight 200G NICs
//     per server on eight ToRs (multi-rail), 64 servers under one set of
//     ToRs. On the catalog's QM9700 (the same 64 x 400G / 128 x 200G
//     cages as the paper's Tomahawk 4; no 25.6T Ethernet switch is in the
//     catalog) with 200G server ports and 400G uplinks, 10,240 GPUs = 1,280
//     servers: 20 units of 64 servers, 160 leaves; a pod is 32 leaves (a
//     spine's 32 down ports) on 32 spines, 5 pods = 160 spines; 160 x 32 =
//     5,120 spine-core links on 64-port cores = 80 cores.
//   - 512 DGX H100 on NDR InfiniBand (APETOPS, "512 H100 clustering
//     solution"): 4 SuperPods of 4 SU of 32 servers, per SuperPod 32
//     leaves, 32 spines and 16 cores, 320 switches in three tiers, 1:1.
//   - Asterfusion CX864E-N rail-optimized fabric (docs.asternos.com,
//     "CX864E-N Best Practices for Medium-to-Large Scale AI Compute
//     Backend Fabric"): 64 nodes of 4 GPUs, one 400G NIC per GPU, 6
//     64 x 800G switches: 4 leaves (one per rail: 64 x 400G down) and 2
//     spines. On the catalog's Tomahawk 5 (the same 51.2T, 64 x 800G),
//     uplinks at 800G: 32 per leaf, 128 on 2 spines of 64.
//   - Rail-only on 51.2T switches (FiberMall, "Dual-Plane and Multi-Plane
//     Networking in AI Computing Centers"): "8 switches (128 x 400G
//     ports) can form a thousand-card training cluster": 1,024 GPUs of 8,
//     each rail's 128 ports on one Tomahawk 5 at 400G, no spine.
//
// Mutations caught: rail-only sized as one plane (a spine joining rails:
// three tiers at 16,384), leaf uplinks counted in ports rather than Gb/s
// (MegaScale's leaf 64 down : 64 up at 200G, 10,240 leaf-spine links),
// uplinks at the server port speed, cores sized to a maximum build
// rather than the build, a custom server's rails taken from the system's
// 8 NICs rather than its 4.
func TestPublishedDesignsNotBuiltOn(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name  string
		edit  func(s *Scenario)
		su    int    // servers of one scalable unit
		want  string // tiers, leaf/spine/core switches, links per tier
		speed string // leaf-spine and spine-core Gb/s
	}{
		{"DeepSeek MPFT 16,384", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Switch, s.Network.Topology = "dgx-h100", 16384, "qm9700", TopoRailOnly
		}, 32, "2 tiers, 512/256/0 switches, links 16384/16384/0", "400/0"},
		{"DeepSeek FT2 2,048 (one plane's size)", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Switch = "dgx-h100", 2048, "qm9700"
		}, 32, "2 tiers, 64/32/0 switches, links 2048/2048/0", "400/0"},
		{"DeepSeek FT3 65,536 (the table's three-tier fat tree)", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Switch = "dgx-h100", 65536, "qm9700"
		}, 32, "3 tiers, 2048/2048/1024 switches, links 65536/65536/65536", "400/400"},
		{"MegaScale 10,240", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Cluster.GPUsPerServer = CustomSystem, 10240, 8
			s.Network.NICGbps, s.Network.Switch, s.Network.UplinkGbps = 200, "qm9700", 400
		}, 64, "3 tiers, 160/160/80 switches, links 10240/5120/5120", "400/400"},
		{"512 DGX H100 NDR", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Switch = "dgx-h100", 4096, "qm9700"
		}, 32, "3 tiers, 128/128/64 switches, links 4096/4096/4096", "400/400"},
		{"Asterfusion 256 GPUs", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Cluster.GPUsPerServer = CustomSystem, 256, 4
			s.Network.Fabric, s.Network.Switch, s.Network.UplinkGbps = Ethernet, "tomahawk5", 800
		}, 64, "2 tiers, 4/2/0 switches, links 256/128/0", "800/0"},
		{"rail-only 1,024 on 51.2T", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch, s.Network.Topology = "dgx-h100", 1024, Ethernet, "tomahawk5", TopoRailOnly
		}, 128, "1 tiers, 8/0/0 switches, links 1024/0/0", "0/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			tc.edit(&s)
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			got := tierCounts(p)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if p.ServersPerUnit != tc.su {
				t.Errorf("scalable unit %d servers, want %d", p.ServersPerUnit, tc.su)
			}
			speed := fmt.Sprintf("%d/%d", p.TierGbps("leaf_spine"), p.TierGbps("spine_core"))
			switch p.Tiers {
			case 1:
				speed = "0/0"
			case 2:
				speed = fmt.Sprintf("%d/0", p.TierGbps("leaf_spine"))
			}
			if speed != tc.speed {
				t.Errorf("leaf-spine/spine-core speeds %s Gb/s, want %s", speed, tc.speed)
			}
			checkPlanInvariants(t, p.GPUs, p)
		})
	}
}

// TestUnderSubscribedLeaf: a leaf with more uplinks than downlinks, as
// Meta's Llama 3 rack switches: "T0-T1 links are undersubscribed by 2:1"
// (Lockwood's reading of the Llama 3 clusters, research/facility.md),
// 2 servers (16 x 400G) per RTSW, zones of 3,072 GPUs, 7:1 above. Hand
// counts on the 256 x 400G Tomahawk 6 (the spines and cores of
// docs/scenarios/meta-llama3-roce-24k.toml; every tier here)
// at 1:2: 1,536 RTSWs of 16 down and 32 up = 49,152 leaf-spine links; a
// zone's 192 x 32 = 6,144 uplinks on spines of 224 down, 32 up (7:1 of
// 256) = ceil(6,144 / 224) = 28 spines, 224 in 8 zones, each sending up
// ceil(~219.4 / 7) = 32: 7,168 spine-core links on 28 cores; 1,788
// switches. Two tiers, 1,024 GPUs, 2 servers per ToR on Tomahawk 5:
// 64 ToRs x 32 uplinks = 2,048 links on 16 spines of 128. The built
// leaf ratio is 0.5. Mutations caught: "1:2" refused as more uplinks than
// downlinks (the design could not be entered), the leaf's uplinks capped
// at its downlinks, the ratio read upside down (a 2:1 leaf: 8 uplinks).
func TestUnderSubscribedLeaf(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		edit func(s *Scenario)
		want string
	}{
		{"Meta 24K, RTSW 1:2", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs = "dgx-h100", 24576
			n := &s.Network
			n.Fabric, n.Switch, n.SpineOversubscription, n.Tiers, n.PodGPUs = Ethernet, "tomahawk6-100g", "7:1", 3, 3072
			n.RailOptimized, n.ServersPerToR = false, 2
		}, "3 tiers, 1536/224/28 switches, links 24576/49152/7168"},
		{"1,024 GPUs, ToR 1:2", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs = "dgx-h100", 1024
			n := &s.Network
			n.Fabric, n.Switch, n.RailOptimized, n.ServersPerToR = Ethernet, "tomahawk5", false, 2
		}, "2 tiers, 64/16/0 switches, links 1024/2048/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			tc.edit(&s)
			s.Network.Oversubscription = "1:2"
			if err := s.Validate(cat); err != nil {
				t.Fatalf("1:2 refused: %v", err)
			}
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			got := tierCounts(p)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if o := p.BuiltOversubscription(); len(o) == 0 || o[0].Ratio != 0.5 {
				t.Errorf("built ratios %+v, want the leaf's 0.5", o)
			}
			checkPlanInvariants(t, p.GPUs, p)
		})
	}
}

// TestPortSplitRefusalWording: the refusal the styles chart prints under
// the Meta example ("dual-plane does not build") says "1 port", not "1
// ports": DGX H100's ConnectX-7 OSFP runs Ethernet as one port (catalog
// ethernet_ports = [1]). Mutation caught: the plural noun after a single
// split.
func TestPortSplitRefusalWording(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.System, s.Network.Fabric, s.Network.Switch, s.Network.Topology = "dgx-h100", Ethernet, "tomahawk5", TopoDualPlane
	_, err := Build(s, cat)
	if err == nil || !strings.Contains(err.Error(), "cx7-400 runs ethernet with 1 port, not 2") {
		t.Errorf("dual-plane on DGX H100: %v, want cx7-400 runs ethernet with 1 port, not 2", err)
	}
}

// tierCounts writes a plan's tiers, switches per tier and links per tier
// as the published designs are compared: "2 tiers, 64/32/0 switches,
// links 2048/2048/0".
func tierCounts(p *Plan) string {
	return fmt.Sprintf("%d tiers, %d/%d/%d switches, links %d/%d/%d", p.Tiers,
		p.Switches(TierLeaf), p.Switches(TierSpine), p.Switches(TierCore), p.Links.ServerLeaf, p.Links.LeafSpine, p.Links.SpineCore)
}
