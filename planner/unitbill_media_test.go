package planner

import (
	"fmt"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/hall"
)

// hallBillCases are laid-out plans whose tiers mix media and lengths:
// the example scenarios and every system at off-grid sizes (odd GPU
// counts, two planes, Ethernet), each in a data hall.
func hallBillCases(t *testing.T) map[string]*Plan {
	t.Helper()
	cat := testCatalog(t)
	out := map[string]*Plan{}
	for _, f := range []string{"eth-800g-16k", "ib-ndr-1k", "gb300-nvl72-4k"} {
		src, err := data.FS.ReadFile("scenarios/" + f + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		s, err := ScenarioFromData(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if s.Facility == nil {
			s.Facility = &hall.Facility{}
		}
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = p
	}
	for _, sys := range cat.SystemKeys() {
		for _, gpus := range []int{1000, 3000, 9216} {
			s := NewScenario()
			s.Cluster.System, s.Cluster.GPUs = sys, gpus
			if sys == CustomSystem {
				s.Cluster.GPUsPerServer = 8
			}
			if sys == "dgx-b300" || sys == "gb300-nvl72" {
				s.Network.NICGbps = 800
			}
			if gpus == 3000 {
				s.Network.Fabric = Ethernet
				if sys == "gb300-nvl72" || sys == "dgx-b300" {
					s.Network.PortsPerNIC = 2
				}
			}
			if gpus == 1000 {
				s.Network.Planes = 2
			}
			s.Facility = &hall.Facility{RackKW: 150, RacksPerRow: 13}
			p, err := Build(s, cat)
			if err != nil {
				t.Errorf("%s %d: %v", sys, gpus, err)
				continue
			}
			out[fmt.Sprintf("%s %d", sys, gpus)] = p
		}
	}
	return out
}

// TestUnitBillSplitsMedia checks that the per-SU table's cluster column
// adds up to the BOM line by line: every cable line (tier, part, length
// sold) and every transceiver part of a tier (both ends) equals the
// table's rows for it, and the SU's own rows add up to the SU's links
// and modules whatever the split. On eth-800g-16k the leaf-spine tier
// mixes multimode (32,576 leaf-spine modules in the BOM) and single-mode
// (192). Mutations caught: each tier's links under its commonest medium
// and module (the table said 16,384 multimode leaf-up modules, the BOM
// 16,288 + 96); rows per medium without the length; the SU's links
// split by rounding each row (rows no longer add up to the SU's
// 1,024 links); spare parts in the table.
func TestUnitBillSplitsMedia(t *testing.T) {
	type key struct {
		group, tier, part string
		metres            float64
	}
	for name, p := range hallBillCases(t) {
		t.Run(name, func(t *testing.T) {
			bom := map[key]int{}
			for _, l := range p.BOM {
				switch {
				case l.Spare:
				case l.Category == CatCable:
					bom[key{BillCables, l.tier, l.Key, cableLength(t, l)}] += l.Qty
				case l.Category == CatTransceiver:
					bom[key{BillTransceivers, l.tier, l.Key, 0}] += l.Qty
				}
			}
			bill := map[key]int{}
			unit := map[[2]string]float64{} // SU's own rows by group and tier
			b := p.UnitBill()
			for _, r := range b.Rows {
				if r.Group == BillSwitches {
					continue
				}
				bill[key{r.Group, r.Tier, r.Part, r.LengthM}] += r.Cluster
				if !r.Shared {
					unit[[2]string{r.Group, r.Tier}] += r.Unit
				}
			}
			for k, n := range bom {
				if bill[k] != n {
					t.Errorf("%+v: table %d, BOM %d", k, bill[k], n)
				}
			}
			for k, n := range bill {
				if bom[k] != n {
					t.Errorf("%+v: table %d, BOM %d", k, n, bom[k])
				}
			}
			// The SU's own links: every server link of its nodes (all
			// planes), and its leaves' uplinks.
			perNode := p.LinkTiers[0].Links / p.Servers
			if got := unit[[2]string{BillCables, "server_leaf"}]; got != float64(b.Nodes*perNode) {
				t.Errorf("SU server-leaf links %g, want %d nodes x %d ports", got, b.Nodes, perNode)
			}
			nodeEnd := 0.0
			for _, r := range b.Rows {
				if r.Group == BillTransceivers && strings.HasSuffix(r.Item, ", node end") {
					nodeEnd += r.Unit
				}
			}
			if want := suModules(p, b); nodeEnd != want {
				t.Errorf("SU node-end modules %g, want %g", nodeEnd, want)
			}
		})
	}
}

// suModules is the SU's node-end modules as the plan has them
// without splitting: its nodes' share of the server end.
func suModules(p *Plan, b UnitBill) float64 {
	return float64(b.Nodes * p.LinkTiers[0].LowerModules / p.Servers)
}

// cableLength reads the length sold from a cable line's Where
// ("leaf_spine 50 m").
func cableLength(t *testing.T, l BOMLine) float64 {
	t.Helper()
	var tier string
	var m float64
	if _, err := fmt.Sscanf(l.Where, "%s %g m", &tier, &m); err != nil {
		t.Fatalf("cable line %q: %v", l.Where, err)
	}
	return m
}

// TestApportion checks the largest-remainder split by hand.
func TestApportion(t *testing.T) {
	cases := []struct {
		total   int
		weights []int
		want    []int
	}{
		// 10 over three equal parts: quotas 3.33 each, the one left over
		// to the first (ties: earlier first). Mutation: rounding each
		// quota (3, 3, 3 = 9).
		{10, []int{1, 1, 1}, []int{4, 3, 3}},
		// 7 over 5:3:2 (sum 10): quotas 3.5, 2.1, 1.4; floors 3, 2, 1 =
		// 6; the largest remainder (0.5) takes the last. Mutation:
		// remainders compared the wrong way (1.4's 0.4 is not largest).
		{7, []int{5, 3, 2}, []int{4, 2, 1}},
		// 3 over 96:16,288 (the 16k cluster's leaf-up modules for an SU's
		// 512): 512 x 96/16,384 = 3 exactly.
		{512, []int{96, 16288}, []int{3, 509}},
		// Nothing to split, or nothing to split over.
		{0, []int{4, 5}, []int{0, 0}},
		{5, []int{0, 0}, []int{0, 0}},
		// A zero weight gets nothing even with a remainder to hand out.
		{1, []int{0, 1, 1}, []int{0, 1, 0}},
	}
	for _, c := range cases {
		got := apportion(c.total, c.weights)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("apportion(%d, %v) = %v, want %v", c.total, c.weights, got, c.want)
				break
			}
		}
	}
}
