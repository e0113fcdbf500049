package planner

import (
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/resilience"
)

// physicsSizes are GPU counts off the power-of-two grid, from a few
// replicas to past the 2,048 replicas that fill the default workload's
// batch with one micro-batch each: primes and odd server counts.
var physicsSizes = []int{97, 1_009, 4_099, 12_347, 33_331, 70_001}

// checkFailurePhysics checks that no failure case of p makes the job
// faster: every case with a timed step has a slowdown of at least 1,
// the time-averaged slowdown of parts down is at least 1 and the JCT
// counting failures is at least the planned JCT. It returns the cases
// checked. A serving plan's what-if times no training step (its
// failures take instances out), so it has none to check.
func checkFailurePhysics(t *testing.T, name string, p *Plan) int {
	t.Helper()
	r := p.Resilience
	if r == nil || p.JCT == nil || r.Serving {
		return 0
	}
	n := 0
	for _, c := range r.Cases {
		if c.StepS <= 0 || math.IsInf(c.StepS, 1) {
			continue
		}
		n++
		if c.Slowdown < 1 || c.StepS < p.JCT.Planned.StepS {
			t.Errorf("%s: losing a %s (%d GPUs idle) gives a step of %g s, %.6fx the planned %g s", name, c.Name, c.GPUsIdle, c.StepS, c.Slowdown, p.JCT.Planned.StepS)
		}
	}
	g := r.Goodput
	if g.DegradedSlowdown < 1 {
		t.Errorf("%s: parts down speed the job up: degraded slowdown %g", name, g.DegradedSlowdown)
	}
	if g.JCTDays < p.JCT.Planned.Days {
		t.Errorf("%s: JCT counting failures %g days, shorter than the planned %g", name, g.JCTDays, p.JCT.Planned.Days)
	}
	return n
}

// A lost part never makes a step faster or a job shorter (issue #45),
// for every shipped scenario and off-grid designs of every system,
// fabric and ratio, one and two planes. Mutation caught: the what-if
// recounting the micro-batches from the replicas left without keeping
// the global batch (perf.Microbatches(w, dp) in stepper.timeAt): 3,125
// sequences over 3,124 replicas counted two micro-batches each and the
// 100,000-GPU example's step came out 0.883x the planned one, 0.996x at
// 16,384 GPUs.
func TestFailureNeverSpeedsTheJob(t *testing.T) {
	cat := testCatalog(t)
	names, err := fs.Glob(data.FS, "scenarios/*.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("scenarios: %v (%d)", err, len(names))
	}
	checked := 0
	for _, name := range names {
		s := scenarioFile(t, strings.TrimSuffix(path.Base(name), ".toml"))
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checked += checkFailurePhysics(t, name, p)
	}
	ratios := []string{"1:1", "3:1"}
	for _, cfg := range offGridConfigs(cat) {
		for _, ratio := range ratios {
			for _, planes := range []int{1, 2} {
				for _, g := range physicsSizes {
					s := flatLengths(NewScenario())
					cfg.set(&s)
					s.Cluster.GPUs, s.Network.Oversubscription, s.Network.Planes = g, ratio, planes
					p, err := Build(s, cat)
					if err != nil {
						continue // past three tiers, or a plane count the NIC cannot split into
					}
					checked += checkFailurePhysics(t, cfg.name+"/"+ratio+"/"+strconv.Itoa(planes)+" planes", p)
				}
			}
		}
	}
	t.Logf("%d failure cases timed", checked)
	if checked < 1000 {
		t.Errorf("only %d failure cases timed: the designs no longer reach the what-if", checked)
	}
}

// The 100,000-GPU example (tp 8 x pp 4, 3,125 replicas, the default
// batch raised to one micro-batch each) loses a server: 8 GPUs idle take
// one replica of 3,125, and the job keeps its 3,125-sequence batch on
// the 3,124 left. By hand its compute grows by 3,125/3,124 and nothing
// else shrinks, so the step is at least the planned step and at most
// that factor above it plus the placed view's rounding; the leaf's 72
// servers idle 576 GPUs, 18 replicas, at least 3,125/3,107 on the
// compute share. Mutation caught: recounting micro-batches from dp
// (0.883x), or leaving the replicas as planned (exactly 1x).
func TestServerLossKeepsTheBatch(t *testing.T) {
	p := mustBuild(t, scenarioFile(t, "ib-xdr-100k"))
	j := p.JCT
	if j.DP != 3125 || j.Microbatches != 1 {
		t.Fatalf("dp %d, %d micro-batches: the hand count needs 3,125 and 1", j.DP, j.Microbatches)
	}
	host := failureCase(t, p, resilience.FailHost)
	compute := j.Planned.ComputeS
	if lo := j.Planned.StepS + compute*(3125.0/3124-1); host.StepS < lo*(1-1e-9) || host.StepS > j.Planned.StepS*3125/3124 {
		t.Errorf("server lost: step %g s, want from %g to %g s", host.StepS, lo, j.Planned.StepS*3125/3124)
	}
	leaf := failureCase(t, p, resilience.FailLeaf)
	if leaf.GPUsIdle != 576 {
		t.Fatalf("leaf idles %d GPUs, want 576 (72 servers)", leaf.GPUsIdle)
	}
	if lo := j.Planned.StepS + compute*(3125.0/3107-1); leaf.StepS < lo*(1-1e-9) {
		t.Errorf("leaf lost: step %g s, want at least %g s", leaf.StepS, lo)
	}
}

// Replicas a failure leaves never exchange gradients faster than all of
// them did (issue 45, found by a held-out check): MI355X servers four
// to a ToR, Arista 7808R3 chassis above, RoCE adaptive, 4:1, 24,367
// GPUs: tp 8 x pp 4 makes 761 replicas, and a lost ToR idles its 32
// GPUs, one replica. By hand the 760 left share the same 3 x 761
// sequences, so compute grows by 761/760 and the data-parallel exchange
// crosses the same spines: the step is at least the planned one plus
// that compute. Catches: timing the 760 replicas alone, where the
// model's bus bandwidth at 760 ranks (43.70 GB/s against 43.53 at 761)
// timed the step 0.9991x the planned one.
func TestFewerReplicasNeverExchangeFaster(t *testing.T) {
	for _, tc := range []struct {
		name     string
		set      func(s *Scenario)
		dp, idle int
	}{
		{"mi355x ToR of 4, arista-7808r3, 4:1", func(s *Scenario) {
			s.Cluster.System, s.Cluster.GPUs = "mi355x", 24367
			s.Network.Fabric, s.Network.Switch, s.Network.Oversubscription = Ethernet, "arista-7808r3", "4:1"
			s.Network.RailOptimized, s.Network.ServersPerToR, s.Network.LoadBalancing = false, 4, LBAdaptive
		}, 761, 32},
	} {
		s := NewScenario()
		tc.set(&s)
		p := mustBuild(t, s)
		j := p.JCT
		if j.DP != tc.dp {
			t.Fatalf("%s: dp %d, the hand count needs %d", tc.name, j.DP, tc.dp)
		}
		leaf := failureCase(t, p, resilience.FailLeaf)
		if leaf.GPUsIdle != tc.idle {
			t.Fatalf("%s: a lost leaf idles %d GPUs, want %d", tc.name, leaf.GPUsIdle, tc.idle)
		}
		if lo := j.Planned.StepS + j.Planned.ComputeS*(float64(tc.dp)/float64(tc.dp-1)-1); leaf.StepS < lo*(1-1e-9) {
			t.Errorf("%s: a lost leaf steps in %g s (%.4fx), want at least %g s", tc.name, leaf.StepS, leaf.Slowdown, lo)
		}
	}
}
