package planner

import (
	"math"
	"testing"

	"fabricplan/planner/hall"
)

// TestHallBinsCountEveryLink: the hall's "Links by length" bins count
// every link the plan counts, the storage nodes' links beside the
// tiers' included, on laid-out designs at odd sizes with storage: the
// links by hand are a link per server port, the uplinks the plan's, and
// a link per storage port (16 nodes of 1, 16; 13 of 2, 26; 7 of 1, 7;
// 3 nodes of 2 beside 56 GPUs on one switch, 6). Catches: the bins
// filled from the walk's runs only (1,000 GPUs + 16 storage nodes:
// 2,016 of 2,032, the case).
func TestHallBinsCountEveryLink(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name    string
		s       Scenario
		storage int
	}{
		{"1,000 GPUs, 16 nodes of 1", withStorage(ibScenario(1000), 16, 1), 16},
		{"1,000 GPUs, 13 nodes of 2", withStorage(ibScenario(1000), 13, 2), 26},
		{"2,312 GPUs, 7 nodes of 1", withStorage(ibScenario(2312), 7, 1), 7},
		{"one switch, 56 GPUs, 3 nodes of 2", withStorage(ibScenario(56), 3, 2), 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Hall == nil {
				t.Fatal("no hall laid out")
			}
			if p.Links.Storage != tc.storage || p.Links.ServerLeaf != tc.s.Cluster.GPUs {
				t.Fatalf("links %s; want server-leaf %d, storage %d", p.Links.Parts(), tc.s.Cluster.GPUs, tc.storage)
			}
			binned := 0
			for _, b := range p.Hall.Figures.Bins {
				binned += b.Links
			}
			if binned != p.Links.Total {
				t.Errorf("the length bins count %d links, the plan %d (%s)", binned, p.Links.Total, p.Links.Parts())
			}
		})
	}
}

// The plan's longest link of each tier (Figures.Longest, shown by plan
// and plan --json) is the cable map's longest run: its run, length
// sold and racks are those of the first link walked at the tier's
// greatest run_m, as layout --longest and cables --csv give them. Over
// odd sizes, rail-optimised and top-of-rack leaves, a GB200 NVL72
// fabric and three tiers (6,152 GPUs on QM9700, buyer finding 25:
// 23.8 m from R8-08 shown where the map's longest is 25.5 m).
// Catches: the longest taken as the first link at the longest length
// sold (linkCounter.add comparing ch.metres, not the run: every case's
// leaf-spine, 6,152's spine-core; serverCounter.count doing so: the
// server-leaf of every case but 1,016 and 411), a tier's longest not
// shown, another tier's link kept.
func TestPlanLongestIsCableMapLongest(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Scenario)
	}{
		{"rail 1000", func(s *Scenario) { s.Cluster.GPUs = 1000 }},
		{"rail 3 tiers 6152", func(s *Scenario) { s.Cluster.GPUs = 6152 }},
		{"non-rail 1016", func(s *Scenario) { s.Cluster.GPUs, s.Network.RailOptimized = 1016, false }},
		{"tor 744", func(s *Scenario) {
			s.Cluster.GPUs = 744
			s.Facility = &hall.Facility{LeafPlacement: hall.PlaceToR, RackUnits: 48}
		}},
		{"gb200 411", func(s *Scenario) { s.Cluster.System, s.Cluster.GPUs = "gb200-nvl72", 411 }},
		{"2 planes 2:1 2056", func(s *Scenario) {
			s.Cluster.GPUs, s.Network.Planes, s.Network.Oversubscription = 2056, 2, "2:1"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(0)
			tc.edit(&s)
			p := buildHall(t, s)
			want := map[string]CableRun{}
			err := p.WalkCables(func(c *CableRun) error {
				if w, ok := want[c.Tier]; !ok || c.RunM > w.RunM+runTieM {
					want[c.Tier] = *c
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]hall.TierLongest{}
			for _, l := range p.Hall.Figures.Longest {
				got[l.Tier] = l
			}
			for _, lt := range p.LinkTiers {
				w, ok := want[lt.Name]
				if !ok {
					continue
				}
				g := got[lt.Name]
				if math.Abs(g.RunM-w.RunM) > runTieM || g.Metres != w.Metres || g.From != w.ARack || g.To != w.BRack || g.Medium != string(w.Medium) {
					t.Errorf("%s: plan's longest %.3f m run (%g m %s) %s to %s; cable map's %.3f m run (%g m %s) %s to %s",
						lt.Name, g.RunM, g.Metres, g.Medium, g.From, g.To, w.RunM, w.Metres, w.Medium, w.ARack, w.BRack)
				}
			}
			if len(got) != len(want) || len(want) != len(p.LinkTiers) {
				t.Errorf("%d tiers' longest shown, cable map has %d tiers, plan %d", len(got), len(want), len(p.LinkTiers))
			}
		})
	}
}
