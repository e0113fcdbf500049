package planner

import (
	"context"
	"testing"

	"fabricplan/planner/hall"
)

// The default 1,024-GPU plan in its default hall, by hand: 4 SUs of 8
// rail leaves, two SUs to a compute row with their 16 leaves in one
// leaf rack at the row's middle; the 16 spines in one spine rack of the
// network row. Each leaf sends 32 uplinks to the spines, so each leaf
// rack joins the spine rack by 16 x 32 = 512 links: two pairs. Its
// server-leaf links join each compute rack to its row's leaf rack.
// Every tier's pairs hold all its links. Mutations caught: links
// counted once per pair (no aggregation counts), the tier filter
// ignored (pairs of other tiers), a pair's ends swapped in FarEnds.
func TestRackPairs(t *testing.T) {
	p, err := Build(NewScenario(), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.Hall == nil {
		t.Fatal("the default plan is not laid out")
	}
	pairs, err := p.RackPairs(context.Background(), "leaf-spine")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 || pairs[0].Links != 512 || pairs[1].Links != 512 {
		t.Fatalf("leaf-spine pairs %+v, want 2 of 512 links", pairs)
	}
	for _, pr := range pairs {
		if a, b := p.Hall.Racks[pr.A].Kind, p.Hall.Racks[pr.B].Kind; a != hall.RackLeaf || b != hall.RackSpine {
			t.Errorf("pair %+v joins a %s rack to a %s rack, want leaf to spine", pr, a, b)
		}
	}
	spine := pairs[0].B
	far := FarEnds(pairs, spine)
	if len(far) != 2 || far[0].A != spine || far[0].B != pairs[0].A {
		t.Errorf("far ends of the spine rack %+v", far)
	}
	for _, s := range []Scenario{NewScenario(), systemScenario("gb300-nvl72", 4608, Auto), ibScenario(1000)} {
		q, err := Build(s, testCatalog(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, lt := range q.LinkTiers {
			pairs, err := q.RackPairs(context.Background(), lt.Name)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			for _, pr := range pairs {
				sum += pr.Links
				if pr.LongestM <= 0 {
					t.Errorf("%s pair %+v without a length", lt.Name, pr)
				}
			}
			if sum != lt.Links {
				t.Errorf("%d GPUs %s: pairs hold %d links, the tier %d", s.Cluster.GPUs, lt.Name, sum, lt.Links)
			}
		}
	}
	if _, err := p.RackPairs(context.Background(), "spine-core"); err == nil {
		t.Error("a two-tier plan gave spine-core pairs")
	}
	flat, _ := Build(flatIB(1024), testCatalog(t))
	if _, err := flat.RackPairs(context.Background(), "leaf-spine"); err == nil {
		t.Error("a plan without a hall gave rack pairs")
	}
}
