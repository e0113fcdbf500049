package resilience

import (
	"encoding/json"
	"io/fs"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
)

// testReliability is data/reliability.toml, decoded and checked.
func testReliability(t testing.TB) Reliability {
	t.Helper()
	src, err := fs.ReadFile(data.FS, "reliability.toml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseReliability(src)
	if err != nil {
		t.Fatal(err)
	}
	return *r
}

// ndrInput is, by hand, a 1,024-GPU non-blocking two-tier InfiniBand
// fabric of eight-GPU servers on 64-port switches: 128 servers of eight
// 400G ports, 32 rail-optimized leaves of 32 ports down and 32 up (a
// unit of 32 servers), 16 spines, 1,024 server links and 1,024
// leaf-spine links; no JCT estimate.
func ndrInput(rel Reliability) Input {
	return Input{Reliability: rel, GPUs: 1024, GPUsPerServer: 8, Servers: 128, NICs: 1024, NICsPerServer: 8,
		ServerPorts: 8, Planes: 1, Pods: 1, RailOptimized: true, RailsPerPlane: 8,
		Tiers:      2,
		Leaf:       SwitchTier{Switches: 32, DownPorts: 32, UpPorts: 32, PerYear: rel.Rates.Switch, Parts: 32},
		Spine:      SwitchTier{Switches: 16, DownPorts: 64, PerYear: rel.Rates.Switch, Parts: 16},
		ServerLeaf: LinkTier{Links: 1024}, LeafSpine: LinkTier{Links: 1024}}
}

// caseOf is r's case of component, failing t without one.
func caseOf(t *testing.T, r *Resilience, component string) FailureCase {
	t.Helper()
	for _, c := range r.Cases {
		if c.Component == component {
			return c
		}
	}
	t.Fatalf("no %s case in %+v", component, r.Cases)
	return FailureCase{}
}

// The cases of the hand-sized 1,024-GPU fabric, by hand: a leaf carries
// one rail of its 32 servers, so its loss cuts 32 GPUs and a restart
// without those servers idles 32 x 8 = 256; a NIC (one port, one GPU)
// idles its server's 8; a spine is one of 16 the leaf reaches, 1/16 of
// its uplinks; a leaf-spine link one of its 32. InfiniBand reroutes (the
// job continues), RoCE with ECMP restarts. Per day: 1,024 GPUs x the
// GPU rate / 365. Mutations caught: a leaf's whole unit counted as cut
// off (256 affected), the rail-optimized flag ignored (all 8 ports of
// 4 servers: 32 idle), the spine's share from the spine count over the
// pods inverted, ECMP treated as a reroute, rates per cluster.
func TestCasesByHand(t *testing.T) {
	rel := testReliability(t)
	in := ndrInput(rel)
	r := Analyse(in)
	if c := caseOf(t, r, FailLeaf); c.GPUsAffected != 32 || c.GPUsIdle != 256 || c.Behaviour != Restarts || math.Abs(c.BandwidthLeft-7.0/8) > 1e-12 {
		t.Errorf("leaf: %+v", c)
	}
	if c := caseOf(t, r, FailNIC); c.GPUsAffected != 1 || c.GPUsIdle != 8 || !c.Fatal {
		t.Errorf("NIC: %+v", c)
	}
	if c := caseOf(t, r, FailSpine); c.Fatal || math.Abs(c.UplinkLeft-15.0/16) > 1e-12 || c.Source != srcIBReroute {
		t.Errorf("spine on InfiniBand: %+v", c)
	}
	if c := caseOf(t, r, FailLeafSpine); math.Abs(c.UplinkLeft-31.0/32) > 1e-12 {
		t.Errorf("leaf-spine link: %+v", c)
	}
	if c := caseOf(t, r, FailGPU); math.Abs(c.PerDay-1024*rel.Rates.GPU/365) > 1e-12 || c.StepS != 0 || c.Slowdown != 0 {
		t.Errorf("GPU without a JCT estimate: %+v", c)
	}
	for _, c := range r.Cases {
		if c.Component == FailCore || c.Component == FailPlane || c.Component == FailRack {
			t.Errorf("a %s case in a one-plane two-tier fabric of servers", c.Component)
		}
	}
	in.Ethernet, in.StaticRouting = true, true
	if c := caseOf(t, Analyse(in), FailSpine); !c.Fatal || c.Behaviour != Restarts || c.Source != srcECMP {
		t.Errorf("spine on RoCE with ECMP: %+v", c)
	}
	in.StaticRouting = false
	if c := caseOf(t, Analyse(in), FailSpine); c.Fatal || c.Source != srcAdaptive {
		t.Errorf("spine on RoCE with adaptive routing: %+v", c)
	}
	in = ndrInput(rel)
	in.RailOptimized = false
	if c := caseOf(t, Analyse(in), FailLeaf); c.GPUsIdle != 32 || c.GPUsAffected != 32 {
		t.Errorf("a leaf holding whole servers (4 of 8 ports each): %+v", c)
	}
}

// Planes and racks by hand: two planes of the fabric above lose half
// their bandwidth with a plane, which port failover survives and
// without it stops the job; on a rack-scale system of 72-GPU domains a
// tray's loss idles its rack. Mutations caught: the plane's share
// inverted (1/N left), failover ignored, the repair unit taken as the
// tray.
func TestPlanesAndRacksByHand(t *testing.T) {
	in := ndrInput(testReliability(t))
	in.Planes, in.PortFailover = 2, true
	if c := caseOf(t, Analyse(in), FailPlane); c.BandwidthLeft != 0.5 || c.Behaviour != Continues || c.Fatal {
		t.Errorf("a plane of two with failover: %+v", c)
	}
	in.PortFailover = false
	if c := caseOf(t, Analyse(in), FailPlane); c.Behaviour != Stops || !math.IsInf(c.StepS, 1) {
		t.Errorf("a plane of two without failover: %+v", c)
	}
	in = ndrInput(testReliability(t))
	in.GPUsPerServer, in.Servers, in.Systems, in.NVLinkDomain = 4, 256, 14, 72
	r := Analyse(in)
	if c := caseOf(t, r, FailHost); c.GPUsIdle != 72 || c.Name != "compute tray" {
		t.Errorf("tray: %+v", c)
	}
	if c := caseOf(t, r, FailRack); c.GPUsIdle != 72 || c.Count != 14 {
		t.Errorf("rack: %+v", c)
	}
}

// A switch draws on the spares of its own tier's model, a link on its
// tier's spare optics: with a spare for every part the failed part is
// back in the swap time; a tier without spares keeps the repair time.
// Mutations caught: link spares read from another tier, switch spares
// ignored, a part's cover computed from the spares of the tier above.
func TestRepairTimesBySpares(t *testing.T) {
	rel := testReliability(t)
	rel.Recovery.SwapHours, rel.Recovery.RepairHours = 2, 24
	in := ndrInput(rel)
	in.Leaf.Spares, in.ServerLeaf.Spares = 32, 1024
	r := Analyse(in)
	for _, comp := range []string{FailLeaf, FailServerLink} {
		if c := caseOf(t, r, comp); !(c.SpareCover > 0.999) || math.Abs(c.RepairHours-2) > 0.05 {
			t.Errorf("%s with spares: %+v", comp, c)
		}
	}
	for _, comp := range []string{FailSpine, FailLeafSpine, FailNIC} {
		if c := caseOf(t, r, comp); c.SpareCover != 0 || c.RepairHours != 24 {
			t.Errorf("%s without spares: %+v", comp, c)
		}
	}
}

// SpareCover against Poisson sums by hand: 1,000 parts failing 0.00876
// times a year, restocked in 1,000 h, have m = 1,000 x 0.00876 x 1,000 /
// 8,760 = 1 part awaited on average. One spare is on hand when none is
// awaited, e^-1 = 0.3679; three when at most two are, e^-1 x 2.5 =
// 0.9197. Mutations caught: "at most spares" instead of "fewer than"
// (0.7358 for one spare), the restock time in days.
func TestSpareCoverPoisson(t *testing.T) {
	for _, c := range []struct {
		spares int
		want   float64
	}{{0, 0}, {1, math.Exp(-1)}, {3, 2.5 * math.Exp(-1)}, {50, 1}} {
		if got := SpareCover(c.spares, 1000, 0.00876, 1000); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%d spares: cover %.6f, want %.6f", c.spares, got, c.want)
		}
	}
	// Parts that never fail always find a spare.
	if got := SpareCover(1, 1000, 0, 24); got != 1 {
		t.Errorf("no failures: cover %v, want 1", got)
	}
}

// ETTR rises to a maximum and falls as the checkpoint interval grows; the
// maximum found by scanning is where OptimalCheckpointHours puts it, and
// Young's sqrt(2w/lambda) is close. Worked example (Kokolis et al.): RSC-1
// as one 16,000-GPU job, lambda = 13/day = 0.5417/h, u0 = 5 min, w ~ 0:
// ETTR at 60 min = 1 - 0.5417 x (0.0833 + 0.5) = 0.684 (paper: 0.7), at
// 5 min = 1 - 0.5417 x (0.0833 + 0.0417) = 0.932 (paper: 0.93).
// Mutations caught: the interval's half (dt/2) dropped, the checkpoint
// cost not divided by the interval, the optimum's sign.
func TestETTRAgainstInterval(t *testing.T) {
	lambda, u0 := 13.0/24, 5.0/60
	for _, c := range []struct{ dt, want float64 }{{1, 0.684}, {5.0 / 60, 0.932}} {
		if got := ETTR(lambda, u0, 0, c.dt); math.Abs(got-c.want) > 0.001 {
			t.Errorf("ETTR at %.0f min = %.4f, want %.3f", c.dt*60, got, c.want)
		}
	}
	// A write as long as the time between interruptions (1/lambda =
	// 1.85 h) never completes: no progress (caught: the first-order
	// formula's 1.8% for a 2 h write every 4 h, [storage] write_gbs =
	// 0.001 in issue 48's review).
	if got := ETTR(lambda, u0, 2, 4); got != 0 {
		t.Errorf("ETTR with a 2 h write and 1.85 h between interruptions = %.4f, want 0", got)
	}
	w := 30.0 / 3600
	opt := OptimalCheckpointHours(lambda, u0, w)
	best, bestDT := 0.0, 0.0
	var rising, falling bool
	prev := 0.0
	for dt := 0.001; dt < 3; dt += 0.001 {
		e := ETTR(lambda, u0, w, dt)
		if e > best {
			best, bestDT = e, dt
		}
		rising = rising || e > prev && dt < opt
		falling = falling || e < prev && dt > opt
		prev = e
	}
	if !rising || !falling || math.Abs(bestDT-opt) > 0.002 {
		t.Errorf("scan: best at %.3f h, optimum %.3f h, rising %v falling %v", bestDT, opt, rising, falling)
	}
	if young := math.Sqrt(2 * w / lambda); math.Abs(young-opt)/opt > 0.1 {
		t.Errorf("Young %.3f h, optimum %.3f h", young, opt)
	}
}

func FuzzParseReliability(f *testing.F) {
	src, err := data.FS.ReadFile("reliability.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("schema = 1\n[rates]\ngpu_per_year = -1\n"))
	f.Add([]byte("schema = 2"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseReliability(b)
		if err != nil {
			return
		}
		if errs := r.Check(); len(errs) > 0 {
			t.Fatalf("accepted out-of-range data: %v", errs)
		}
	})
}

// Goodput by hand on the 1,024-GPU fabric with the job timed: only
// servers fail, 0.365 a year each, so 128 servers fail 0.128 times a
// day; each idles 8 GPUs for 24 h, so 0.128 x 8 = 1.024 GPUs are out on
// average, and the step is 0.872 of the intact one and 0.128 of the one
// without a server. The JCT counting failures is the planned JCT times
// that over ETTR. Mutations caught: repair hours left out, survivable
// failures counted as GPUs down, the slowdown divided instead of
// multiplied.
func TestGoodputByHand(t *testing.T) {
	rel := testReliability(t)
	rel.Rates = FailureRates{Host: 0.365}
	rel.Recovery.RepairHours = 24
	in := ndrInput(rel)
	in.Job, in.HasJob = testJob(t, 1024), true
	r := Analyse(in)
	g := r.Goodput
	if math.Abs(g.GPUsDown-1.024) > 1e-9 || math.Abs(g.InterruptionsPerDay-0.128) > 1e-12 {
		t.Errorf("GPUs down %v, interruptions %v a day; want 1.024, 0.128", g.GPUsDown, g.InterruptionsPerDay)
	}
	host := caseOf(t, r, FailHost)
	if !(host.Slowdown >= 1) || host.StepS != host.Slowdown*in.Job.StepS {
		t.Errorf("a server lost: %+v", host)
	}
	if want := 0.872 + 0.128*host.Slowdown; math.Abs(g.DegradedSlowdown-want) > 1e-9 {
		t.Errorf("degraded slowdown %v, want %v", g.DegradedSlowdown, want)
	}
	if want := in.Job.Days * g.DegradedSlowdown / g.ETTR; math.Abs(g.JCTDays-want) > 1e-9*want {
		t.Errorf("JCT with failures %v d, want %v d", g.JCTDays, want)
	}
	if len(g.ByComponent) != 1 || g.ByComponent[0].Component != FailHost {
		t.Errorf("interruptions by component: %+v", g.ByComponent)
	}
}

// Infinities are written as JSON null and in words: a stopped job's step
// and a job that never finishes. Mutation caught: +Inf passed to
// encoding/json, which fails the whole plan --json.
func TestInfinitiesWritten(t *testing.T) {
	c := FailureCase{Component: FailPlane, StepS: math.Inf(1), Slowdown: math.Inf(1)}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"step_s":null`) || !strings.Contains(string(b), `"slowdown":null`) {
		t.Errorf("a stopped job's case: %s", b)
	}
	if c.StepText() != "cannot train" || c.SlowdownText() != "–" {
		t.Errorf("a stopped job's texts: %q, %q", c.StepText(), c.SlowdownText())
	}
	g := Goodput{MTBIHours: math.Inf(1), JCTDays: math.Inf(1)}
	if b, err = json.Marshal(g); err != nil || !strings.Contains(string(b), `"mtbi_hours":null`) || !strings.Contains(string(b), `"jct_days_with_failures":null`) {
		t.Errorf("goodput without interruptions that never finishes: %s (%v)", b, err)
	}
	if g.JCTText() != "never (the job cannot make progress)" {
		t.Errorf("JCT text %q", g.JCTText())
	}
}

// The checkpoint figures as every view writes them, by hand: 38 min
// with the optimum 38.4 and Young 37; 0.65 min is 39 s; 150 min is 2.5
// hours; a 30 min interval the scenario sets without interruptions
// stands alone; none at all says why; a 0.4942 s write is 494.2 ms.
// Mutations caught: "%.0f min" ("every 0 min", issue #45), the optimum
// shown as "0 s" without interruptions.
func TestCheckpointTexts(t *testing.T) {
	for _, tc := range []struct {
		g    Goodput
		want string
	}{
		{Goodput{IntervalMin: 38, OptimalMin: 38.4, YoungMin: 37}, "checkpoints every 38 min (optimum 38 min, Young 37 min)"},
		{Goodput{IntervalMin: 0.65, OptimalMin: 0.65, YoungMin: 0.72}, "checkpoints every 39 s (optimum 39 s, Young 43 s)"},
		{Goodput{IntervalMin: 150, OptimalMin: 150, YoungMin: 150}, "checkpoints every 2.5 hours (optimum 2.5 hours, Young 2.5 hours)"},
		{Goodput{IntervalMin: 30}, "checkpoints every 30 min"},
		{Goodput{}, "no checkpoints (no interruptions)"},
	} {
		if got := tc.g.CheckpointText(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.g, got, tc.want)
		}
	}
	const want = "each save stalls training 6 s; its 494.2 ms write overlaps training"
	if got := (Recovery{CheckpointStallS: 6.3, CheckpointWriteS: 0.4942}).StallText(); got != want {
		t.Errorf("a 6.3 s stall, a 0.4942 s write: %q, want %q", got, want)
	}
}

// The checkpoint interval by hand: only GPUs fail, 8.5546875 a year each,
// so the 1,024 GPUs are interrupted 24 times a day, lambda = 1 an hour.
// A save stalls training w = 36 s (0.01 h); its write runs in the
// background, and a failure loses it with the restart: u = 5 min +
// write. With a 36 s write, u = 0.09333 h and the optimum is
// -w + sqrt(w^2 + 2 (1 - u) w) = 0.12503 h = 7.502 min, Young's
// sqrt(2 w) = 8.485 min, ETTR (1 - (u + dt/2)) / (1 + w/dt) = 0.7816.
// With a 30 min write the unbounded optimum (4.91 min) is under the
// write, so the interval is the write's 30 min: ETTR (1 - (0.5833 +
// 0.25)) / 1.02 = 0.1634. A 70 min restart outruns the hourly
// interruptions (71 min a loss, written 1.2 hours): no interval makes
// progress, and the text says so, not
// "no interruptions" (issue #45 finding 18). Mutations caught: the write
// taken as the stall (the old model: every 36 s write a blocking one),
// the write left out of the loss per interruption, the write's bound
// dropped (an interval under the write), "no interruptions" at 24 a day.
func TestCheckpointIntervalByHand(t *testing.T) {
	rel := testReliability(t)
	rel.Rates = FailureRates{GPU: 24 * 365.0 / 1024}
	rel.Recovery.RestartMin, rel.Recovery.CheckpointStallS, rel.Recovery.CheckpointInterval = 5, 36, 0
	for _, tc := range []struct {
		writeS, restartMin     float64
		optMin, youngMin, ettr float64
		bound                  bool
		text                   string
	}{
		{36, 5, 7.501852, 8.485281, 0.781636, false, "checkpoints every 8 min (optimum 8 min, Young 8 min)"},
		{1800, 5, 30, 8.485281, 0.163399, true, "checkpoints every 30 min (optimum 30 min, the write's time, Young 8 min)"},
		{36, 70, 0, 8.485281, 0, false, "no checkpoint interval that makes progress (one interruption every 1.0 hours, within the 1.2 hours each costs to restart)"},
	} {
		rel.Recovery.CheckpointWriteS, rel.Recovery.RestartMin = tc.writeS, tc.restartMin
		g := Analyse(ndrInput(rel)).Goodput
		if math.Abs(g.InterruptionsPerDay-24) > 1e-9 || math.Abs(g.OptimalMin-tc.optMin) > 1e-5 || math.Abs(g.YoungMin-tc.youngMin) > 1e-5 ||
			math.Abs(g.ETTR-tc.ettr) > 1e-5 || g.WriteBound != tc.bound || g.IntervalMin != g.OptimalMin {
			t.Errorf("write %g s, restart %g min: %+v; want optimum %g min, Young %g, ETTR %g, bound by the write %v",
				tc.writeS, tc.restartMin, g, tc.optMin, tc.youngMin, tc.ettr, tc.bound)
		}
		if got := g.CheckpointText(); got != tc.text {
			t.Errorf("write %g s, restart %g min: %q, want %q", tc.writeS, tc.restartMin, got, tc.text)
		}
	}
}

// GPUs idle are the GPUs the restarted job does not use (issue #45
// finding 24), by hand for Llama 3 70B at tp 8 x pp 4 (32 GPUs, four
// servers, a replica): on 1,024 GPUs (32 replicas) a lost GPU, server,
// NIC or server link breaks one replica, 32 GPUs idle (8 failed, 24
// healthy), and a leaf's 32 servers break 8 replicas, 256 idle, so the
// slowdown beside each is that of 31 and 24 replicas. On 1,000 GPUs (31
// replicas, 8 GPUs left over) the 8 left over take a lost server's
// place: still 31 replicas, 8 idle. Goodput counts the failed servers'
// GPUs as down (0.128 server failures a day x 24 h x 8 GPUs = 1.024),
// not the replicas'. Mutations caught: the servers' 8 GPUs shown (the
// old column, beside a 32-GPU slowdown), the replicas counted without
// the leftover GPUs (0 idle on 1,000), goodput's GPUs down from the
// idle column (4.096).
func TestGPUsIdleByHand(t *testing.T) {
	rel := testReliability(t)
	rel.Rates = FailureRates{Host: 0.365}
	in := ndrInput(rel)
	in.Job, in.HasJob = testJob(t, 1024), true
	if in.Job.DP != 32 || in.Job.Workload.ModelParallel() != 32 {
		t.Fatalf("job dp %d, model parallel %d; want 32, 32", in.Job.DP, in.Job.Workload.ModelParallel())
	}
	r := Analyse(in)
	for comp, want := range map[string]int{FailGPU: 32, FailHost: 32, FailNIC: 32, FailServerLink: 32, FailLeaf: 256} {
		if c := caseOf(t, r, comp); c.GPUsIdle != want {
			t.Errorf("1,024 GPUs, %s lost: %d GPUs idle, want %d", comp, c.GPUsIdle, want)
		}
	}
	if g := r.Goodput; math.Abs(g.GPUsDown-1.024) > 1e-9 {
		t.Errorf("GPUs down %v, want 1.024", g.GPUsDown)
	}
	in.GPUs, in.Servers, in.NICs = 1000, 125, 1000
	in.Job = testJob(t, 1000)
	if in.Job.DP != 31 {
		t.Fatalf("1,000 GPUs: dp %d, want 31", in.Job.DP)
	}
	if c := caseOf(t, Analyse(in), FailHost); c.GPUsIdle != 8 || c.Slowdown != 1 {
		t.Errorf("1,000 GPUs, a server lost: %d idle, slowdown %v; want 8, 1", c.GPUsIdle, c.Slowdown)
	}
}

// A serving cluster's failures by hand (issue #45 finding 23): the
// 1,024-GPU fabric serving with 512 prefill GPUs in instances of 8 and
// 512 decode GPUs in instances of 64 (EP 64). A lost server's 8 GPUs
// take one instance out: in prefill 8 GPUs (98.4% left), in decode 64
// (87.5% left), so the worst-hit pool is decode, one instance, 64 GPUs
// out; nothing restarts, so no interruptions and no checkpoints. Servers
// fail 0.128 times a day for 24 h: 0.128 down on average, each taking
// (8 x 512 + 64 x 512) / 1,024 = 36 serving GPUs out on average, 4.608
// GPUs, 99.55% left. Mutations caught: the serving cases left as
// restarts (interruptions, a checkpoint interval), the better pool
// reported, the GPUs out counted as the server's 8.
func TestServingFailuresByHand(t *testing.T) {
	rel := testReliability(t)
	rel.Rates = FailureRates{Host: 0.365}
	in := ndrInput(rel)
	in.Serving = Serving{PrefillGPUs: 512, PrefillWidth: 8, DecodeGPUs: 512, DecodeWidth: 64}
	r := Analyse(in)
	if !r.Serving {
		t.Fatal("not a serving what-if")
	}
	c := caseOf(t, r, FailHost)
	if c.Behaviour != ServesOn || c.Fatal || c.Pool != PoolDecode || c.InstancesOut != 1 || c.GPUsIdle != 64 || math.Abs(c.PoolLeft-0.875) > 1e-12 {
		t.Errorf("a server lost while serving: %+v", c)
	}
	if c := caseOf(t, r, FailLeaf); c.GPUsIdle != 256 || c.InstancesOut != 4 || math.Abs(c.PoolLeft-0.5) > 1e-12 {
		t.Errorf("a leaf lost while serving: %+v", c)
	}
	g := r.Goodput
	if g.InterruptionsPerDay != 0 || g.IntervalMin != 0 || math.Abs(g.ServingGPUsOut-4.608) > 1e-9 || math.Abs(g.ServingLeft-(1-4.608/1024)) > 1e-12 {
		t.Errorf("serving goodput: %+v; want no interruptions, 4.608 GPUs out", g)
	}
}
