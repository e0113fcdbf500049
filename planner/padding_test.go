package planner

import (
	"strings"
	"testing"
)

// The padding cases, by hand, on DGX H100 and QM9700 at 1:1
// (units of 32 servers, 8 rail leaves of 32 down / 32 up):
//   - 1,040 GPUs = 130 servers: 4 full units and one of 2 servers, plus
//     the node slot the last unit keeps for UFM connectivity (RA-11333-001:
//     127 DGX in 4 SU). The partial unit's 8 leaves take 2 server links
//     and 3 uplinks each (2 servers and the UFM slot; not one per spine:
//     19 before), so leaf-spine links = 1,024 + 8 x 3 = 1,048.
//   - 3,000 GPUs = 375 servers, 3 tiers: 11 full units and one of 23
//     servers and the UFM slot: 2,816 + 8 x 24 = 3,008 leaf-spine links,
//     as many spine-core, which need at least 3,008 / 64 = 47 cores;
//     per core group rounding gave 64. The plan has 47, and the headroom
//     says strict balance needs 17 more.
//   - 4,352 -> 4,360 GPUs (one more DGX): one more unit's 8 leaves, at
//     most 9 spines (the new unit's 8 partial leaves in a pod) and at
//     most the 4 cores one unit's 256 uplinks need (16 more before).
//
// Mutations caught: a partial leaf raised to one uplink per spine; cores
// rounded up per core group; spines sending up more than they take.
func TestNoUnexplainedPadding(t *testing.T) {
	cat := testCatalog(t)
	plan := func(gpus int) *Plan {
		p, err := Build(systemScenario("dgx-h100", gpus, "qm9700"), cat)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := plan(1040)
	if p.Tiers != 2 || p.Links.LeafSpine != 1048 {
		t.Errorf("1,040 GPUs: %d tiers, %d leaf-spine links; want 2, 1,048", p.Tiers, p.Links.LeafSpine)
	}
	for _, l := range p.tierLoads[0] {
		if l.Down < 32 && l.Up != l.Down+1 {
			t.Errorf("1,040 GPUs: a partial leaf with %d server links has %d uplinks, want %d", l.Down, l.Up, l.Down+1)
		}
	}
	if !strings.Contains(strings.Join(p.Notes, " "), "3 uplinks they need at 1:1") {
		t.Errorf("1,040 GPUs: no note on the partial leaves: %q", p.Notes)
	}
	p = plan(3000)
	if p.Tiers != 3 || p.Switches(TierCore) != 47 || p.Links.SpineCore != 3008 || p.Links.LeafSpine != 3008 {
		t.Errorf("3,000 GPUs: %d tiers, %d cores, %d spine-core, %d leaf-spine links; want 3, 47, 3,008, 3,008",
			p.Tiers, p.Switches(TierCore), p.Links.SpineCore, p.Links.LeafSpine)
	}
	if h := headroomSwitches(p, TierCore); h != 17 {
		t.Errorf("3,000 GPUs: core headroom %d, want 17 (64 strictly balanced)", h)
	}
	a, b := plan(4352), plan(4360)
	dl, ds, dc := b.Switches(TierLeaf)-a.Switches(TierLeaf), b.Switches(TierSpine)-a.Switches(TierSpine), b.Switches(TierCore)-a.Switches(TierCore)
	if a.Tiers != 3 || b.Tiers != 3 || dl != 8 || ds > 9 || dc > 4 {
		t.Errorf("4,352 -> 4,360 GPUs: +%d leaves, +%d spines, +%d cores; want 8, at most 9, at most 4", dl, ds, dc)
	}
}
