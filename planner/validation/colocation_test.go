package validation

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"fabricplan/planner"
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
		p := Point{Name: "p", Source: "s", Published: 1.1, Series: "s", Kind: KindColocationSlowdown,
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
	if err := (&Point{Name: "p", Source: "s", Published: 1, Series: "s", Kind: KindColocationSlowdown}).check(0); err == nil {
		t.Error("a point without a scenario accepted")
	}
}

// Background load is another job given as the share of the uplinks it
// holds: a packed job alone crossing its leaves on static ECMP is slowed
// by it, more by more (hashed as more flows onto the job's most loaded
// uplink), not at all without it; metric "added" is the slowdown less 1
// (worked from the same scenario's ratio); an unknown metric is refused.
// Mutations caught: the background effect left out of the slowdown (1
// whatever the load), its sign turned (a speed-up), "added" returning
// the ratio, any metric accepted.
func TestColocationBackgroundPoint(t *testing.T) {
	cat := testCatalog(t)
	run := func(bg float64, metric string) float64 {
		t.Helper()
		sc := colocationScenario(1, "packed", "random", "ecmp")
		if bg > 0 {
			sc += fmt.Sprintf("background_leaf = %g\n", bg)
		}
		p := Point{Name: "p", Source: "s", Published: 1.1, Series: "s", Kind: KindColocationSlowdown, Metric: metric, Scenario: sc}
		if err := p.check(0); err != nil {
			t.Fatal(err)
		}
		v, err := p.model(cat)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got := run(0, ""); got != 1 {
		t.Errorf("no background: slowdown %.6f, want 1", got)
	}
	prev := 1.0
	for _, bg := range []float64{0.1, 0.3, 0.6} {
		ratio, added := run(bg, ""), run(bg, "added")
		if !(ratio > prev) {
			t.Errorf("background %g: slowdown %.6f, want above %.6f (at less load)", bg, ratio, prev)
		}
		if math.Abs(added-(ratio-1)) > 1e-12 {
			t.Errorf("background %g: added %.6f, want the slowdown %.6f less 1", bg, added, ratio)
		}
		prev = ratio
	}
	bad := Point{Name: "p", Source: "s", Published: 1, Series: "s", Kind: KindColocationSlowdown, Metric: "ratio",
		Scenario: colocationScenario(1, "packed", "random", "ecmp")}
	if err := bad.check(0); err == nil {
		t.Error(`metric "ratio" accepted`)
	}
}

// The status reads ok within the tolerance of the point's kind (10% for
// a whole run, 25% for the rest) and MISS outside it, whether or not the
// point was fitted or has a gap. Mutations caught: a per-point or
// gap-widened tolerance (a run 24% off shown as ok), a fitted point's
// miss hidden, the boundary moved.
func TestValidationStatus(t *testing.T) {
	for _, c := range []struct {
		kind   string
		model  float64
		fitted string
		want   string
	}{
		{KindStep, 1.099, "", "ok"},
		{KindStep, 0.901, "x", "ok"},
		{KindStep, 1.11, "", StatusMiss},
		{KindStep, 0.76, "", StatusMiss},
		{KindStep, 0.76, "x", StatusMiss},
		{KindAllReduceBusBW, 1.24, "", "ok"},
		{KindColocationSlowdown, 0.76, "", "ok"},
		{KindAllToAllRDMA, 1.26, "", StatusMiss},
		{KindColocationSlowdown, 0.003, "", StatusMiss},
	} {
		r := Result{Point: Point{Kind: c.kind, Published: 1, Fitted: c.fitted, Gap: "g"}, Model: c.model}
		if got := r.Status(); got != c.want {
			t.Errorf("%s, model %g, fitted %q: status %q, want %q", c.kind, c.model, c.fitted, got, c.want)
		}
	}
	if got := (Result{Point: Point{Kind: KindStep, Published: 1}, Err: errors.New("no GPU")}).Status(); got != "cannot run: no GPU" {
		t.Errorf("status %q", got)
	}
}

// A co-location bus bandwidth point needs its jobs, ranks, servers, NICs,
// leaves and routing, and runs the model's all-reduce with the other
// jobs crossing at once. By hand, adaptive routing on MCCS's testbed (2
// jobs of 2 servers x 2 GPUs, 2 x 50G NICs each at RoCE's 0.92, leaves
// of 4 ports and 2 uplinks): the leaf's 4 busy ports over its 2 uplinks
// load them 2:1, so a crossing port keeps 0.95 / 2 of 2 x 6.25 x 0.92 =
// 11.5 GB/s per server: busbw 5.4625 GB/s, less the ring's latency on
// 128 MiB (under 0.2%); static routing's collisions only take more.
// Mutations caught: the other job left idle (othersBusy 0: 10.9 GB/s),
// the leaf's ratio not taken from its ports, a point without jobs, with
// one job or without uplinks accepted, the kind not dispatched.
func TestColocationBusBWPoint(t *testing.T) {
	base := Point{Name: "p", Source: "s", Published: 4.28, Series: "s", Kind: KindColocationBusBW,
		GPU: "a100", GPUsPerServer: 2, NICsPerServer: 2, NICGbps: 50, Fabric: planner.Ethernet, LeafDown: 4, LeafUp: 2,
		Jobs: 2, Ranks: 4, Channels: 2, QueuePairs: 1, Routing: "adaptive", Bytes: 1 << 27}
	for _, c := range []struct {
		name   string
		change func(*Point)
		ok     bool
	}{
		{"complete", func(*Point) {}, true},
		{"one job", func(p *Point) { p.Jobs = 1 }, false},
		{"no uplinks", func(p *Point) { p.LeafUp = 0 }, false},
		{"one port per leaf", func(p *Point) { p.LeafDown = 1 }, false},
		{"unknown routing", func(p *Point) { p.Routing = "ecmp" }, false},
	} {
		p := base
		c.change(&p)
		if err := p.check(0); (err == nil) != c.ok {
			t.Errorf("%s: check %v, want ok %v", c.name, err, c.ok)
		}
	}
	cat := testCatalog(t)
	adaptive, err := base.model(cat)
	if want := 0.95 / 2 * 2 * 6.25 * 0.92; err != nil || adaptive > want || adaptive < want*0.998 {
		t.Errorf("adaptive: %.4f GB/s (%v), want just under %.4f", adaptive, err, want)
	}
	static := base
	static.Routing = "static"
	if got, err := static.model(cat); err != nil || !(got < adaptive) {
		t.Errorf("static: %.4f GB/s (%v), want under adaptive's %.4f", got, err, adaptive)
	}
}
