package sidenet

import "testing"

// TestReferenceScaled works the per-unit scaling by hand on the DGX B200
// design's figures at 4 SU of 32 node slots (12 storage, 6 in-band, 16
// OOB switches; catalog side_defaults.dgx-b200.reference): 31 nodes
// begin 1 unit: ceil(12/4) = 3, ceil(6/4) = 2, ceil(16/4) = 4; 63 begin
// 2: 6, 3, 8; 127 begin 4: the figures; 75 begin 3: 9, ceil(4.5) = 5,
// 12; 200 begin 7: 21, ceil(10.5) = 11, 28. Mutations caught: units
// rounded down (75 nodes as 2 units: 6, 3, 8), the count rounded down
// (2 SU in-band 3 as 1.5 -> 1), the figure taken whole at every size.
func TestReferenceScaled(t *testing.T) {
	r := Reference{UnitNodes: 32, Units: 4, Storage: 12, FrontEnd: 6, OOB: 16}
	for _, tc := range []struct {
		nodes, units, storage, frontEnd, oob int
	}{
		{31, 1, 3, 2, 4},
		{63, 2, 6, 3, 8},
		{127, 4, 12, 6, 16},
		{75, 3, 9, 5, 12},
		{200, 7, 21, 11, 28},
	} {
		if u := r.UnitsOf(tc.nodes); u != tc.units {
			t.Errorf("%d nodes: %d units, want %d", tc.nodes, u, tc.units)
		}
		got := [3]int{r.Scaled(r.Storage, tc.nodes), r.Scaled(r.FrontEnd, tc.nodes), r.Scaled(r.OOB, tc.nodes)}
		if want := [3]int{tc.storage, tc.frontEnd, tc.oob}; got != want {
			t.Errorf("%d nodes: storage, in-band, OOB %v, want %v", tc.nodes, got, want)
		}
	}
	if got := r.Scaled(0, 127); got != 0 {
		t.Errorf("an unpublished count scaled to %d, want 0", got)
	}
}

// TestReferenceForcesHandCluster: the hand cluster (TestSizeHand) with a
// reference of 1 unit of 32 nodes giving 12 storage, 3 front-end and 8
// OOB switches. With the back end: storage 12 in place of 10 (its 4
// spines of 10 become 12 x 4 / 10 = 4.8, to the nearest pair 4, leaves
// 8; its 35 ports stay, the 35 leaf-spine links become 35 x 12 / 10 =
// 42: 77 links);
// OOB 8 in place of 6, so the front end carries 8 x 2 = 16 uplinks: 64 +
// 8 + 16 = 88 ports, on 3 switches. Without the back end the counts drop
// by what the planner's sizing says the back end adds: storage 10 - 10
// = 0 -> 12, front end 2 - 2 = 0 -> 3, OOB 6 - 4 = 2 -> 6. Mutations
// caught: the reference's counts not taken, spines not in pairs (5), the
// OOB uplinks counted on the sized OOB switches (84 front-end ports),
// the back end's share kept without it (OOB 8, so the back end adds
// none).
func TestReferenceForcesHandCluster(t *testing.T) {
	in := handCluster
	in.Reference = &Reference{UnitNodes: 32, Units: 1, Storage: 12, FrontEnd: 3, OOB: 8}
	got := Size(in)
	if want := (Net{Ports: 35, StorageServerPorts: 3, Leaves: 8, Spines: 4, Switches: 12, Links: 77, Rescaled: true}); got.Storage != want {
		t.Errorf("storage %+v, want %+v", got.Storage, want)
	}
	if got.FrontEnd.Ports != 88 || got.FrontEnd.Switches != 3 || got.OOB.Switches != 8 {
		t.Errorf("front end %d ports on %d switches, OOB %d switches; want 88 on 3, 8", got.FrontEnd.Ports, got.FrontEnd.Switches, got.OOB.Switches)
	}
	in.BackEnd = false
	got = Size(in)
	if got.Storage.Switches != 12 || got.FrontEnd.Switches != 3 || got.OOB.Switches != 6 {
		t.Errorf("without the back end: storage %d, front end %d, OOB %d switches; want 12, 3, 6", got.Storage.Switches, got.FrontEnd.Switches, got.OOB.Switches)
	}
	if st := SizeStorage(in); st.Switches != 12 {
		t.Errorf("SizeStorage: %d switches, want the reference's 12", st.Switches)
	}
}
