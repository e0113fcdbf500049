package model

import (
	"testing"

	"fabricplan/planner"
)

// The window's leaf-shape inputs are editable where they apply and the
// style inputs clear the ones they rule out, so no greyed-out input keeps
// a value validation refuses (leafpairs.go: pairs only on Ethernet
// top-of-rack; leafshape.go: servers_per_leaf only on rail leaves).
// Each step is one edit and what it leaves, read off those rules.
// Mutations caught: the rail-optimized toggle keeping pairs (on) or a
// rail leaf's size (off), InfiniBand keeping pairs, Enabled of a
// dependent input not following the input it depends on.
func TestLeafShapeInputsFollowTheirRules(t *testing.T) {
	m := testModel(t)
	enabled := func(want map[string]bool) {
		t.Helper()
		for key, on := range want {
			if m.Enabled(key) != on {
				t.Errorf("%s editable %v, want %v (%+v)", key, !on, on, m.Scenario().Network)
			}
		}
	}
	enabled(map[string]bool{"network.servers_per_leaf": true, "network.leaf_pairs": false, "network.peer_link_ports": false, "network.storage_node_ports": false})
	mustSet(t, m, "network.storage_nodes", "7")
	enabled(map[string]bool{"network.storage_node_ports": true})
	mustSet(t, m, "network.servers_per_leaf", "11")
	mustSet(t, m, "network.rail_optimized", "false")
	if n := m.Scenario().Network; n.ServersPerLeaf != 0 {
		t.Errorf("top-of-rack kept servers_per_leaf = %d", n.ServersPerLeaf)
	}
	enabled(map[string]bool{"network.servers_per_leaf": false, "network.servers_per_tor": true})
	mustSet(t, m, "network.storage_nodes", "")
	mustSet(t, m, "network.fabric", FabricEthernet)
	enabled(map[string]bool{"network.leaf_pairs": true, "network.peer_link_ports": false})
	mustSet(t, m, "network.leaf_pairs", "true")
	mustSet(t, m, "network.peer_link_ports", "3")
	enabled(map[string]bool{"network.peer_link_ports": true})
	mustSet(t, m, "network.rail_optimized", "true")
	if n := m.Scenario().Network; n.LeafPairs || n.PeerLinkPorts != 0 {
		t.Errorf("rail leaves kept the pairs: %+v", n)
	}
	mustSet(t, m, "network.leaf_pairs", "true")
	mustSet(t, m, "network.peer_link_ports", "3")
	mustSet(t, m, "network.fabric", FabricIB)
	if n := m.Scenario().Network; n.LeafPairs || n.PeerLinkPorts != 0 || n.Fabric != planner.InfiniBand {
		t.Errorf("InfiniBand kept the pairs: %+v", n)
	}
}
