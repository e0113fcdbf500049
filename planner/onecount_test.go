package planner

import (
	"strconv"
	"strings"
	"testing"
)

// TestOneLinkCount: a plan's links, its BOM's cables, its cable map's
// rows and the cables summary of plan --json count the same cables,
// storage-node and peer links included, and the summary's runs (tier,
// part, length) are the BOM's, flat and laid out in a hall, at odd
// sizes. Expected storage and peer links by hand (a link per storage
// port, a peer link per pair per peer port): 16 nodes of 2 ports, 32;
// 13 nodes of 2 on a laid-out 1,000-GPU fabric, 26; 7 nodes of 1, 7; 2
// nodes of 2 beside 56 GPUs on one switch, 4; 125 servers of 8 x 400G on
// 7 Tomahawk 5 pairs with 4 peer ports a leaf, 28; 512 dual-homed
// servers on 17 CE8850 pairs with 2 peer ports, 34.
//
// Mutations caught: Links.Total left as the tiers' sum (the buyer's
// 2,032 links beside 2,048 cables: Total 32 short of the BOM); the
// summary taking each tier's one medium and longest length (multimode
// 10 m for every server-leaf cable where the BOM buys ACC 5 m: the
// laid-out rows differ); the summary leaving out the storage and peer
// rows (its sum 26 short); each checked.
func TestOneLinkCount(t *testing.T) {
	cat := testCatalog(t)
	storage := func(s Scenario, nodes, ports int) Scenario {
		s.Network.StorageNodes, s.Network.StorageNodePorts = nodes, ports
		return s
	}
	for _, tc := range []struct {
		name          string
		s             Scenario
		storage, peer int
	}{
		{"flat, 1,000 GPUs, 16 nodes of 2", flatLengths(storage(leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 16, 2)), 32, 0},
		{"laid out, 1,000 GPUs, 13 nodes of 2", storage(ibScenario(1000), 13, 2), 26, 0},
		{"laid out, 1,000 GPUs, 7 nodes of 1", storage(ibScenario(1000), 7, 1), 7, 0},
		{"laid out, 4,104 GPUs, no storage", ibScenario(4104), 0, 0},
		{"one switch, 2 nodes of 2", flatLengths(storage(leafShapeScenario(56, InfiniBand, 400, "qm9700", "1:1"), 2, 2)), 4, 0},
		{"125 x 8 x 400G pairs at 2:1", pairScenario(125, 8, 8, 400, "tomahawk5", 4, "2:1"), 0, 28},
		{"M-LAG, 512 x 2 x 100GE", pairScenario(512, 1, 2, 100, "ce8850-64cq", 2, "1:1"), 0, 34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			l := p.Links
			if l.Storage != tc.storage || l.Peer != tc.peer || l.Total != l.ServerLeaf+l.LeafSpine+l.SpineCore+tc.storage+tc.peer {
				t.Errorf("links %+v, want storage %d, peer %d in the total", l, tc.storage, tc.peer)
			}
			type run struct {
				tier, part string
				metres     float64
			}
			bom, bomCables := map[run]int{}, 0
			for _, b := range p.BOM {
				if b.Category != CatCable || b.Spare {
					continue
				}
				f := strings.Fields(b.Where) // "server_leaf 5 m"
				m, err := strconv.ParseFloat(f[len(f)-2], 64)
				if err != nil {
					t.Fatalf("BOM cable at %q: %v", b.Where, err)
				}
				bom[run{f[0], b.Key, m}] += b.Qty
				bomCables += b.Qty
			}
			rows := 0
			if err := p.WalkCableMap(func(*CableRun) error { rows++; return nil }); err != nil {
				t.Fatal(err)
			}
			if l.Total != bomCables || l.Total != rows {
				t.Errorf("%d links, %d cables in the BOM, %d cable-map rows", l.Total, bomCables, rows)
			}
			summary := map[run]int{}
			for _, c := range p.Report().Cables {
				part := c.Part
				if part == "" { // no hall: the tier's one cable
					part = p.LinkTiers[0].Cable
					for _, lt := range p.LinkTiers {
						if lt.Name == c.Tier {
							part = lt.Cable
						}
					}
				}
				summary[run{c.Tier, part, c.Metres}] += c.Count
			}
			if len(summary) != len(bom) {
				t.Errorf("summary runs %v, BOM %v", summary, bom)
			}
			for k, n := range bom {
				if summary[k] != n {
					t.Errorf("%v: summary %d cables, BOM %d", k, summary[k], n)
				}
			}
		})
	}
}
