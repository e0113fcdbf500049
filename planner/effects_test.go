package planner

import (
	"fabricplan/planner/perf"
	"fmt"
	"math"
	"strings"
	"testing"
)

// effectPlan plans gpus GPUs of 400G RoCE on Tomahawk 5, changed by
// network, with w as its workload.
func effectPlan(t *testing.T, gpus int, w perf.Workload, network func(*Network)) *Plan {
	t.Helper()
	s := NewScenario()
	s.Cluster.GPUs = gpus
	s.Network.Fabric, s.Network.Switch, s.Network.NICGbps = Ethernet, "tomahawk5", 400
	network(&s.Network)
	s.Workload = &w
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// effectJob times w on effectPlan's fabric with ratio oversubscription
// and load balancing lb.
func effectJob(t *testing.T, gpus int, ratio, lb string, w perf.Workload) *perf.JCT {
	t.Helper()
	return effectPlan(t, gpus, w, func(n *Network) { n.Oversubscription, n.LoadBalancing = ratio, lb }).JCT
}

// dpJob is Llama 3 8B data-parallel over the whole cluster (tp 8 in the
// server, no pipeline), its gradient reduce fully exposed so that the
// fabric shows.
func dpJob() perf.Workload {
	w := perf.NewWorkload()
	w.Model, w.TP, w.PP, w.VPP = "llama3-8b", 8, 1, 1
	w.GlobalBatchTokens = 4 << 20
	none := 0.0
	w.OverlapDP = &none
	return w
}

func effect(j *perf.JCT, name string) (perf.Effect, bool) {
	for _, e := range j.Effects {
		if e.Name == name {
			return e, true
		}
	}
	return perf.Effect{}, false
}

func dpClass(t *testing.T, st perf.StepTime) perf.TrafficClass {
	t.Helper()
	for _, c := range st.Classes {
		if c.Name == perf.ClassDP {
			return c
		}
	}
	t.Fatal("no data-parallel class")
	return perf.TrafficClass{}
}

// TestFabricEffectsMoveStep: each effect moves the step the right way,
// and its data-parallel bus bandwidth by the amount worked by hand
// (400G NIC at 0.92 = 46 GB/s per GPU, 8 GPUs and 8 NICs a server;
// crossing the tier above the leaves keeps 95% of it, Baidu's dynamic
// load balancing figure: 43.7 GB/s).
func TestFabricEffectsMoveStep(t *testing.T) {
	w := dpJob()
	// 512 and 125 servers: dp spans more than one leaf group of 64.
	for _, gpus := range []int{4096, 1000} {
		t.Run(fmt.Sprintf("%d GPUs", gpus), func(t *testing.T) {

			// Non-blocking, adaptive: no effect but the back end's own cost
			// and the crossing's 95%. Mutation: the crossing loss dropped
			// (46) or charged twice (41.5).
			ideal := effectJob(t, gpus, "1:1", LBAdaptive, w)
			if dp := dpClass(t, ideal.Planned); !dp.CrossesTier || math.Abs(dp.BusBWGBs-46*0.95) > 0.3 {
				t.Fatalf("1:1 adaptive: dp busbw %.1f GB/s crossing %v, want 43.7 crossing", dp.BusBWGBs, dp.CrossesTier)
			}
			for _, name := range []string{perf.EffectOversub, perf.EffectECMP, perf.EffectSpread, perf.EffectOtherJobs} {
				if e, ok := effect(ideal, name); ok {
					t.Errorf("1:1 adaptive lists %q (%+.3f s)", name, e.DeltaS)
				}
			}

			// 2:1 at the leaf, packed: the ring leaves each leaf group of
			// 64 servers on one edge, so a leaf's 32 uplinks carry 1 port's
			// traffic: nothing lost, 43.7 GB/s. Spread, every edge crosses
			// and 2:1 halves it: 23 x 0.95 = 21.85 GB/s. Mutations:
			// every busy port charged as crossing (21.85 packed), an
			// oversubscription effect of no time listed, oversubscription ignored (43.7 spread) or applied twice (10.9).
			over := effectJob(t, gpus, "2:1", LBAdaptive, w)
			if dp := dpClass(t, over.Planned); math.Abs(dp.BusBWGBs-46*0.95) > 0.3 {
				t.Errorf("2:1 packed: dp busbw %.1f GB/s, want 43.7", dp.BusBWGBs)
			}
			if e, ok := effect(over, perf.EffectOversub); ok {
				t.Errorf("2:1 packed lists %q (%+.3f s): its ring's crossing fits the uplinks", e.Name, e.DeltaS)
			}
			spreadW := w
			spreadW.Placement = perf.PlaceSpread
			flat := effectJob(t, gpus, "1:1", LBAdaptive, spreadW)
			over = effectJob(t, gpus, "2:1", LBAdaptive, spreadW)
			if dp := dpClass(t, over.Planned); math.Abs(dp.BusBWGBs-23*0.95) > 0.3 {
				t.Errorf("2:1 spread: dp busbw %.1f GB/s, want 21.85", dp.BusBWGBs)
			}
			if e, ok := effect(over, perf.EffectOversub); !ok || e.DeltaS <= 0 || over.Planned.StepS <= flat.Planned.StepS {
				t.Errorf("2:1 spread: oversubscription effect %+v, step %.3f vs %.3f s non-blocking", e, over.Planned.StepS, flat.Planned.StepS)
			}

			// Static ECMP at 1:1, packed: the ring leaves each leaf group of
			// 64 servers once, so 1/64 of the ports' 2 flows (2 NCCL channels
			// x 1 QP) cross: k = 2/64 per link. 4,096 GPUs: 8,192 hashed
			// links (4,096 uplinks, up and down); P(X >= 2) = k^2/2 = 4.9e-4,
			// P(X >= 3) = k^3/6 = 5.1e-6, so P(M >= 2) = 1 - e^-4.0 = 0.98,
			// P(M >= 3) = 0.041, E[M] = 1 + 0.98 + 0.041 = 2.02: the port
			// keeps 2/2.02 = 99.0% of the crossing's 95%, 43.3 GB/s. 1,000
			// GPUs: 2,000 links, P(M >= 2) = 0.64, E[M] = 1.65 < 2: nothing
			// lost to collisions, 43.7.
			// Mutations: collisions charged on every ring edge (spread's
			// loss), or a port's channels ignored (a collision of 2 would
			// halve it).
			ecmp := effectJob(t, gpus, "1:1", LBECMP, w)
			want := map[int]float64{4096: 46 * 0.95 * 2 / 2.02, 1000: 46 * 0.95}[gpus]
			if dp := dpClass(t, ecmp.Planned); math.Abs(dp.BusBWGBs-want) > 0.3 {
				t.Errorf("ECMP: dp busbw %.1f GB/s, want %.1f", dp.BusBWGBs, want)
			}
		})
	}
	// A job inside one leaf group never meets ECMP: 128 GPUs = 16
	// servers, under one leaf group of 400G Tomahawk 5.
	if j := effectJob(t, 128, "1:1", LBECMP, w); j.Effects != nil {
		for _, e := range j.Effects {
			if e.Name == perf.EffectECMP {
				t.Errorf("128 GPUs in one leaf group: ECMP effect %+v", e)
			}
		}
	}
}

// TestPlacementAndSharedJobs: a job whose data-parallel groups fit in
// one leaf group crosses the oversubscribed tier only when spread; jobs
// spread over shared leaves load each other's uplinks for the share of
// the step they cross them.
func TestPlacementAndSharedJobs(t *testing.T) {
	w := dpJob()
	w.GlobalBatchTokens = 1 << 20 // a short step: the reduce is a fifth of it
	const gpus = 4096
	w.Jobs = 8 // 512 GPUs each: 64 servers, one leaf group of 400G Tomahawk 5
	packed := effectJob(t, gpus, "8:1", LBAdaptive, w)
	if dp := dpClass(t, packed.Planned); dp.CrossesTier || math.Abs(dp.BusBWGBs-46) > 0.5 {
		t.Fatalf("packed: dp busbw %.1f crossing %v, want 46 inside the leaf group", dp.BusBWGBs, dp.CrossesTier)
	}
	w.Placement = perf.PlaceSpread
	spread := effectJob(t, gpus, "8:1", LBAdaptive, w)
	dp := dpClass(t, spread.Planned)
	if !dp.CrossesTier || spread.Planned.StepS <= packed.Planned.StepS {
		t.Fatalf("spread: crossing %v, step %.3f s vs packed %.3f s", dp.CrossesTier, spread.Planned.StepS, packed.Planned.StepS)
	}
	// By hand: the others are busy a fraction b of the step, so a leaf's
	// load is (1 + 7 b)/8 and the 8:1 tier leaves 0.95/max(1, 8 load).
	// Mutations: the others counted always busy (5.46 GB/s), or never
	// (43.7).
	crossing := 0.0 // the time the job's traffic crosses the tier, hidden or not
	for _, c := range spread.Planned.Classes {
		if c.CrossesTier {
			crossing += c.TimeS
		}
	}
	b := crossing / spread.Planned.StepS
	load := (1 + 7*b) / 8
	want := 46 * 0.95 / math.Max(1, 8*load)
	if math.Abs(dp.BusBWGBs-want) > 0.3 || want > 40 || want < 7 {
		t.Errorf("spread, 8 jobs: dp busbw %.1f GB/s, want %.1f (others busy %.2f) between the extremes", dp.BusBWGBs, want, b)
	}
	if _, ok := effect(spread, perf.EffectSpread); !ok {
		t.Error("spread placement not listed")
	}
	if e, ok := effect(spread, perf.EffectOtherJobs); !ok || e.DeltaS <= 0 {
		t.Errorf("other jobs: %+v, want a positive effect", e)
	}
	// One job alone, spread, meets the whole 8:1: its own ports are all
	// busy at once: 46 x 0.95 / 8 = 5.46.
	w.Jobs = 1
	w.GlobalBatchTokens = 4 << 20 // one micro-batch for each of the 512 ranks
	alone := effectJob(t, gpus, "8:1", LBAdaptive, w)
	if got := dpClass(t, alone.Planned).BusBWGBs; math.Abs(got-46*0.95/8) > 0.1 {
		t.Errorf("one job spread at 8:1: dp busbw %.2f, want 5.46", got)
	}
	// Too many jobs: the fabric is planned, and why the job has no
	// estimate names the field.
	w.Jobs = 1024
	s := NewScenario()
	s.Cluster.GPUs = gpus
	s.Workload = &w
	if p, err := Build(s, testCatalog(t)); err != nil || p.JCT != nil || p.NoJCT == nil || !strings.Contains(p.NoJCT.Error(), "workload.jobs") {
		t.Errorf("1,024 jobs of tp 8 on 4,096 GPUs: error %v, want a plan whose NoJCT names workload.jobs", err)
	}
}

// TestExpertsAndNVLinkDomain: expert parallelism beyond the NVLink domain
// puts its all-to-all on the back end; a 72-GPU domain keeps it on
// NVLink. Mutation: the system's domain ignored (GB200 timed as 8-GPU
// servers), or all-to-all always local.
func TestExpertsAndNVLinkDomain(t *testing.T) {
	cat := testCatalog(t)
	w := perf.NewWorkload()
	// Mixtral's layers with 16 experts: ep 16 splits whole experts.
	w.Model, w.Experts, w.TP, w.PP, w.VPP, w.EP = "mixtral-8x7b", 16, 1, 1, 1, 16
	w.GlobalBatchTokens, w.Recompute = 8<<20, true // 2,048 sequences: one per rank of up to 2,048

	hgx := ibScenario(1152)
	hgx.Workload = &w
	p, err := Build(hgx, cat)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := effect(p.JCT, perf.EffectExperts)
	if !ok || e.DeltaS <= 0 {
		t.Fatalf("ep 16 on 8-GPU servers: %+v, want a positive all-to-all effect", e)
	}

	nvl := NewScenario()
	nvl.Cluster.GPUs, nvl.Cluster.System = 1152, "gb200-nvl72"
	nvl.Workload = &w
	q, err := Build(nvl, cat)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := effect(q.JCT, perf.EffectExperts); ok {
		t.Error("ep 16 inside a 72-GPU NVLink domain still crosses the back end")
	}
	d, ok := effect(q.JCT, perf.EffectNVLink)
	if !ok || d.DeltaS >= 0 {
		t.Errorf("72-GPU domain: %+v, want a saving", d)
	}
}

// TestCriticalPathAndIdealFabric: the bubble repeats the tensor-parallel
// collectives of a stage ((pp-1)/(vpp m) of them, by hand); with the back
// end made ideal, every class that leaves the NVLink domain costs
// nothing and the step is compute, bubble and NVLink traffic alone.
func TestCriticalPathAndIdealFabric(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(1024)
	w := perf.NewWorkload() // Llama 3 70B, tp 8, pp 4, vpp 5
	s.Workload = &w
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	j := p.JCT
	frac := float64(w.PP-1) / float64(j.Workload.VPP*j.Microbatches) // the default vpp, 5
	var tp float64
	for _, c := range j.Planned.Classes {
		if c.Name == perf.ClassTP {
			tp = c.ExposedS
		}
	}
	if want := frac*j.Planned.ComputeS + frac*tp; tp == 0 || math.Abs(j.Planned.BubbleS-want) > 1e-9 {
		t.Errorf("bubble %.6f s, want %.6f (TP %.6f s on the critical path)", j.Planned.BubbleS, want, tp)
	}
	fv := p.jobView(j.Workload, cat.JCT).Ideal()
	st := perf.TimeStep(j.Workload, j.GPU, cat.JCT, fv, j.DP, j.Microbatches, perf.RDMA)
	// An ideal back end is as fast as NVLink (450 GB/s x 0.8 per GPU).
	for _, c := range st.Classes {
		if c.CrossesFabric && math.Abs(c.BusBWGBs-360) > 1e-6 {
			t.Errorf("ideal back end: %s at %.1f GB/s, want NVLink's 360", c.Name, c.BusBWGBs)
		}
	}
	if st.StepS >= j.Planned.StepS || st.ComputeS != j.Planned.ComputeS {
		t.Errorf("ideal step %.4f s not below planned %.4f", st.StepS, j.Planned.StepS)
	}
	if e, ok := effect(j, perf.EffectBackEnd); !ok || math.Abs(e.DeltaS-(j.Planned.StepS-st.StepS)) > 1e-9 {
		t.Errorf("back-end effect %+v, want %.4f s", e, j.Planned.StepS-st.StepS)
	}
}

// TestPlanesLeaveECMPAlone: each plane's leaves and uplinks scale with
// its share of the ports, so the flows per uplink and the collision loss
// are the same on one plane or two. Mutation caught: k multiplied (or
// divided) by the plane count.
func TestPlanesLeaveECMPAlone(t *testing.T) {
	w := dpJob()
	busbw := func(planes int) float64 {
		p := effectPlan(t, 4096, w, func(n *Network) { n.LoadBalancing, n.Planes = LBECMP, planes })
		if _, ok := effect(p.JCT, perf.EffectECMP); !ok {
			t.Fatalf("%d planes: no ECMP effect", planes)
		}
		return dpClass(t, p.JCT.Planned).BusBWGBs
	}
	if one, two := busbw(1), busbw(2); math.Abs(one-two) > 1e-9 || math.Abs(one-46*0.95*2/2.02) > 0.3 {
		t.Errorf("dp busbw %.2f GB/s on one plane, %.2f on two; want both %.1f (TestFabricEffectsMoveStep works it)", one, two, 46*0.95*2/2.02)
	}
}

// TestEffectSignsEverySystem runs every catalog system (and custom 8-GPU
// servers) at an odd size, on both fabrics, two ratios, both placements,
// alone and sharing: no effect may claim to save time except the NVLink
// domain and, for a job sharing the cluster, spreading it (the other
// jobs' quiet time lends it uplinks), removing the whole back end saves at least as much
// as removing any one of its limits, and ECMP collisions appear exactly
// on RoCE with static ECMP when traffic crosses the tier. Mutations
// caught: an effect measured the wrong way round, ECMP charged on
// InfiniBand or adaptive routing, an effect removed that made the step
// faster by making another one worse.
func TestEffectSignsEverySystem(t *testing.T) {
	cat := testCatalog(t)
	systems := []string{""}
	for k := range cat.Systems {
		systems = append(systems, k)
	}
	w := perf.NewWorkload()
	w.Model, w.PP, w.VPP = "llama3-8b", 2, 1
	for _, sys := range systems {
		for _, fabric := range []Fabric{InfiniBand, Ethernet} {
			for _, ratio := range []string{"1:1", "3:1"} {
				for _, place := range []string{perf.PlacePacked, perf.PlaceSpread + "/1", perf.PlaceSpread + "/3"} {
					s := NewScenario()
					s.Cluster.GPUs, s.Cluster.System = 3000, sys
					s.Network.Fabric, s.Network.Oversubscription = fabric, ratio
					if fabric == Ethernet {
						s.Network.LoadBalancing = LBECMP
					}
					wl := w
					wl.Placement, wl.Jobs = perf.PlacePacked, 3
					if place != perf.PlacePacked {
						wl.Placement, wl.Jobs = perf.PlaceSpread, int(place[len(place)-1]-'0')
					}
					s.Workload = &wl
					name := fmt.Sprintf("%s/%s/%s/%s", sys, fabric, ratio, place)
					p, err := Build(s, cat)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					checkEffectSigns(t, name, p.JCT, fabric == Ethernet)
				}
			}
		}
	}
}

func checkEffectSigns(t *testing.T, name string, j *perf.JCT, ecmp bool) {
	t.Helper()
	backEnd, hasBackEnd := effect(j, perf.EffectBackEnd)
	crosses := false
	for _, c := range j.Planned.Classes {
		crosses = crosses || c.CrossesTier
	}
	for _, e := range j.Effects {
		switch e.Name {
		case perf.EffectNVLink:
			if e.DeltaS > 1e-12 {
				t.Errorf("%s: %s costs %+.4g s, want a saving", name, e.Name, e.DeltaS)
			}
		case perf.EffectSpread:
			if e.DeltaS < -1e-12 && (j.Workload.Jobs <= 1 || !strings.Contains(e.Detail, "other jobs")) {
				t.Errorf("%s: spreading saves %.4g s for a job alone, or without saying why: %q", name, -e.DeltaS, e.Detail)
			}
		case perf.EffectInNetwork:
			if e.DeltaS > 1e-12 {
				t.Errorf("%s: in-network reduction costs %+.4g s, want a saving", name, e.DeltaS)
			}
		case perf.EffectCritical, perf.EffectBackEnd:
			if e.DeltaS < 0 {
				t.Errorf("%s: %s %+.4g s", name, e.Name, e.DeltaS)
			}
		default:
			if e.DeltaS < -1e-12 {
				t.Errorf("%s: %s saves %.4g s", name, e.Name, -e.DeltaS)
			}
			if hasBackEnd && e.Name != perf.EffectExperts && e.DeltaS > backEnd.DeltaS+1e-12 {
				t.Errorf("%s: %s %+.4g s is more than the whole back end's %+.4g", name, e.Name, e.DeltaS, backEnd.DeltaS)
			}
		}
	}
	if _, ok := effect(j, perf.EffectECMP); ok != (ecmp && crosses) {
		t.Errorf("%s: ECMP effect listed %v, want %v (RoCE ECMP %v, crossing %v)", name, ok, ecmp && crosses, ecmp, crosses)
	}
}
