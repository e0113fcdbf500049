package planner

import (
	"math"
	"strings"
	"testing"
)

// billCount finds the row of group whose item starts with prefix.
func billCount(t *testing.T, b UnitBill, group, prefix string) UnitBillRow {
	t.Helper()
	for _, r := range b.Rows {
		if r.Group == group && strings.HasPrefix(r.Item, prefix) {
			return r
		}
	}
	t.Fatalf("no %s row %q in %+v", group, prefix, b.Rows)
	return UnitBillRow{}
}

// TestUnitBillByHand checks the per-SU table against counts worked out by
// hand from the DGX SuperPOD rules: eight-GPU servers with eight 400G
// ports, QM9700 (64 x 400G in 32 twin-port cages), a full SU of 32
// servers on 8 rail leaves with 32 ports down and 32 up.
func TestUnitBillByHand(t *testing.T) {
	type want struct {
		nodes, units                             int
		leaves, spines                           [2]float64 // SU, cluster
		serverLeaf, leafSpine                    [2]float64
		nodeEnd, leafDown, leafUp, spineDownEnds [2]float64
	}
	// Flat lengths (flatLengths): the hand counts are of optical links
	// at the per-tier lengths (a hall puts some links on copper).
	tor := flatIB(1000)
	tor.Network.RailOptimized = false
	planes := flatIB(4096)
	planes.Network.Planes = 2
	cases := []struct {
		name string
		s    Scenario
		want want
	}{
		// 4 SUs: 16 spines carry 1,024 uplinks; an SU's share is 4, as
		// in NVIDIA's 4-SU table. Mutation caught: spines shared by
		// leaves instead of uplinks would agree here, so the partial
		// and oversubscribed cases below check the share too.
		{"1,024 GPUs, 4 SUs", flatIB(1024), want{32, 4, [2]float64{8, 32}, [2]float64{4, 16},
			[2]float64{256, 1024}, [2]float64{256, 1024}, [2]float64{256, 1024}, [2]float64{128, 512}, [2]float64{128, 512}, [2]float64{128, 512}}},
		// 125 servers: 3 full SUs and one of 29. The partial SU's leaves
		// take ceil(29/2) = 15 down modules: 3*8*16 + 8*15 = 504. Its
		// leaves keep the 29 uplinks their servers need at 1:1 (not 32:
		// a partial leaf is never padded), so the cluster has 24*32 +
		// 8*29 = 1,000 leaf-spine links and 24*16 + 8*15 = 504 leaf-up
		// modules; 16 spines take 62 or 63 links: 8*32 + 8*31 = 504
		// spine-end modules, an SU's share 504 x 256/1,000. Mutation
		// caught: cluster column as units x SU (1,024 server links, 512
		// down modules); the partial leaves' uplinks rounded up to 32.
		{"1,000 GPUs, partial SU", flatIB(1000), want{32, 4, [2]float64{8, 32}, [2]float64{4.096, 16},
			[2]float64{256, 1000}, [2]float64{256, 1000}, [2]float64{256, 1000}, [2]float64{128, 504}, [2]float64{128, 504}, [2]float64{504.0 * 256 / 1000, 504}}},
		// Top of rack: one leaf holds 4 servers (32 ports, on 2 m DAC, so
		// no server-side optics); 125 servers need 32 leaves, the last
		// with 1 server: 8 down and the 8 uplinks it needs at 1:1 (one
		// link to 8 of the 16 spines). Leaf-spine links 31*32 + 8 =
		// 1,000; leaf-up modules 31*16 + 4 = 500; spines take 62 or 63
		// links: 8*32 + 8*31 = 504 modules. An SU's share: 16 x
		// 32/1,000 spines, 504 x 32/1,000 spine-end modules. Mutation
		// caught: the partial leaf raised to one link per spine (16).
		{"top of rack, 1,000 GPUs", tor, want{4, 32, [2]float64{1, 32}, [2]float64{16.0 * 32 / 1000, 16},
			[2]float64{32, 1000}, [2]float64{32, 1000}, [2]float64{}, [2]float64{}, [2]float64{16, 500}, [2]float64{504.0 * 32 / 1000, 504}}},
		// Two planes, 4 ports each: an SU is 32 servers on 4 leaves per
		// plane, 8 in all. 512 servers = 16 SUs, 128 leaves; per plane
		// 64 leaves x 32 up = 2,048 links on 32 spines, 64 in all; an
		// SU's share is 64 x 256 / 4,096 = 4. Mutation caught: an SU
		// counted in one plane only (4 leaves, 128 links).
		{"2 planes, 4,096 GPUs", planes, want{32, 16, [2]float64{8, 128}, [2]float64{4, 64},
			[2]float64{256, 4096}, [2]float64{256, 4096}, [2]float64{256, 4096}, [2]float64{128, 2048}, [2]float64{128, 2048}, [2]float64{128, 2048}}},
	}
	cat := testCatalog(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(c.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			b := p.UnitBill()
			if b.Nodes != c.want.nodes || b.Units != c.want.units {
				t.Errorf("SU of %d nodes, %d SUs; want %d, %d", b.Nodes, b.Units, c.want.nodes, c.want.units)
			}
			check := func(group, prefix string, w [2]float64) {
				t.Helper()
				r := billCount(t, b, group, prefix)
				if math.Abs(r.Unit-w[0]) > 1e-9 || float64(r.Cluster) != w[1] {
					t.Errorf("%s %q: SU %g, cluster %d; want %g, %g", group, prefix, r.Unit, r.Cluster, w[0], w[1])
				}
			}
			check(BillSwitches, "leaf", c.want.leaves)
			check(BillSwitches, "spine", c.want.spines)
			check(BillCables, "server-leaf", c.want.serverLeaf)
			check(BillCables, "leaf-spine", c.want.leafSpine)
			for _, r := range b.Rows {
				if r.Group != BillTransceivers {
					continue
				}
				var w [2]float64
				switch {
				case strings.HasSuffix(r.Item, "node end"):
					w = c.want.nodeEnd
				case strings.HasSuffix(r.Item, "leaf end (down)"):
					w = c.want.leafDown
				case strings.HasSuffix(r.Item, "leaf end (up)"):
					w = c.want.leafUp
				case strings.HasSuffix(r.Item, "spine end (down)"):
					w = c.want.spineDownEnds
				default:
					t.Errorf("unexpected transceiver row %q", r.Item)
					continue
				}
				if math.Abs(r.Unit-w[0]) > 1e-9 || float64(r.Cluster) != w[1] {
					t.Errorf("%q: SU %g, cluster %d; want %g, %g", r.Item, r.Unit, r.Cluster, w[0], w[1])
				}
			}
		})
	}
}

// TestUnitBillOneSwitch: 64 GPUs on one QM9700 are one SU of 8 servers;
// the switch end is not called a leaf and nothing is shared.
// At the flat per-tier lengths (flatLengths): its hand figures count one medium per tier.
func TestUnitBillOneSwitch(t *testing.T) {
	p, err := Build(flatIB(64), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	b := p.UnitBill()
	if b.Nodes != 8 || b.Units != 1 || b.Shares() {
		t.Fatalf("bill %+v", b)
	}
	if r := billCount(t, b, BillSwitches, "switch"); r.Unit != 1 || r.Cluster != 1 {
		t.Errorf("switch row %+v", r)
	}
	// 64 ports in twin-port cages: 32 modules at the switch end.
	found := false
	for _, r := range b.Rows {
		if strings.HasSuffix(r.Item, "switch end") {
			found = r.Unit == 32 && r.Cluster == 32
		}
	}
	if !found {
		t.Errorf("no switch-end row of 32 modules in %+v", b.Rows)
	}
	if !strings.HasPrefix(b.Heading(), "One SU: 8 nodes, 64 GPUs") {
		t.Errorf("heading %q", b.Heading())
	}
}

// TestUnitBillAddsUp checks the table against the plan for every cable
// map case (examples, off-grid sizes, ToR, 2:1, 3:1, planes, every
// system): the cluster column is the plan's counts per tier and end; the
// transceivers add up to the plan's; when every SU is full the cluster
// is the SU times the SUs, shares included. Mutations caught: lower and
// upper module counts swapped between tiers, a share taken over leaves
// rather than uplinks at 3 tiers, spare parts counted in the table.
func TestUnitBillAddsUp(t *testing.T) {
	for name, p := range cableMapCases(t) {
		t.Run(name, func(t *testing.T) {
			b := p.UnitBill()
			modules := 0
			for _, r := range b.Rows {
				switch r.Group {
				case BillSwitches:
					tier := r.Item
					if tier == "switch" {
						tier = TierLeaf
					}
					if r.Cluster != p.Switches(tier) {
						t.Errorf("%s switches %d, plan %d", r.Item, r.Cluster, p.Switches(tier))
					}
				case BillCables:
					lt := p.linkTier(strings.ReplaceAll(strings.SplitN(r.Item, ",", 2)[0], "-", "_"))
					if lt == nil || r.Tier != lt.Name || r.Cluster != lt.Links || !strings.Contains(r.Item, lt.Medium.Label()) {
						t.Errorf("cable row %+v, plan tier %+v", r, lt)
					}
				case BillTransceivers:
					modules += r.Cluster
				}
				if r.Unit < 0 || r.Unit > float64(r.Cluster)+1e-9 {
					t.Errorf("%q: SU %g beyond the cluster's %d", r.Item, r.Unit, r.Cluster)
				}
			}
			if want := p.ServerTransceivers + p.SwitchTransceivers; modules != want {
				t.Errorf("transceivers %d, plan %d", modules, want)
			}
			if b.Partial || b.Nodes != b.FullNodes || p.Tiers == 3 {
				return // SUs differ, or pods share cores unevenly
			}
			for _, r := range b.Rows {
				if got := r.Unit * float64(b.Units); math.Abs(got-float64(r.Cluster)) > 1e-6 {
					t.Errorf("%q: %g per SU x %d SUs = %g, cluster %d", r.Item, r.Unit, b.Units, got, r.Cluster)
				}
			}
		})
	}
}

func TestUnitText(t *testing.T) {
	for _, c := range []struct {
		r    UnitBillRow
		want string
	}{
		{UnitBillRow{Unit: 1024}, "1,024"},
		{UnitBillRow{Unit: 4, Shared: true}, "4 (share)"},
		{UnitBillRow{Unit: 4.125, Shared: true}, "4.1 (share)"},
		{UnitBillRow{Unit: 0.5, Shared: true}, "0.5 (share)"},
		{UnitBillRow{Unit: 3.96, Shared: true}, "4 (share)"}, // mutation: "4.0 (share)"
	} {
		if got := c.r.UnitText(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
