package perf

import "testing"

// TestFillVPP: a workload that gives no vpp takes 1 without a pipeline
// and 5 with one, capped at the layers a stage holds, rounded up (by
// hand: 4 layers on 2 stages hold 2 each; 9 on 4 hold up to 3; 80 on 4
// hold 20), and the breakdown's words say which; a typed vpp is kept
// as typed, with no words (checkConsistency refuses one too large).
// Mutations caught: the default not capped (issue 47: 4 layers at pp 2
// exited 2 for a vpp never typed), capped at layers / pp rounded down,
// a typed vpp capped, the origin not said.
func TestFillVPP(t *testing.T) {
	for _, c := range []struct {
		layers, pp, vpp int
		want            int
		origin          string
	}{
		{4, 1, 0, 1, " (default)"},
		{80, 4, 0, 5, " (default)"},
		{4, 2, 0, 2, " (default 5, capped at the 2 layers a stage holds)"},
		{9, 4, 0, 3, " (default 5, capped at the 3 layers a stage holds)"},
		{126, 16, 0, 5, " (default)"},
		{4, 2, 7, 7, ""},
	} {
		w := Workload{Layers: c.layers, PP: c.pp, VPP: c.vpp}
		fillVPP(&w)
		if w.VPP != c.want || w.vppOrigin() != c.origin {
			t.Errorf("%d layers, pp %d, vpp %d: got vpp %d%q, want %d%q", c.layers, c.pp, c.vpp, w.VPP, w.vppOrigin(), c.want, c.origin)
		}
	}
}
