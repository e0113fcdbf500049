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
	for _, tc := range []struct {
		name          string
		s             Scenario
		storage, peer int
	}{
		{"flat, 1,000 GPUs, 16 nodes of 2", flatLengths(withStorage(leafShapeScenario(1000, InfiniBand, 400, "qm9700", "1:1"), 16, 2)), 32, 0},
		{"laid out, 1,000 GPUs, 13 nodes of 2", withStorage(ibScenario(1000), 13, 2), 26, 0},
		{"laid out, 1,000 GPUs, 7 nodes of 1", withStorage(ibScenario(1000), 7, 1), 7, 0},
		{"laid out, 4,104 GPUs, no storage", ibScenario(4104), 0, 0},
		{"one switch, 2 nodes of 2", flatLengths(withStorage(leafShapeScenario(56, InfiniBand, 400, "qm9700", "1:1"), 2, 2)), 4, 0},
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

// TestRackScaleUnitTexts: a rack-scale system's scalable-unit texts use
// the plan's units: an NVL72 rack is 18 trays of 4 GPUs, the GB300
// SuperPOD SU 144 trays (8 racks), a Q3400 leaf group 72 trays (4
// racks, 72 down ports at 1:1). By hand: 5,000 GPUs take 70 racks, 1,260
// trays, 9 SUs, the last 108 of 144 and its last group 36 of 72; 2,100
// take 30 racks, 540 trays, 4 SUs, the last 108 (36 of 72); 2,500 take
// 35 racks, 630 trays, 5 SUs, the last 54 (54 of 72); 4,032 take 56
// racks, whole SUs of groups: no partial text.
//
// Mutation caught: fabric's leaf-group words kept ("the partial scalable
// unit has 36 of 72 servers" beside "9 SUs of 144 nodes": buyer item 7);
// checked.
func TestRackScaleUnitTexts(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		gpus, servers, units int
		want                 string // "" no partial unit
	}{
		{5000, 1260, 9, "the partial scalable unit has 108 of 144 nodes, its last leaf group 36 of 72: "},
		{2100, 540, 4, "the partial scalable unit has 108 of 144 nodes, its last leaf group 36 of 72: "},
		{2500, 630, 5, "the partial scalable unit has 54 of 144 nodes, its last leaf group 54 of 72: "},
		{4032, 1008, 7, ""},
	} {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs = "gb300-nvl72", tc.gpus
		s.Network.Fabric, s.Network.Switch = InfiniBand, "q3400"
		p, err := Build(flatLengths(s), cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", tc.gpus, err)
		}
		if p.Servers != tc.servers || p.UnitCount() != tc.units || p.Unit.Servers != 144 {
			t.Errorf("%d GPUs: %d trays, %d units of %d; want %d, %d of 144", tc.gpus, p.Servers, p.UnitCount(), p.Unit.Servers, tc.servers, tc.units)
		}
		got := ""
		for _, h := range p.Headroom {
			if strings.HasPrefix(h.Reason, partialUnitPrefix) {
				got = h.Reason
			}
		}
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%d GPUs: headroom %q, want %q...", tc.gpus, got, tc.want)
		}
		for _, n := range p.Notes {
			if strings.Contains(n, "the partial scalable unit's leaves") {
				t.Errorf("%d GPUs: note %q names the unit's leaves for its last group's", tc.gpus, n)
			}
		}
	}
}
