package planner

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/resilience"
)

func mustBuild(t testing.TB, s Scenario) *Plan {
	t.Helper()
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.Resilience == nil {
		t.Fatal("no resilience analysis")
	}
	return p
}

func failureCase(t testing.TB, p *Plan, component string) resilience.FailureCase {
	t.Helper()
	for _, c := range p.Resilience.Cases {
		if c.Component == component {
			return c
		}
	}
	t.Fatalf("no %s case in %v", component, p.Resilience.Cases)
	return resilience.FailureCase{}
}

func f64(v float64) *float64 { return &v }

// With every failure rate at zero the job never stops: the JCT counting
// failures equals the planned JCT. Mutations caught: checkpoint cost
// charged to a job that needs no checkpoints, a survivable slowdown
// counted without failures.
func TestNoFailuresKeepsPlannedJCT(t *testing.T) {
	s := NewScenario()
	zero := f64(0)
	s.Reliability = &ReliabilityInputs{GPUPerYear: zero, HostPerYear: zero, NICPerYear: zero, LinkPerYear: zero, SwitchPerYear: zero}
	p := mustBuild(t, s)
	g := p.Resilience.Goodput
	if g.InterruptionsPerDay != 0 || !math.IsInf(g.MTBIHours, 1) || g.ETTR != 1 || g.DegradedSlowdown != 1 {
		t.Errorf("goodput without failures: %+v", g)
	}
	if g.JCTDays != p.JCT.Planned.Days {
		t.Errorf("JCT with failures %v, planned %v", g.JCTDays, p.JCT.Planned.Days)
	}
}

// Losing one plane of N leaves every GPU (N-1)/N of its back-end
// bandwidth: 1/2 with two planes, 3/4 with four. With port failover (on
// for multi-plane designs) the job continues, slower; without it the job
// stops. Mutations caught: the plane's share inverted (1/N left), the
// whole fabric counted as lost, failover ignored.
func TestPlaneLossLeavesNMinusOneOverN(t *testing.T) {
	for _, planes := range []int{2, 4} {
		s := NewScenario()
		s.Network.Planes = planes
		p := mustBuild(t, s)
		c := failureCase(t, p, resilience.FailPlane)
		if want := float64(planes-1) / float64(planes); math.Abs(c.BandwidthLeft-want) > 1e-12 {
			t.Errorf("%d planes: %v of the bandwidth left, want %v", planes, c.BandwidthLeft, want)
		}
		if c.Behaviour != resilience.Continues || c.Fatal || c.GPUsAffected != p.GPUs || !(c.Slowdown > 1) {
			t.Errorf("%d planes: %+v", planes, c)
		}
		// Failover moves a lost port's traffic, not a lost NIC's: one
		// NIC per GPU (8 per server), so a NIC loss cuts 1 GPU and the
		// job restarts without its server, and so without the tp 8 x pp 4
		// replica it breaks: 32 GPUs idle. Mutation caught: a NIC failed
		// over like a port.
		if n := failureCase(t, p, resilience.FailNIC); n.Behaviour != resilience.Restarts || !n.Fatal || n.GPUsAffected != 1 || n.GPUsIdle != 32 {
			t.Errorf("%d planes, NIC loss: %+v", planes, n)
		}
		if l := failureCase(t, p, resilience.FailServerLink); l.Behaviour != resilience.Continues || l.Fatal {
			t.Errorf("%d planes, server link loss: %+v", planes, l)
		}
		off := false
		s.Reliability = &ReliabilityInputs{PortFailover: &off}
		if c := failureCase(t, mustBuild(t, s), resilience.FailPlane); c.Behaviour != resilience.Stops || !c.Fatal {
			t.Errorf("%d planes without failover: %+v", planes, c)
		}
	}
	if p := mustBuild(t, NewScenario()); p.Planes == 1 {
		for _, c := range p.Resilience.Cases {
			if c.Component == resilience.FailPlane {
				t.Error("a plane case in a one-plane design")
			}
		}
	}
}

// A rail-optimized leaf holds one rail of one scalable unit: with 64-port
// qm9700s at 1:1 a leaf has 32 ports down, so an SU is 32 servers, and the
// leaf carries rail r of each: losing it cuts exactly 32 GPUs from the
// plane, and a restart without their servers idles 32 x 8 = 256 GPUs.
// At 1,000 GPUs (125 servers, not a power of two) the full SUs are the
// same. Mutations caught: counting the whole SU's GPUs as cut off (256),
// one server's (8), or the leaf's uplinks.
func TestLeafLossCutsOneRailOfOneSU(t *testing.T) {
	for _, gpus := range []int{1024, 1000} {
		s := NewScenario()
		s.Cluster.GPUs = gpus
		s.Network.Switch = "qm9700"
		p := mustBuild(t, s)
		c := failureCase(t, p, resilience.FailLeaf)
		if c.GPUsAffected != 32 || c.GPUsIdle != 256 || c.Behaviour != resilience.Restarts {
			t.Errorf("%d GPUs: leaf loss affects %d, idles %d, %s; want 32, 256, restarts", gpus, c.GPUsAffected, c.GPUsIdle, c.Behaviour)
		}
		if math.Abs(c.BandwidthLeft-7.0/8) > 1e-12 {
			t.Errorf("%d GPUs: a hit server keeps %v of its ports, want 7/8", gpus, c.BandwidthLeft)
		}
	}
}

// InfiniBand reroutes around a lost spine and the job continues; RoCE
// with ECMP has no sourced reroute inside NCCL's retry window, so the
// same loss interrupts the job and counts toward interruptions.
// Mutation caught: behaviour taken from the fabric alone or ignored.
func TestSpineLossByFabric(t *testing.T) {
	ib := NewScenario()
	ib.Cluster.GPUs = 4096
	roce := ib
	roce.Network.Fabric, roce.Network.LoadBalancing = Ethernet, LBECMP
	roce = AutoHardware(roce)
	adaptive := roce
	adaptive.Network.LoadBalancing = LBAdaptive
	for _, tc := range []struct {
		s     Scenario
		fatal bool
	}{{ib, false}, {roce, true}, {adaptive, false}} {
		p := mustBuild(t, tc.s)
		c := failureCase(t, p, resilience.FailSpine)
		if c.Fatal != tc.fatal || c.GPUsAffected == 0 || !(c.UplinkLeft < 1) {
			t.Errorf("%s/%s: %+v", tc.s.Network.Fabric, tc.s.Network.LoadBalancing, c)
		}
		counted := false
		for _, b := range p.Resilience.Goodput.ByComponent {
			counted = counted || b.Component == resilience.FailSpine
		}
		if counted != tc.fatal {
			t.Errorf("%s/%s: spine in interruptions = %v", tc.s.Network.Fabric, tc.s.Network.LoadBalancing, counted)
		}
	}
}

// On GB300 NVL72 a tray's fault takes its rack (the NVLink domain) out of
// a restarted job: 72 GPUs, not 4, and with them the three tp 8 x pp 4
// replicas of 32 GPUs they reach into (4,032 GPUs hold 126 replicas,
// 3,960 hold 123): 96 GPUs idle. Mutation caught: the repair unit taken
// as the tray (4 GPUs: one replica, 32 idle).
func TestRackScaleRepairUnit(t *testing.T) {
	s := NewScenario()
	s.Cluster.System = "gb300-nvl72"
	s.Cluster.GPUs = 4032
	s = s.WithSystem(testCatalog(t))
	p := mustBuild(t, s)
	if c := failureCase(t, p, resilience.FailHost); c.GPUsIdle != 96 || c.Name != "compute tray" {
		t.Errorf("tray loss: %+v", c)
	}
	if c := failureCase(t, p, resilience.FailRack); c.GPUsIdle != 96 || c.Count != p.Systems {
		t.Errorf("rack loss: %+v", c)
	}
}

// Goodput falls as the cluster grows: interruptions grow with the parts.
// Mutation caught: rates counted per cluster, not per part.
func TestGoodputFallsWithSize(t *testing.T) {
	prev := 2.0
	prevRate := 0.0
	for _, gpus := range []int{1024, 4000, 16384, 100_000} {
		s := NewScenario()
		s.Cluster.GPUs, s.Network.NICGbps = gpus, 800
		s = AutoHardware(s)
		g := mustBuild(t, s).Resilience.Goodput
		if !(g.ETTRAtOptimum < prev) || !(g.InterruptionsPerDay > prevRate) {
			t.Errorf("%d GPUs: ETTR %v after %v, interruptions %v after %v", gpus, g.ETTRAtOptimum, prev, g.InterruptionsPerDay, prevRate)
		}
		prev, prevRate = g.ETTRAtOptimum, g.InterruptionsPerDay
	}
}

// Calibration: Llama 3 405B pre-training saw 419 unexpected interruptions
// in 54 days on 16,384 H100s on RoCE (arXiv 2407.21783, section 3.3.4):
// 7.76 a day. The model, planned for that cluster (400G RoCE, ECMP),
// must give that within 10%; its GPU, host and NIC rates are calibrated
// from the run's Table 5, and its link and switch rates come from Alibaba
// HPN, so the network share is a test, not a fit. The paper's "> 90%
// effective training time" must hold at the optimal interval.
//
// Other published figures, reported beside the model's (not fitted):
//   - BLOOM, 384 A100s: "1-2 GPU failures a week" (Hugging Face blog);
//   - Meta RSC-1 and RSC-2, 6.50 and 2.34 node failures per 1,000
//     node-days (Kokolis et al. 2025), for 2,000 nodes.
func TestInterruptionCalibration(t *testing.T) {
	s := NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.LoadBalancing = 16384, Ethernet, LBECMP
	s = AutoHardware(s)
	p := mustBuild(t, s)
	g := p.Resilience.Goodput
	published := 419.0 / 54
	if err := g.InterruptionsPerDay/published - 1; math.Abs(err) > 0.10 {
		t.Errorf("Llama 3: model %.2f/day, published %.2f/day (%+.1f%%)", g.InterruptionsPerDay, published, 100*err)
	}
	if g.ETTRAtOptimum < 0.89 {
		t.Errorf("Llama 3: ETTR at the optimum %.3f, published > 0.90", g.ETTRAtOptimum)
	}
	t.Logf("Llama 3 16,384 H100: model %.2f/day, published %.2f/day (%+.1f%%); ETTR at optimum %.3f (published > 0.90)",
		g.InterruptionsPerDay, published, 100*(g.InterruptionsPerDay/published-1), g.ETTRAtOptimum)

	rel := testCatalog(t).Reliability
	// BLOOM: GPU failures a week on 384 GPUs, by hand 384 x 0.1106 x 7 / 365.
	bloom := 384 * rel.Rates.GPU * 7 / 365
	if math.Abs(bloom-0.8145) > 0.001 {
		t.Errorf("BLOOM GPU failures/week = %.4f, hand 0.8145", bloom)
	}
	t.Logf("BLOOM 384 A100: model %.2f GPU failures/week, published 1-2 (%+.0f%% against 1.5)", bloom, 100*(bloom/1.5-1))
	// RSC: per-node rate of the model, GPU + host over a node of 8 GPUs.
	node := (8*rel.Rates.GPU + rel.Rates.Host) / 365 * 1000
	for _, rsc := range []struct {
		name string
		rate float64
	}{{"RSC-1", 6.50}, {"RSC-2", 2.34}} {
		t.Logf("%s: model %.2f node failures per 1,000 node-days, published %.2f (%+.0f%%)", rsc.name, node, rsc.rate, 100*(node/rsc.rate-1))
	}
}

// The JSON block names every case and writes infinities as null.
// Mutation caught: +Inf passed to encoding/json, which fails the whole
// plan --json.
func TestResilienceJSON(t *testing.T) {
	s := NewScenario()
	s.Network.Planes = 2
	off := false
	s.Reliability = &ReliabilityInputs{PortFailover: &off}
	p := mustBuild(t, s)
	b, err := json.Marshal(p.Report())
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Resilience struct {
			Cases []struct {
				Component string   `json:"component"`
				StepS     *float64 `json:"step_s"`
			} `json:"cases"`
			Goodput struct {
				ETTR float64 `json:"ettr"`
			} `json:"goodput"`
		} `json:"resilience"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, c := range back.Resilience.Cases {
		if c.Component == resilience.FailPlane && c.StepS != nil {
			t.Errorf("a stopped job's step time is %v, want null", *c.StepS)
		}
	}
	if len(back.Resilience.Cases) < 5 || back.Resilience.Goodput.ETTR <= 0 {
		t.Errorf("resilience JSON: %s", b)
	}
}

// Overrides are checked field by field. Mutation caught: a negative
// rate or swap time, a zero checkpoint write time, over 100% or NaN
// spares accepted.
func TestReliabilityOverridesValidated(t *testing.T) {
	s := NewScenario()
	s.Reliability = &ReliabilityInputs{GPUPerYear: f64(-1), CheckpointWriteS: f64(0), RepairHours: f64(1e9),
		SwapHours: f64(-2), SpareSwitchesPct: f64(101), SpareOpticsPct: f64(math.NaN())}
	err := s.Validate(testCatalog(t))
	var fields []string
	for _, fe := range fielderr.FieldErrors(err) {
		fields = append(fields, fe.Field)
	}
	got := strings.Join(fields, ",")
	for _, want := range []string{"reliability.gpu_per_year", "reliability.checkpoint_write_s", "reliability.repair_hours",
		"reliability.swap_hours", "reliability.spare_switches_pct", "reliability.spare_optics_pct"} {
		if !strings.Contains(got, want) {
			t.Errorf("errors %q lack %s", got, want)
		}
	}
	s.Reliability = &ReliabilityInputs{GPUPerYear: f64(0.2)}
	if err := s.Validate(testCatalog(t)); err != nil {
		t.Errorf("valid override refused: %v", err)
	}
	// Clone copies the overrides.
	c := s.Clone()
	*c.Reliability.GPUPerYear = 9
	if *s.Reliability.GPUPerYear != 0.2 {
		t.Error("Clone shares the reliability overrides")
	}
}

// BenchmarkResilience100k times every failure case and the goodput of a
// 100,000-GPU plan (target: under 5 ms).
func BenchmarkResilience100k(b *testing.B) {
	cat := testCatalog(b)
	s := NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 100_000, 800, "q3400"
	p, err := Build(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		p.analyseResilience(cat.Reliability, cat.JCT)
	}
	b.ReportMetric(float64(len(p.Resilience.Cases)), "cases")
}

// At 2:1 a 64-port qm9700 leaf has 42 ports down and 21 up (42:21): its
// loss cuts one rail of 42 servers, 42 GPUs, and a restart goes without
// their 42 x 8 = 336 GPUs, which reach into 11 tp 8 x pp 4 replicas
// (4,096 GPUs hold 128, 3,760 hold 117): 352 idle; a lost leaf-spine
// link leaves the leaf 20 of its 21 uplinks.
// Mutations caught: the leaf's down ports taken from the 1:1 split (32),
// uplink loss divided by the spine count instead of the leaf's uplinks.
func TestOversubscribedLeafLoss(t *testing.T) {
	s := NewScenario()
	s.Cluster.GPUs, s.Network.Switch, s.Network.Oversubscription = 4096, "qm9700", "2:1"
	p := mustBuild(t, s)
	if c := failureCase(t, p, resilience.FailLeaf); c.GPUsAffected != 42 || c.GPUsIdle != 352 {
		t.Errorf("2:1 leaf loss: %d GPUs hit, %d idle; want 42, 352", c.GPUsAffected, c.GPUsIdle)
	}
	if c := failureCase(t, p, resilience.FailLeafSpine); math.Abs(c.UplinkLeft-20.0/21) > 1e-12 || c.Fatal {
		t.Errorf("2:1 leaf-spine link loss: %v uplink left, want 20/21; %+v", c.UplinkLeft, c)
	}
}
