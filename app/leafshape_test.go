package app

import (
	"strings"
	"testing"

	"fabricplan/app/model"
)

// tick sets key's checkbox as a click does and waits for the plan.
func tick(u *UI, key string, on bool) {
	u.inputs.byKey[key].widget.(*wrappedCheck).check.SetChecked(on)
	u.WaitIdle()
}

// Each leaf-shape input, edited in the window, changes the plan, on 968
// GPUs (121 DGX H100 servers, 8 x 400G; qm9700 64 x 400G, sn5600 128 x
// 400G), worked by hand (as cli's TestLeafShapeFlags): 32 leaves and 16
// spines by default; 11 servers a rail leaf: 11 units x 8 rails = 88
// leaves; at least 32 spines: 32; 7 storage nodes of 3 ports: 21 links;
// Ethernet leaf pairs on sn5600: 16 servers a pair, 8 pairs, 16 leaves;
// 4 peer ports: 62 down, 15 servers a pair, 9 pairs, 18 leaves, 36 peer
// links. The dependent inputs are editable only where they apply (a
// node's ports with nodes, peer ports with pairs, pairs on Ethernet, a
// rail leaf's size on rail leaves). Mutations caught: an input missing
// from the screen table (no widget), Enabled not updated for the peer
// ports (still greyed out with pairs on), the fabric reset keeping pairs
// on InfiniBand (an error under a greyed-out box).
func TestLeafShapeInputsChangeThePlan(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "968")
	leaves := func() int { return u.Plan().SwitchTiers[0].Switches }
	spines := func() int { return u.Plan().SwitchTiers[1].Switches }
	current := func(what string) {
		t.Helper()
		if u.Plan() == nil || u.State().Status != model.Current {
			t.Fatalf("%s: no current plan (%+v)", what, u.State().Problems)
		}
	}
	current("default")
	if leaves() != 32 || spines() != 16 {
		t.Fatalf("default at 968 GPUs: %d leaves, %d spines; want 32, 16", leaves(), spines())
	}

	typeIn(u, "network.servers_per_leaf", "11")
	current("servers per leaf")
	if leaves() != 88 {
		t.Errorf("11 servers a rail leaf: %d leaves, want 88", leaves())
	}
	typeIn(u, "network.servers_per_leaf", "")
	typeIn(u, "network.min_spines", "32")
	current("min spines")
	if leaves() != 32 || spines() != 32 {
		t.Errorf("at least 32 spines: %d leaves, %d spines; want 32, 32", leaves(), spines())
	}
	typeIn(u, "network.min_spines", "")

	if entry(u, "network.storage_node_ports").Disabled() == false {
		t.Error("storage node ports editable with no storage nodes")
	}
	typeIn(u, "network.storage_nodes", "7")
	if entry(u, "network.storage_node_ports").Disabled() {
		t.Error("storage node ports greyed out with 7 storage nodes")
	}
	typeIn(u, "network.storage_node_ports", "3")
	current("storage nodes")
	if ls := u.Plan().LeafStorage; ls == nil || ls.Links != 21 {
		t.Errorf("7 storage nodes of 3 ports: %+v, want 21 links", ls)
	}
	typeIn(u, "network.storage_nodes", "")
	if u.Scenario().Network.StorageNodePorts != 0 || u.Plan().LeafStorage != nil {
		t.Error("no storage nodes kept their ports or links")
	}

	pairs := u.inputs.byKey["network.leaf_pairs"].widget.(*wrappedCheck)
	if !pairs.check.Disabled() {
		t.Error("leaf pairs offered on InfiniBand")
	}
	pick(u, "network.fabric", model.FabricEthernet)
	for _, o := range choice(u, "network.switch").Options {
		if strings.HasPrefix(o, "sn5600 ") {
			pick(u, "network.switch", o)
		}
	}
	if pairs.check.Disabled() || !entry(u, "network.peer_link_ports").Disabled() {
		t.Error("on Ethernet: leaf pairs greyed out, or peer ports editable without pairs")
	}
	tick(u, "network.leaf_pairs", true)
	current("leaf pairs")
	if lp := u.Plan().LeafPairs; lp == nil || lp.Pairs != 8 || leaves() != 16 || !entry(u, "network.servers_per_leaf").Disabled() {
		t.Errorf("leaf pairs: %+v, %d leaves; want 8 pairs, 16 leaves, a rail leaf's size greyed out", lp, leaves())
	}
	typeIn(u, "network.peer_link_ports", "4")
	current("peer links")
	if lp := u.Plan().LeafPairs; lp == nil || lp.Pairs != 9 || lp.PeerLinks != 36 || leaves() != 18 {
		t.Errorf("4 peer ports: %+v, %d leaves; want 9 pairs, 36 peer links, 18 leaves", lp, leaves())
	}
	pick(u, "network.fabric", model.FabricIB)
	current("back to InfiniBand")
	if n := u.Scenario().Network; n.LeafPairs || n.PeerLinkPorts != 0 {
		t.Errorf("InfiniBand kept the leaf pairs: %+v", n)
	}
}
