package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// leafDoc is the part of plan --json the leaf-shape flags change.
type leafDoc struct {
	Servers  int
	Tiers    int
	Switches struct{ Leaf, Spine int }
	Pairs    *struct {
		Pairs     int `json:"pairs"`
		PeerLinks int `json:"peer_links"`
	} `json:"leaf_pairs"`
	Storage *struct {
		Links int `json:"links"`
	} `json:"leaf_storage"`
}

// Each leaf-shape flag reaches the plan, on 968 GPUs (121 DGX H100
// servers, 8 x 400G; qm9700 64 x 400G; sn5600 128 x 400G), worked by
// hand:
//   - no flag: 31 servers a leaf (NVIDIA's SU), 4 units, 32 leaves, 16
//     spines (32 leaves x 32 uplinks / 64 ports);
//   - --servers-per-leaf 11: 121 / 11 = 11 units x 8 rails = 88 leaves,
//     more than a 64-port spine reaches, so 3 tiers;
//   - --min-spines 32: each of the 32 uplinks of a leaf to its own spine;
//   - --storage-nodes 7 --storage-node-ports 3: 7 x 3 = 21 links;
//   - --leaf-pairs on sn5600: 64 ports a leaf down, 4 a server, 16
//     servers a pair, ceil(121 / 16) = 8 pairs, 16 leaves, 16 x 64 / 128
//     = 8 spines;
//   - with --peer-link-ports 4: (128 - 4) / 2 = 62 down, 15 whole
//     servers a pair, ceil(121 / 15) = 9 pairs, 18 leaves, 36 peer links.
//
// Mutation caught: a flag missing from fieldFlag (applyFlag finds no
// input: exit 2), or mapped to another key.
func TestLeafShapeFlags(t *testing.T) {
	ether := []string{"--fabric", "ethernet", "--switch", "sn5600"}
	for _, tc := range []struct {
		name           string
		args           []string
		tiers          int
		leaves, spines int // 0: not checked
		pairs, peer    int
		storage        int
	}{
		{"default", nil, 2, 32, 16, 0, 0, 0},
		{"servers-per-leaf", []string{"--servers-per-leaf", "11"}, 3, 88, 0, 0, 0, 0},
		{"min-spines", []string{"--min-spines", "32"}, 2, 32, 32, 0, 0, 0},
		{"storage-nodes", []string{"--storage-nodes", "7", "--storage-node-ports", "3"}, 2, 32, 0, 0, 0, 21},
		{"leaf-pairs", append([]string{"--leaf-pairs", "true"}, ether...), 2, 16, 8, 8, 0, 0},
		{"peer-link-ports", append([]string{"--leaf-pairs", "on", "--peer-link-ports", "4"}, ether...), 2, 18, 0, 9, 36, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runArgs(t, append([]string{"plan", "--json", "--gpus", "968"}, tc.args...)...)
			var doc leafDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d: %v\n%s", code, err, errOut)
			}
			if doc.Servers != 121 || doc.Tiers != tc.tiers || doc.Switches.Leaf != tc.leaves || tc.spines > 0 && doc.Switches.Spine != tc.spines {
				t.Errorf("%d servers, %d tiers, %d leaves, %d spines; want 121, %d, %d, %d", doc.Servers, doc.Tiers, doc.Switches.Leaf, doc.Switches.Spine, tc.tiers, tc.leaves, tc.spines)
			}
			pairs, peer, storage := 0, 0, 0
			if doc.Pairs != nil {
				pairs, peer = doc.Pairs.Pairs, doc.Pairs.PeerLinks
			}
			if doc.Storage != nil {
				storage = doc.Storage.Links
			}
			if pairs != tc.pairs || peer != tc.peer || storage != tc.storage {
				t.Errorf("%d pairs, %d peer links, %d storage links; want %d, %d, %d", pairs, peer, storage, tc.pairs, tc.peer, tc.storage)
			}
		})
	}
}

// Odd values of the leaf-shape flags exit 2 naming the flag (not the
// file key) and the fix. By hand: a qm9700 leaf at 1:1 holds at most 32
// servers and 32 uplinks; 3 ports do not split over 2 planes; 126 of an
// sn5600's 128 ports to the peer leave 2, half a server's 4. The last
// two are flags that undo another: pairs make the design top-of-rack,
// which a rail leaf's size and --topology rail-optimized contradict.
// Mutations caught: leafFlagsAgree not called (both planned, one flag
// dropped without a word), fieldFlag missing a key (the error names
// network.min_spines, not --min-spines).
func TestLeafShapeFlagsRefused(t *testing.T) {
	ether := []string{"--fabric", "ethernet", "--switch", "sn5600"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--servers-per-leaf", "0"}, "--servers-per-leaf: give a number from 1 to 4,096"},
		{[]string{"--servers-per-leaf", "40"}, "--servers-per-leaf: 40 servers need 40 down and 40 up ports at 1:1"},
		{[]string{"--min-spines", "33"}, "--min-spines: 33 spines but a full leaf has 32 uplinks"},
		{[]string{"--min-spines", "4097"}, "--min-spines: give a number from 1 to 4,096"},
		{[]string{"--storage-nodes", "-3"}, "--storage-nodes: give a number from 1 to 10,000,000"},
		{[]string{"--storage-nodes", "7", "--storage-node-ports", "3", "--planes", "2"}, "--storage-node-ports: 3 ports a storage node do not split over 2 planes"},
		{[]string{"--leaf-pairs", "maybe"}, `--leaf-pairs: "maybe" is not on or off`},
		{[]string{"--leaf-pairs", "true"}, "--leaf-pairs: MLAG and ESI-LAG leaf pairs are Ethernet"},
		{[]string{"--peer-link-ports", "2"}, "--peer-link-ports: a peer link needs leaf pairs"},
		{append([]string{"--leaf-pairs", "true", "--peer-link-ports", "126"}, ether...), "--peer-link-ports: a leaf of sn5600 (128 x 400G) less 126 peer ports holds 0 server ports"},
		{append([]string{"--leaf-pairs", "true", "--storage-nodes", "3"}, ether...), "--storage-nodes: storage on paired leaves is not modelled"},
		{append([]string{"--topology", "rail-optimized", "--leaf-pairs", "true"}, ether...), "--leaf-pairs: leaf pairs need --topology top-of-rack, not rail-optimized"},
		{append([]string{"--servers-per-leaf", "11", "--leaf-pairs", "true"}, ether...), "--servers-per-leaf: a rail leaf's size, but the design is top-of-rack"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errOut, code := runArgs(t, append([]string{"plan", "--json", "--gpus", "968"}, tc.args...)...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// plan --help lists each leaf-shape flag with its words. Mutation
// caught: a flag mapped in fieldFlag but left out of planFlagNames.
func TestPlanHelpListsLeafShapeFlags(t *testing.T) {
	out, errOut, _ := runArgs(t, "plan", "--help")
	help := out + errOut
	for _, name := range []string{"servers-per-leaf", "min-spines", "storage-nodes", "storage-node-ports", "leaf-pairs", "peer-link-ports"} {
		if !strings.Contains(help, "-"+name+" string") {
			t.Errorf("plan --help does not list --%s", name)
		}
	}
}
