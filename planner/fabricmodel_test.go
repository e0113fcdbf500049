package planner

import (
	"fabricplan/planner/perf"
	"fmt"
	"testing"
)

// TestStaticRoutingOnInfiniBand: InfiniBand with static subnet-manager
// routes meets the same collisions as hashed Ethernet; with adaptive
// routing (the default) none. Mutation caught: routing ignored on
// InfiniBand (collision-free by assumption).
func TestStaticRoutingOnInfiniBand(t *testing.T) {
	cat := testCatalog(t)
	w := dpJob()
	w.Placement = perf.PlaceSpread
	step := func(routing string, f Fabric) (*perf.JCT, float64) {
		p := effectPlan(t, 4000, w, func(n *Network) { n.Fabric, n.Routing, n.Switch = f, routing, Auto })
		return p.JCT, dpClass(t, p.JCT.Planned).BusBWGBs
	}
	ibStatic, bs := step(RouteStatic, InfiniBand)
	ibAdaptive, ba := step(RouteAdaptive, InfiniBand)
	if bs >= ba*0.8 {
		t.Errorf("static IB dp busbw %.1f GB/s, adaptive %.1f: want a collision loss", bs, ba)
	}
	if _, ok := effect(ibStatic, perf.EffectECMP); !ok {
		t.Error("static IB lists no collision effect")
	}
	if _, ok := effect(ibAdaptive, perf.EffectECMP); ok {
		t.Error("adaptive IB lists a collision effect")
	}
	_ = cat
}

// TestColocatedJobNeverSpeedsUp: other jobs on the shared uplinks, in
// random or aligned phase, and background load on either tier, never
// make a job faster, on either routing and fabric; aligned jobs cost at
// least what random ones do. Mutations caught: the others' load
// subtracted, aligned phase treated as idle, background load that
// lends capacity.
func TestColocatedJobNeverSpeedsUp(t *testing.T) {
	for _, f := range []Fabric{InfiniBand, Ethernet} {
		for _, routing := range []string{RouteStatic, RouteAdaptive} {
			for _, ratio := range []string{"1:1", "3:1"} {
				w := dpJob()
				w.Placement, w.Jobs = perf.PlaceSpread, 3
				build := func(change func(*perf.Workload)) *perf.JCT {
					wl := w
					change(&wl)
					return effectPlan(t, 3000, wl, func(n *Network) {
						n.Fabric, n.Routing, n.Oversubscription, n.Switch = f, routing, ratio, Auto
					}).JCT
				}
				name := fmt.Sprintf("%s/%s/%s", f, routing, ratio)
				random := build(func(*perf.Workload) {})
				aligned := build(func(w *perf.Workload) { w.Phase = perf.PhaseAligned })
				busy := build(func(w *perf.Workload) { w.BackgroundLeaf, w.BackgroundSpine = 0.3, 0.2 })
				if e, ok := effect(random, perf.EffectOtherJobs); !ok || e.DeltaS < 0 {
					t.Errorf("%s: other jobs %+v, want a cost of 0 or more", name, e)
				}
				if aligned.Planned.StepS < random.Planned.StepS-1e-12 {
					t.Errorf("%s: aligned %.4f s faster than random %.4f", name, aligned.Planned.StepS, random.Planned.StepS)
				}
				if busy.Planned.StepS < random.Planned.StepS-1e-12 {
					t.Errorf("%s: background load %.4f s, faster than %.4f", name, busy.Planned.StepS, random.Planned.StepS)
				}
				if e, ok := effect(busy, perf.EffectBackdrop); !ok || e.DeltaS < 0 {
					t.Errorf("%s: background effect %+v, want a cost of 0 or more", name, e)
				}
				// Alone on its leaves, every port crossing: 30% of the
				// uplinks held elsewhere must cost time.
				alone := build(func(w *perf.Workload) { w.Jobs = 1 })
				aloneBusy := build(func(w *perf.Workload) { w.Jobs, w.BackgroundLeaf = 1, 0.3 })
				if aloneBusy.Planned.StepS <= alone.Planned.StepS {
					t.Errorf("%s: alone, background load %.4f s, not slower than %.4f", name, aloneBusy.Planned.StepS, alone.Planned.StepS)
				}
			}
		}
	}
}

// BenchmarkJCTEveryEffect times one JCT evaluation with every fabric
// effect on: static routing on InfiniBand (the collision model), SHARP,
// NVLS, three spread jobs in aligned phase, background load on both
// tiers, a three-tier fabric, and the breakdown. Target: under 20 µs
// (the whole estimate, shared with BenchmarkJCT's structure). Every
// estimate after the first finds the collision expectations in perf's
// shared table; planner/perf's BenchmarkEstimateEveryEffect times the
// first estimate of a fabric too.
func BenchmarkJCTEveryEffect(b *testing.B) {
	cat := testCatalog(b)
	s := NewScenario()
	s.Cluster.GPUs = 65536
	s.Network.Routing, s.Network.InNetworkReduction, s.Network.Oversubscription = RouteStatic, true, "2:1"
	w := perf.NewWorkload()
	w.Model, w.EP, w.PP = "mixtral-8x7b", 8, 2
	w.Placement, w.Jobs, w.Phase = perf.PlaceSpread, 4, perf.PhaseAligned
	w.BackgroundLeaf, w.BackgroundSpine = 0.2, 0.1
	w.QueuePairs = 2
	s.Workload = &w
	p, err := Build(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	if p.Tiers < 3 {
		b.Fatalf("%d tiers, want 3", p.Tiers)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := EstimateJCT(p, w, cat.JCT); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu) // wall time on a shared machine counts the waits for a core
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/estimate")
}
