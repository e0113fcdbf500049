package planner

import (
	"errors"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestLeafStorage: storage nodes on the compute leaves, by hand. Where
// the partial unit's leaves have the idle server ports for the plane's
// storage ports (ceil(ports / its leaves) each beside its servers), they
// go there and its leaves take UpFor(servers + k) uplinks: the units keep
// their size. Otherwise a leaf keeping k storage ports takes d servers'
// ports with d + k down and UpFor(d + k) up within its ports; k grows
// until the full units' leaves hold the plane's storage ports.
//
//   - 1,000 GPUs (125 servers) on the 64-port QM9700 at 1:1, 16 nodes of
//     2 ports: 32 ports, past the partial unit's 8 x 3 idle ports. k = 1:
//     d = 31 (31 + 1 down, 32 up); units of 31 servers, 4 full and 1
//     server: 32 full leaves hold the 32 ports, 40 leaves. Uplinks 32 x 32
//   - 8 x 1 = 1,032; switch ports in use 1,000 + 2 x 1,032 + 32 = 3,096.
//   - 1,000 GPUs, 16 nodes of 1: 16 ports on the partial unit's 8 leaves
//     (29 servers, 3 idle ports each), 2 each: units of 32, 32 leaves;
//     uplinks 24 x 32 + 8 x 31 = 1,016; in use 1,000 + 2,032 + 16 = 3,048.
//   - 1,024 GPUs (128 servers: 4 full units, no partial one), 16 nodes
//     of 1: on 8 leaves of their own, 2 each with 2 uplinks, 40 leaves;
//     uplinks 32 x 32 + 8 x 2 = 1,040; in use 1,024 + 2,080 + 16 =
//     3,120. The full units' leaves would take 31 servers and 1 port:
//     5 units (the last of 4 servers), 40 leaves too, but 32 x 32 + 8 x 4
//     = 1,056 uplinks, dearer.
//   - 1,368 GPUs (171 servers: 5 units of 32 and 11), 100 nodes of 1: 13
//     a partial leaf (11 + 13 = 24 of 32), 48 leaves; uplinks 40 x 32 +
//     8 x 24 = 1,472; in use 1,368 + 2,944 + 100 = 4,412.
//   - 2,024 GPUs (253 servers) of 2 x 200G NICs in 2 planes on the QM9700
//     at 200G (128 ports, units of 64), 10 nodes of 4 ports: 20 ports a
//     plane on the partial unit's 8 leaves (61 servers, 3 idle ports
//     each), 3 each: 32 leaves a plane, 64; uplinks 24 x 64 + 8 x 64 =
//     2,048 a plane, 4,096; storage links 40 on 16 leaves.
//   - Top of rack, the same 1,000 GPUs on the QM9700 (8 ports a server, 4
//     servers a leaf), 3 nodes of 1 port: the partial ToR holds 1 server
//     (8 ports) and the 3: 32 leaves; uplinks 31 x 32 + 11 = 1,003.
//   - One switch: 56 GPUs (56 ports) and 2 nodes of 2 ports fit a 64-port
//     QM9700 (60 ports in use); 64 GPUs and the same 4 ports do not (68),
//     so leaves and spines: the 8 servers are one partial unit, 8 leaves
//     of 8 + 1 down and 9 up, 4 of them with a storage port; 72 uplinks.
//
// Mutations caught: the storage ports left out of the uplinks (1,000,
// 4,048, 1,000 and 64 uplinks), the leaf not shrunk for them (refused:
// 32 + 1 down and 33 up is past 64 ports), the one switch overfilled
// (64 GPUs on one switch with 68 ports in use), the partial unit's
// leaves not given the uplinks for its storage ports (1,000 GPUs + 16
// nodes: 1,000 uplinks, 8 x 29 on the partial leaves), the partial unit
// passed over (40 leaves for 16 nodes of 1), leaves of their own not
// tried (1,024 GPUs: 1,056 uplinks); each checked.
func TestLeafStorage(t *testing.T) {
	cat := testCatalog(t)
	twoPlanes := leafShapeScenario(2024, InfiniBand, 400, "qm9700", "1:1")
	twoPlanes.Network.PortsPerNIC, twoPlanes.Network.Planes = 2, 2
	tor := leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1")
	tor.Network.RailOptimized = false
	for _, tc := range []struct {
		name                          string
		s                             Scenario
		nodes, ports                  int
		leaves, leafSpine, used       int
		links, storageLeaves, perLeaf int
	}{
		{"1,000 GPUs, 16 nodes of 2", leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 16, 2, 40, 1032, 3096, 32, 32, 1},
		{"1,000 GPUs, 16 nodes of 1", leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 16, 1, 32, 1016, 3048, 16, 8, 2},
		{"1,368 GPUs, 100 nodes of 1", leafShapeScenario(1368, InfiniBand, 400, "qm9700", "1:1"), 100, 1, 48, 1472, 4412, 100, 8, 13},
		{"1,024 GPUs, 16 nodes of 1: own leaves", leafShapeScenario(1024, InfiniBand, 400, "qm9700", "1:1"), 16, 1, 40, 1040, 3120, 16, 8, 2},
		{"2 planes, 10 nodes of 4", twoPlanes, 10, 4, 64, 4096, 4048 + 2*4096 + 40, 40, 16, 3},
		{"top of rack, 3 nodes of 1", tor, 3, 1, 32, 1003, 1000 + 2*1003 + 3, 3, 1, 3},
		{"one switch, 2 nodes of 2", leafShapeScenario(56, InfiniBand, 400, "qm9700", "1:1"), 2, 2, 1, 0, 60, 4, 1, 4},
		{"past one switch, 2 nodes of 2", leafShapeScenario(64, InfiniBand, 400, "qm9700", "1:1"), 2, 2, 8, 72, 64 + 2*72 + 4, 4, 8, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := flatLengths(tc.s)
			s.Network.StorageNodes, s.Network.StorageNodePorts = tc.nodes, tc.ports
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			ls := p.LeafStorage
			if ls == nil {
				t.Fatal("no leaf storage")
			}
			if p.Switches(TierLeaf) != tc.leaves || p.Links.LeafSpine != tc.leafSpine || p.PortsUsed != tc.used {
				t.Errorf("got %s, %d ports used; want %d leaves, %d leaf-spine links, %d ports used", tierCounts(p), p.PortsUsed, tc.leaves, tc.leafSpine, tc.used)
			}
			if ls.Links != tc.links || ls.Leaves != tc.storageLeaves || ls.PortsPerLeaf != tc.perLeaf {
				t.Errorf("storage %+v; want %d links on %d leaves, %d a leaf", *ls, tc.links, tc.storageLeaves, tc.perLeaf)
			}
			checkPlanInvariants(t, p.GPUs, p)
			var cables int
			for _, l := range p.BOM {
				if l.Category == CatCable && strings.HasPrefix(l.Where, "storage_leaf") {
					cables += l.Qty
				}
			}
			if cables != tc.links {
				t.Errorf("%d storage cables in the bill, want %d", cables, tc.links)
			}
			for _, tp := range p.Report().Ports {
				if tp.Tier == TierLeaf && tp.Storage != tc.links {
					t.Errorf("report: leaf storage ports %d, want %d", tp.Storage, tc.links)
				}
			}
		})
	}
}

// TestLeafStorageModules: the leaf-end modules storage ports add beside
// a leaf's server ports, by hand. Twin-port cages (2 links a module):
// 31 server ports leave half a cage, which takes 1 storage port free
// (0 added), 2 take one more cage; 32 server ports and 3 storage ports
// on 2 leaves (2 and 1) add 1 + 1. Single-port cages add one a port.
// Mutation caught: the server ports' half cage not counted (1 added for
// 31 + 1); checked.
func TestLeafStorageModules(t *testing.T) {
	for _, tc := range []struct {
		ports, leaves, serverPorts, perCage, want int
	}{
		{1, 1, 31, 2, 0},
		{2, 1, 31, 2, 1},
		{3, 2, 32, 2, 2},
		{5, 2, 10, 1, 5},
		{0, 0, 10, 2, 0},
	} {
		if got := leafStorageModules(tc.ports, tc.leaves, tc.serverPorts, tc.perCage); got != tc.want {
			t.Errorf("leafStorageModules(%d, %d, %d, %d) = %d, want %d", tc.ports, tc.leaves, tc.serverPorts, tc.perCage, got, tc.want)
		}
	}
}

// TestLeafStorageRefused: storage inputs that cannot be built are
// refused naming the field and the fix: ports not splitting over the
// planes (3 over 2), a rail-only fabric (one network a rail), more
// storage ports than the leaves hold (10,000 nodes of 8 ports beside 125
// servers: at most 31 a leaf on 1,000 leaves of one server, 31,000), and one switch asked (tiers = 1)
// past its ports. Mutation caught: the plane split unchecked (3 ports
// over 2 planes sized as 1 a plane); checked.
func TestLeafStorageRefused(t *testing.T) {
	cat := testCatalog(t)
	two := leafShapeScenario(2024, InfiniBand, 400, "qm9700", "1:1")
	two.Network.PortsPerNIC, two.Network.Planes = 2, 2
	railOnly := leafShapeScenario(1000, Ethernet, 400, "tomahawk5", "1:1")
	railOnly.Network.Topology = TopoRailOnly
	one := leafShapeScenario(64, InfiniBand, 400, "qm9700", "1:1")
	one.Network.Tiers = 1
	for _, tc := range []struct {
		name         string
		s            Scenario
		nodes, ports int
		field, fix   string
	}{
		{"ports over planes", two, 4, 3, "network.storage_node_ports", "a multiple of the 2 planes"},
		{"rail-only", railOnly, 4, 1, "network.storage_nodes", "rail-optimized"},
		{"past the leaves", leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 10000, 8, "network.storage_nodes", "fewer storage nodes"},
		{"one switch asked", one, 2, 2, "network.storage_nodes", "give at most 0 storage ports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			s.Network.StorageNodes, s.Network.StorageNodePorts = tc.nodes, tc.ports
			_, err := Build(s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.fix) {
				t.Errorf("err = %v; want %s saying %q", err, tc.field, tc.fix)
			}
		})
	}
}

// TestLeafStorageCostGrows: more storage nodes never cost less nor take
// fewer switches, and storage that fits on the partial unit's idle
// ports never adds a leaf, over odd sizes, rail-optimized and top of
// rack, 0 to 80 nodes of 1 port. Hand count of the idle ports: 1,000
// GPUs (125 servers, units of 32) leave 3 a leaf on the partial unit's
// 8 leaves, 24; 1,736 GPUs (217 servers) leave 7, 56; 1,368 GPUs (171)
// leave 21, 168; top of rack, 1,000 GPUs leave 24 on the one partial
// ToR.
//
// Mutations caught: the units shrunk for storage while the partial unit
// has room (the 1,000 GPUs + 16 nodes: 40 leaves for 32);
// storage placed on the partial unit past its idle ports (the check
// dropped: 1,000 GPUs + 25 nodes puts 4 beside 29 servers, 33 ports on
// a 32-port leaf side); each checked.
func TestLeafStorageCostGrows(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		gpus, idle int
		rail       bool
	}{{1000, 24, true}, {1736, 56, true}, {1368, 168, true}, {1000, 24, false}} {
		prev := (*Plan)(nil)
		leaves0 := 0
		for nodes := 0; nodes <= 80; nodes++ {
			s := flatLengths(leafShapeScenario(tc.gpus, InfiniBand, 400, "qm9700", "1:1"))
			s.Network.RailOptimized = tc.rail
			s.Network.StorageNodes = nodes
			p, err := Build(s, cat)
			if err != nil {
				t.Fatalf("%d GPUs, %d nodes: %v", tc.gpus, nodes, err)
			}
			if nodes == 0 {
				leaves0 = p.Switches(TierLeaf)
			}
			if nodes <= tc.idle && p.Switches(TierLeaf) != leaves0 {
				t.Errorf("%d GPUs (rail %v), %d nodes: %d leaves, %d without storage", tc.gpus, tc.rail, nodes, p.Switches(TierLeaf), leaves0)
			}
			if nodes > tc.idle && p.LeafStorage.PartialUnit {
				t.Errorf("%d GPUs (rail %v), %d nodes: on the partial unit past its %d idle ports", tc.gpus, tc.rail, nodes, tc.idle)
			}
			if prev != nil && (p.Cost.Total < prev.Cost.Total || p.TotalSwitches() < prev.TotalSwitches()) {
				t.Errorf("%d GPUs (rail %v), %d nodes: $%.0f, %d switches; %d nodes: $%.0f, %d", tc.gpus, tc.rail, nodes, p.Cost.Total, p.TotalSwitches(),
					nodes-1, prev.Cost.Total, prev.TotalSwitches())
			}
			prev = p
		}
	}
}

// TestStorageServerByServer: with storage nodes on the leaves, one more
// server never takes fewer switches or dollars (issue 45, buyer
// finding 9: 6,144 GPUs and 16 storage nodes on QM9700 took 497 switches
// and $49.74M, units shrunk to 31 nodes for a port each, where 6,152
// took 490 with the ports on the partial unit). Server by server across
// the sizes where a unit fills (odd sizes between), on InfiniBand and
// RoCE, rail and top-of-rack leaves, two and three tiers, storage ports
// of one and two a node; priced on the hall laid out (as plan prices
// them) and at the flat per-tier lengths. The hand anchor: at 6,144 GPUs the
// 16 ports go on 8 leaves of their own after the 24 full units, 200
// leaves, 193 spines (6 pods of 32 and one for the 8 leaves' 16
// uplinks), 97 cores: 490 switches, as at 6,152.
//
// Mutations caught: the planner not pricing the placements against one
// another (cheapestStorage returning its first plan: 6,144 GPUs take 497
// switches, 6,152 490), or leaves of their own left out of
// storagePlaces (the same); the hall memo keyed without the placement
// (a placement's plan given the hall and link bill of the first one
// sized: 6,144 GPUs $49.50M against $49.14M at 6,152, and a panic where
// their tiers differ); each checked.
func TestStorageServerByServer(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name         string
		fab          Fabric
		sw, ratio    string
		rail         bool
		nodes, ports int
		gpus         []int // a unit fills at each (the window runs 40 GPUs either side)
	}{
		{"qm9700 rail, 16 of 1", InfiniBand, "qm9700", "1:1", true, 16, 1, []int{1024, 3072, 6144}},
		{"qm9700 rail, 20 of 2", InfiniBand, "qm9700", "1:1", true, 20, 2, []int{2048}},
		{"qm9700 rail 2:1, 13 of 1", InfiniBand, "qm9700", "2:1", true, 13, 1, []int{42 * 8 * 4}},
		{"sn5600 rail, 24 of 2", Ethernet, "sn5600", "1:1", true, 24, 2, []int{64 * 8 * 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, at := range tc.gpus {
				for _, flat := range []bool{false, true} {
					var prev *Plan
					for g := at - 40; g <= at+40; g += 8 {
						s := leafShapeScenario(g, tc.fab, 400, tc.sw, tc.ratio)
						if flat {
							s = flatLengths(s)
						}
						s.Network.RailOptimized = tc.rail
						s.Network.StorageNodes, s.Network.StorageNodePorts = tc.nodes, tc.ports
						p, err := Build(s, cat)
						if err != nil {
							t.Fatalf("%d GPUs: %v", g, err)
						}
						if prev != nil && (p.TotalSwitches() < prev.TotalSwitches() || p.Cost.Total < prev.Cost.Total) {
							t.Errorf("%d GPUs (flat %v): %d switches, $%.0f; %d GPUs: %d, $%.0f", g, flat, p.TotalSwitches(), p.Cost.Total,
								prev.GPUs, prev.TotalSwitches(), prev.Cost.Total)
						}
						if g == 6144 && (p.TotalSwitches() != 490 || p.Switches(TierLeaf) != 200 || p.Switches(TierSpine) != 193 || !p.LeafStorage.OwnLeaves) {
							t.Errorf("6,144 GPUs: %s, storage %+v; want 200/193/97, on leaves of their own", tierCounts(p), *p.LeafStorage)
						}
						prev = p
					}
				}
			}
		})
	}
}
