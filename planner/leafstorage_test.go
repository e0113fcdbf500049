package planner

import (
	"errors"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestLeafStorage: storage nodes on the compute leaves, by hand. A leaf
// keeping k storage ports takes d servers' ports with d + k down and
// UpFor(d + k) up within its ports; k grows until the full units'
// leaves hold the plane's storage ports; partial units take none.
//
//   - 1,000 GPUs (125 servers) on the 64-port QM9700 at 1:1, 16 nodes of
//     2 ports: 32 ports. k = 1: d = 31 (31 + 1 down, 32 up); units of 31
//     servers, 4 full and 1 server: 32 full leaves hold the 32 ports, 40
//     leaves. Uplinks 32 x 32 + 8 x 1 = 1,032; switch ports in use 1,000
//   - 2 x 1,032 + 32 = 3,096.
//   - 2,024 GPUs (253 servers) of 2 x 200G NICs in 2 planes on the QM9700
//     at 200G (128 ports), 10 nodes of 4 ports: 20 ports a plane. k = 1:
//     d = 63, 4 full units and 1 server, 32 full leaves a plane (20 take
//     a port), 40 leaves a plane, 80; uplinks 32 x 64 + 8 x 1 = 2,056 a
//     plane, 4,112; storage links 40.
//   - Top of rack, the same 1,000 GPUs on the QM9700 (8 ports a server),
//     3 nodes of 1 port: k = 1 leaves room for 3 servers (24 + 1 down, 25
//     up; 4 servers would need 33 + 33), 41 full ToRs and 2 servers: 42
//     leaves; uplinks 41 x 25 + 16 = 1,041.
//   - One switch: 56 GPUs (56 ports) and 2 nodes of 2 ports fit a 64-port
//     QM9700 (60 ports in use); 64 GPUs and the same 4 ports do not (68),
//     so leaves and spines: the 8 servers are one unit (fewer than the 31
//     a leaf beside 1 storage port holds), 8 leaves of 8 + 1 down and 9
//     up, 4 of them with a storage port; 72 uplinks.
//
// Mutations caught: the storage ports left out of the uplinks (1,000,
// 4,048, 1,000 and 64 uplinks), the leaf not shrunk for them (refused:
// 32 + 1 down and 33 up is past 64 ports), the one switch overfilled
// (64 GPUs on one switch with 68 ports in use); each checked.
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
		{"2 planes, 10 nodes of 4", twoPlanes, 10, 4, 80, 4112, 4048 + 2*4112 + 40, 40, 64, 1},
		{"top of rack, 3 nodes of 1", tor, 3, 1, 42, 1041, 1000 + 2*1041 + 3, 3, 41, 1},
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
