package phases

import (
	"strings"
	"testing"

	"fabricplan/planner"
)

// TestCoreRecutAlternative: growing 2,048 -> 4,096 -> 6,152 GPUs of
// DGX-class 8-GPU servers on QM9700 (64 ports, 1:1), by hand:
//   - phase 1, 256 servers: 64 leaves (8 rails x 8 units) of 32 down and
//     32 up fit under 32 spines: two tiers, 2,048 leaf-spine links;
//   - phase 2, 512 servers: 128 leaves, more than one 64-port spine
//     layer takes, so three tiers: 128 spines x 32 uplinks = 4,096
//     spine-core links on 4,096 / 64 = 64 cores; all 2,048 leaf-spine
//     links of phase 1 move (a two-tier spine is not a pod's);
//   - phase 3 needs more cores, so its core groups are re-cut and
//     spine-core links of phase 2 move.
//
// The alternative cables the final size's cores from phase 2 (the first
// three-tier phase) and moves only phase 2's 2,048; its spend is phase
// 1's, then phase 2 bought up to the final-size strategy's bill, then
// the final-size strategy's phase 3. A build-out that never re-cuts
// (2 tiers throughout) has none. Catches the alternative offered for a
// tier change, its moves counted with the re-cut's, the re-cut phase
// not named in the findings, or its cores not the final plan's.
func TestCoreRecutAlternative(t *testing.T) {
	s := ibScenario(6152)
	s.Phases = []planner.Phase{{GPUs: 2048}, {GPUs: 4096}}
	pp := mustPhases(t, s)
	gr, fs := pp.Strategy(StrategyGrow), pp.Strategy(StrategyFinal)
	if gr.Steps[2].LinksMoved.SpineCore == 0 {
		t.Fatalf("phase 3 moves no spine-core link: no re-cut to test")
	}
	alt := gr.CoreAlternative
	if alt == nil {
		t.Fatalf("no core alternative; findings %q", gr.Findings)
	}
	want := CoreAlternative{FromPhase: 2, Cores: pp.Final.Switches(planner.TierCore), GrowCores: 64, LinksMoved: 2048}
	if alt.FromPhase != want.FromPhase || alt.Cores != want.Cores || alt.GrowCores != want.GrowCores || alt.LinksMoved != want.LinksMoved {
		t.Errorf("alternative from phase %d, %d cores (growing %d), %d links moved; want %+v", alt.FromPhase, alt.Cores, alt.GrowCores, alt.LinksMoved, want)
	}
	if got := alt.RecableHours; got != gr.Steps[1].Recabling.Hours {
		t.Errorf("alternative re-cabling %.2f h, want phase 2's %.2f h alone", got, gr.Steps[1].Recabling.Hours)
	}
	spend := compare(bomQty(pp.plans[0]), pp.finalQty[1]).added
	total := gr.Steps[0].CostUSD + spend + fs.Steps[2].CostAddedUSD
	if !near(alt.SpendUSD, spend) || !near(alt.CostUSD, total) {
		t.Errorf("alternative spends %.0f in phase 2, %.0f in all; want %.0f and %.0f", alt.SpendUSD, alt.CostUSD, spend, total)
	}
	all := strings.Join(gr.Findings, "\n")
	for _, w := range []string{"phase 3 re-cuts the core groups: phase 2's 64 cores become", alt.Text} {
		if !strings.Contains(all, w) {
			t.Errorf("grow findings lack %q:\n%s", w, all)
		}
	}
	two := mustPhases(t, dgxH100(1, 2, 4))
	if a := two.Strategy(StrategyGrow).CoreAlternative; a != nil {
		t.Errorf("two-tier build-out has a core alternative: %+v", a)
	}
}

// near says whether two dollar sums agree to a cent.
func near(a, b float64) bool { return a-b < 0.01 && b-a < 0.01 }

// coreSet is a linkSet of spine-core links only: spine key -> its cores'
// keys (one entry a link), spines in ascending order.
func coreSet(spines []uint64, cores [][]uint64) *linkSet {
	const t = planner.LinkSpineCore
	ls := &linkSet{}
	for i, s := range spines {
		ls.lower[t] = append(ls.lower[t], s)
		ls.start[t] = append(ls.start[t], int32(len(ls.ups[t])))
		ls.ups[t] = append(ls.ups[t], cores[i]...)
		ls.links[t] += len(cores[i])
	}
	return ls
}

// many is n copies of key.
func many(key uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = key
	}
	return out
}

// TestCoreRenameKeepsLinks: a re-cut core tier keeps the links a core
// shares with the new core it takes the name of. Hand-worked, cores A=1,
// B=2, C=3, spines 10 and 11:
//   - swapped: before, spine 10 has 4 links to A and spine 11 4 to B;
//     after, spine 10 has 2 to B and 2 to C, spine 11 2 to A and 2 to C.
//     By index no link stays (8 move); A named B and B named A keep 2
//     each: 4 move.
//   - regrouped: before, spine 10 has 2 to A and 2 to B; after 4 to A
//     (B gone). A keeps 2 by index; renaming gains nothing (nil): 2 move.
//   - taken name: before, spine 10 has 4 links to A, spine 11 2 to B;
//     after, both reach only B (4 and 2). A takes B's name and keeps 4;
//     the old B, its name taken, keeps none: 2 move (by index 4 would).
//   - nothing re-cut: the same links before and after: nil, none move.
//
// And over the grow strategy of 2,048 -> 4,096 -> 6,152 GPUs, phase 3
// moves fewer spine-core links than by index, and --moves lists as many
// moved or removed cables as the phase counts, after its renames.
// Catches the match left out (8 move where 4 do), an unmatched old core
// kept under its own name where a new core has it, and the moves list
// and the counts naming cores differently.
func TestCoreRenameKeepsLinks(t *testing.T) {
	cases := []struct {
		name     string
		old, cur *linkSet
		renamed  int
		moved    int
	}{
		{"swapped", coreSet([]uint64{10, 11}, [][]uint64{many(1, 4), many(2, 4)}),
			coreSet([]uint64{10, 11}, [][]uint64{append(many(2, 2), many(3, 2)...), append(many(1, 2), many(3, 2)...)}), 2, 4},
		{"regrouped", coreSet([]uint64{10}, [][]uint64{append(many(1, 2), many(2, 2)...)}),
			coreSet([]uint64{10}, [][]uint64{many(1, 4)}), 0, 2},
		{"taken name", coreSet([]uint64{10, 11}, [][]uint64{many(1, 4), many(2, 2)}),
			coreSet([]uint64{10, 11}, [][]uint64{many(2, 4), many(2, 2)}), 1, 2},
		{"unchanged", coreSet([]uint64{10}, [][]uint64{append(many(1, 2), many(2, 2)...)}),
			coreSet([]uint64{10}, [][]uint64{append(many(1, 2), many(2, 2)...)}), 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rename := coreRename(tc.old, tc.cur)
			d := diffLinks(tc.old, tc.cur, rename)
			if renamedCores(rename) != tc.renamed || d.Moved.SpineCore != tc.moved {
				t.Errorf("%d cores renamed, %d links moved; want %d and %d (rename %v)", renamedCores(rename), d.Moved.SpineCore, tc.renamed, tc.moved, rename)
			}
		})
	}
	s := ibScenario(6152)
	s.Phases = []planner.Phase{{GPUs: 2048}, {GPUs: 4096}}
	pp := mustPhases(t, s)
	byIndex := diffLinks(newLinkSet(pp.plans[1]), newLinkSet(pp.plans[2]), nil).Moved.SpineCore
	st := pp.Strategy(StrategyGrow).Steps[2]
	if st.LinksMoved.SpineCore >= byIndex || st.Recabling == nil || st.Recabling.CoresRenamed == 0 {
		t.Fatalf("phase 3 moves %d spine-core links (%d by index)", st.LinksMoved.SpineCore, byIndex)
	}
	listed, renames := 0, 0
	if err := pp.Moves(func(m *LinkMove) error {
		switch {
		case m.Phase != 3:
		case m.Action == RenameAction:
			renames++
			if listed > 0 || m.From[0] == "" || m.To[0] == "" {
				t.Errorf("rename %v -> %v after %d moves", m.From[0], m.To[0], listed)
			}
		default:
			listed++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if listed != st.LinksMoved.Total || renames != st.Recabling.CoresRenamed {
		t.Errorf("--moves lists %d cables and %d renames in phase 3; the phase moves %d and renames %d", listed, renames, st.LinksMoved.Total, st.Recabling.CoresRenamed)
	}
}
