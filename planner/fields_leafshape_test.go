package planner

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// The six leaf-shape inputs take their documented bounds (docs: the
// validations in leafshape.go, leafstorage.go, leafpairs.go: 4,096
// servers a leaf and spines, 10,000,000 storage nodes, 1,024 ports a
// storage node and peer links): the largest is one validation does not
// refuse as out of range, one more is refused by the table (its error
// naming the limit) and by validation (naming the field). Mutations
// caught: a table bound other than the validation's (MaxGPUs for
// min_spines), a field wired to another key's struct field.
func TestLeafShapeFieldLimits(t *testing.T) {
	for _, tc := range []struct {
		key  string
		max  int
		poke func(*Network, int)
	}{
		{"network.servers_per_leaf", 4_096, func(n *Network, v int) { n.ServersPerLeaf = v }},
		{"network.min_spines", 4_096, func(n *Network, v int) { n.MinSpines = v }},
		{"network.storage_nodes", 10_000_000, func(n *Network, v int) { n.StorageNodes = v }},
		{"network.storage_node_ports", 1_024, func(n *Network, v int) { n.StorageNodes, n.StorageNodePorts = 1, v }},
		{"network.peer_link_ports", 1_024, func(n *Network, v int) { n.PeerLinkPorts = v }},
	} {
		t.Run(tc.key, func(t *testing.T) {
			f, ok := FieldByKey(tc.key)
			if !ok {
				t.Fatalf("no field %s", tc.key)
			}
			if err := f.Parse(textfmt.Int(tc.max)); err != nil {
				t.Errorf("the table refuses %s = %s: %v", tc.key, textfmt.Int(tc.max), err)
			}
			if err := f.Parse(strconv.Itoa(tc.max + 1)); err == nil || !strings.Contains(err.Error(), textfmt.Int(tc.max)) {
				t.Errorf("the table takes %s = %d or does not name its limit: %v", tc.key, tc.max+1, err)
			}
			for _, v := range []int{tc.max, tc.max + 1, -1} {
				s := NewScenario()
				tc.poke(&s.Network, v)
				if tc.key == "network.peer_link_ports" {
					s.Network.LeafPairs, s.Network.Fabric, s.Network.RailOptimized = true, Ethernet, false
				}
				if got, want := fieldNamed(s.Network, tc.key), v != tc.max; got != want {
					t.Errorf("%s = %d: validation refuses it %v, want %v", tc.key, v, got, want)
				}
			}
		})
	}
}

// fieldNamed says whether the leaf-shape checks of n (and the pairs'
// checks, on the default 8-GPU server) refuse key.
func fieldNamed(n Network, key string) bool {
	s := NewScenario()
	s.Network = n
	errs := append(n.validateLeafShape(), s.validateLeafPairs()...)
	for _, fe := range fielderr.FieldErrors(errors.Join(errs...)) {
		if fe.Field == key {
			return true
		}
	}
	return false
}

// Setting a leaf-shape input (or the style inputs beside it) keeps the
// network one validation takes: pairs are top-of-rack, so turning them
// on leaves rail leaves (and a rail leaf's size) and a ToR size or a
// top-of-rack style clears servers_per_leaf; a peer link and a storage
// node's ports go with the pairs and nodes they belong to. Each case's
// result is read off leafpairs.go's and leafshape.go's rules (pairs only
// top-of-rack, servers_per_leaf only on rail leaves, peer ports only
// with pairs). Mutations caught: the ToR size not clearing
// servers_per_leaf (validation refuses the scenario the window left),
// pairs off keeping the peer ports, pairs on keeping the rail style.
func TestLeafShapeFieldRules(t *testing.T) {
	railLeaf := func(n *Network) { n.ServersPerLeaf = 16 }
	paired := func(n *Network) {
		n.Fabric, n.RailOptimized, n.LeafPairs, n.PeerLinkPorts = Ethernet, false, true, 2
	}
	for _, tc := range []struct {
		name, key, text string
		before          func(*Network)
		want            func(Network) bool
	}{
		{"pairs make the leaves top-of-rack", "network.leaf_pairs", "true", func(n *Network) { railLeaf(n); n.Fabric = Ethernet },
			func(n Network) bool { return n.LeafPairs && n.Style() == TopoToR && n.ServersPerLeaf == 0 }},
		{"pairs off drop the peer link", "network.leaf_pairs", "false", paired,
			func(n Network) bool { return !n.LeafPairs && n.PeerLinkPorts == 0 && n.Style() == TopoToR }},
		{"a ToR size drops the rail leaf's", "network.servers_per_tor", "3", railLeaf,
			func(n Network) bool { return n.ServersPerToR == 3 && n.ServersPerLeaf == 0 }},
		{"top-of-rack drops the rail leaf's size", "network.topology", TopoToR, railLeaf,
			func(n Network) bool { return n.Style() == TopoToR && n.ServersPerLeaf == 0 }},
		{"rail leaves drop the pairs", "network.topology", TopoRailOptimized, paired,
			func(n Network) bool { return !n.LeafPairs && n.PeerLinkPorts == 0 && n.RailOptimized }},
		{"no storage nodes, no node ports", "network.storage_nodes", "", func(n *Network) { n.StorageNodes, n.StorageNodePorts = 7, 3 },
			func(n Network) bool { return n.StorageNodes == 0 && n.StorageNodePorts == 0 }},
		{"other node counts keep the ports", "network.storage_nodes", "13", func(n *Network) { n.StorageNodes, n.StorageNodePorts = 7, 3 },
			func(n Network) bool { return n.StorageNodes == 13 && n.StorageNodePorts == 3 }},
		{"peer ports beside pairs", "network.peer_link_ports", "3", paired,
			func(n Network) bool { return n.LeafPairs && n.PeerLinkPorts == 3 }},
		{"the fewest spines", "network.min_spines", "7", func(*Network) {},
			func(n Network) bool { return n.MinSpines == 7 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			tc.before(&s.Network)
			f, _ := FieldByKey(tc.key)
			if err := f.Set(&s, tc.text); err != nil {
				t.Fatalf("Set(%q): %v", tc.text, err)
			}
			if !tc.want(s.Network) {
				t.Errorf("after %s = %q: %+v", tc.key, tc.text, s.Network)
			}
			for _, e := range append(s.Network.validateLeafShape(), s.validateLeafPairs()...) {
				t.Errorf("validation refuses what the Set left: %v", e)
			}
		})
	}
}
