package planner

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestCableMapSideLinksMatchBOM: the cable map lists the storage and
// peer links the BOM prices, and its cables by medium (part and length)
// are the BOM's, for storage nodes and leaf pairs, flat and laid out, at
// odd sizes. Expected side links by hand (as TestLeafStorage and
// TestLeafPairs count them): 16 nodes of 2 ports, 32 links; 10 nodes of
// 4 ports over 2 planes, 40; 3 nodes of 1 on top-of-rack leaves, 3; 2
// nodes of 2 beside 56 GPUs on one switch, 4; 512 dual-homed 2 x 100GE
// servers on 17 CE8850 pairs with 2 peer ports a leaf, 34 peer links;
// 125 servers of 8 x 400G on 7 Tomahawk 5 pairs with 4, 28; in 2 planes
// 8 pairs a plane, 32 (pairs laid out in the hall and flat). Beside them, every port of every device is used
// once (a side port never lands on a server port or an uplink), the
// node-end modules are one a storage link, and the leaf-end modules the
// BOM counts are the cages the side links open on the leaves.
//
// Mutations caught: the writers walking WalkCables alone (no side rows:
// 0 storage links); storage ports numbered from the leaf's first port
// (a port used twice); the first leaves not taking the remainder (ports
// past the full leaves); peer links on leaves 2i and 2i + 2 (a port
// used twice on leaf 2); the map keeping the tier's commonest medium
// where the BOM takes its longest run (acc 7 m in the map, fiber-mm 7 m
// in the bill, laid out at 48 GPUs); each checked.
func TestCableMapSideLinksMatchBOM(t *testing.T) {
	cat := testCatalog(t)
	twoPlanes := leafShapeScenario(2024, InfiniBand, 400, "qm9700", "1:1")
	twoPlanes.Network.PortsPerNIC, twoPlanes.Network.Planes = 2, 2
	tor := leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1")
	tor.Network.RailOptimized = false
	pairs2 := pairScenario(125, 8, 8, 400, "tomahawk5", 4, "2:1")
	pairs2.Network.Planes = 2
	for _, tc := range []struct {
		name      string
		s         Scenario
		side      int
		tier      string
		laidOut   bool
		wantParts string // the side rows' part and length, where it matters
	}{
		{"1,000 GPUs, 16 nodes of 2", flatLengths(withStorage(leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 16, 2)), 32, CableTierStorage, false, ""},
		{"2 planes, 10 nodes of 4", flatLengths(withStorage(twoPlanes, 10, 4)), 40, CableTierStorage, false, ""},
		{"top of rack, 3 nodes of 1", flatLengths(withStorage(tor, 3, 1)), 3, CableTierStorage, false, ""},
		{"one switch, 2 nodes of 2", flatLengths(withStorage(leafShapeScenario(56, InfiniBand, 400, "qm9700", "1:1"), 2, 2)), 4, CableTierStorage, false, ""},
		{"laid out, 1,000 GPUs, 13 nodes of 2", withStorage(ibScenario(1000), 13, 2), 26, CableTierStorage, true, ""},
		{"laid out, 48 GPUs, 3 nodes", withStorage(ibScenario(48), 3, 0), 3, CableTierStorage, true, "fiber-mm 7"},
		{"M-LAG, 512 x 2 x 100GE", pairScenario(512, 1, 2, 100, "ce8850-64cq", 2, "1:1"), 34, CableTierPeer, true, ""},
		{"125 x 8 x 400G at 2:1", pairScenario(125, 8, 8, 400, "tomahawk5", 4, "2:1"), 28, CableTierPeer, true, ""},
		{"pairs in 2 planes", pairs2, 32, CableTierPeer, true, ""},
		{"pairs in 2 planes, flat", flatLengths(pairs2), 32, CableTierPeer, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if (p.Hall != nil) != tc.laidOut {
				t.Fatalf("laid out %v, want %v", p.Hall != nil, tc.laidOut)
			}
			checkSideLinks(t, p, tc.side, tc.tier, tc.wantParts)
		})
	}
}

// checkSideLinks checks p's cable map, as its CSV writer writes it,
// against its BOM (see TestCableMapSideLinksMatchBOM).
func checkSideLinks(t *testing.T, p *Plan, side int, tier, wantParts string) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteCablesCSV(&buf, p); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	type key struct {
		part   string
		metres float64
	}
	mapped, sideCages := map[key]int{}, map[string]bool{}
	fabricCages, ports := map[string]bool{}, map[string]bool{}
	sideRows, nodeModules, sideModule := 0, 0, false
	perCage := p.Switch.LinksPerCage(p.PortGbps)
	for _, r := range rows[1:] {
		m, err := strconv.ParseFloat(r[col["length_m"]], 64)
		if err != nil {
			t.Fatal(err)
		}
		mapped[key{r[col["part"]], m}]++
		isSide := r[col["tier"]] == tier
		for _, end := range [][3]string{{r[col["a_device"]], r[col["a_port"]], r[col["a_model"]]}, {r[col["b_device"]], r[col["b_port"]], r[col["b_model"]]}} {
			k := end[0] + " " + end[1]
			if ports[k] {
				t.Fatalf("port %s used twice", k)
			}
			ports[k] = true
			if end[2] == "" || r[col["tier"]] == "leaf_spine" && end[2] != p.Switch.Key {
				continue // a node, or the spine end of an uplink
			}
			cage := fmt.Sprintf("%s %d", end[0], portIndex(t, end[1], perCage)/perCage)
			if isSide {
				sideCages[cage] = true
			} else {
				fabricCages[cage] = true
			}
		}
		if isSide {
			sideRows++
			if got := r[col["part"]] + " " + r[col["length_m"]]; wantParts != "" && got != wantParts {
				t.Errorf("side row cabled %s, want %s", got, wantParts)
			}
			sideModule = r[col["b_module"]] != ""
			if tier == CableTierStorage && r[col["a_module"]] != "" {
				nodeModules++
			}
		}
	}
	if sideRows != side || p.SideLinks() != side {
		t.Errorf("%d %s rows in the map, SideLinks %d; want %d", sideRows, tier, p.SideLinks(), side)
	}
	opened := 0
	for c := range sideCages {
		if !fabricCages[c] {
			opened++
		}
	}
	billed := map[key]int{}
	billedNode, billedLeaf := 0, 0
	for _, l := range p.BOM {
		switch {
		case l.Spare:
		case l.Category == CatCable:
			var m float64
			if _, err := fmtSscan(l.Where, &m); err != nil {
				t.Fatalf("cable line %q: %v", l.Where, err)
			}
			billed[key{l.Key, m}] += l.Qty
		case l.Category == CatTransceiver && l.Where == "storage nodes":
			billedNode += l.Qty
		case l.Category == CatTransceiver && strings.HasSuffix(l.Where, ", "+tier):
			billedLeaf += l.Qty
		}
	}
	if len(billed) != len(mapped) {
		t.Errorf("BOM cables %v, map %v", billed, mapped)
	}
	for k, n := range mapped {
		if billed[k] != n {
			t.Errorf("%s %g m: BOM %d, map %d", k.part, k.metres, billed[k], n)
		}
	}
	if nodeModules != billedNode {
		t.Errorf("storage node modules: map %d, BOM %d", nodeModules, billedNode)
	}
	if sideModule && opened != billedLeaf || !sideModule && billedLeaf != 0 {
		t.Errorf("leaf cages the side links open: map %d, BOM %d modules", opened, billedLeaf)
	}
}
