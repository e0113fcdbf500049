package perf

import (
	"reflect"
	"sync"
	"testing"
)

// lastMemoCases are workloads that differ from the default job in one
// input each, on two JCTData that differ in a compute and a memory
// constant, with the data-parallel sizes and GPUs asked about.
func lastMemoCases(t testing.TB) (ws []Workload, ds []*JCTData) {
	d := testData(t)
	d2 := *d
	d2.Compute.GEMMDimHalf *= 2
	d2.Memory.ReserveGB++
	overlap := 0.5
	for _, edit := range []func(w *Workload){
		func(w *Workload) {},
		func(w *Workload) { w.Model = "mixtral-8x7b" },
		func(w *Workload) { w.GPU = "b200" },
		func(w *Workload) { w.TP = 4 },
		func(w *Workload) { w.PP = 8 },
		func(w *Workload) { w.CP = 2 },
		func(w *Workload) { w.MicroBatch = 2 },
		func(w *Workload) { w.SeqLen = 4096 },
		func(w *Workload) { w.Precision = PrecisionFP8 },
		func(w *Workload) { w.Recompute = true },
		func(w *Workload) { w.ZeROStage = 3 },
		func(w *Workload) { w.ComputeEfficiency = 0.4 },
		func(w *Workload) { w.OverlapDP = &overlap },
		func(w *Workload) { w.GPU = "no such gpu" },
	} {
		w := NewWorkload()
		edit(&w)
		ws = append(ws, w)
	}
	return ws, []*JCTData{d, &d2}
}

// TestLastEstimateKey: the last-answer memo answers as resolving and
// sizing the memory afresh do, for workloads that differ in one input
// each, on two sets of data, at two sizes and on two GPUs, asked in
// turn so that each question follows one that differs from it in one
// input. Mutations caught: a key missing the
// data (the other data's efficiency or reserve returned), a key of some
// of the workload's fields (the model alone: another tp's or
// precision's answer returned), the memory's key missing the data, the
// size, the GPU or the workload, an error remembered and handed out again (the same error
// value twice: a caller's rewrite of its field would show in the next).
func TestLastEstimateKey(t *testing.T) {
	ws, ds := lastMemoCases(t)
	var c lastWorkload
	for round := range 2 {
		for wi, w := range ws {
			for di, d := range ds {
				want := resolveOnce(w, d)
				got := c.resolve(&w, d)
				if !reflect.DeepEqual(*got, want) {
					t.Fatalf("round %d workload %d data %d: resolved %+v, afresh %+v", round, wi, di, *got, want)
				}
				if want.err != nil {
					if again := c.resolve(&w, d); again.err == got.err {
						t.Errorf("workload %d: the same error value handed out twice", wi)
					}
					continue
				}
				// Each question differs from the one before in one input.
				a, b := got.gpu, d.GPUs["b200"]
				for _, q := range []struct {
					dp  int
					d   *JCTData
					gpu *GPUSpec
				}{{8, ds[0], a}, {8, ds[0], b}, {8, ds[1], b}, {64, ds[1], b}, {64, ds[1], a}, {64, ds[0], a}} {
					if got, want := c.memoryUse(got, q.gpu, q.d, q.dp), memoryUse(want.w, q.gpu, q.d, q.dp); got != want {
						t.Errorf("round %d workload %d data %d: memory at dp %d on %s %+v, afresh %+v", round, wi, di, q.dp, q.gpu.Name, got, want)
					}
				}
			}
		}
	}
	// Workloads that differ alone, asked at one size on one GPU.
	for _, w := range []Workload{ws[0], ws[3], ws[6], ws[0]} {
		r := resolveOnce(w, ds[0])
		if got, want := c.memoryUse(&r, r.gpu, ds[0], 8), memoryUse(r.w, r.gpu, ds[0], 8); got != want {
			t.Errorf("tp %d, micro-batch %d: memory %+v, afresh %+v", w.TP, w.MicroBatch, got, want)
		}
	}
}

// TestLastEstimateConcurrent: goroutines asking the one memo about
// different workloads at once each get their own answers (run with
// -race). Mutation caught: the memo read or written outside its lock.
func TestLastEstimateConcurrent(t *testing.T) {
	ws, ds := lastMemoCases(t)
	d := ds[0]
	var c lastWorkload
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				w := ws[(i+g)%len(ws)]
				want := resolveOnce(w, d)
				got := c.resolve(&w, d)
				if got.err != nil || want.err != nil {
					if (got.err == nil) != (want.err == nil) {
						t.Errorf("workload %d: error %v, afresh %v", (i+g)%len(ws), got.err, want.err)
						return
					}
					continue
				}
				if !reflect.DeepEqual(got.w, want.w) { // the compute efficiency (w.computeEff) included
					t.Errorf("workload %d: %+v, afresh %+v", (i+g)%len(ws), got, want)
					return
				}
				if m, wm := c.memoryUse(got, got.gpu, d, 8+i%3*8), memoryUse(got.w, got.gpu, d, 8+i%3*8); m != wm {
					t.Errorf("workload %d: memory %+v, afresh %+v", (i+g)%len(ws), m, wm)
					return
				}
			}
		}()
	}
	wg.Wait()
}
