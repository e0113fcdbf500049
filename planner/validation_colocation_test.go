package planner

import (
	"fmt"
	"math"
	"testing"
)

// colocationScenario is two or more Llama 3 70B jobs (tp 8) on 2,048
// A100s in 8-GPU servers with 8 x 200G RoCE at 1:1, routed as lb.
func colocationScenario(jobs int, placement, phase, lb string) string {
	return fmt.Sprintf(`schema = 1
[cluster]
gpus = 2048
[network]
fabric = "ethernet"
nic_gbps = 200
switch = "tomahawk5"
load_balancing = %q
[workload]
model = "llama3-70b"
gpu = "a100"
global_batch_tokens = 4194304
micro_batch = 1
tp = 8
pp = 1
ep = 1
placement = %q
jobs = %d
phase = %q
tokens_total = 1e12
`, lb, placement, jobs, phase)
}

// The co-location slowdown is the step with the other jobs over the step
// with their share of the fabric idle. By the model's rules: jobs spread
// over shared leaves with static ECMP slow each other (above 1), more in
// phase than in random phase (the others always crossing when this job
// does); a job alone, packed jobs (each in its own leaves) and adaptive
// routing at 1:1 (the leaf's uplinks carry every port at full rate) are
// not slowed at all: exactly 1. A co-located job never speeds another
// up. Mutations caught: the ratio inverted (below 1), the effect looked
// up under another name (always 1), the phase not read, a point without
// a scenario accepted.
func TestColocationSlowdownPoint(t *testing.T) {
	cat := testCatalog(t)
	slowdown := func(jobs int, placement, phase, lb string) float64 {
		t.Helper()
		p := ValidationPoint{Name: "p", Source: "s", Published: 1.1, Tolerance: 0.1, Kind: KindColocationSlowdown,
			Scenario: colocationScenario(jobs, placement, phase, lb)}
		if err := p.check(0); err != nil {
			t.Fatal(err)
		}
		v, err := p.model(cat)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	random := slowdown(2, "spread", "random", "ecmp")
	aligned := slowdown(2, "spread", "aligned", "ecmp")
	if !(random > 1) || !(aligned > random) {
		t.Errorf("2 spread jobs on ECMP: slowdown %.4f random, %.4f aligned; want 1 < random < aligned", random, aligned)
	}
	for _, c := range []struct {
		name                 string
		jobs                 int
		placement, phase, lb string
	}{
		{"alone", 1, "spread", "random", "ecmp"},
		{"packed", 2, "packed", "aligned", "ecmp"},
		{"adaptive 1:1", 2, "spread", "aligned", "adaptive"},
	} {
		if got := slowdown(c.jobs, c.placement, c.phase, c.lb); math.Abs(got-1) > 1e-12 {
			t.Errorf("%s: slowdown %.6f, want 1", c.name, got)
		}
	}
	if err := (&ValidationPoint{Name: "p", Source: "s", Published: 1, Tolerance: 0.1, Kind: KindColocationSlowdown}).check(0); err == nil {
		t.Error("a point without a scenario accepted")
	}
}
