package planner

import "testing"

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
