package perf

import (
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
)

// The gradient exchange's windows, by hand: 6 s of compute over 3
// micro-batches is 2 s per micro-batch; a backward pass twice the
// forward (data/jct.toml backward_per_forward 2) splits it 4/3 s
// backward (the reduce's window) and 2/3 s forward (the all-gather's);
// recomputation replays the forward in the backward: 3 of 4 parts,
// 1.5 s and 0.5 s; with 30 of 60 layers recomputing, half a forward:
// 2.5 of 3.5 parts, 10/7 s and 4/7 s; ZeRO-3 gathers again in the
// backward: the whole micro-batch, 2 s. Mutations caught: the window
// taken over the whole step (6 s: gradients reduced after every
// micro-batch), the forward and backward swapped, recomputation ignored
// (whole or partial), ZeRO-3's second gather given no window.
func TestGradientWindows(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name           string
		w              Workload
		reduce, gather float64
	}{
		{"plain", Workload{}, 4.0 / 3, 2.0 / 3},
		{"recompute", Workload{Recompute: true}, 1.5, 0.5},
		{"recompute 30 of 60 layers", Workload{Layers: 60, RecomputeLayers: 30}, 10.0 / 7, 4.0 / 7},
		{"zero 1", Workload{ZeROStage: 1}, 4.0 / 3, 2.0 / 3},
		{"zero 3", Workload{ZeROStage: 3}, 4.0 / 3, 2},
	} {
		r, g := gradientWindows(d, c.w.recomputeShare(), c.w.zeroStage(), 6, 3)
		if math.Abs(r-c.reduce) > 1e-12 || math.Abs(g-c.gather) > 1e-12 {
			t.Errorf("%s: windows %.4f s and %.4f s, by hand %.4f and %.4f", c.name, r, g, c.reduce, c.gather)
		}
	}
	if r, _ := gradientWindows(d, 0, 0, 6, 0); math.Abs(r-4) > 1e-12 {
		t.Errorf("no micro-batch count: reduce window %.4f, want one micro-batch's 4 s", r)
	}
}

// A class hides at most its window: with 80% overlap, 1 s of reduce
// behind a 2 s window exposes its 0.2 s share; behind 0.5 s, 0.5 s;
// behind none, all of it; a reduce of 1 s (window 0.8 s) and a gather
// of 0.5 s (window 0.1 s) expose 0.2 + 0.4 = 0.6 s, above the 0.3 s
// share. Exposed time never exceeds the communication and never falls
// as the communication slows (swept from 0.01 s to 100 s). Mutations
// caught: the fixed share kept whatever the window (0.2 where 0.5 is
// due), the window subtracted without the floor (0 exposed below it),
// the gather's window given to the reduce, exposed time above the
// class's time.
func TestExposeGradientSync(t *testing.T) {
	expose := func(reduce, gather, o, rw, gw float64) float64 {
		c := TrafficClass{TimeS: reduce + gather, ExposedS: (1 - o) * (reduce + gather)}
		exposeGradientSync(&c, gather, rw, gw)
		return c.ExposedS
	}
	for _, c := range []struct {
		name                   string
		reduce, gather, o      float64
		reduceW, gatherW, want float64
	}{
		{"inside the window", 1, 0, 0.8, 2, 0, 0.2},
		{"past the window", 1, 0, 0.8, 0.5, 0, 0.5},
		{"no window", 1, 0, 0.8, 0, 0, 1},
		{"reduce and gather", 1, 0.5, 0.8, 0.8, 0.1, 0.6},
		{"no overlap", 1, 0.5, 0, 5, 5, 1.5},
	} {
		if got := expose(c.reduce, c.gather, c.o, c.reduceW, c.gatherW); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: exposed %.4f s, by hand %.4f", c.name, got, c.want)
		}
	}
	prev := 0.0
	for t0 := 0.01; t0 <= 100; t0 *= 1.3 {
		got := expose(0.7*t0, 0.3*t0, 0.8, 1, 0.4)
		if got > t0+1e-12 || got < prev-1e-12 {
			t.Fatalf("%.3f s of communication: exposed %.4f (after %.4f at less)", t0, got, prev)
		}
		prev = got
	}
}

// A step's finish caps every class but data parallel at the step's
// compute: 3 s of tensor-parallel time half hidden behind 1 s of compute
// exposes 2 s; 1 s half hidden stays 0.5 s; the data-parallel class (at
// the place finish is given) is left as set; the step, with no
// pipeline, is 1 + 2 + 0.5 + 1 = 4.5 s. Mutations caught: the cap
// applied to data parallel too, the cap taken against the class's own
// exposed time, a class's exposed time summed before its cap.
func TestLimitOverlap(t *testing.T) {
	st := StepTime{ComputeS: 1, Classes: []TrafficClass{
		{Name: ClassTP, TimeS: 3, ExposedS: 1.5},
		{Name: ClassEP, TimeS: 1, ExposedS: 0.5},
		{Name: ClassDP, TimeS: 5, ExposedS: 1},
	}}
	w := Workload{PP: 1, VPP: 1}
	st.finish(&w, 1, 0, 2)
	for i, want := range []float64{2, 0.5, 1} {
		if got := st.Classes[i].ExposedS; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: exposed %.3f s, by hand %.3f", st.Classes[i].Name, got, want)
		}
	}
	if st.StepS != 4.5 || st.BubbleS != 0 {
		t.Errorf("step %g s, bubble %g s: by hand 4.5 s, none", st.StepS, st.BubbleS)
	}
}

// sharingJob is gpus GPUs of 8-GPU servers with eight 400G RoCE NICs,
// perServer servers per leaf at ratio oversub, statically hashed or
// adaptive, and Llama 3 70B (tp 8) as jobs jobs spread over the leaves.
func sharingJob(gpus, perLeaf, jobs int, oversub float64, static bool, phase string) (Job, Workload) {
	n := testNetwork(gpus)
	n.Fabric, n.Static, n.Oversub, n.ServersPerUnit = Ethernet, static, oversub, perLeaf
	w := NewWorkload()
	w.Model, w.TP, w.PP = "llama3-70b", 8, 1
	w.Placement, w.Jobs, w.Phase = PlaceSpread, jobs, phase
	return Job{Network: n}, w
}

// Sharing never speeds a job up, on and off the grid (non-power-of-two
// sizes and leaves, 1:1 to 3:1, static and adaptive routing, random and
// aligned phase, 2 to 5 jobs): the other jobs' and the background's
// effects are never negative, a class's exposed time never exceeds its
// time, and more background load (0 to 0.8 of the uplinks, leaf and
// spine) never makes the step shorter. Mutations caught: the others'
// load subtracted from this job's (a speed-up), the background's
// divisor turned into a product, exposed time taken past the
// communication, a window that shrinks as the communication slows.
func TestSharingNeverSpeedsUp(t *testing.T) {
	d := testData(t)
	for _, gpus := range []int{1000, 2040, 6144} {
		for _, perLeaf := range []int{12, 32} {
			for _, oversub := range []float64{1, 1.5, 3} {
				for _, static := range []bool{true, false} {
					for _, phase := range []string{PhaseRandom, PhaseAligned} {
						for _, jobs := range []int{2, 3, 5} {
							name := fmt.Sprintf("%d GPUs, %d per leaf, %g:1, static %v, %s, %d jobs", gpus, perLeaf, oversub, static, phase, jobs)
							job, w := sharingJob(gpus, perLeaf, jobs, oversub, static, phase)
							checkSharing(t, name, job, w, d)
						}
					}
				}
			}
		}
	}
}

func checkSharing(t *testing.T, name string, job Job, w Workload, d *JCTData) {
	t.Helper()
	prev := 0.0
	for _, bg := range []float64{0, 0.1, 0.35, 0.6, 0.8} {
		w.BackgroundLeaf, w.BackgroundSpine = bg, bg/2
		j, err := Estimate(job, w, d, Parts{Detail: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range j.Effects {
			if (e.Name == EffectOtherJobs || e.Name == EffectBackdrop) && e.DeltaS < -1e-9*j.Planned.StepS {
				t.Errorf("%s, background %g: %s %+.4g s, a speed-up", name, bg, e.Name, e.DeltaS)
			}
		}
		for _, c := range j.Planned.Classes {
			if c.ExposedS > c.TimeS*(1+1e-12) || c.ExposedS < 0 {
				t.Errorf("%s: %s exposes %.4g s of %.4g", name, c.Name, c.ExposedS, c.TimeS)
			}
		}
		if s := j.Planned.StepS; s < prev*(1-1e-12) {
			t.Errorf("%s: background %g gives a %.5f s step, below %.5f at less", name, bg, s, prev)
		}
		prev = j.Planned.StepS
	}
}

// The step applies the windows: Llama 3 70B (tp 8) on 1,024 H100 with
// 8 x 100G InfiniBand exchanges its 8.75B-parameter shard's gradients
// in one all-reduce over 128 ranks, about 3 s; one 8,192-token sequence's backward pass
// (W = 2/3 of a micro-batch's compute, 3/4 with recomputation) is too
// short to hide 80% of it, so the data-parallel class exposes T - W
// rather than 0.2 T; a micro-batch of 8 sequences holds it and 0.2 T
// stays. Mutations caught: the window left out of the step (0.2 T
// where T - W is due), the window taken over the whole step's compute,
// recomputation not passed.
func TestStepExposesPastWindow(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name      string
		micro     int
		recompute bool
		binds     bool
	}{
		{"micro-batch 1", 1, false, true},
		{"micro-batch 1, recompute", 1, true, true},
		{"micro-batch 8", 8, false, false},
	} {
		w := NewWorkload()
		w.Model, w.TP, w.PP, w.MicroBatch, w.GlobalBatchTokens, w.Recompute = "llama3-70b", 8, 1, c.micro, 128*16*8192, c.recompute
		w.ZeRO = false // one all-reduce: one window
		n := testNetwork(1024)
		n.NICGbps = 100
		j, err := Estimate(Job{Network: n}, w, d, Parts{})
		if err != nil {
			t.Fatal(err)
		}
		st := j.Planned
		var dp TrafficClass
		for _, cl := range st.Classes {
			if cl.Name == ClassDP {
				dp = cl
			}
		}
		bwd := 2.0 / 3
		if c.recompute {
			bwd = 3.0 / 4
		}
		window := st.ComputeS / float64(j.Microbatches) * bwd
		want := math.Max(0.2*dp.TimeS, dp.TimeS-window)
		if math.Abs(dp.ExposedS-want) > 1e-9*want {
			t.Errorf("%s: data parallel exposes %.4f s of %.4f, by hand max(0.2 T, T - %.4f) = %.4f", c.name, dp.ExposedS, dp.TimeS, window, want)
		}
		if binds := dp.TimeS-window > 0.2*dp.TimeS; binds != c.binds {
			t.Errorf("%s: window %.4f s against %.4f s of reduce: binds %v, the case wants %v", c.name, window, dp.TimeS, binds, c.binds)
		}
	}
}

// The breakdown says when a class outlasts its window: the data-parallel
// row of a job whose gradient reduce is past it names the micro-batch's
// passes, one inside it adds nothing, and another class capped at the
// compute names the compute. Mutations caught: the note on every row,
// the comparison turned (the note where the share holds), the wrong
// overlap read for the class.
func TestWindowNote(t *testing.T) {
	o := func(v float64) *float64 { return &v }
	w := Workload{OverlapDP: o(0.8), OverlapTP: o(0.5)}
	for _, c := range []struct {
		class TrafficClass
		want  string
	}{
		{TrafficClass{Name: ClassDP, TimeS: 1, ExposedS: 0.2}, ""},
		{TrafficClass{Name: ClassDP, TimeS: 1, ExposedS: 0.5}, "backward pass"},
		{TrafficClass{Name: ClassTP, TimeS: 1, ExposedS: 0.5}, ""},
		{TrafficClass{Name: ClassTP, TimeS: 3, ExposedS: 2}, "step's compute"},
	} {
		got := w.windowNote(c.class)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s, %.1f of %.1f s exposed: note %q, want one naming %q", c.class.Name, c.class.ExposedS, c.class.TimeS, got, c.want)
		}
	}
}

// The [overlap] table is checked when the data is read: a share past 1,
// a negative one or a backward pass outside 0.5 to 10 forwards is
// refused with the table named; the shipped table passes. Mutations
// caught: checkOverlap left out of the checks, its ranges inverted.
func TestOverlapDataChecked(t *testing.T) {
	src, err := fs.ReadFile(data.FS, "jct.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to string }{
		{"backward_per_forward = 2.0", "backward_per_forward = 0.0"},
		{"backward_per_forward = 2.0", "backward_per_forward = 11.0"},
		{"\ndp = 0.8\n", "\ndp = 1.5\n"},
		{"\ncp = 0.5\n", "\ncp = -0.1\n"},
	} {
		bad := strings.Replace(string(src), c.from, c.to, 1)
		if bad == string(src) {
			t.Fatalf("%q not found in jct.toml", c.from)
		}
		if _, err := ParseJCTData([]byte(bad)); err == nil || !strings.Contains(err.Error(), "[overlap]") {
			t.Errorf("%s: error %v, want one naming [overlap]", c.to, err)
		}
	}
	if err := testData(t).checkOverlap(); err != nil {
		t.Errorf("shipped data: %v", err)
	}
}

// Background load on a 2:1 leaf slows the data-parallel reduce; what it
// adds to the step follows the window: past it (Llama 3 70B, tp 8, on
// 1,024 H100 with 8 x 200G, one sequence per micro-batch) every second
// the reduce loses is a second of step, inside it (eight sequences per
// micro-batch, 8 x 400G) a fifth of it (80% hidden). Nothing else in
// the step crosses the leaves (tensor parallel stays on NVLink), so the
// step's change is the reduce's, by hand. Mutations caught: the fixed
// share kept past the window (a fifth where all is due), the window
// applied inside it (nothing where a fifth is due).
func TestSharingExposedOneForOne(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name  string
		gbps  float64
		micro int
		share float64 // of the reduce's change that reaches the step
	}{
		{"past the window", 200, 1, 1},
		{"inside the window", 400, 8, 0.2},
	} {
		n := testNetwork(1024)
		n.NICGbps, n.Oversub = c.gbps, 2
		step := func(bg float64) (float64, float64) {
			w := NewWorkload()
			w.TP, w.PP, w.MicroBatch, w.GlobalBatchTokens, w.ZeRO = 8, 1, c.micro, 128*16*8192, false
			w.Placement, w.BackgroundLeaf = PlaceSpread, bg
			j, err := Estimate(Job{Network: n}, w, d, Parts{})
			if err != nil {
				t.Fatal(err)
			}
			for _, cl := range j.Planned.Classes {
				if cl.Name == ClassDP {
					return j.Planned.StepS, cl.TimeS
				}
			}
			t.Fatal("no data-parallel class")
			return 0, 0
		}
		s0, r0 := step(0)
		s1, r1 := step(0.3)
		if !(r1 > r0) {
			t.Fatalf("%s: background left the reduce at %.4f s (was %.4f)", c.name, r1, r0)
		}
		if got, want := s1-s0, c.share*(r1-r0); math.Abs(got-want) > 1e-9*s0 {
			t.Errorf("%s: the step grew %.4f s for %.4f s more reduce, by hand %.4f", c.name, got, r1-r0, want)
		}
	}
}
