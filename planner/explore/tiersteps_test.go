package explore

import (
	"testing"

	"fabricplan/planner"
)

// Tier steps are the exact sizes where the fabric changes, worked out by
// hand for 64-port switches at one port per GPU, eight per server:
//
//	two tiers reach 64²/2 = 2,048 ports: 2,048 GPUs fit, 2,049 (257
//	servers, 2,056 ports) need three;
//	three tiers reach 64³/4 = 65,536 ports: 65,537 GPUs do not plan.
//
// Mutations caught: marking the first sample of the sweep past the step
// ("3 tiers from 2,353" on the chart where 2,049 already need three);
// a size that stops planning not said to need more than three tiers
// when that is why (the chart would read "no plan").
func TestTierStepsAreExact(t *testing.T) {
	cat := testCatalog(t)
	s := planner.NewScenario()
	s.Network.Switch = "qm9700"
	rows := Sweep(s, cat, []int{1000, 1500, 2353, 30000, 70000})
	got := TierSteps(s, cat, rows)
	want := []TierStep{{2049, 3, false}, {65537, 0, true}} // 65,537 on one plane of QM9700: over three tiers (ErrTooLarge)
	if len(got) != len(want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: %v, want %v", i, got[i], want[i])
		}
	}
	// One sample: no step to find.
	if steps := TierSteps(s, cat, rows[:1]); len(steps) != 0 {
		t.Errorf("one size: %v", steps)
	}
}
