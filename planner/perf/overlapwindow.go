package perf

import "errors"

// errOverlapData is the [overlap] table's figures out of range.
var errOverlapData = errors.New("jct data: [overlap] needs dp, pp, tp, ep and cp shares from 0 to 1 and backward_per_forward from 0.5 to 10")

// Overlap hides communication behind compute, but only behind the
// compute that runs beside it: a class's hidden time never exceeds its
// window, so communication slowed past the window (by oversubscription,
// collisions, other jobs or background load) is exposed one for one
// rather than at the class's fixed unhidden share. A class of time T
// with overlap o and window W exposes
//
//	max((1-o)·T, T-W),
//
// which is (1-o)·T while T <= W/o (the usual case, unchanged), grows
// one for one with T past it, never exceeds T and never falls as T
// grows.

// gradientWindows are the compute windows the data-parallel gradient
// exchange hides behind: its reduce behind the backward pass of the
// last micro-batch (Megatron-LM reduces gradients once per step, after
// gradient accumulation, bucket by bucket during that pass), a sharded
// optimizer's parameter all-gather behind the forward pass of the first
// micro-batch (ZeRO-3's second gather behind the backward). computeS is
// the step's compute on one GPU, over micro micro-batches, with a share
// recompute of the layers recomputing (Workload.recomputeShare), under
// optimizer sharding zeroStage; the split of a micro-batch's compute into
// forward and backward is data/jct.toml [overlap] backward_per_forward,
// plus the recomputing layers' forward replayed inside the backward.
func gradientWindows(d *JCTData, recompute float64, zeroStage int, computeS float64, micro int) (reduce, gather float64) {
	fwd, bwd := 1.0, d.Overlap.BackwardPerForward+recompute
	perMicro := computeS / float64(max(micro, 1))
	reduce = perMicro * bwd / (fwd + bwd)
	gather = perMicro * fwd / (fwd + bwd)
	if zeroStage == 3 {
		gather = perMicro
	}
	return reduce, gather
}

// exposeGradientSync sets the data-parallel class's exposed time: the
// reduce and the gathers (gatherS of its time) each hidden at most
// behind their window, never less exposed than the class's overlap
// share leaves (class set that).
func exposeGradientSync(c *TrafficClass, gatherS, reduceWindow, gatherWindow float64) {
	reduceS := c.TimeS - gatherS
	beyond := max(reduceS-reduceWindow, 0) + max(gatherS-gatherWindow, 0)
	c.ExposedS = max(c.ExposedS, beyond)
}

// checkOverlap checks the [overlap] shares and the backward pass's
// compute over the forward's.
func (d *JCTData) checkOverlap() error {
	o := d.Overlap
	for _, v := range []float64{o.DP, o.PP, o.TP, o.EP, o.CP} {
		if !inRange(v, 0, 1) {
			return errOverlapData
		}
	}
	if !inRange(o.BackwardPerForward, 0.5, 10) {
		return errOverlapData
	}
	return nil
}

// classOverlap is the share of class name's time w hides (0 for a name
// it does not know).
func (w *Workload) classOverlap(name string) float64 {
	var o *float64
	switch name {
	case ClassDP:
		o = w.OverlapDP
	case ClassPP:
		o = w.OverlapPP
	case ClassTP:
		o = w.OverlapTP
	case ClassEP:
		o = w.OverlapEP
	case ClassCP:
		o = w.OverlapCP
	}
	if o == nil {
		return 0
	}
	return *o
}

// windowNote says, for a breakdown row, that class c exposes more than
// its overlap share because it outlasts the compute it hides behind
// ("" when it does not).
func (w *Workload) windowNote(c TrafficClass) string {
	if c.ExposedS <= (1-w.classOverlap(c.Name))*c.TimeS*(1+1e-9) {
		return ""
	}
	if c.Name == ClassDP {
		return " (no more than the last micro-batch's backward pass, and a sharded optimizer's first forward, can hide: the rest is exposed)"
	}
	return " (no more than the step's compute can hide: the rest is exposed)"
}
