package perf

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// MoE parallel folding (Megatron-Core parallel_state: expert data
// parallel = tp x cp x dp / (etp x ep) per stage) by hand: the expert
// layers fit when etp x ep divides a stage's tp x cp x dp GPUs. ep may
// pass dp only with etp below tp. etp 0 is tp (Megatron-LM's default).
// Mutations caught: ep checked against dp alone (DeepSeek-V3's ep 64 over
// tp 2 x dp 32 refused), etp left out of the product (ep 16 x etp 2 over
// 24 GPUs accepted), cp left out (ep 8 over cp 2 x dp 4 refused).
func TestExpertsFoldByHand(t *testing.T) {
	for _, c := range []struct {
		tp, cp, dp, ep, etp int
		want                bool
		expertDP            float64
	}{
		{2, 1, 32, 64, 1, true, 1},  // DeepSeek-V3, NeMo recipe: 64 = 1 x 64 x 1
		{2, 1, 32, 64, 0, false, 1}, // etp = tp = 2: 128 does not divide 64
		{2, 1, 16, 32, 1, true, 1},  // Qwen3-235B on 256 H100, expert_dp 1
		{4, 2, 8, 8, 1, true, 8},    // Grok-1 on 512 H100: 64 / 8
		{4, 2, 4, 8, 0, true, 1},    // etp = tp: ep 8 over cp 2 x dp 4
		{8, 1, 3, 16, 1, false, 1.5},
		{8, 1, 3, 12, 2, true, 1}, // 24 = 2 x 12
		{8, 1, 3, 16, 2, false, 0.75},
		{1, 1, 7, 7, 0, true, 1},
		{1, 1, 7, 5, 0, false, 1.4},
	} {
		w := Workload{TP: c.tp, CP: c.cp, EP: c.ep, ETP: c.etp}
		if got := w.expertsFold(c.dp); got != c.want {
			t.Errorf("tp %d cp %d dp %d, ep %d etp %d: folds %t, want %t", c.tp, c.cp, c.dp, c.ep, c.etp, got, c.want)
		}
		if got := w.expertDP(c.dp); math.Abs(got-max(c.expertDP, 1)) > 1e-12 {
			t.Errorf("tp %d cp %d dp %d, ep %d etp %d: expert dp %g, want %g", c.tp, c.cp, c.dp, c.ep, c.etp, got, max(c.expertDP, 1))
		}
	}
}

// The expert products on one GPU by hand, tp 4, 12 experts, top-2, ep 6
// (2 local experts), 3,000 tokens on the tensor group, expert width
// 1,000, hidden 512: with etp e each local expert takes 3,000 x 2 x 6 x
// e / (12 x 4) = 750·e tokens on products 1,000/e wide, so the FLOPs do
// not depend on the layout (each GPU does 1/tp of its tensor group's
// expert work): 3 x 2 x 3,000 x 2 x 1,000 x 512 / 4 = 4.608e9 per pass.
// Mutations caught: the width split over tp whatever etp, the tokens not
// scaled by etp/tp (four times the work at etp 1).
func TestExpertGEMMsFold(t *testing.T) {
	const tokens, f, h = 3000.0, 1000.0, 512.0
	for _, c := range []struct {
		etp          int
		m, n, k, loc float64
	}{
		{4, 3000, 250, h, 2},
		{2, 1500, 500, h, 2},
		{1, 750, 1000, h, 2},
	} {
		w := Workload{Hidden: 512, Experts: 12, TopK: 2, EP: 6, TP: 4, ETP: c.etp}
		g := expertGEMMs(&w, tokens, f)
		if g[0].m != c.m || g[0].n != c.n || g[0].k != c.k || g[0].times != 2*c.loc ||
			g[1].m != c.m || g[1].n != c.k || g[1].k != c.n || g[1].times != c.loc {
			t.Errorf("etp %d: products %+v %+v, want [%g x %g] by %g, %g and %g times", c.etp, g[0], g[1], c.m, c.k, c.n, 2*c.loc, c.loc)
		}
		if got := g[0].flops() + g[1].flops(); math.Abs(got/4.608e9-1) > 1e-12 {
			t.Errorf("etp %d: %.4g FLOPs, want 4.608e9", c.etp, got)
		}
	}
}

// foldJob is Grok-1's layout on 512 H100 (dgxc-benchmarking, a dev run):
// tp 4, cp 2, pp 8, ep 8, on 8-GPU servers with one 400G NIC per GPU.
func foldJob(etp int) (Job, Workload) {
	w := NewWorkload()
	w.Model, w.TP, w.CP, w.PP, w.VPP, w.EP, w.ETP = "mixtral-8x7b", 4, 2, 8, 1, 8, etp
	w.GlobalBatchTokens = 1 << 23
	return Job{Network: testNetwork(512)}, w
}

// The expert all-to-all follows the fold: with etp 1 the ep 8 group is
// the 8 GPUs of one tp 4 x cp 2 block, one server, and stays on NVLink;
// with etp = tp its ranks are 4 apart and span 4 servers over the back
// end. With etp 1 an MoE layer's expert block runs no tensor-parallel
// collective, so the tensor class carries attention's alone: half.
// Mutations caught: the group laid out with stride tp whatever etp, the
// tensor class left whole at etp 1.
func TestExpertGroupFollowsFold(t *testing.T) {
	d := testData(t)
	class := func(j *JCT, name string) TrafficClass {
		for _, c := range j.Planned.Classes {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no %s class", name)
		return TrafficClass{}
	}
	var tpTime [2]float64
	for i, c := range []struct {
		etp     int
		crosses bool
	}{{1, false}, {4, true}} {
		job, w := foldJob(c.etp)
		j, err := Estimate(job, w, d, Parts{})
		if err != nil {
			t.Fatal(err)
		}
		ep := class(j, ClassEP)
		if ep.Ranks != 8 || ep.CrossesFabric != c.crosses {
			t.Errorf("etp %d: expert group of %d ranks, crosses the fabric %t; want 8, %t", c.etp, ep.Ranks, ep.CrossesFabric, c.crosses)
		}
		tpTime[i] = class(j, ClassTP).TimeS
	}
	if math.Abs(tpTime[0]/tpTime[1]-0.5) > 1e-9 {
		t.Errorf("tensor class %.4g s at etp 1, %.4g at etp 4: want half", tpTime[0], tpTime[1])
	}
}

// An expert layout that does not fold is refused on workload.ep, naming
// the product it must divide: DeepSeek-V3 as NeMo's recipe lays it out
// on 1,024 H100 (tp 2, pp 16, dp 32, ep 64) with etp left at tp, 64 x 2
// over 64 GPUs; with the recipe's etp 1 it is timed. Mutations caught:
// the old check (ep 64 over dp 32) refuses etp 1 too; a fold check left
// out times etp 2.
func TestExpertsNotFoldingRefused(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	w.Model, w.TP, w.PP, w.VPP, w.EP = "deepseek-v3", 2, 16, 1, 64
	w.GlobalBatchTokens = 1 << 25
	job := Job{Network: testNetwork(1024)}
	_, err := Estimate(job, w, d, Parts{})
	var fe *fielderr.FieldError
	if !errors.As(err, &fe) || fe.Field != "workload.ep" || !strings.Contains(err.Error(), "ep 64 x etp 2 does not divide tp 2 x cp 1 x dp 32") {
		t.Fatalf("error %v, want one on workload.ep naming the fold", err)
	}
	w.ETP = 1
	if _, err := Estimate(job, w, d, Parts{}); err != nil {
		t.Errorf("etp 1: %v", err)
	}
}

// A GPU holds its pipeline stage's experts split over etp x ep: with etp
// 1 four times the expert weights of etp 4 (tp 4), the other weights
// unchanged. Mixtral 8x7B's expert parameters, 8 x 32 layers x 3 x 4,096
// x 14,336 (its expertWidth), over pp 8 and ep 8, at 2 bytes, no ZeRO:
// etp 1 holds (1 - 1/4) x that more. Mutation caught: the experts split
// over tp whatever etp.
func TestExpertWeightsFollowFold(t *testing.T) {
	d := testData(t)
	_, w := foldJob(1)
	w.ZeRO = false
	r := resolveOnce(w, d)
	gpu := d.GPUs[r.w.GPU]
	one := memoryUse(r.w, gpu, d, 8)
	r.w.ETP = 4
	four := memoryUse(r.w, gpu, d, 8)
	experts := 8 * 32 * 3 * 4096 * expertWidth(&r.w)
	want := experts / (8 * 8) * (1 - 1.0/4) * 2 / 1e9
	if got := one.WeightsGB - four.WeightsGB; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("etp 1 holds %.4g GB more weights than etp 4, want %.4g", got, want)
	}
}

// Data-parallel ranks that fill no expert-parallel group stay idle, as
// GPUs past a multiple of tp x cp x pp do: Mixtral 8x7B at tp 1, pp 1,
// ep 8 on 11,111 GPUs runs dp 11,104 (the largest multiple of 8), 7
// GPUs idle; DeepSeek-V3 at tp 1, pp 16, ep 64 on 1,016 GPUs has 63
// ranks a stage, and no fewer fold either: refused on workload.ep with
// ep 1 as the fix (the largest dividing 63 and 256). Mutations caught:
// refusing a layout that folds with fewer ranks (the buyer review's
// finding 7), timing the ranks that fill no group, a fix that does not
// divide the experts (ep 63 was offered).
func TestExpertsFoldIdleRanks(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	w.Model, w.TP, w.PP, w.VPP, w.EP = "mixtral-8x7b", 1, 1, 1, 8
	w.GlobalBatchTokens = 1 << 27
	j, err := Estimate(Job{Network: testNetwork(11_111)}, w, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	if j.DP != 11_104 || j.IdleGPUs != 7 {
		t.Errorf("dp %d, %d GPUs idle; want 11,104 and 7", j.DP, j.IdleGPUs)
	}
	w.Model, w.PP, w.EP = "deepseek-v3", 16, 64
	_, err = Estimate(Job{Network: testNetwork(1016)}, w, d, Parts{})
	var fe *fielderr.FieldError
	if !errors.As(err, &fe) || fe.Field != "workload.ep" || !strings.Contains(fe.Fix, "use ep 1 ") {
		t.Errorf("DeepSeek-V3 ep 64 over 63 ranks: %v, want a workload.ep error whose fix is ep 1", err)
	}
}
