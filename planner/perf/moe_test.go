package perf

import (
	"math"
	"strings"
	"testing"
)

// Node-limited routing (DeepSeek-V3: a token goes to experts on at most M
// nodes, sent once per node, fanned out over NVLink) against NCCL's all-
// to-all of every copy, on 8-GPU servers with one 400G InfiniBand NIC per
// GPU (46 GB/s each after efficiency 0.92). Copies of one token that
// leave its server, by hand, top-8 experts spread evenly:
//
//	ep 64 on 8 servers, no limit:  8 x (64-8)/64            = 7
//	ep 64, M = 4:  min(4, 8(1-(7/8)^8) = 5.253) x 7/8       = 3.5
//	ep 64, M = 8:  5.253 x 7/8 (one copy per node only)     = 4.596
//	ep 16 on 2 servers, M = 4:  min(4, 2(1-(1/2)^8)) x 1/2  = 0.996
//
// A 1 GiB all-to-all (all copies of a GPU's tokens) moves that share of
// its bytes over the GPU's 46 GB/s; latency is base 8.4 + net hop 14 +
// 1 switch (all under one leaf) x 0.13 us, plus 3.25 us per remote peer: 56 peers
// without a limit, min(M, nodes-1) with one. Mutations caught: the limit
// ignored (7 copies), copies not deduplicated per node (M = 8 gives 7),
// the own node counted as remote, the per-peer latency left out or
// charged per rank rather than per remote peer.
func TestNodeLimitedRouting(t *testing.T) {
	d := testData(t)
	const gib = 1 << 30
	for _, c := range []struct {
		name         string
		ep, limit    int
		copies       float64 // leaving the server, of 8
		remotePeers  int
		wantLatencyS float64
	}{
		{"ep 64, no limit", 64, 0, 7, 56, (8.4 + 14 + 0.13 + 56*3.25) * 1e-6},
		{"ep 64, 4 nodes", 64, 4, 3.5, 4, (8.4 + 14 + 0.13 + 4*3.25) * 1e-6},
		{"ep 64, 8 nodes", 64, 8, 8 * (1 - math.Pow(7.0/8, 8)) * 7 / 8, 7, (8.4 + 14 + 0.13 + 7*3.25) * 1e-6},
		{"ep 16, 4 nodes", 16, 4, 2 * (1 - math.Pow(0.5, 8)) / 2, 1, (8.4 + 14 + 0.13 + 1*3.25) * 1e-6},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := collectiveView(8, 8, 400, InfiniBand)
			m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
			g := m.group(c.ep, 1)
			r := moeRouting{topK: 8, nodes: c.limit}
			if got := r.remoteCopies(&g); math.Abs(got-c.copies) > 1e-3 {
				t.Errorf("%.4f copies leave the server, want %.4f", got, c.copies)
			}
			if got := r.remotePeers(&g); got != c.remotePeers {
				t.Errorf("%d remote peers, want %d", got, c.remotePeers)
			}
			got := m.allToAllRouted(gib, &g, r).time
			bw := c.copies / 8 * gib / (400.0 / 8 * 0.92 * 1e9)
			if c.limit > 0 { // every copy crosses NVLink once, at 450 x 0.8 GB/s
				bw = math.Max(bw, gib/(450*0.8*1e9))
			}
			if want := c.wantLatencyS + bw; math.Abs(got-want) > 1e-9 {
				t.Errorf("all-to-all %.6f s, want %.6f (latency %.1f us + %.3f ms over the NIC)", got, want, c.wantLatencyS*1e6, bw*1e3)
			}
		})
	}
}

// An MoE layer's parts by hand, one H100 (989 TFLOP/s BF16, 1,979 FP8,
// 3.35 TB/s) with the test's own ceiling 0.6, no shape loss (half 0),
// 25 us per expert GEMM on a per-expert stack and 4 us a kernel launch:
// hidden 2,048, 128 experts, top-8, ep 8 (16 local experts), one sequence
// of 4,096 tokens, tp 1, no stack (one grouped kernel per product).
//
//	router:    3 x 2 x 4,096 x 128 x 2,048 FLOPs at 989 x 0.6    = 10.86 us
//	permute:   4 passes x 2 (read, write) x (1+8) x 4,096 x 2,048 x 2 B / 3.35 TB/s = 360.6 us
//	grouped:   3 products x 3 passes x one launch x 4 us           = 36 us,
//	           plus the 2 ms the efficiency curve adds
//	imbalance: 1 + sqrt(2 ln 8 x 32,768 x 7/8 x 120/127) / 32,768 = 1.010244,
//	           charged on 10 ms of expert products + the 2.036 ms
//
// The router and the permutation stay at BF16 speed in FP8. Mutations
// caught: the router run at the FP8 peak, the permutation's backward
// pass or its read left out, the grouped kernel's fixed cost charged per
// local expert (16 x 9 x 25 us = 3.6 ms, issue #47 finding 14), the
// imbalance's sqrt(2 ln ep) left out, the imbalance charged on nothing,
// the curve's seconds dropped.
func TestMoELayerByHand(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 0, 25, 4
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	w := Workload{Hidden: 2048, Experts: 128, TopK: 8, EP: 8, TP: 1, MicroBatch: 1, SeqLen: 4096}
	imb := 1 + math.Sqrt(2*math.Log(8)*32768*7.0/8*120/127)/32768
	if got := imbalance(&w, 4096); math.Abs(got-imb) > 1e-12 || math.Abs(got-1.010244) > 1e-6 {
		t.Errorf("imbalance %.6f, want %.6f", got, imb)
	}
	want := moeParts{
		router:    3 * 2 * 4096 * 128 * 2048 / (989e12 * 0.6),
		permute:   4 * 2 * 9 * 4096 * 2048 * 2 / 3.35e12,
		grouped:   3*3*4e-6 + 2e-3,
		imbalance: (0.01 + 2.036e-3) * (imb - 1),
	}
	for _, p := range []string{PrecisionBF16, PrecisionFP8} {
		w.Precision = p
		got := moeLayer(&w, &h, &d, 4096, 0.01, 2e-3)
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"router", got.router, want.router}, {"permute", got.permute, want.permute}, {"grouped", got.grouped, want.grouped}, {"imbalance", got.imbalance, want.imbalance}} {
			if math.Abs(c.got/c.want-1) > 1e-9 {
				t.Errorf("%s: %s %.4g s, want %.4g", p, c.name, c.got, c.want)
			}
		}
	}
}

// With no expert parallelism every expert is on the GPU: no wait for
// another. Two odd groups by hand: ep 3 of 9 experts, top-2, 1,000
// tokens: 1 + sqrt(2 ln 3 x 3,000 x 2 x (1/3)(2/3)(7/8)) / 2,000; ep 64
// of 256, top-8, 4,096 tokens: 1 + sqrt(2 ln 64 x 262,144 x 8 x
// (1/64)(63/64)(248/255)) / 32,768. Mutations caught: the group's ep
// tokens left out of the variance, the without-replacement factor
// (e-k)/(e-1) left out.
func TestImbalanceByHand(t *testing.T) {
	for _, c := range []struct {
		ep, e, k int
		tokens   float64
		want     float64
	}{
		{1, 128, 8, 4096, 1},
		{3, 9, 2, 1000, 1 + math.Sqrt(2*math.Log(3)*3000*2*(1.0/3)*(2.0/3)*(7.0/8))/2000},
		{64, 256, 8, 4096, 1 + math.Sqrt(2*math.Log(64)*262144*8*(1.0/64)*(63.0/64)*(248.0/255))/32768},
	} {
		w := Workload{Experts: c.e, TopK: c.k, EP: c.ep}
		if got := imbalance(&w, c.tokens); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ep %d, %d experts, top-%d: %.6f, want %.6f", c.ep, c.e, c.k, got, c.want)
		}
	}
}

// The breakdown names each MoE part, and together they are the MoE
// share of the step's compute and of its bubble's: planned compute plus
// the bubble's compute times the parts' seconds over the layer's. A
// dense job lists none of them. Mutations caught: an effect left out,
// the bubble's compute left out, MoE effects on a dense job.
func TestMoEEffects(t *testing.T) {
	d := testData(t)
	job, w := everyEffectJob(d)
	j, err := Estimate(job, w, d, Parts{Detail: true})
	if err != nil {
		t.Fatal(err)
	}
	r := resolveOnce(w, d)
	l := layerCompute(&r.w, j.GPU, d)
	p := j.Planned
	wantSum := (p.ComputeS + p.BubbleS - p.BubbleCommS) * l.moe.total() / l.seconds
	var sum float64
	names := map[string]bool{}
	for _, e := range j.Effects {
		switch e.Name {
		case EffectRouter, EffectPermute, EffectGrouped, EffectImbalance:
			names[e.Name] = true
			sum += e.DeltaS
			if !(e.DeltaS > 0) || e.Detail == "" {
				t.Errorf("%s: %g s, %q", e.Name, e.DeltaS, e.Detail)
			}
		}
	}
	if len(names) != 4 || math.Abs(sum/wantSum-1) > 1e-9 {
		t.Errorf("MoE effects %v sum %.4g s, want all four summing to %.4g", names, sum, wantSum)
	}
	dense, err := Estimate(job, NewWorkload(), d, Parts{Detail: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range dense.Effects {
		if e.Name == EffectRouter || e.Name == EffectPermute || e.Name == EffectGrouped || e.Name == EffectImbalance {
			t.Errorf("dense job lists %s", e.Name)
		}
	}
}

// [moe] grouped_gemm_us is a time per expert product: a negative one
// would speed the layer up, and one past a millisecond is a typo in
// microseconds. Mutation caught: the check left out.
func TestMoEDataChecked(t *testing.T) {
	for _, c := range []struct {
		us float64
		ok bool
	}{{0, true}, {40, true}, {999.5, true}, {-1, false}, {1500, false}} {
		d := *testData(t)
		d.MoE.GroupedGEMMUS = c.us
		if err := d.checkCompute(); (err == nil) != c.ok {
			t.Errorf("grouped_gemm_us %g: error %v", c.us, err)
		}
	}
}

// With tensor parallelism the router runs on each GPU's sequence-
// parallel slice of the tokens (Megatron-Core's MoE layer takes the
// [s/tp, b, h] slice; it refuses tp without sequence parallelism in
// training), not on the whole tensor group's: by hand, H100 at the
// test's ceiling 0.6 and no shape loss, hidden 2,048, 128 experts,
// 4,095 tokens on the tensor group: 3 x 2 x (4,095/tp) x 128 x 2,048
// FLOPs at 989 x 0.6 TFLOP/s, for tp 1, 3 and 4. Mutation caught: the
// router on the tensor group's tokens (tp times the cost).
func TestRouterOnSequenceSlice(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf = 0
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	for _, tp := range []int{1, 3, 4} {
		w := Workload{Hidden: 2048, Experts: 128, TopK: 8, EP: 8, TP: tp, MicroBatch: 1, SeqLen: 4095}
		want := 3 * 2 * 4095 / float64(tp) * 128 * 2048 / (989e12 * 0.6)
		if got := moeLayer(&w, &h, &d, 4095, 0.01, 0).router; math.Abs(got/want-1) > 1e-9 {
			t.Errorf("tp %d: router %.4g s, want %.4g", tp, got, want)
		}
	}
}

// deepGEMMShare is the grouped GEMM's efficiency at M tokens per expert
// as DeepGEMM's README (commit 327ec92, H800 FP8) publishes it: the mean
// of its two shapes' TFLOPS (N 4,096 x K 7,168 and N 7,168 x K 2,048)
// over the dense GEMM of the same shape at M 4,096 (1,410 and 1,168).
func deepGEMMShare(a, b float64) float64 { return (a/1410 + b/1168) / 2 }

// The grouped GEMM's efficiency curve by hand from DeepGEMM's published
// TFLOPS (not from data/jct.toml): at a published M it is that M's
// share; between two it is interpolated in log M (M 2,048 halfway
// between 1,024 and 4,096; M 362 about halfway between 256 and 512);
// below M 64 the product's time stays M 64's (M 20: 20/64 of its
// share); past M 8,192 it stays M 8,192's (the 4,096 rows' 1,346 and
// 1,214, capped at the dense GEMM's). Tolerance 0.001: the data keep
// three decimals. Mutations caught: interpolation linear in M, the
// efficiency below M 64 held at M 64's, the curve's end not held.
func TestGroupedEfficiencyByHand(t *testing.T) {
	d := testData(t)
	m1024, m4096 := deepGEMMShare(1233, 925), deepGEMMShare(1346, 1214)
	m256, m512 := deepGEMMShare(932, 815), deepGEMMShare(1040, 916)
	for _, c := range []struct {
		m, want float64
	}{
		{20, deepGEMMShare(287, 295) * 20 / 64},
		{128, deepGEMMShare(533, 510)},
		{256, m256},
		{362, m256 + math.Log(362.0/256)/math.Log(2)*(m512-m256)},
		{2048, (m1024 + m4096) / 2},
		{20000, m4096},
	} {
		if got := groupedEfficiency(d, c.m); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("M %g: %.4f, want %.4f", c.m, got, c.want)
		}
	}
}

// The grouped GEMM's curve reaches the layer: an MoE layer on one H100
// at the test's ceiling 0.6, no shape loss (half 0), no fixed cost:
// hidden 2,048, expert width 768 (1 layer, 128 experts, top-8: total
// minus active 120 x 3 x 2,048 x 768 parameters), ep 8 (16 local
// experts), one sequence of 4,096 tokens, tp 1, BF16. Each local expert
// gets 4,096 x 8 / 16 = 2,048 tokens; its three products are
// 3 x 2 x 2,048 x 768 x 2,048 FLOPs, forward and backward 3x, so the 16
// experts' dense seconds are 16 x 3 x 3 x 2 x 2,048^2 x 768 / (989e12 x
// 0.6) = 1.5633 ms, and the curve adds 1.5633 ms x (1/e - 1) with e the
// efficiency at M 2,048 by hand. Mutation caught: the curve left out of
// the grouped part (the dense shape factor kept for expert products).
func TestGroupedCurveInLayer(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 0, 0, 0
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	perExpert := 3 * 2048 * 768.0
	w := Workload{Hidden: 2048, Layers: 1, Experts: 128, TopK: 8, EP: 8, TP: 1, MicroBatch: 1, SeqLen: 4096,
		ActiveParamsB: 1, ParamsB: 1 + 120*perExpert/1e9, Precision: PrecisionBF16}
	e := (deepGEMMShare(1233, 925) + deepGEMMShare(1346, 1214)) / 2
	dense := 16 * 3 * 3 * 2 * 2048.0 * 2048 * 768 / (989e12 * 0.6)
	want := dense * (1/e - 1)
	if got := layerCompute(&w, &h, &d).moe.grouped; math.Abs(got/want-1) > 2e-3 {
		t.Errorf("grouped %.4g s, want %.4g (dense %.4g s at efficiency %.4f)", got, want, dense, e)
	}
}

// [moe] grouped_gemm_tokens and grouped_gemm_efficiency: as many of
// each, tokens rising, efficiencies in (0,1]. Mutations caught: each
// check left out.
func TestGroupedCurveChecked(t *testing.T) {
	for _, c := range []struct {
		m, e []float64
		ok   bool
	}{
		{[]float64{64, 4096}, []float64{0.2, 1}, true},
		{[]float64{64, 4096}, []float64{0.2}, false},
		{nil, nil, false},
		{[]float64{4096, 64}, []float64{0.2, 1}, false},
		{[]float64{0.5, 64}, []float64{0.2, 1}, false},
		{[]float64{64, 4096}, []float64{0, 1}, false},
		{[]float64{64, 4096}, []float64{0.2, 1.1}, false},
	} {
		d := *testData(t)
		d.MoE.GroupedGEMMTokens, d.MoE.GroupedGEMMEfficiency = c.m, c.e
		if err := d.checkCompute(); (err == nil) != c.ok {
			t.Errorf("tokens %v, efficiency %v: error %v", c.m, c.e, err)
		}
	}
}

// The FP8 and FP4 casts of an MoE layer's expert inputs by hand: hidden
// 2,048, expert width 768, top-8, 4,096 tokens on the GPU, so 32,768 token
// copies; per copy forward 2,048 + 768/etp and backward 2,048 + 2 x
// 768/etp elements, each read in BF16 (2 B) and written twice at 1 B
// (FP8, MXFP8) or 0.5 B (FP4):
//
//	H100 FP8, etp 1:  32,768 x 6,400 x 4 B / 3.35 TB/s  = 250.4 us
//	H100 FP8, etp 3 (tp 3): only the tokens' third reaches this GPU's slice:
//	                  expert tokens 4,096 x 3/3, widths 768/3:
//	                  32,768 x (4,096 + 768) x 4 B / 3.35 TB/s = 190.2 us
//	B200 MXFP8:       32,768 x 6,400 x 4 B / 8 TB/s     = 104.9 us
//	B200 FP4:         32,768 x 6,400 x 3 B / 8 TB/s     = 78.6 us
//	BF16:             nothing
//
// Mutations caught: the casts charged in BF16, one copy written instead
// of two, the FP4 width taken as FP8's, the expert width not split by etp.
func TestQuantizeByHand(t *testing.T) {
	d := testData(t)
	perExpert := 3 * 2048 * 768.0
	for _, c := range []struct {
		gpu, precision string
		tp             int
		want           float64
	}{
		{"h100", PrecisionFP8, 1, 32768 * 6400 * 4 / 3.35e12},
		{"h100", PrecisionFP8, 3, 32768 * (4096 + 768) * 4 / 3.35e12},
		{"b200", PrecisionMXFP8, 1, 32768 * 6400 * 4 / 8e12},
		{"b200", PrecisionFP4, 1, 32768 * 6400 * 3 / 8e12},
		{"h100", PrecisionBF16, 1, 0},
	} {
		w := Workload{Hidden: 2048, Layers: 1, Experts: 128, TopK: 8, EP: 8, TP: c.tp, MicroBatch: 1, SeqLen: 4096,
			ActiveParamsB: 1, ParamsB: 1 + 120*perExpert/1e9, Precision: c.precision}
		got := quantizeSeconds(&w, d.GPUs[c.gpu], d, expertTokens(&w, 4096)*8)
		if math.Abs(got-c.want) > 1e-9*max(c.want, 1) {
			t.Errorf("%s %s tp %d: %.4g s, want %.4g", c.gpu, c.precision, c.tp, got, c.want)
		}
	}
}

// Token dropping at a capacity factor of 1, padded (NeMo's
// MegatronTokenDropCallback defaults, which its Grok-1 performance
// recipe adds), gives every expert exactly its mean load: nothing waits.
// TestMoELayerByHand's layer (16 local experts of 128, top-8, ep 8): the
// wait is (10 ms + 2.036 ms) x 0.010244 = 0.1233 ms dropless, 0 with
// token_drop; the other parts stay as they were. Mutation caught:
// token_drop ignored (the wait charged on a padded layer).
func TestTokenDropNoWait(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 0, 25, 4
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	imb := 1 + math.Sqrt(2*math.Log(8)*32768*7.0/8*120/127)/32768
	for _, c := range []struct {
		drop bool
		want float64
	}{{false, (0.01 + 2.036e-3) * (imb - 1)}, {true, 0}} {
		w := Workload{Hidden: 2048, Experts: 128, TopK: 8, EP: 8, TP: 1, MicroBatch: 1, SeqLen: 4096, TokenDrop: c.drop}
		got := moeLayer(&w, &h, &d, 4096, 0.01, 2e-3)
		if math.Abs(got.imbalance-c.want) > 1e-12 {
			t.Errorf("token_drop %v: wait %.4g s, want %.4g", c.drop, got.imbalance, c.want)
		}
		if want := 3*3*4e-6 + 2e-3; math.Abs(got.grouped/want-1) > 1e-9 {
			t.Errorf("token_drop %v: grouped %.4g s, want %.4g", c.drop, got.grouped, want)
		}
	}
}

// A GPU holding one expert runs its products as dense GEMMs: the grouped
// curve adds nothing. By hand, hidden 2,048, expert width 768, 8 experts,
// top-1, one sequence of 1,024 tokens, tp 1, no shape loss (half 0), no
// per-expert or launch cost, the test's ceiling 0.6 on an H100 (989 TFLOP/s): at
// ep 8 the GPU's one expert takes 1,024 x 8/8 = 1,024 tokens, dense, so
// the grouped part is 0; at ep 4 each of its 2 experts takes 1,024 x 4/8
// = 512 tokens, whose 3 products forward and backward are 18 x 512 x 768
// x 2,048 FLOPs each, 2 x 1.44956e10 / (989e12 x 0.6) = 48.86 us as dense
// GEMMs, and the curve at M 512 (DeepGEMM's 1,040 and 916 TFLOPS against
// 1,410 and 1,168) adds 48.86 us x (1/0.7609 - 1) = 15.35 us. Mutations
// caught: the curve charged on a single expert (2,048 tokens x ... at M
// 1,024: 0.833), or not charged on two.
func TestOneLocalExpertDense(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 0, 0, 0
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	perExpert := 3 * 2048 * 768.0
	e512 := deepGEMMShare(1040, 916)
	dense2 := 2 * 18 * 512 * 768 * 2048.0 / (989e12 * 0.6)
	for _, c := range []struct {
		ep   int
		want float64
	}{{8, 0}, {4, dense2 * (1/e512 - 1)}} {
		w := Workload{Hidden: 2048, Layers: 1, Experts: 8, TopK: 1, EP: c.ep, TP: 1, MicroBatch: 1, SeqLen: 1024,
			ActiveParamsB: 1, ParamsB: 1 + 7*perExpert/1e9, Precision: PrecisionBF16}
		got := layerCompute(&w, &h, &d).moe.grouped
		if math.Abs(got-c.want) > 1e-3*c.want+1e-12 {
			t.Errorf("ep %d: grouped %.4g s, want %.4g", c.ep, got, c.want)
		}
	}
}

// The breakdown says which form the expert products and the wait took:
// Mixtral 8x7B at ep 8 holds one expert a GPU (dense GEMMs, no curve), at
// ep 4 two (the grouped curve), on Megatron-Core's stack one GEMM per
// expert; with token_drop the wait is named as none and is 0 s.
// Mutations caught: the grouped detail kept on one expert or on a
// per-expert stack, the wait's detail kept (or its seconds charged) with
// token dropping.
func TestMoEEffectDetails(t *testing.T) {
	d := testData(t)
	job, base := everyEffectJob(d)
	for _, c := range []struct {
		ep            int
		drop          bool
		framework     string
		grouped, wait string
	}{
		{8, false, "", oneExpertDetail, imbalanceDetail},
		{4, false, "", groupedDetail, imbalanceDetail},
		{4, false, "megatron-te", perExpertDetail, imbalanceDetail},
		{8, true, "", oneExpertDetail, tokenDropDetail},
	} {
		w := base
		w.EP, w.TokenDrop, w.Framework = c.ep, c.drop, c.framework
		j, err := Estimate(job, w, d, Parts{Detail: true})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]Effect{}
		for _, e := range j.Effects {
			got[e.Name] = e
		}
		if g := got[EffectGrouped]; g.Detail != c.grouped {
			t.Errorf("ep %d: grouped detail %q, want %q", c.ep, g.Detail, c.grouped)
		}
		wait := got[EffectImbalance]
		if wait.Detail != c.wait || (wait.DeltaS == 0) != c.drop {
			t.Errorf("ep %d, token_drop %v: wait %q, %g s", c.ep, c.drop, wait.Detail, wait.DeltaS)
		}
	}
}

// A stack that launches one GEMM per expert ([frameworks] expert_gemm =
// "per_expert", Transformer Engine's GroupedLinear in Megatron-Core)
// runs a GPU's two experts as dense GEMMs: no grouped curve, only the
// per-expert cost. By hand, TestOneLocalExpertDense's job at ep 4 (two
// experts of 512 tokens) with [moe] grouped_gemm_us 10: 3 products x 3
// passes x 2 experts x 10 us = 180 us on the per-expert stack; on a
// grouped one (expert_gemm "grouped", or unset, or no stack) one launch
// per product and pass, 9 x [moe] kernel_launch_us 3 = 27 us, and the
// curve's 15.35 us at M 512. Megatron-Core's entry in data/jct.toml says
// per_expert (its source: Transformer Engine's MoE documentation,
// per-expert path). Mutations caught: expert_gemm ignored (the curve
// charged on the per-expert stack), the per-expert cost dropped with
// the curve, an unknown expert_gemm accepted by the data check.
func TestPerExpertGEMM(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 0, 10, 3
	h := *d.GPUs["h100"]
	h.EfficiencyMax = 0.6
	fsdp := *d.Frameworks["fsdp"]
	perExpert, grouped, unset := fsdp, fsdp, fsdp
	perExpert.ExpertGEMM, grouped.ExpertGEMM, unset.ExpertGEMM = ExpertGEMMPerExpert, ExpertGEMMGrouped, ""
	d.Frameworks = map[string]*FrameworkSpec{"pe": &perExpert, "gr": &grouped, "un": &unset}
	curve := 2 * 18 * 512 * 768 * 2048.0 / (989e12 * 0.6) * (1/deepGEMMShare(1040, 916) - 1)
	const fixed, launch = 3 * 3 * 2 * 10e-6, 3 * 3 * 3e-6
	for _, c := range []struct {
		framework string
		want      float64
	}{{"pe", fixed}, {"gr", launch + curve}, {"un", launch + curve}, {"", launch + curve}} {
		w := Workload{Hidden: 2048, Layers: 1, Experts: 8, TopK: 1, EP: 4, TP: 1, MicroBatch: 1, SeqLen: 1024, Framework: c.framework,
			ActiveParamsB: 1, ParamsB: 1 + 7*3*2048*768.0/1e9, Precision: PrecisionBF16}
		if got := layerCompute(&w, &h, &d).moe.grouped; math.Abs(got-c.want) > 1e-3*c.want {
			t.Errorf("framework %q: grouped %.5g s, want %.5g", c.framework, got, c.want)
		}
	}
	if f := testData(t).Frameworks["megatron-te"]; f.ExpertGEMM != ExpertGEMMPerExpert {
		t.Errorf("megatron-te expert_gemm %q, want %q (Transformer Engine's GroupedLinear)", f.ExpertGEMM, ExpertGEMMPerExpert)
	}
	bad := *testData(t)
	odd := fsdp
	odd.ExpertGEMM = "cutlass"
	bad.Frameworks = map[string]*FrameworkSpec{"odd": &odd}
	if err := bad.checkFrameworks(); err == nil || !strings.Contains(err.Error(), "expert_gemm") {
		t.Errorf("expert_gemm %q passed the check: %v", odd.ExpertGEMM, err)
	}
}

// The expert products' fixed cost follows what the stack launches (issue
// #47, buyer finding 14: DeepSeek-V3 at ep 1, 256 experts a GPU, charged
// 256 x 9 x 38 us a layer, 94% of the step). By hand with [moe]
// grouped_gemm_us 38 and kernel_launch_us 5: a grouped stack (or none)
// launches one kernel per product and pass, 9 x 5 us = 45 us whatever
// the experts a GPU holds (256 at ep 1, 50 of 250 at ep 5, one at ep
// 250); a per-expert stack one GEMM per local expert, 9 x 38 us x 256 =
// 87.552 ms at ep 1, 9 x 38 x 50 = 17.1 ms at ep 5, 342 us at ep 250.
// Mutations caught: the grouped stack charged per local expert, the
// per-expert stack charged per launch, kernel_launch_us left unchecked.
func TestMoEFixedCostByLaunch(t *testing.T) {
	d := *testData(t)
	d.MoE.GroupedGEMMUS, d.MoE.KernelLaunchUS = 38, 5
	fsdp := *d.Frameworks["fsdp"]
	perExpert := fsdp
	perExpert.ExpertGEMM = ExpertGEMMPerExpert
	d.Frameworks = map[string]*FrameworkSpec{"pe": &perExpert, "gr": &fsdp}
	for _, c := range []struct {
		experts, ep int
		framework   string
		want        float64
	}{
		{256, 1, "", 45e-6},
		{256, 1, "gr", 45e-6},
		{256, 1, "pe", 87.552e-3},
		{250, 5, "", 45e-6},
		{250, 5, "pe", 17.1e-3},
		{250, 250, "gr", 45e-6},
		{250, 250, "pe", 342e-6},
	} {
		w := Workload{Experts: c.experts, EP: c.ep, Framework: c.framework}
		if got := moeFixedSeconds(&w, &d); math.Abs(got/c.want-1) > 1e-9 {
			t.Errorf("%d experts, ep %d, stack %q: fixed %.6g s, want %.6g", c.experts, c.ep, c.framework, got, c.want)
		}
	}
	bad := *testData(t)
	bad.MoE.KernelLaunchUS = -1
	if err := bad.checkCompute(); err == nil || !strings.Contains(err.Error(), "kernel_launch_us") {
		t.Errorf("kernel_launch_us -1 passed the check: %v", err)
	}
}
