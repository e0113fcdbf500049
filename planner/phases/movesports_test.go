package phases

import (
	"testing"

	"fabricplan/planner"
)

// TestMovesLandOnFreePorts: every cable the grow strategy moves lands on
// a port of its own. In each phase no two moves end on the same device
// and port, and no move ends on a port a kept link of the new phase
// still uses. Over the DGX H100 SuperPOD growing 1 -> 4 SU (192 leaf
// uplinks move to new spines), a 3-phase doubling, and the phase
// scenarios that move links, both fabrics and three tiers. Catches the
// moves all landing on one port (checked: movesBetween handing every
// move from a lower device the first of its new links, q[0], without
// taking it from the queue, fails here while the move counts hold).
func TestMovesLandOnFreePorts(t *testing.T) {
	cases := []planner.Scenario{dgxH100(1, 4), dgxH100(1, 2, 4)}
	for _, s := range phaseScenarios() {
		if s.Cluster.GPUs <= 8000 {
			cases = append(cases, s)
		}
	}
	checked := 0
	for _, s := range cases {
		pp := mustPhases(t, s)
		for k := 1; k < len(pp.plans); k++ {
			from, to := pp.plans[k-1], pp.plans[k]
			// The ends the new phase's kept links use.
			used := map[[2]string]bool{}
			kept := keptFlags(to, from, nil, phaseRename(from, to))
			i := 0
			_ = to.WalkCables(func(c *planner.CableRun) error {
				if kept[i] {
					used[[2]string{c.ADevice, c.APort}] = true
					used[[2]string{c.BDevice, c.BPort}] = true
				}
				i++
				return nil
			})
			err := movesBetween(from, to, k+1, func(m *LinkMove) error {
				if m.Action != MoveAction {
					return nil
				}
				checked++
				for _, end := range [][2]string{{m.To[0], m.To[1]}, {m.To[2], m.To[3]}} {
					if used[end] {
						t.Fatalf("%d GPUs, phase %d: a moved cable from %v lands on %s %s, already in use", s.Cluster.GPUs, k+1, m.From, end[0], end[1])
					}
					used[end] = true
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 192 {
		t.Fatalf("%d moves checked, want at least the SuperPOD's 192", checked)
	}
}
