package planner

import (
	"slices"
	"sync"
	"sync/atomic"

	"fabricplan/planner/perf"
)

// A shown plan times its job again beside the main estimate, on the
// front end alone (networksJCT). That step is a pure function of the
// plan's fabric as the JCT model sees it (perfNetwork), the estimate's
// resolved workload, GPU, replicas and micro-batches, the JCT data, and
// the front end. The window replans after every edit, most of which
// (prices, names, spares, media, failure rates) change none of these,
// so the front-end steps of recent shown plans' jobs are kept here under
// exactly those inputs. Sweeps and the search, whose plans are all
// different, keep nothing.

// jobMemoCap bounds the jobs kept; jobMemoFrontEnds the front ends kept
// per job (a front end changes only when the side networks do).
const (
	jobMemoCap       = 8
	jobMemoFrontEnds = 4
)

// jobKey is every input of a job's steps but the front end: the
// catalog's JCT data by identity (a catalog is never changed once
// loaded), as in backEndKey.
type jobKey struct {
	net       perf.Network // the plan's fabric (perfNetwork)
	w         workloadKey  // the estimate's resolved workload (JCT.Workload)
	gpu       *GPUSpec
	d         *JCTData
	dp, micro int // the estimate's replicas and micro-batches
}

// jobKeyOf is the memo key of p's job timed with d; ok is false
// without a JCT estimate.
func jobKeyOf(p *Plan, d *JCTData) (jobKey, bool) {
	j := p.JCT
	if j == nil || d == nil {
		return jobKey{}, false
	}
	return jobKey{net: p.perfNetwork(), w: workloadKeyOf(j.Workload), gpu: j.GPU, d: d, dp: j.DP, micro: j.Microbatches}, true
}

// workloadKey is a workload by value: its optional figures (pointers)
// by the values they point at, so that a workload resolved afresh (new
// pointers to the same figures) finds the steps kept, and a figure
// rewritten in place never finds another's.
type workloadKey struct {
	w   Workload // with its optional figures nil
	opt [6]float64
	set [6]bool
}

// workloadKeyOf is w's memo key.
func workloadKeyOf(w Workload) workloadKey {
	var k workloadKey
	for i, f := range optionalFigures(&w) {
		if *f != nil {
			k.opt[i], k.set[i] = **f, true
			*f = nil
		}
	}
	k.w = w
	return k
}

// job writes into key the memo key of p's job timed with d and returns
// key when n recalls (a shown plan's build, with the memos on) and p has
// a JCT estimate; nil otherwise.
func (n need) job(p *Plan, d *JCTData, key *jobKey) *jobKey {
	if !n.recall || hallMemoOff.Load() {
		return nil
	}
	k, ok := jobKeyOf(p, d)
	if !ok {
		return nil
	}
	*key = k
	return key
}

// frontEndStep is one front-end step kept: the front end as sized and
// the job's step on it.
type frontEndStep struct {
	fe   perf.FrontEnd
	step perf.StepTime
}

// jobTimes is what is kept of one job: its front-end steps.
type jobTimes struct {
	key       jobKey
	frontEnds []frontEndStep
}

// jobMemo holds the jobs of recent shown plans, the newest last; a
// full memo drops its oldest.
var jobMemo struct {
	sync.Mutex
	jobs []*jobTimes
}

// findJob returns the kept times of key's job, or nil. The caller holds
// the lock.
func findJob(key *jobKey) *jobTimes {
	for i := len(jobMemo.jobs) - 1; i >= 0; i-- {
		if jt := jobMemo.jobs[i]; jt.key == *key {
			return jt
		}
	}
	return nil
}

// jobFor returns the kept times of key's job, kept afresh (empty) when
// there are none. The caller holds the lock.
func jobFor(key *jobKey) *jobTimes {
	if jt := findJob(key); jt != nil {
		return jt
	}
	if len(jobMemo.jobs) >= jobMemoCap {
		jobMemo.jobs = slices.Delete(jobMemo.jobs, 0, 1)
	}
	jt := &jobTimes{key: *key}
	jobMemo.jobs = append(jobMemo.jobs, jt)
	return jt
}

// jobHits counts the steps taken from the memo (for the tests: an
// input the key leaves out must hit).
var jobHits atomic.Int64

// forgetJobs empties the memo.
func forgetJobs() {
	jobMemo.Lock()
	jobMemo.jobs = nil
	jobMemo.Unlock()
}

// recallFrontEnd returns the step kept for key's job on front end fe,
// its traffic classes the caller's own.
func recallFrontEnd(key *jobKey, fe perf.FrontEnd) (perf.StepTime, bool) {
	jobMemo.Lock()
	defer jobMemo.Unlock()
	if jt := findJob(key); jt != nil {
		for _, f := range jt.frontEnds {
			if f.fe == fe {
				st := f.step
				st.Classes = slices.Clone(st.Classes)
				jobHits.Add(1)
				return st, true
			}
		}
	}
	return perf.StepTime{}, false
}

// keepFrontEnd keeps st, key's job's step on front end fe (its own copy
// of the traffic classes).
func keepFrontEnd(key *jobKey, fe perf.FrontEnd, st perf.StepTime) {
	st.Classes = slices.Clone(st.Classes)
	jobMemo.Lock()
	defer jobMemo.Unlock()
	jt := jobFor(key)
	if len(jt.frontEnds) >= jobMemoFrontEnds {
		jt.frontEnds = slices.Delete(jt.frontEnds, 0, 1)
	}
	jt.frontEnds = append(jt.frontEnds, frontEndStep{fe: fe, step: st})
}
