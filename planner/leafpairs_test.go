package planner

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
)

// pairScenario is servers of nics ports at nicGbps (one GPU a port when
// gpusPerServer is nics), on sw's top-of-rack leaves in pairs with peer
// peer-link ports a leaf, leaf ratio ratio, on Ethernet.
func pairScenario(servers, gpusPerServer, nics, nicGbps int, sw string, peer int, ratio string) Scenario {
	s := leafShapeScenario(servers*gpusPerServer, Ethernet, nicGbps, sw, ratio)
	s.Cluster.GPUsPerServer = gpusPerServer
	n := &s.Network
	n.NICsPerServer, n.RailOptimized, n.LeafPairs, n.PeerLinkPorts = nics, false, true, peer
	return s
}

// TestLeafPairs: top-of-rack leaf pairs, by hand. A leaf gives its peer
// link its ports, splits the rest at the ratio, keeps whole servers'
// halves and the uplinks they need; a pair is a unit; every leaf reaches
// every spine.
//
//   - Huawei's AI Fabric shape, dual-homed (M-LAG): 512 servers of 2 x
//     100GE on the 64 x 100GE CE8850, 2 peer ports, 1:1: 62 ports split
//     31/31, 31 servers a pair, 16 full pairs and 16 servers: 17 pairs,
//     34 leaves; uplinks 32 x 31 + 2 x 16 = 1,024 on ceil(1,024 / 64) = 16
//     spines; 34 peer links; ports in use 1,024 + 2 x 1,024 + 2 x 34 =
//     3,140.
//   - The same with no peer link (ESI-LAG): 32/32, 16 full pairs, 32
//     leaves, 1,024 uplinks on 16 spines (2 from each leaf); 3,072 ports.
//   - 125 servers of 8 x 400G on the 128-port Tomahawk 5, 4 peer ports,
//     2:1: 124 ports split 82/41, whole servers' halves (4 ports) 80, 40
//     up: 20 servers a pair, 6 full pairs and 5 servers, 14 leaves;
//     uplinks 12 x 40 + 2 x 10 = 500 on ceil(500 / 128) = 4 spines; 28
//     peer links; 1,000 + 2 x 500 + 56 = 2,056 ports.
//   - The same in 2 planes (4 ports a server a plane, 2 to each leaf):
//     82 down (41 servers), 41 up; 3 full pairs and 2 servers, 8 leaves a
//     plane; uplinks 6 x 41 + 2 x 2 (4 ports at 2:1) = 250 a plane on 2
//     spines; 16 leaves, 4 spines, 500 uplinks, 32 peer links; 1,000 + 2
//     x 500 + 64 = 2,064.
//   - servers_per_tor = 30 on pairs of 2 x 100GE servers (1 peer port):
//     each leaf 30 down and 30 up of its 63, where one leaf taking both
//     ports (60 + 60) would not fit; 256 servers are 8 pairs and 16
//     servers, 18 leaves; uplinks 16 x 30 + 2 x 16 = 512 need 8 spines,
//     strict balance of a full leaf's 30 takes 10 (3 to each), within a
//     unit's 4 more; 9 peer links; 512 + 2 x 512 + 2 x 9 = 1,554 ports.
//
// Mutations caught: the peer ports left in the leaf's split (32 servers
// a pair in case one: 16 pairs and 32 leaves), the pair's servers left
// as the stand-ins sizing sees (80 and 82 servers a unit in cases three
// and four), servers_per_tor checked as one leaf's (refused: 60 + 60
// ports); each checked.
func TestLeafPairs(t *testing.T) {
	cat := testCatalog(t)
	twoPlanes := pairScenario(125, 8, 8, 400, "tomahawk5", 4, "2:1")
	twoPlanes.Network.Planes = 2
	torPairs := pairScenario(256, 1, 2, 100, "ce8850-64cq", 1, "1:1")
	torPairs.Network.ServersPerToR = 30
	for _, tc := range []struct {
		name                string
		s                   Scenario
		want                string
		peer, used, perUnit int
	}{
		{"M-LAG, 512 x 2 x 100GE", pairScenario(512, 1, 2, 100, "ce8850-64cq", 2, "1:1"), "2 tiers, 34/16/0 switches, links 1024/1024/0", 34, 3140, 31},
		{"ESI-LAG, 512 x 2 x 100GE", pairScenario(512, 1, 2, 100, "ce8850-64cq", 0, "1:1"), "2 tiers, 32/16/0 switches, links 1024/1024/0", 0, 3072, 32},
		{"125 x 8 x 400G at 2:1", pairScenario(125, 8, 8, 400, "tomahawk5", 4, "2:1"), "2 tiers, 14/4/0 switches, links 1000/500/0", 28, 2056, 20},
		{"2 planes", twoPlanes, "2 tiers, 16/4/0 switches, links 1000/500/0", 32, 2064, 41},
		{"servers_per_tor = 30 a pair", torPairs, "2 tiers, 18/10/0 switches, links 512/512/0", 9, 1554, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got := tierCounts(p); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			lp := p.LeafPairs
			if lp == nil || lp.PeerLinks != tc.peer || p.PortsUsed != tc.used || p.ServersPerUnit != tc.perUnit {
				t.Errorf("pairs %+v, %d ports used, %d servers a unit; want %d peer links, %d ports, %d a unit", lp, p.PortsUsed, p.ServersPerUnit, tc.peer, tc.used, tc.perUnit)
			}
			if p.Hall == nil {
				t.Error("no hall laid out for leaf pairs")
			}
			checkPlanInvariants(t, p.GPUs, p)
			checkPairWalk(t, p)
		})
	}
}

// checkPairWalk holds the link walk to the pairs: every server's ports in
// a plane reach the two leaves of one pair (leaf 2i and 2i + 1 of the
// plane), half on each. Mutation caught: the walk's old mapping (a
// pair's leaves taken as rails: one port of each stand-in); checked.
func checkPairWalk(t *testing.T, p *Plan) {
	t.Helper()
	type key struct{ plane, server, leaf int }
	ports := map[key]int{}
	err := p.WalkLinks(func(l *Link) error {
		if l.Tier == tierServerLeaf {
			ports[key{l.Plane, l.Lower.Device, l.Upper.Device}]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	half := p.RailsPerPlane / 2
	leaves := map[[2]int][]int{}
	for k, n := range ports {
		if n != half {
			t.Fatalf("server %d has %d ports on leaf %d of plane %d, want %d", k.server, n, k.leaf, k.plane, half)
		}
		leaves[[2]int{k.plane, k.server}] = append(leaves[[2]int{k.plane, k.server}], k.leaf)
	}
	if len(leaves) != p.Servers*p.Planes {
		t.Fatalf("%d servers reached in all planes, want %d", len(leaves), p.Servers*p.Planes)
	}
	for k, ls := range leaves {
		if len(ls) != 2 || ls[0]/2 != ls[1]/2 {
			t.Fatalf("server %d of plane %d reaches leaves %v, want one pair", k[1], k[0], ls)
		}
	}
}

// TestLeafPairsRefused: pairs that cannot be built are refused naming the
// field and the fix: on a rail-optimized or InfiniBand design, an odd
// number of ports a server a plane, a peer link without pairs, peer
// ports that leave a leaf no server, one switch asked (tiers = 1).
// Mutation caught: the style unchecked (a rail-optimized design paired);
// checked.
func TestLeafPairsRefused(t *testing.T) {
	cat := testCatalog(t)
	rail := pairScenario(64, 1, 2, 100, "ce8850-64cq", 2, "1:1")
	rail.Network.RailOptimized = true
	ib := pairScenario(64, 8, 8, 400, "qm9700", 2, "1:1")
	ib.Network.Fabric, ib.Network.NIC = InfiniBand, ""
	odd := pairScenario(64, 3, 3, 100, "ce8850-64cq", 2, "1:1")
	noPairs := pairScenario(64, 1, 2, 100, "ce8850-64cq", 2, "1:1")
	noPairs.Network.LeafPairs = false
	one := pairScenario(16, 1, 2, 100, "ce8850-64cq", 2, "1:1")
	one.Network.Tiers, one.Network.NIC = 1, "e810-100" // auto would report the last NIC's error
	full := pairScenario(512, 1, 2, 100, "ce8850-64cq", 64, "1:1")
	full.Network.NIC = "e810-100"
	for _, tc := range []struct {
		name       string
		s          Scenario
		field, fix string
	}{
		{"rail-optimized", rail, "network.leaf_pairs", "rail_optimized = false"},
		{"InfiniBand", ib, "network.leaf_pairs", `fabric = "ethernet"`},
		{"odd ports", odd, "network.leaf_pairs", "even number of ports"},
		{"peer link alone", noPairs, "network.peer_link_ports", "set leaf_pairs = true"},
		{"peer ports fill the leaf", full, "network.peer_link_ports", "fewer peer link ports"},
		{"one switch", one, "network.tiers", "a pair of leaves needs spines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.fix) {
				t.Errorf("err = %v; want %s saying %q", err, tc.field, tc.fix)
			}
		})
	}
}

// TestLeafPairsInHall: a pair design laid out in the hall, its runs
// counted by hand. 45 servers (odd) of 2 x 100GE on CE8850 pairs (2U,
// 64 ports), 2 peer ports, 1:1: 31 servers a pair, 2 pairs (31 and 14),
// 4 leaves. The facility: 3U servers of 4 kW in 50 kW racks of 40 free
// U, leaves top of rack: min(40 / 3, 50 / 4) = 12 servers a rack, so
// pair 1 takes compute racks 1-3 (12, 12, 7) and pair 2, a unit
// starting a rack, racks 4-5 (12, 2); the spine row comes first (R1),
// the compute racks are R2-01 to R2-05. Each pair's two leaves stand
// at the top (U39-40) of its first two racks, round robin: R2-01 and
// R2-02, R2-04 and R2-05.
//
//   - Peer links: 2 a pair, 4, each between adjacent racks at one
//     height: up to the 2.4 m tray from the leaf's middle (39 x 0.04445
//     = 1.73355 m) and down again, 0.6 m along the row and 2 m slack:
//     2 x 0.66645 + 0.6 + 2 = 3.9329 m, past the DAC's longest (3 m)
//     so sold as the 5 m AOC.
//   - Server links: 90; in the rack of their leaf, one a server of the
//     rack holding that leaf: 12 + 12 (pair 1) + 12 + 2 (pair 2) = 38.
//
// Mutations caught: peer links priced at the server-leaf links' longest
// run, the flat rule (aoc 10 m in the bill and the map); a pair's two
// leaves put in one rack (LeafPlace's round robin dropped: peer runs
// 0.59 m in one rack, 48 server links in their leaf's rack); the server
// counter's one-port-a-leaf rule kept for pairs of wider servers
// (servercount: the 125 x 8 x 400G pairs of TestLeafPairs panic); each
// checked.
func TestLeafPairsInHall(t *testing.T) {
	cat := testCatalog(t)
	s := pairScenario(45, 1, 2, 100, "ce8850-64cq", 2, "1:1")
	s.Facility = &hall.Facility{LeafPlacement: hall.PlaceToR, ServerUnits: 3, ServerKW: 4, RackKW: 50}
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Hall == nil || p.LeafPairs == nil || p.LeafPairs.Pairs != 2 || p.Switches(TierLeaf) != 4 {
		t.Fatalf("hall %v, pairs %+v, %d leaves; want a hall, 2 pairs, 4 leaves", p.Hall != nil, p.LeafPairs, p.Switches(TierLeaf))
	}
	const peerRunM = 2*(2.4-39*0.04445) + 0.6 + 2
	wantRacks := map[string]string{"p1-su1-leaf-r1": "R2-01 R2-02", "p1-su2-leaf-r1": "R2-04 R2-05"}
	peers, inRack := 0, 0
	err = p.WalkCableMap(func(c *CableRun) error {
		switch c.Tier {
		case CableTierPeer:
			peers++
			if math.Abs(c.RunM-peerRunM) > 1e-9 || c.Medium != AOC || c.Metres != 5 {
				t.Errorf("peer link %s-%s: %s %g m on a %.4f m run; want aoc 5 m on %.4f m", c.ADevice, c.BDevice, c.Medium, c.Metres, c.RunM, peerRunM)
			}
			if got := c.ARack + " " + c.BRack; got != wantRacks[c.ADevice] {
				t.Errorf("peer link of %s in racks %s, want %s", c.ADevice, got, wantRacks[c.ADevice])
			}
		case linkTierNames[tierServerLeaf]:
			if c.ARack == c.BRack {
				inRack++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if peers != 4 || inRack != 38 {
		t.Errorf("%d peer links, %d server links in their leaf's rack; want 4 and 38", peers, inRack)
	}
	billed := 0
	for _, l := range p.BOM {
		if strings.Contains(l.Where, "leaf_peer") {
			billed += l.Qty
			if l.Key != string(AOC) || !strings.HasSuffix(l.Where, " 5 m") {
				t.Errorf("peer links billed as %s %s, want aoc leaf_peer 5 m", l.Key, l.Where)
			}
		}
	}
	if billed != 4 {
		t.Errorf("%d peer links billed, want 4", billed)
	}
}
