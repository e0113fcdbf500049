package planner

import (
	"context"
	"errors"
	"testing"

	"fabricplan/planner/hall"
)

// TestRackEndsDGXSU lists the far ends of racks of one DGX H100 SU with
// its leaves at the end of the row (the layout TestHallDGXSUServerLeafRuns
// works by hand): racks R2-01 to R2-08 hold 4 servers each, R2-09 the 8
// rail leaves; 256 uplinks need 256/64 = 4 QM9700 spines, 1U each, in
// one spine rack. Hand counts: a compute rack's 4 servers x 8 rails =
// 32 server-leaf links, all to R2-09; its runs span 8.6 to 9.98 m
// (up 1.16-2.22 m, along 8 pitches of 0.6 m, down 0.64-0.96 m, 2 m
// slack), all sold at 10 m. The leaf rack: 8 far ends of 32 down
// links each (its upper ends), and 8 leaves x 32 uplinks = 256 links
// to the spine rack (lower ends). Mutations caught: far ends counted
// from one side only (the leaf rack would list no server links), the
// lower/upper flag swapped, links of other racks counted, a rack's
// far end taken as itself.
func TestRackEndsDGXSU(t *testing.T) {
	p := buildHall(t, hallScenario(256, hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceEnd}))
	h := p.Hall
	index := func(name string) int {
		for i, r := range h.Racks {
			if r.Name == name {
				return i
			}
		}
		t.Fatalf("no rack %s", name)
		return -1
	}
	ctx := context.Background()

	ends, err := p.RackEnds(ctx, index("R2-01"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ends) != 1 {
		t.Fatalf("R2-01 far ends %+v, want one (the leaf rack)", ends)
	}
	e := ends[0]
	if e.Tier != "server_leaf" || h.Racks[e.Far].Name != "R2-09" || e.Links != 32 || !e.Lower {
		t.Errorf("R2-01: %+v, want 32 server-leaf links to R2-09, R2-01 the lower end", e)
	}
	if len(e.Runs) != 1 || e.Runs[0].Metres != 10 || e.LongestM() != 10 {
		t.Errorf("R2-01 runs %+v, want all 32 sold at 10 m", e.Runs)
	}

	ends, err = p.RackEnds(ctx, index("R2-09"))
	if err != nil {
		t.Fatal(err)
	}
	down, up := map[string]int{}, map[string]int{}
	for _, e := range ends {
		switch {
		case e.Tier == "server_leaf" && !e.Lower:
			down[h.Racks[e.Far].Name] += e.Links
		case e.Tier == "leaf_spine" && e.Lower:
			up[h.Racks[e.Far].Kind] += e.Links
		default:
			t.Errorf("R2-09 unexpected end %+v", e)
		}
	}
	for k := 1; k <= 8; k++ {
		if name := "R2-0" + string(rune('0'+k)); down[name] != 32 {
			t.Errorf("R2-09 from %s: %d links, want 32", name, down[name])
		}
	}
	if len(down) != 8 || up[hall.RackSpine] != 256 || len(up) != 1 {
		t.Errorf("R2-09 down %v, up %v; want 8 compute racks and 256 links to spines", down, up)
	}
	// Tiers in order: server-leaf before leaf-spine.
	if ends[0].Tier != "server_leaf" || ends[len(ends)-1].Tier != "leaf_spine" {
		t.Errorf("tier order %s ... %s", ends[0].Tier, ends[len(ends)-1].Tier)
	}
}

// TestRackEndsErrors: a rack outside the hall, a plan without a hall and
// a cancelled walk are errors, never a panic or a partial list.
// Mutations caught: the index unchecked (panic), a cancelled walk
// returning what it had counted.
func TestRackEndsErrors(t *testing.T) {
	p := buildHall(t, hallScenario(16384, hall.Facility{}))
	for _, rack := range []int{-1, len(p.Hall.Racks)} {
		if _, err := p.RackEnds(context.Background(), rack); err == nil {
			t.Errorf("rack %d: no error", rack)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ends, err := p.RackEnds(ctx, 0); !errors.Is(err, context.Canceled) || ends != nil {
		t.Errorf("cancelled: %v, %d ends", err, len(ends))
	}
	flat, err := Build(flatLengths(ibScenario(64)), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := flat.RackEnds(context.Background(), 0); err == nil {
		t.Error("no hall: no error")
	}
}
