package phases

import (
	"slices"
	"strings"
	"testing"

	"fabricplan/planner"
)

// TestPhasesCountSideLinks works by hand where building for the final
// size cables the storage nodes' and leaf pairs' peer links, and holds
// every phase's links, and the last phase's to the plan's.
//
//   - 1,000 GPUs (125 DGX-class servers of 8 rails) on QM9700 at 1:1
//     with 16 storage nodes of one port: a unit is 32 servers on 8 rail
//     leaves, so 3 full units (96 servers) and a partial one of 29, whose
//     8 leaves have 3 idle server ports each and take the 16 storage
//     ports (2 a leaf). Phases of 256, 512 and 1,000 GPUs (32, 64 and
//     125 servers) reach the partial unit's first server (the 97th) only
//     in phase 3: storage links 0, 0, 16. Links then: server 1,000,
//     leaf-spine 3 x 8 x 32 + 8 x 31 = 1,016, storage 16: 2,032.
//   - 1,016 GPUs (127 servers of 8 ports) on SN5600 at 400G (128 ports)
//     in ESI-LAG pairs with 2 peer ports a leaf: a leaf keeps 126 ports
//     beside its peer's, 63 down at 1:1, whole servers' halves (4 ports
//     each) 60: 15 servers a pair, 9 pairs for 127 servers, 18 peer
//     links. Phases of 120, 240, 480, 960 and 1,016 GPUs (15, 30, 60,
//     120, 127 servers) fill 1, 2, 4, 8 and 9 pairs: peer links 2, 4, 8,
//     16, 18.
//
// Catches: the final-size phases counting only the tiers' links (the
// last phase 2,016 of the plan's 2,032, the case); a pair's peer
// links counted at both its leaves (36); the storage cables bought with
// the server-leaf tier's phases instead of with the links that need them
// (phase 1 bought 516 cables for 512 links; phase 3 1,000 for 1,008).
func TestPhasesCountSideLinks(t *testing.T) {
	storage := ibScenario(1000)
	storage.Network.StorageNodes = 16
	pairs := planner.NewScenario()
	pairs.Cluster.GPUs = 1016
	pairs.Network.Fabric = planner.Ethernet
	pairs.Network.Switch = "sn5600"
	pairs.Network.LeafPairs, pairs.Network.RailOptimized = true, false
	pairs.Network.PeerLinkPorts = 2
	for _, tc := range []struct {
		name        string
		s           planner.Scenario
		storage     []int // storage links after each phase, building for the final size
		peer        []int
		total       int // the plan's links
		phaseServer []int
	}{
		{"1,000 GPUs + 16 storage nodes", storage, []int{0, 0, 16}, []int{0, 0, 0}, 2032, []int{32, 64, 125}},
		{"1,016 GPUs in leaf pairs, 2 peer ports", pairs, []int{0, 0, 0, 0, 0}, []int{2, 4, 8, 16, 18}, 2050, []int{15, 30, 60, 120, 127}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pp := mustPhases(t, tc.s)
			if pp.Final.Links.Total != tc.total {
				t.Fatalf("plan: %d links (%s), want %d", pp.Final.Links.Total, pp.Final.Links.Parts(), tc.total)
			}
			fs := pp.Strategy(StrategyFinal)
			var gotS, gotP, servers []int
			for _, st := range fs.Steps {
				gotS, gotP, servers = append(gotS, st.Links.Storage), append(gotP, st.Links.Peer), append(servers, st.Servers)
				if st.Links.Total != st.Links.Fabric()+st.Links.Storage+st.Links.Peer {
					t.Errorf("phase %d: total %d, parts %s", st.Phase, st.Links.Total, st.Links.Parts())
				}
			}
			if !slices.Equal(servers, tc.phaseServer) {
				t.Fatalf("phases' servers %v, want %v (the phases this test works by hand)", servers, tc.phaseServer)
			}
			if !slices.Equal(gotS, tc.storage) || !slices.Equal(gotP, tc.peer) {
				t.Errorf("storage links %v, peer links %v; want %v and %v", gotS, gotP, tc.storage, tc.peer)
			}
			for _, sp := range pp.Strategies {
				if last := sp.Last(); last.Links != pp.Final.Links || last.Switches.Total != pp.Final.Switches(planner.TierLeaf)+pp.Final.Switches(planner.TierSpine)+pp.Final.Switches(planner.TierCore) {
					t.Errorf("%s: last phase links %+v, %d switches; the plan's %+v", sp.Key, last.Links, last.Switches.Total, pp.Final.Links)
				}
			}
			// Building for the final size buys one cable a link, the
			// storage and peer links' with them.
			added := 0
			for _, st := range fs.Steps {
				added += st.LinksAdded.Total
				if st.CablesBought < st.LinksAdded.Total {
					t.Errorf("phase %d: %d cables bought for %d links added", st.Phase, st.CablesBought, st.LinksAdded.Total)
				}
			}
			if added != tc.total {
				t.Errorf("links added over the phases: %d, want the plan's %d", added, tc.total)
			}
		})
	}
}

// TestGrowMovesSideLinks holds the grow strategy's moved links to the
// moves it lists, storage links included: 1,000 GPUs + 16 storage nodes
// grow through plans whose storage ports sit on other leaves each phase,
// so some storage links move. Catches: +links and moved counting only
// the tiers' links while the moves list has the side links (or the
// reverse); a storage link's identity by its leaf port instead of its
// node port and leaf.
func TestGrowMovesSideLinks(t *testing.T) {
	s := ibScenario(1000)
	s.Network.StorageNodes = 16
	pp := mustPhases(t, s)
	listed := map[int]int{}
	storageListed := 0
	if err := pp.Moves(func(m *LinkMove) error {
		listed[m.Phase]++
		if m.Tier == planner.CableTierStorage {
			storageListed++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	storageMoved := 0
	for _, st := range pp.Strategy(StrategyGrow).Steps {
		storageMoved += st.LinksMoved.Storage
		if listed[st.Phase] != st.LinksMoved.Total {
			t.Errorf("phase %d: %d moves listed, %d links moved (%s)", st.Phase, listed[st.Phase], st.LinksMoved.Total, st.LinksMoved.Parts())
		}
		if st.Phase > 1 && st.LinksAdded.Total-st.LinksMoved.Total != st.Links.Total-pp.Strategy(StrategyGrow).Steps[st.Phase-2].Links.Total {
			t.Errorf("phase %d: added %d less moved %d is not the links' growth", st.Phase, st.LinksAdded.Total, st.LinksMoved.Total)
		}
	}
	if storageMoved == 0 || storageListed != storageMoved {
		t.Errorf("storage links moved %d, listed %d: want the same, above 0", storageMoved, storageListed)
	}
	if f := strings.Join(pp.Strategy(StrategyFinal).Findings, "\n"); !strings.Contains(f, "the 16 storage node links are cabled with the leaves that take them, from phase 3") {
		t.Errorf("final-size findings do not say when the storage links land:\n%s", f)
	}
}
