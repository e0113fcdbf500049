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
