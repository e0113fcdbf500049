package perf

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"fabricplan/internal/memo"
)

// TestMaxLoadMemoKey: the collision memo answers every question as
// expectedMaxLoad does, when the stages differ from one it holds in a
// single field, and after more distinct questions than it has slots.
// Mutations caught: a key without one of the eight stage fields (it
// returns the held stage's answer for the changed one), an answer stored
// in another slot than its stages (a full memo then answers a new key
// with an old key's load).
func TestMaxLoadMemoKey(t *testing.T) {
	base := [2]hashStage{{flows: 210, p: 1.0 / 21, links: 21, groups: 780}, {flows: 467, p: 1.0 / 42, links: 21, groups: 390}}
	change := []struct {
		name string
		edit func(*[2]hashStage)
	}{
		{"leaf flows", func(s *[2]hashStage) { s[0].flows = 168 }},
		{"leaf p", func(s *[2]hashStage) { s[0].p = 1.0 / 16 }},
		{"leaf links", func(s *[2]hashStage) { s[0].links = 16 }},
		{"leaf groups", func(s *[2]hashStage) { s[0].groups = 4 }},
		{"spine flows", func(s *[2]hashStage) { s[1].flows = 933 }},
		{"spine p", func(s *[2]hashStage) { s[1].p = 1.0 / 21 }},
		{"spine links", func(s *[2]hashStage) { s[1].links = 42 }},
		{"spine groups", func(s *[2]hashStage) { s[1].groups = 3 }},
	}
	want0 := expectedMaxLoad(base[0], base[1])
	for _, c := range change {
		t.Run(c.name, func(t *testing.T) {
			k := base
			c.edit(&k)
			want := expectedMaxLoad(k[0], k[1])
			if want == want0 {
				t.Fatalf("the change leaves the expected maximum at %g: the case tests nothing", want)
			}
			var m maxLoadMemo
			if got := m.get(base[0], base[1]); got != want0 {
				t.Fatalf("held stage: %g, want %g", got, want0)
			}
			for range 2 { // computed, then held
				if got := m.get(k[0], k[1]); got != want {
					t.Errorf("changed %s: %g from the memo, %g computed", c.name, got, want)
				}
				if got := m.get(base[0], base[1]); got != want0 {
					t.Errorf("held stage after the changed one: %g, want %g", got, want0)
				}
			}
		})
	}
	// More distinct questions than slots, each asked twice in a row (the
	// second answer held), the last slots' again at the end: every answer
	// is the computed one.
	var m maxLoadMemo
	ask := func(i int) {
		k := base
		k[1].flows = float64(100 + 37*i)
		if got, want := m.get(k[0], k[1]), expectedMaxLoad(k[0], k[1]); got != want {
			t.Errorf("question %d: %g from the memo, %g computed", i, got, want)
		}
	}
	n := 2*maxLoadSlots + 3
	for i := range n {
		ask(i)
		ask(i)
	}
	for i := n - maxLoadSlots; i < n; i++ {
		ask(i)
	}
}

// everyEffectJob is a 65,536-GPU three-tier InfiniBand fabric at 2:1
// with static routing and SHARP, and Mixtral 8x7B spread over it with
// three other jobs in aligned phase, background load on both tiers and
// two queue pairs per connection: every effect of the breakdown is on.
func everyEffectJob(d *JCTData) (Job, Workload) {
	n := testNetwork(65536)
	n.Oversub, n.Static, n.SHARP, n.SwitchKey = 2, true, true, d.InNetwork.SHARPSwitches[0]
	w := NewWorkload()
	w.Model, w.EP, w.PP = "mixtral-8x7b", 8, 2
	w.Placement, w.Jobs, w.Phase = PlaceSpread, 4, PhaseAligned
	w.BackgroundLeaf, w.BackgroundSpine = 0.2, 0.1
	w.QueuePairs = 2
	return Job{Network: n}, w
}

// TestFastPathsAgree: the paths that time without allocating give the
// very figures of the plain ones. StepSeconds against TimeStep, over
// packed and spread jobs, random and aligned phase, both transports;
// Estimate's classes, kept in the estimate, against steps timed into
// fresh slices. Mutations caught: Baseline's classes written over
// Planned's (one store for both), a Planned slice whose capacity
// reaches Baseline's (an append by a caller overwrites the baseline),
// StepSeconds timing another transport or the unsolved sharing.
func TestFastPathsAgree(t *testing.T) {
	d := testData(t)
	job, every := everyEffectJob(d)
	packed := NewWorkload()
	random := every
	random.Phase = PhaseRandom
	for _, tc := range []struct {
		name string
		w    Workload
	}{{"packed llama3-70b", packed}, {"spread mixtral aligned", every}, {"spread mixtral random", random}} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Estimate(job, tc.w, d, Parts{Detail: true})
			if err != nil {
				t.Fatal(err)
			}
			w := WithComputeEfficiency(j.Workload, j.GPU, d)
			v := job.Network.Place(j.Workload, d)
			for _, tr := range []Transport{RDMA, TCP} {
				slow := TimeStep(w, j.GPU, d, v, j.DP, j.Microbatches, tr)
				if fast := StepSeconds(w, j.GPU, d, v, j.DP, j.Microbatches, tr); fast != slow.StepS {
					t.Errorf("%s: StepSeconds %g, TimeStep %g", tr, fast, slow.StepS)
				}
				kept := j.Planned
				if tr == TCP {
					kept = j.Baseline
				}
				if fmt.Sprint(kept) != fmt.Sprint(slow) {
					t.Errorf("%s: the estimate's step\n%+v\nstepped alone\n%+v", tr, kept, slow)
				}
			}
			before := fmt.Sprint(j.Baseline.Classes)
			_ = append(j.Planned.Classes, make([]TrafficClass, maxClasses)...)
			if after := fmt.Sprint(j.Baseline.Classes); after != before {
				t.Errorf("appending to the planned classes changed the baseline's:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// TestEffectsEachAlone: an effect of the breakdown is the planned step
// less the step with that one property changed, whatever the effects
// timed before it changed: static routing's effect, timed after the back
// end's, the oversubscription's and the crossing's, equals the step on
// the same fabric less the step on it routed adaptively, estimated
// afresh (a job alone and packed, so nothing else moves with the
// routing). Mutations caught: the effects' view not reset between
// effects (the collision effect timed with the ideal back end or the
// crossing loss of an earlier effect), the effects timing into the
// planned step's classes (Planned changes with the breakdown).
func TestEffectsEachAlone(t *testing.T) {
	d := testData(t)
	job, _ := everyEffectJob(d)
	w := NewWorkload()
	w.Model, w.EP, w.PP = "mixtral-8x7b", 8, 2
	static, err := Estimate(job, w, d, Parts{Detail: true})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Estimate(job, w, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(plain.Planned) != fmt.Sprint(static.Planned) {
		t.Errorf("the breakdown changed the planned step:\n%+v\nwithout it\n%+v", static.Planned, plain.Planned)
	}
	adaptiveJob := job
	adaptiveJob.Network.Static = false
	adaptive, err := Estimate(adaptiveJob, w, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range static.Effects {
		names = append(names, e.Name)
	}
	e, ok := effectNamed(static.Effects, EffectECMP)
	if !ok || len(static.Effects) < 4 || static.Effects[0].Name == EffectECMP {
		t.Fatalf("effects %v: want static routing's after others", names)
	}
	if want := static.Planned.StepS - adaptive.Planned.StepS; e.DeltaS != want || want <= 0 {
		t.Errorf("static routing effect %g s, want the static step less the adaptive one, %g s", e.DeltaS, want)
	}
}

func effectNamed(es []Effect, name string) (Effect, bool) {
	for _, e := range es {
		if e.Name == name {
			return e, true
		}
	}
	return Effect{}, false
}

// TestSharedMaxLoads: the table shared by every estimate answers as
// expectedMaxLoad does from several goroutines at once (run with -race),
// and never holds more than its bound. Mutations caught: the table read
// or written without its lock (a data race), a table that only grows,
// an answer filed under another question's key.
func TestSharedMaxLoads(t *testing.T) {
	table := maxLoadTable{memo.New[float64](maxSharedLoads)}
	stage := func(i int) [2]hashStage {
		return [2]hashStage{{flows: float64(8 + i%50), p: 1.0 / 8, links: 8, groups: float64(1 + i/50)}, {}}
	}
	want := map[int]float64{}
	for i := range 200 {
		k := stage(i)
		want[i] = expectedMaxLoad(k[0], k[1])
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 3 {
				for i := range 200 {
					j := (i*7 + g*13 + r) % 200
					if got := table.get(stage(j)); got != want[j] {
						t.Errorf("question %d: %g, computed %g", j, got, want[j])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	small := maxLoadTable{memo.New[float64](maxSharedLoads)}
	for i := range maxSharedLoads + 10 {
		k := [2]hashStage{{flows: float64(i + 1), p: 1, links: 1, groups: 1}, {}}
		small.get(k)
		if n := small.c.Len(); n > maxSharedLoads {
			t.Fatalf("%d answers held after %d questions, bound %d", n, i+1, maxSharedLoads)
		}
	}
}

// BenchmarkEstimateEveryEffect times one JCT estimate with every fabric
// effect on (everyEffectJob, the planner's BenchmarkJCTEveryEffect
// without the plan around it): "first" with the collision table emptied
// before each estimate, as the first estimate of a fabric runs; "again"
// as the window's next estimate of the same fabric runs. Target: under
// 20 µs.
func BenchmarkEstimateEveryEffect(b *testing.B) {
	d := testData(b)
	job, w := everyEffectJob(d)
	for _, first := range []bool{true, false} {
		name := "again"
		if first {
			name = "first"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if first {
					sharedMaxLoads.c.Forget()
				}
				if _, err := Estimate(job, w, d, Parts{Detail: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDetailNumbersAsFmt: the breakdown's number helpers write what fmt's
// %.0f and %.2g write, over ratios, shares, halves that round, huge,
// tiny, negative and non-finite values. Mutations caught: 'g' with
// another precision, 'f' where 'g' is meant (2.5:1 written 2), -1 for
// the shortest form (0.95 written as is where %.0f gives 1).
func TestDetailNumbersAsFmt(t *testing.T) {
	for _, v := range []float64{0, 0.5, 1.5, 2.5, 0.95, 1, 1.25, 2, 2.5, 3.3333333, 7, 12.5, 95, 99.5, 100, 1234.5, 1e6, 2.5e-7,
		-0.4, -3.75, math.Inf(1), math.Inf(-1), math.NaN()} {
		if got, want := fmtF0(v), fmt.Sprintf("%.0f", v); got != want {
			t.Errorf("fmtF0(%v) = %q, fmt %q", v, got, want)
		}
		if got, want := fmtG2(v), fmt.Sprintf("%.2g", v); got != want {
			t.Errorf("fmtG2(%v) = %q, fmt %q", v, got, want)
		}
	}
}
