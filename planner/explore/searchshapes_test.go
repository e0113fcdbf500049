package explore

import (
	"context"
	"strings"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// Hand prices (data/catalog.toml, street basis, estimates dated there):
// a QM8700 or a CS8500 leaf module $11,250; a CS8500 frame $27,500 and
// its 20 internal spine units $2,000 each, bought with every chassis.
const (
	qm8700USD      = 11250
	cs8500FrameUSD = 27500 + 20*2000
)

// shapeScenario is gpus GPUs of gpusPerServer on fabric at nicGbps,
// switch sw, links at one length a tier.
func shapeScenario(gpus, gpusPerServer int, fabric planner.Fabric, nicGbps int, sw string) planner.Scenario {
	s := searchScenario(gpus)
	s.Cluster.GPUsPerServer = gpusPerServer
	n := &s.Network
	n.Fabric, n.NICGbps, n.NIC, n.Switch = fabric, nicGbps, planner.Auto, sw
	return s.FlatLinks()
}

// TestSearchShapesByHand: each published shape the search tries, taken
// from the search's own variants and priced by its own evaluate, at odd
// sizes, its switches counted by hand.
//
//   - Collapsed core, 1,000 GPUs (125 servers of 8 x 200G) on 40-port
//     QM8700 rail leaves: units of 20 servers, 6 full and 5 servers, 7 x
//     8 = 56 leaves; uplinks 48 x 20 + 8 x 5 = 1,000 on one CS8500 pair
//     (500 ports each, 13 of its 40-port modules): 58 switches,
//     56 x $11,250 + 2 x ($67,500 + 13 x $11,250) = $1,057,500.
//   - Chassis spines, 2,000 GPUs (250 servers): 12 full units and 10
//     servers, 104 leaves; 96 x 20 + 8 x 10 = 2,000 uplinks; three
//     800-port CS8500s would hold them but do not divide a leaf's 20
//     uplinks, four do (5 each): 108 switches; 500 ports a chassis, 13
//     modules: 104 x $11,250 + 4 x $213,750 = $2,025,000.
//   - Leaf pairs (ESI-LAG), 1,000 GPUs (125 servers of 8 x 400G) on the
//     Tomahawk 5 (128 x 400G) at 1:1: 64 server ports a leaf, a server's
//     8 ports 4 on each leaf of its pair, 16 servers a pair: 7 full pairs
//     and 13 servers, 16 leaves; uplinks 14 x 64 + 2 x 52 = 1,000 on 8
//     spines (8 links from each full leaf): 24 switches.
//
// Mutations caught: chassis left out of the variants, or the collapsed
// core asking 4 spines a plane (no such variant); the pairs' variant
// left rail-optimized (refused by the sizing: no design); each checked.
func TestSearchShapesByHand(t *testing.T) {
	cat := testCatalog(t)
	memo := new(perf.WorkloadMemo)
	for _, tc := range []struct {
		name     string
		s        planner.Scenario
		pick     func(n planner.Network) bool
		shape    string
		switches int
		usd      float64 // the switches' cost, 0: not checked
	}{
		{"collapsed core, 1,000 GPUs", shapeScenario(1000, 8, planner.InfiniBand, 200, "qm8700"),
			func(n planner.Network) bool {
				return n.SpineSwitch == "cs8500" && n.MinSpines == 2 && n.Style() == planner.TopoRailOptimized
			},
			shapeCollapsed, 58, 56*qm8700USD + 2*(cs8500FrameUSD+13*qm8700USD)},
		{"chassis spines, 2,000 GPUs", shapeScenario(2000, 8, planner.InfiniBand, 200, "qm8700"),
			func(n planner.Network) bool {
				return n.SpineSwitch == "cs8500" && n.MinSpines == 0 && n.Style() == planner.TopoRailOptimized
			},
			shapeChassis, 108, 104*qm8700USD + 4*(cs8500FrameUSD+13*qm8700USD)},
		{"leaf pairs, 1,000 GPUs", shapeScenario(1000, 8, planner.Ethernet, 400, "tomahawk5"),
			func(n planner.Network) bool { return n.LeafPairs },
			shapePairs, 24, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var found *Design
			for _, v := range styleVariants(tc.s, chassisSpines(cat, tc.s.Network.Fabric, tc.s.Network.NICGbps), false) {
				if tc.pick(v.Network) {
					found = evaluate(v, cat, false, memo, PricedFlat)
					break
				}
			}
			if found == nil {
				t.Fatal("the search has no such variant, or it does not build")
			}
			name, reason := designShape(found.Plan)
			if name != tc.shape || found.Reason != reason || reason == "" {
				t.Errorf("shape %q (%q), want %q", name, found.Reason, tc.shape)
			}
			if got := found.Plan.TotalSwitches(); got != tc.switches {
				t.Errorf("%d switches, want %d", got, tc.switches)
			}
			if tc.usd > 0 && found.Plan.Cost.Switches != tc.usd {
				t.Errorf("switches cost $%.0f, want $%.0f", found.Plan.Cost.Switches, tc.usd)
			}
		})
	}
}

// TestSearchPicksCollapsedCore: where the new shape must win, the search
// picks it. An HDR cluster of 1,000 single-port servers on a catalog of
// the QM8700, the CS8500 and 200G NICs, the cheapest design within 1% of
// the fastest: one port a server allows one plane, which 40-port
// switches give 3 tiers (1,000 > 40 x 40 / 2 = 800 ports); top-of-rack
// leaves of 20 servers (50) under one CS8500 pair, 500 ports and 13
// modules each, take 52 switches at 50 x $11,250 + 2 x ($67,500 + 13 x
// $11,250) = $990,000, where the fixed three tiers take at least 50
// leaves, 50 spines and 25 cores ($1,406,250) and 1,000 more links.
// Mutation caught: the chassis variants above rail leaves only (the
// pick: two tiers of QM8700s at 3:1, within 1% of the fastest); checked.
func TestSearchPicksCollapsedCore(t *testing.T) {
	cat := testCatalog(t)
	for k := range cat.Switches {
		if k != "qm8700" && k != "cs8500" {
			delete(cat.Switches, k)
		}
	}
	for k, nic := range cat.NICs {
		if nic.Gbps != 200 {
			delete(cat.NICs, k)
		}
	}
	s := shapeScenario(1000, 1, planner.InfiniBand, 200, "qm8700")
	res, err := Search(context.Background(), s, cat, SearchOptions{WithinPct: 1})
	if err != nil {
		t.Fatal(err)
	}
	pick := res.Pick()
	if pick == nil || !strings.HasSuffix(pick.Label, "top-of-rack, collapsed core") {
		t.Fatalf("pick %v, want the top-of-rack collapsed core", pick)
	}
	if got, want := pick.Plan.Cost.Switches, float64(50*qm8700USD+2*(cs8500FrameUSD+13*qm8700USD)); pick.Plan.TotalSwitches() != 52 || got != want {
		t.Errorf("%d switches for $%.0f, want 52 for $%.0f", pick.Plan.TotalSwitches(), got, want)
	}
	if !strings.HasPrefix(pick.Reason, "collapsed core: ") {
		t.Errorf("reason %q", pick.Reason)
	}
}

// TestSearchShapesInTheHall: a search priced in the hall tries only the
// shapes its hall bound holds for (appendShapeVariants): chassis above the
// candidate's own leaves, no leaf pairs (never laid out) and no chassis
// above top-of-rack leaves; priced flat, it tries both. Mutation caught:
// the hall ignored (TestHallBoundNeverAboveHall then fails on 200 DGX
// H100 GPUs: a bound 3% above the hall's cost); checked.
func TestSearchShapesInTheHall(t *testing.T) {
	cat := testCatalog(t)
	s := shapeScenario(1000, 8, planner.Ethernet, 400, "tomahawk5")
	chassis := chassisSpines(cat, planner.Ethernet, 400)
	if len(chassis) == 0 {
		t.Fatal("no Ethernet chassis at 400G in the catalog")
	}
	count := func(hall bool) (pairs, torChassis, railChassis int) {
		for _, v := range styleVariants(s, chassis, hall) {
			n := v.Network
			switch {
			case n.LeafPairs:
				pairs++
			case n.SpineSwitch != "" && n.Style() == planner.TopoToR:
				torChassis++
			case n.SpineSwitch != "":
				railChassis++
			}
		}
		return
	}
	for _, tc := range []struct {
		hall                 bool
		pairs, torCh, railCh int
	}{{false, 1, 2 * len(chassis), 2 * len(chassis)}, {true, 0, 0, 2 * len(chassis)}} {
		if p, tor, rail := count(tc.hall); p != tc.pairs || tor != tc.torCh || rail != tc.railCh {
			t.Errorf("hall %v: %d pair, %d ToR-chassis, %d rail-chassis variants; want %d, %d, %d", tc.hall, p, tor, rail, tc.pairs, tc.torCh, tc.railCh)
		}
	}
}
