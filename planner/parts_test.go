package planner

import (
	"strings"
	"testing"

	"fabricplan/planner/perf"
)

// TestPublishedPartsDesigns enters designs built from 2020 on with the
// parts of their day (HDR InfiniBand, 12.8T/25.6T Ethernet, AMD GPU
// servers) as a user would, and checks switches and links per tier and
// the scalable unit against hand counts from the rules the designs state
// (k-port switch, two tiers non-blocking: leaves of k/2 down and k/2 up,
// up to k^2/2 ports; three tiers up to k^3/4, pods of k/2 leaves under
// k/2 spines).
//
//   - HDR 200G on QM8700 (40 x 200G): 800 GPUs = 100 servers, one rail
//     of 100 ports = 5 leaves of 20 down, 40 leaves; 800 uplinks on
//     spines of 40 = 20 (40^2/2 = 800, the two-tier limit). Off the grid,
//     456 GPUs: 57 servers a rail = 3 leaves (20 + 20 + 17), 24 leaves;
//     456 uplinks on 40-port spines = 12. The SU is the 20 servers one
//     leaf holds.
//   - The same leaves under CS8500 directors (800 x 200G): 1,600 GPUs,
//     80 leaves of 20 down, 1,600 uplinks on 2 directors of 800.
//   - HDR100 on the same switch (80 x 100G over splitters): 3,200 GPUs =
//     80^2/2, 80 leaves of 40 down, 40 spines; the SU is 40 servers.
//   - ByteDance MegaScale (NSDI 2024) on the Tomahawk 4 it was built on
//     (64 x 400G; 200G NICs split from 400G ToR ports; 1:1): the counts
//     of TestPublishedDesignsNotBuiltOn's QM9700 stand-in, now on
//     Ethernet: 160 leaves, 160 spines, 80 cores. NIC auto takes the
//     ConnectX-6 (QSFP56, 50G lanes): the ConnectX-7 200G's OSFP has no
//     200G module on 50G lanes and no AOC reaches a split QSFP-DD cage.
//   - A Tomahawk 4 400G RoCE cluster of 2,048 GPUs: 64^2/2 = 2,048, 64
//     leaves of 32 down, 32 spines.
//   - Spectrum-2 SN3700 (32 x 200G) at 2,048 GPUs: past 32^2/2 = 512,
//     three tiers: 128 leaves of 16 down, pods of 16 leaves (256 ports)
//     under 16 spines, 8 pods = 128 spines, 2,048 uplinks on 32-port
//     cores = 64.
//   - MI300X on 400G RoCE (8 x 400G per server, as Azure ND MI300X v5):
//     1,024 GPUs on Tomahawk 5 (128 x 400G), 16 leaves of 64 down and 8
//     spines; 1,000 GPUs on SN5400 (64 x 400G), 125 servers a rail = 4
//     leaves of 32 down (the last 29), 32 leaves, 1,000 uplinks on 16
//     spines.
//   - MI355X with Pollara 400 NICs (Crusoe's MLPerf system, entered as
//     custom 8-GPU servers with the MI355X workload GPU) on Tomahawk 5,
//     4,096 GPUs: 64 leaves, 32 spines. The catalog's MI355X platform on
//     QM9700 (64 x 400G) at 1,000 GPUs: as MI300X on SN5400, 32 leaves
//     and 16 spines.
//
// Mutations caught: a radix read at the wrong speed (the QM8700's 80
// HDR100 ports used at 200G: 20 leaves, 10 spines), a 100G port taken
// from the 200G radix (HDR100 3,200 in three tiers), a new switch whose
// lanes no NIC joins (no plan), an AMD system sized or timed as an H100
// (its GPU preset or NIC ignored).
func TestPublishedPartsDesigns(t *testing.T) {
	cat := testCatalog(t)
	custom := func(gpus, nicGbps int, f Fabric, sw string) func(s *Scenario) {
		return func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Cluster.GPUsPerServer = CustomSystem, gpus, 8
			s.Network.Fabric, s.Network.NICGbps, s.Network.Switch = f, nicGbps, sw
		}
	}
	system := func(sys string, gpus int, f Fabric, sw string) func(s *Scenario) {
		return func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch = sys, gpus, f, sw
		}
	}
	for _, tc := range []struct {
		name string
		edit func(s *Scenario)
		su   int    // servers of one scalable unit
		want string // tiers, leaf/spine/core switches, links per tier
		nic  string
		gpu  string // the JCT's GPU preset name holds it
	}{
		{"HDR 200G 800 on QM8700", custom(800, 200, InfiniBand, "qm8700"), 20,
			"2 tiers, 40/20/0 switches, links 800/800/0", "cx7-200", "H100"},
		{"HDR 200G 456 on QM8700", custom(456, 200, InfiniBand, "qm8700"), 20,
			"2 tiers, 24/12/0 switches, links 456/456/0", "cx7-200", "H100"},
		{"HDR 200G 1,600 on QM8700 under CS8500 spines", func(s *Scenario) {
			custom(1600, 200, InfiniBand, "qm8700")(s)
			s.Network.SpineSwitch = "cs8500"
		}, 20, "2 tiers, 80/2/0 switches, links 1600/1600/0", "cx7-200", "H100"},
		{"HDR100 3,200 on QM8700", custom(3200, 100, InfiniBand, "qm8700"), 40,
			"2 tiers, 80/40/0 switches, links 3200/3200/0", "cx6-hdr100", "H100"},
		{"MegaScale 10,240 on Tomahawk 4", func(s *Scenario) {
			custom(10240, 200, Ethernet, "tomahawk4")(s)
			s.Network.UplinkGbps = 400
		}, 64, "3 tiers, 160/160/80 switches, links 10240/5120/5120", "cx6-200", "H100"},
		{"RoCE 400G 2,048 on Tomahawk 4", custom(2048, 400, Ethernet, "tomahawk4"), 32,
			"2 tiers, 64/32/0 switches, links 2048/2048/0", "cx7-400", "H100"},
		{"RoCE 200G 2,048 on SN3700", custom(2048, 200, Ethernet, "sn3700"), 16,
			"3 tiers, 128/128/64 switches, links 2048/2048/2048", "cx7-200", "H100"},
		{"MI300X 1,024 on Tomahawk 5", system("mi300x", 1024, Ethernet, "tomahawk5"), 64,
			"2 tiers, 16/8/0 switches, links 1024/1024/0", "cx7-400", "MI300X"},
		{"MI300X 1,000 on SN5400", system("mi300x", 1000, Ethernet, "sn5400"), 32,
			"2 tiers, 32/16/0 switches, links 1000/1000/0", "cx7-400", "MI300X"},
		{"MI355X 4,096 with Pollara on Tomahawk 5", func(s *Scenario) {
			custom(4096, 400, Ethernet, "tomahawk5")(s)
			s.Network.NIC = "pollara-400"
			w := perf.NewWorkload()
			w.GPU = "mi355x"
			s.Workload = &w
		}, 64, "2 tiers, 64/32/0 switches, links 4096/4096/0", "pollara-400", "MI355X"},
		{"MI355X platform 1,000 on QM9700", system("mi355x", 1000, InfiniBand, "qm9700"), 32,
			"2 tiers, 32/16/0 switches, links 1000/1000/0", "cx7-400", "MI355X"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := flatLengths(NewScenario())
			tc.edit(&s)
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got := tierCounts(p); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if p.ServersPerUnit != tc.su {
				t.Errorf("scalable unit %d servers, want %d", p.ServersPerUnit, tc.su)
			}
			if p.NIC.Key != tc.nic {
				t.Errorf("NIC %s, want %s", p.NIC.Key, tc.nic)
			}
			if p.JCT == nil || p.JCT.GPU == nil {
				t.Fatal("no JCT")
			}
			if !strings.Contains(p.JCT.GPU.Name, tc.gpu) {
				t.Errorf("JCT GPU %s, want %s", p.JCT.GPU.Name, tc.gpu)
			}
			checkPlanInvariants(t, p.GPUs, p)
		})
	}
}

// TestNewPartsSourced: every part added for designs of 2020 on is in the
// catalog, passes the catalog's own checks (it loaded), and labels each
// figure no source gives: a price graded "estimate" says "estimate:" and
// its rule, a price_date names the month of the source the rule scales
// (never "undated" for a rule on a dated price), and watts without a
// vendor figure say "estimate". Mutations caught: a new part missing, an
// estimated price or wattage with no label (a silent number), a rule's
// price left undated.
func TestNewPartsSourced(t *testing.T) {
	cat := testCatalog(t)
	type part struct {
		src  Source
		pr   Pricing
		what string
	}
	var parts []part
	for _, k := range []string{"tomahawk3", "tomahawk4", "sn3700", "sn4700", "sn5400", "cs8500", "arista-7700r4"} {
		if sw := cat.Switches[k]; sw != nil {
			parts = append(parts, part{sw.Source, sw.Pricing, "switch " + k})
		} else {
			t.Errorf("switch %s missing", k)
		}
	}
	for _, k := range []string{"cx6-200", "cx6-hdr100", "pollara-400"} {
		if n := cat.NICs[k]; n != nil {
			parts = append(parts, part{n.Source, n.Pricing, "nic " + k})
		} else {
			t.Errorf("nic %s missing", k)
		}
	}
	for _, k := range []string{"mi300x", "mi325x", "mi355x"} {
		if sys := cat.Systems[k]; sys != nil {
			parts = append(parts, part{sys.Source, sys.Pricing, "system " + k})
			if cat.JCT.GPUs[sys.GPU] == nil {
				t.Errorf("system %s: GPU preset %q missing", k, sys.GPU)
			}
		} else {
			t.Errorf("system %s missing", k)
		}
	}
	for _, p := range parts {
		if p.pr.Grade == GradeEstimate && !strings.HasPrefix(p.src.Price, "estimate:") {
			t.Errorf("%s: an estimated price without its label and rule: %q", p.what, p.src.Price)
		}
		if p.pr.Date == Undated {
			t.Errorf("%s: a rule on a dated price must carry that date", p.what)
		}
		if !strings.Contains(p.src.Watts, "grade") && !strings.HasPrefix(p.src.Watts, "estimate") {
			t.Errorf("%s: watts neither graded nor labelled an estimate: %q", p.what, p.src.Watts)
		}
		if p.src.AsOf == "" || p.src.Range == "" || p.src.Ports == "" {
			t.Errorf("%s: needs as_of, range and ports sources", p.what)
		}
	}
}

// TestBandsSayRulePrices: the plan's analyst bands say the price basis
// they compare on and how much of the cost no dated source prices. HDR
// 200G, 800 GPUs on QM8700 at flat lengths, by hand: 800 ConnectX-7 200G
// at $1,864 (priced as the 2-port card, an estimate), 60 QM8700 at
// $11,250 (scaled from the QM9700, an estimate) and 1,600 QSFP56 HDR
// modules at $300 (unsourced, an estimate) = $2,646,200 of $4,743,800
// (those plus 800 AOC at $2,522, sourced, and 800 fibres at $100) = 56%;
// with the QM8700's price given in [prices], $1,971,200 = 42%; on the
// list basis the words say "list basis". Mutations caught: overridden
// prices still counted as rules, the basis left out of the bands, a
// sourced part (the AOC) counted as a rule.
func TestBandsSayRulePrices(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name   string
		prices map[string]float64
		basis  string
		want   string
	}{
		{"catalog prices", nil, "", "street basis; $2.65M (56%) of the cost priced by stated rules, no dated source: cx7-200, qm8700, qsfp56-200x1"},
		{"QM8700 priced by the user", map[string]float64{"qm8700": 11250}, "", "street basis; $1.97M (42%) of the cost priced by stated rules, no dated source: cx7-200, qsfp56-200x1"},
		{"list basis", nil, BasisList, "list basis; "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := flatLengths(NewScenario())
			s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch, s.Prices, s.Pricing.Basis = 800, 200, "qm8700", tc.prices, tc.basis
			p, err := BuildWith(s, cat, BuildOptions{Bands: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.SanityBands) == 0 {
				t.Fatal("no bands")
			}
			for _, b := range p.SanityBands {
				if !strings.HasPrefix(b.Basis, tc.want) {
					t.Errorf("%s: basis %q, want %q", b.What, b.Basis, tc.want)
				}
			}
		})
	}
}
