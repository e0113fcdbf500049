package perf

import (
	"fmt"
	"testing"
)

// TestStepReuseExact: an effect that copies the planned step's classes
// its change cannot reach (the in-network effect, the experts' one)
// times the very step that timing every class afresh does, on a SHARP
// fabric (InfiniBand, a SHARP switch, 2:1, hashed), for jobs whose
// changed classes differ: a sharded optimizer (only tensor parallelism
// all-reduces), none (data parallelism all-reduces, on SHARP), mixture
// of experts (ep 8 across domains) and context parallelism with a forced
// tree. The ideal back end's reach is the classes that leave the NVLink
// domain, and that of the tier's ratio, crossing loss, hashing and
// background load (a job with background load too) the classes crossing
// the tier, each read off the planned step (classReach). Each change is
// also checked to matter where it claims to: with nothing timed afresh
// the step must differ when it differs at all. Mutations caught: the
// in-network reach without data parallelism for a job with no sharded
// optimizer (its SHARP all-reduce copied), without tensor parallelism
// (its NVLS all-reduce copied), the experts' reach without expert
// parallelism; classReach's sets without the pipeline-parallel class
// (its send copied under an ideal back end or 1:1), the crossing set
// without the data-parallel class, the leaving set without the expert-
// parallel one (its all-to-all copied under an ideal back end); a
// class copied into another's place (the order of classes), the
// data-parallel bus bandwidth not copied with its class.
func TestStepReuseExact(t *testing.T) {
	d := testData(t)
	n := testNetwork(8192)
	n.Oversub, n.Static, n.SHARP, n.SwitchKey = 2, true, true, d.InNetwork.SHARPSwitches[0]
	noZeRO, moe, cp, busy := NewWorkload(), NewWorkload(), NewWorkload(), NewWorkload()
	busy.BackgroundLeaf, busy.BackgroundSpine = 0.3, 0.2
	noZeRO.ZeRO = false
	moe.Model, moe.EP, moe.PP = "mixtral-8x7b", 8, 2
	cp.CP, cp.Algorithm = 2, AlgoTree
	leaves := func(_ *Workload, st *StepTime) classSet { l, _, _ := classReach(st); return l }
	crossing := func(_ *Workload, st *StepTime) classSet { _, c, _ := classReach(st); return c }
	changes := []struct {
		name   string
		change viewChange
		reach  func(w *Workload, planned *StepTime) classSet
	}{
		{"in-network", noInNetwork, func(w *Workload, _ *StepTime) classSet { return inNetworkReach(w) }},
		{"experts", expertsOnNVLink, func(*Workload, *StepTime) classSet { return expertsReach }},
		{"ideal back end", idealBackEnd, leaves},
		{"no oversubscription", noOversub, crossing},
		{"no crossing loss", noCrossingLoss, crossing},
		{"adaptive", adaptive, crossing},
		{"no background", noBackdrop, crossing},
	}
	for _, tc := range []struct {
		name string
		w    Workload
	}{{"llama3-70b, ZeRO", NewWorkload()}, {"llama3-70b, no ZeRO", noZeRO}, {"mixtral-8x7b, ep 8", moe}, {"cp 2, tree", cp}, {"background", busy}} {
		r := resolveOnce(tc.w, d)
		if r.err != nil {
			t.Fatal(r.err)
		}
		w := r.w
		dp := n.GPUs / w.modelParallel()
		micro := microbatches(&w, dp)
		fv := n.jobView(&w, d)
		planned := stepOnce(&w, r.gpu, d, &fv, dp, micro, RDMA, nil)
		for _, c := range changes {
			v := c.change.on(fv)
			afresh := stepOnce(&w, r.gpu, d, &v, dp, micro, RDMA, nil)
			reused := stepOnceFrom(&w, r.gpu, d, &v, dp, micro, RDMA, nil, &stepReuse{from: &planned, reach: c.reach(&w, &planned)})
			if got, want := fmt.Sprintf("%+v", reused), fmt.Sprintf("%+v", afresh); got != want {
				t.Errorf("%s, %s: classes copied\n%s\nafresh\n%s", tc.name, c.name, got, want)
			}
			all := stepOnceFrom(&w, r.gpu, d, &v, dp, micro, RDMA, nil, &stepReuse{from: &planned})
			if changed := fmt.Sprint(afresh) != fmt.Sprint(planned); changed && fmt.Sprint(all) == fmt.Sprint(afresh) {
				t.Errorf("%s, %s: the change moves the step, yet copying every class times it", tc.name, c.name)
			}
		}
	}
}

// TestStepReuseSharing: a job spread over leaves shared with other jobs
// in random phase has its planned step solved for the others' crossing
// time, which the breakdown's view then holds as solved (not as the last
// iterate timed): so no class of the planned step may be copied into an
// effect's step. The in-network effect of such a job (llama3-70b, 4 jobs,
// adaptive routing at 4:1, where the crossing share moves with the
// others' time) equals the planned step less the step timed afresh on
// the breakdown's view without in-network reduction. Mutation caught:
// classes copied whatever the sharing (the planned step's data- and
// pipeline-parallel classes, timed at the last iterate's crossing share,
// in the effect's step).
func TestStepReuseSharing(t *testing.T) {
	d := testData(t)
	job, w := everyEffectJob(d)
	job.Network.Static, job.Network.Oversub = false, 4
	w.Model, w.EP, w.PP, w.Phase = "llama3-70b", 1, 4, PhaseRandom
	j, err := Estimate(job, w, d, Parts{Detail: true})
	if err != nil {
		t.Fatal(err)
	}
	fv := job.Network.jobView(&j.Workload, d)
	fv.othersBusy = j.Planned.crossingS() / j.Planned.StepS
	e, ok := effectNamed(j.Effects, EffectInNetwork)
	if !ok {
		t.Fatalf("no %s effect in %v", EffectInNetwork, j.Effects)
	}
	v := noInNetwork.on(fv)
	alt := stepOnce(&j.Workload, j.GPU, d, &v, j.DP, j.Microbatches, RDMA, nil)
	if want := j.Planned.StepS - alt.StepS; e.DeltaS != want {
		t.Errorf("%g s, want the planned step less the step afresh, %g s", e.DeltaS, want)
	}
}

// TestBaselineCopiesLocalClasses: an estimate's TCP/IP baseline, which
// copies from the planned step the classes that stay inside the NVLink
// domain, is the TCP/IP step timed afresh, field for field: for Llama 3
// 70B (tensor parallelism inside the server, data and pipeline
// parallelism across the tier), Mixtral (expert parallelism leaving the
// domain but not its leaf group), one server of 8 GPUs with tp 1 (data
// parallelism inside the domain: every class copied) and jobs sharing
// leaves (solved for the others' crossing: nothing copied). Mutations
// caught (each tried): every class copied, the reach without data
// parallelism, the reach taken as the classes crossing the tier (the
// expert all-to-all copied).
func TestBaselineCopiesLocalClasses(t *testing.T) {
	d := testData(t)
	moe, one := NewWorkload(), NewWorkload()
	moe.Model, moe.EP, moe.PP = "mixtral-8x7b", 8, 2
	one.TP, one.PP, one.VPP, one.GlobalBatchTokens = 1, 1, 1, 8192*8
	job, shared := everyEffectJob(d)
	shared.Model, shared.EP, shared.PP = "llama3-70b", 1, 4
	for _, tc := range []struct {
		name string
		w    Workload
		n    Network
	}{{"llama3-70b", NewWorkload(), testNetwork(8192)}, {"mixtral-8x7b", moe, testNetwork(8192)}, {"one server, tp 1", one, testNetwork(8)}, {"shared leaves", shared, job.Network}} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Estimate(Job{Network: tc.n}, tc.w, d, Parts{})
			if err != nil {
				t.Fatal(err)
			}
			r := resolveOnce(tc.w, d)
			fv := tc.n.jobView(&r.w, d)
			want := stepTime(&r.w, r.gpu, d, &fv, j.DP, j.Microbatches, TCP, nil)
			if got, want := fmt.Sprintf("%+v", j.Baseline), fmt.Sprintf("%+v", want); got != want {
				t.Errorf("baseline\n%s\nafresh\n%s", got, want)
			}
		})
	}
}
