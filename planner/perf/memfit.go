package perf

import (
	"fmt"
	"iter"
	"math"
	"strings"

	"fabricplan/internal/textfmt"
)

// MemoryFix is, for a job that does not fit in its GPUs' memory, the
// change to the workload that fits at the least step time, and the job
// timed with it.
type MemoryFix struct {
	Change string // as written in [workload], e.g. "recompute = true"
	JCT    *JCT   // the job with the change
}

// ErrNoMemory marks a workload that does not fit in the GPUs' memory on
// any design a search tries: a plan keeps such a job as a finding, a
// search has no design to offer for it.
var ErrNoMemory = fmt.Errorf("%w in memory", ErrNoJCT)

// memoryChange is one candidate change to a workload.
type memoryChange struct {
	label string
	w     Workload
}

// memoryChanges lists, for the resolved workload w on gpus GPUs, the
// smallest change of each kind that fits in memory: a ZeRO stage, a
// smaller micro-batch, full recomputation, more pipeline stages, wider
// tensor parallelism inside the NVLink domain, and recomputation with a
// ZeRO stage when no one change fits. Candidates are tried in order and
// only a kept one is labelled: a deep model offers over a hundred
// pipeline depths, and every plan of a job over memory looks.
func memoryChanges(w Workload, gpu *GPUSpec, d *JCTData, gpus, domain int) []memoryChange {
	fits := func(v Workload) bool {
		if v.modelParallel() > gpus {
			return false
		}
		dp := gpus / v.modelParallel()
		if !v.expertsFold(dp) {
			return false
		}
		return memoryUse(v, gpu, d, dp).Fits()
	}
	var out []memoryChange
	// first keeps the first candidate of a kind that fits.
	first := func(cands iter.Seq[Workload]) {
		for v := range cands {
			if fits(v) {
				out = append(out, memoryChange{changeLabel(w, v), v})
				return
			}
		}
	}
	first(zeroChanges(w, false))
	first(microBatchChanges(w))
	if !w.Recompute {
		v := w
		fullRecompute(&v)
		first(func(yield func(Workload) bool) { yield(v) })
	}
	first(pipelineChanges(w, gpus))
	first(tensorChanges(w, domain))
	if len(out) == 0 && !w.Recompute {
		first(zeroChanges(w, true))
	}
	return out
}

// changeLabel writes the change from w to v as in [workload], e.g.
// "recompute = true and zero_stage = 3" or "pp = 9 and vpp = 14".
func changeLabel(w, v Workload) string {
	var parts []string
	if v.Recompute != w.Recompute {
		parts = append(parts, fmt.Sprintf("recompute = %t", v.Recompute))
	}
	if w.selective() && !v.selective() {
		parts = append(parts, "no recompute_modules")
	}
	for _, f := range []struct {
		key      string
		was, now int
	}{{"zero_stage", w.zeroStage(), v.zeroStage()}, {"micro_batch", w.MicroBatch, v.MicroBatch},
		{"pp", w.PP, v.PP}, {"vpp", w.VPP, v.VPP}, {"tp", w.TP, v.TP}} {
		if f.now != f.was {
			parts = append(parts, fmt.Sprintf("%s = %d", f.key, f.now))
		}
	}
	return strings.Join(parts, " and ")
}

// fullRecompute sets v to recompute every layer, which replaces a
// selective recomputation by modules (the two may not be given
// together, checkArchitecture): v gets its own copy of the architecture
// without them, the one it shares with w left as it is.
func fullRecompute(v *Workload) {
	v.Recompute = true
	if v.selective() {
		a := v.Architecture.Clone()
		a.RecomputeModules = nil
		v.Architecture = a
	}
}

// zeroChanges are the higher ZeRO stages, with recomputation too when
// recompute is set.
func zeroChanges(w Workload, recompute bool) iter.Seq[Workload] {
	return func(yield func(Workload) bool) {
		for zs := w.zeroStage() + 1; zs <= 3; zs++ {
			v := w
			v.ZeROStage = zs
			if recompute {
				fullRecompute(&v)
			}
			if !yield(v) {
				return
			}
		}
	}
}

// microBatchChanges are the smaller micro-batches, largest first.
func microBatchChanges(w Workload) iter.Seq[Workload] {
	return func(yield func(Workload) bool) {
		for mb := w.MicroBatch - 1; mb >= 1; mb-- {
			v := w
			v.MicroBatch = mb
			if !yield(v) {
				return
			}
		}
	}
}

// pipelineChanges are the deeper pipelines that fit the GPUs, keeping at
// least a layer per virtual stage.
func pipelineChanges(w Workload, gpus int) iter.Seq[Workload] {
	return func(yield func(Workload) bool) {
		for pp := w.PP + 1; pp <= w.Layers && w.TP*w.cp()*pp <= gpus; pp++ {
			v := w
			v.PP = pp
			if v.VPP > 1 && v.VPP > v.Layers/pp {
				v.VPP = max(v.Layers/pp, 1)
			}
			if !yield(v) {
				return
			}
		}
	}
}

// tensorChanges are the wider tensor-parallel groups inside the NVLink
// domain.
func tensorChanges(w Workload, domain int) iter.Seq[Workload] {
	return func(yield func(Workload) bool) {
		for tp := w.TP * 2; tp <= domain; tp *= 2 {
			v := w
			v.TP = tp
			if !yield(v) {
				return
			}
		}
	}
}

// cheapestMemoryFix times each change that fits on the job's network and
// keeps the fastest (the first listed on a tie); nil when none fits.
func cheapestMemoryFix(job Job, w Workload, gpu *GPUSpec, d *JCTData, gpus int, detail bool) *MemoryFix {
	var best *memoryChange
	bestS := math.Inf(1)
	var classes []TrafficClass // each change's step's, read by none
	for _, c := range memoryChanges(w, gpu, d, gpus, nvlinkDomain(job.Network.NVLinkDomain, gpu, job.Network.GPUsPerServer)) {
		dp := gpus / c.w.modelParallel()
		fv := job.Network.jobView(&c.w, d)
		st := stepOnce(&c.w, gpu, d, &fv, dp, microbatches(&c.w, dp), RDMA, classes)
		classes = st.Classes
		if st.StepS < bestS {
			c := c
			best, bestS = &c, st.StepS
		}
	}
	if best == nil {
		return nil
	}
	j, err := Estimate(job, best.w, d, Parts{Detail: detail})
	if err != nil {
		return nil
	}
	return &MemoryFix{Change: best.label, JCT: j}
}

// MemoryFinding is the memory verdict on a job as people read it: empty
// when it fits with room to spare; else tight, or how far it is over
// and the cheapest change that fits with its step time.
func (j *JCT) MemoryFinding() string {
	f := j.Memory.Finding()
	if j.Memory.Status != MemoryOver {
		return f
	}
	if j.Fix == nil {
		return f + "; no single change of ZeRO stage, micro-batch, recomputation, pipeline or tensor parallelism fits: use more GPUs, a GPU with more memory or a smaller model"
	}
	fj := j.Fix.JCT
	return fmt.Sprintf("%s; cheapest change that fits: %s (%.1f GB per GPU), step %s with it (the step as entered, %s, assumes the memory were there)",
		f, j.Fix.Change, fj.Memory.TotalGB, textfmt.Seconds(fj.Planned.StepS), textfmt.Seconds(j.Planned.StepS))
}

// StepCaveat labels the step time where it misleads on its own: a job
// that does not fit in memory is timed as entered, as if the memory were
// there; a pipeline short of micro-batches spends most of it in the
// bubble. "" when neither.
func (j *JCT) StepCaveat() string {
	var parts []string
	if !j.FitsMemory() {
		parts = append(parts, "as entered, if it fit in memory")
	}
	if j.ShortPipeline() {
		parts = append(parts, fmt.Sprintf("bubble %.0f%% of it: %s per pipeline for pp %d", 100*j.BubbleShare(),
			textfmt.Plural(j.Microbatches, "micro-batch"), j.Workload.PP))
	}
	return strings.Join(parts, "; ")
}
