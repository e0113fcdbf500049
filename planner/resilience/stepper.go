package resilience

import (
	"math"

	"fabricplan/planner/perf"
)

// maxSteps bounds the steps one what-if remembers: every case times at
// most one, and the goodput two more (a step timed when the table is
// full is timed again when asked for again).
const maxSteps = maxCases + 5

// stepper times the plan's job on a degraded fabric.
type stepper struct {
	ok   bool // the plan has a JCT estimate and the JCT constants
	base float64
	// job is the input's job, copied (zero without one): the stepper
	// keeps no pointer into the input.
	job  Job
	gpus int
	// w is the job's resolved workload; its compute efficiency is
	// worked out once, with the view, when a step is first timed.
	w perf.Workload
	// memo holds the steps timed so far: several failures lose the same
	// share of the same plan, and idle GPUs that leave the same replicas
	// (a server's or a few: 100,000 GPUs at tp 8 x pp 4 keep 3,124 of
	// their 3,125 replicas with 8 to 32 GPUs idle) time the same step.
	// The first n are in use. An array, not a slice into one, so that
	// the stepper stays on the stack.
	memo [maxSteps]stepMemo
	n    int
	// view is the job placed on the plan's fabric (placed: yet, and w
	// has its compute efficiency), once for every step: a failure
	// changes only its losses.
	view   perf.View
	placed bool
}

// stepMemo is one step stepper.step timed: its losses, the GPUs left
// idle and the data-parallel replicas left then. A step is found by its
// losses and idle GPUs before the replicas are worked out: within one
// job the idle GPUs decide the replicas.
type stepMemo struct {
	bwLost, upLost float64
	idle           int
	dp             int
	stepS          float64
}

func newStepper(in *Input) stepper {
	st := stepper{gpus: in.GPUs}
	if j := &in.Job; in.HasJob && j.Data != nil {
		st.ok, st.base, st.w, st.job = true, j.StepS, j.Workload, *j
	}
	return st
}

// step is the step time with a fraction bwLost of the worst server's
// back-end bandwidth lost, a fraction upLost of the capacity above its
// leaf group lost, and idle GPUs left out (fewer data-parallel replicas
// sharing the same global batch: replicas). It is 0 without a JCT
// estimate and +Inf when no replica fits.
func (st *stepper) step(bwLost, upLost float64, idle int) float64 {
	if !st.ok {
		return 0
	}
	for i := range st.n {
		if m := &st.memo[i]; m.bwLost == bwLost && m.upLost == upLost && m.idle == idle {
			return m.stepS
		}
	}
	dp := st.replicas(idle)
	if dp < 1 {
		return math.Inf(1)
	}
	for i := range st.n {
		if m := &st.memo[i]; m.bwLost == bwLost && m.upLost == upLost && m.dp == dp {
			return m.stepS // other idle GPUs, the same replicas
		}
	}
	s := st.timeAt(bwLost, upLost, dp)
	if st.n < len(st.memo) {
		st.memo[st.n] = stepMemo{bwLost, upLost, idle, dp, s}
		st.n++
	}
	return s
}

// time is step without the memo.
func (st *stepper) time(bwLost, upLost float64, idle int) float64 {
	dp := st.replicas(idle)
	if dp < 1 {
		return math.Inf(1)
	}
	return st.timeAt(bwLost, upLost, dp)
}

// replicas is the job's data-parallel replicas with idle GPUs left out
// (0 when no replica fits): the estimate's own without idle GPUs, else
// those whole replicas the job's GPUs less the idle ones still hold
// (the job's share of the cluster when jobs share it: the idle GPUs are
// one job's), never more than the estimate's. GPUs the estimate left
// over (the cluster not a multiple of a replica) take the place of idle
// ones first. With expert parallelism a stage holds whole ep x etp
// groups: replicas past them stay idle, as in the estimate.
func (st *stepper) replicas(idle int) int {
	j := &st.job
	if idle <= 0 {
		return j.DP
	}
	perJob := st.gpus / max(1, st.w.Jobs)
	return st.w.FoldedDP(min(j.DP, max(0, (perJob-idle)/st.w.ModelParallel())))
}

// timeAt times a step of dp replicas, with the losses. The job keeps
// its global batch: the replicas left share the sequences the planned
// ones did, each running the whole micro-batches its share holds (at
// least the planned micro-batches, each then a little larger), as the
// estimate spreads a batch over its replicas. A lost replica so adds
// compute, micro-batches and bubble, and never takes any away.
// Recounting the micro-batches rounded up (perf.Microbatches: ceil
// (sequences / (micro_batch x dp))) did not keep the batch: 3,125
// sequences on 3,124 replicas counted two micro-batches each, half the
// bubble over the same compute, and timed the 100,000-GPU example's step
// 12% under the planned one (issue #45).
//
// Nor do the replicas left exchange their gradients faster than all of
// them did over the same fabric with the same losses: the model's bus
// bandwidth moves with the count of ranks (760 ranks placed on ToRs of
// four MI355X servers timed a data-parallel step 0.9 ms under 761), a
// gain no lost part buys. Fewer replicas take at least the step of all
// of them plus the compute and bubble they add.
func (st *stepper) timeAt(bwLost, upLost float64, dp int) float64 {
	j := &st.job
	if !st.placed {
		st.w = perf.WithComputeEfficiency(st.w, j.GPU, j.Data)
		st.view, st.placed = j.Network.Place(st.w, j.Data), true
	}
	v := st.view.WithLoss(bwLost, upLost)
	if dp >= j.DP {
		return perf.StepSeconds(st.w, j.GPU, j.Data, v, dp, st.microbatches(dp), perf.RDMA)
	}
	left := perf.TimeStep(st.w, j.GPU, j.Data, v, dp, st.microbatches(dp), perf.RDMA)
	all := perf.TimeStep(st.w, j.GPU, j.Data, v, j.DP, j.Microbatches, perf.RDMA)
	return max(left.StepS, all.StepS+(left.ComputeS-all.ComputeS)+(left.BubbleS-all.BubbleS))
}

// microbatches is the micro-batches each of dp replicas runs to keep the
// job's global batch: the whole micro-batches of micro_batch sequences
// its share of the batch holds, never fewer than the estimate's.
func (st *stepper) microbatches(dp int) int {
	w := &st.w
	if dp >= st.job.DP || w.SeqLen <= 0 || w.MicroBatch <= 0 {
		return st.job.Microbatches
	}
	seqs := float64(w.GlobalBatchTokens) / float64(w.SeqLen)
	return max(st.job.Microbatches, int(seqs/float64(w.MicroBatch*dp)))
}

// shrink is the step-time factor of training without gpus GPUs (repair
// units of unit GPUs), interpolated between whole units; when too few
// are left for a replica the job waits that share of the time. It is 1
// without a JCT estimate.
func (st *stepper) shrink(gpus float64, unit int) float64 {
	if !st.ok || gpus == 0 {
		return 1
	}
	units := gpus / float64(unit)
	lo := math.Floor(units)
	f := units - lo
	factor := func(n float64) float64 { return st.step(0, 0, int(n)*unit) / st.base }
	sLo, sHi := 1.0, factor(lo+1)
	if lo > 0 {
		sLo = factor(lo)
	}
	switch {
	case math.IsInf(sLo, 1):
		return math.Inf(1)
	case math.IsInf(sHi, 1):
		return sLo / (1 - f) // the job waits a share f of the time
	}
	return (1-f)*sLo + f*sHi
}
