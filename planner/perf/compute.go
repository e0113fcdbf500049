package perf

import "math"

// expertWidth is the hidden width f of one expert's MLP in a mixture of
// experts: expert_ffn_hidden where the workload gives it, else derived
// from total = dense + e·x and active = dense + k·x parameters, x =
// moe layers · m·h·f (m matrices h x f per layer, three by default as
// in Mixtral and DeepSeek, mlpMatrices; the MoE layers are the layers
// less dense_layers); 0 for a dense model.
func expertWidth(w *Workload) float64 {
	e, k := float64(w.Experts), float64(max(w.TopK, 1))
	if e <= k || w.ActiveParamsB >= w.ParamsB {
		return 0
	}
	if a := w.Architecture; a != nil && a.ExpertFFNHidden > 0 {
		return float64(a.ExpertFFNHidden)
	}
	perExpert := (w.ParamsB - w.ActiveParamsB) * 1e9 / (e - k)
	return perExpert / float64(w.Layers-w.denseLayers()) / (w.mlpMatrices(true) * float64(w.Hidden))
}

// gemm is one matrix product of a training step on one GPU: an m x k
// matrix times a k x n matrix, times how often it runs per layer.
type gemm struct {
	m, n, k float64
	times   float64
	kind    gemmKind
}

// gemmKind is what a product is for, as the layer's timing treats it.
type gemmKind uint8

// The kinds of gemm: a linear layer's (in the workload's precision), an
// attention score product (BF16), an expert's (grouped, in the
// workload's precision), and a linear layer every GPU of the tensor
// group runs whole (MLA's down projections: its FLOPs count once per
// group).
const (
	gemmLinear gemmKind = iota
	gemmScore
	gemmExpert
	gemmReplicated
)

func (g gemm) flops() float64 { return 2 * g.m * g.n * g.k * g.times }

// shapeFactor is the fraction of the GEMM ceiling a product of these
// dimensions reaches: each dimension d fills its tiles and waves as
// d / (d + half) (data/jct.toml [compute] gemm_dim_half).
func (g gemm) shapeFactor(half float64) float64 {
	f := 1.0
	for _, d := range [3]float64{g.m, g.n, g.k} {
		f *= d / (d + half)
	}
	return f
}

// groupedFactor is the fraction of the GEMM ceiling an expert product of
// these dimensions reaches in a grouped GEMM: its N and K shape factors
// times [moe] grouped_gemm_efficiency at its M (groupedEfficiency), which
// takes the place of the M shape factor: the curve is published against
// a dense GEMM of M = 4,096, near the ceiling efficiency_max stands for.
func (g gemm) groupedFactor(d *JCTData) float64 {
	half := d.Compute.GEMMDimHalf
	return g.n / (g.n + half) * g.k / (g.k + half) * groupedEfficiency(d, g.m)
}

// groupedEfficiency is [moe] grouped_gemm_efficiency at m tokens per
// expert, interpolated in log m between the published points; below the
// first the product's time stays the first's (the efficiency falls as
// m), past the last the efficiency is the last's.
func groupedEfficiency(d *JCTData, m float64) float64 {
	ms, es := d.MoE.GroupedGEMMTokens, d.MoE.GroupedGEMMEfficiency
	if m <= ms[0] {
		return es[0] * max(m, 0) / ms[0]
	}
	for i := 1; i < len(ms); i++ {
		if m <= ms[i] {
			x := math.Log(m/ms[i-1]) / math.Log(ms[i]/ms[i-1])
			return es[i-1] + x*(es[i]-es[i-1])
		}
	}
	return es[len(es)-1]
}

// computeEfficiency is the fraction of the GPU's peak a transformer layer
// reaches, from the shapes its matrix products have on one GPU after
// tensor parallelism (Megatron-LM's column- and row-parallel layers),
// for a micro-batch of b sequences of s tokens:
//
//	attention:  [bs x h]·[h x (1+2g)h/tp], [bs x h/tp]·[h/tp x h], scores 2·[s x h/tp]·[h/tp x s] per sequence
//	MLP:        [bs x h]·[h x 4h/tp], [bs x 4h/tp]·[4h/tp x h]
//	MoE MLP:    k·ep·etp/(e·tp)·bs tokens per local expert, three h x f/etp products (moeLayer adds the rest)
//
// each at efficiency_max x its shape factor (the linear layers at the
// FP8 or FP4 peak x low_precision_ceiling in those precisions), plus the element-wise work
// (layer norms, dropout, residuals, activation), memory-bound at the
// GPU's HBM bandwidth; the backward pass repeats the forward's shapes
// twice; g is kv_heads/heads (grouped-query attention narrows the K and
// V projections). Larger micro-batches, longer sequences and narrower tensor
// parallelism move it, as well as the hidden size.
func computeEfficiency(w *Workload, gpu *GPUSpec, d *JCTData) float64 {
	l := layerCompute(w, gpu, d)
	return l.flops / (gpu.PeakTFLOPS * 1e12 * l.seconds)
}

// layerCost is one transformer layer's compute on one GPU for one
// micro-batch, forward and backward: the FLOPs of its products, the
// seconds they and the memory-bound work take, and of those seconds
// what a mixture of experts' parts add (zero for a dense layer).
type layerCost struct {
	flops, seconds float64
	moe            moeParts
}

// moeParts are the seconds an MoE layer's parts add to a layer's
// compute, forward and backward, per micro-batch on one GPU.
type moeParts struct {
	router    float64 // the router's [bs x h]·[h x e] product, at BF16
	permute   float64 // permuting token copies to their experts and back, memory-bound
	grouped   float64 // the grouped GEMM over dense GEMMs of the same shapes: its efficiency by tokens per expert, and a fixed cost per expert product
	imbalance float64 // waiting for the most loaded GPU of the expert-parallel group
	quantize  float64 // casting the expert products' inputs to FP8 or FP4, memory-bound (0 in BF16)
}

func (p moeParts) total() float64 {
	return p.router + p.permute + p.grouped + p.imbalance + p.quantize
}

// layerCompute is computeEfficiency's layer: its FLOPs and seconds,
// the mean of the model's layers. An MoE model with dense_layers mixes
// its dense layers' (a dense MLP of ffn_hidden) and its MoE layers'
// (routed and shared experts, and what the MoE parts add) by their
// counts.
func layerCompute(w *Workload, gpu *GPUSpec, d *JCTData) layerCost {
	f := expertWidth(w)
	l := oneLayer(w, gpu, d, f)
	if f <= 0 || w.denseLayers() == 0 {
		return l
	}
	dense := oneLayer(w, gpu, d, 0)
	share := float64(w.denseLayers()) / float64(w.Layers)
	l.flops = share*dense.flops + (1-share)*l.flops
	l.seconds = share*dense.seconds + (1-share)*l.seconds
	m := &l.moe
	m.router, m.permute, m.grouped, m.imbalance, m.quantize = (1-share)*m.router, (1-share)*m.permute, (1-share)*m.grouped, (1-share)*m.imbalance, (1-share)*m.quantize
	return l
}

// maxLayerGEMMs is the most products oneLayer times: MLA's five
// projections and two score products, two expert and two shared-expert
// products, with room.
const maxLayerGEMMs = 12

// oneLayer is one layer's compute on one GPU for one micro-batch,
// forward and backward: an MoE layer of experts f wide, or with f = 0 a
// dense one.
func oneLayer(w *Workload, gpu *GPUSpec, d *JCTData, f float64) layerCost {
	c := d.Compute
	h, tp := float64(w.Hidden), float64(w.TP)
	s, b := float64(w.SeqLen), float64(w.MicroBatch)
	sl := w.localSeq() // context parallelism: this GPU's share of each sequence
	tokens := b * sl
	var buf [maxLayerGEMMs]gemm // kept off the heap
	gemms := w.appendAttentionGEMMs(buf[:0], tokens, sl, s, b, tp)
	if f > 0 {
		eg := expertGEMMs(w, tokens, f)
		gemms = append(gemms, eg[0], eg[1])
		if sw := w.sharedWidth(f); sw > 0 {
			gemms = appendMLPGEMMs(gemms, tokens, h, sw, tp, w.mlpMatrices(true))
		}
	} else {
		gemms = appendMLPGEMMs(gemms, tokens, h, w.ffnWidth(), tp, w.mlpMatrices(false))
	}
	peak := gpu.PeakTFLOPS * 1e12
	// The linear layers run in the workload's precision; attention's
	// score products stay BF16.
	linearPeak, linearEff := peak, gpu.EfficiencyMax
	if p := precisionOrBF16(w.Precision); p != PrecisionBF16 {
		linearPeak, linearEff = gpu.gemmPeakTFLOPS(p)*1e12, gpu.EfficiencyMax*c.LowPrecisionCeiling
	}
	var l layerCost
	var expertS, groupedS float64 // the expert products' seconds as dense GEMMs, and what grouping adds; forward only
	// A GPU holding one expert runs its products as dense GEMMs of their
	// shapes (Transformer Engine's GroupedLinear with one GEMM is one
	// cuBLAS call), and so does a stack that launches one GEMM per
	// expert: the grouped curve applies from two local experts, on a
	// grouped kernel (groupedExperts).
	grouped := f > 0 && d.groupedExperts(w)
	for _, g := range gemms {
		pk, eff := linearPeak, linearEff
		if g.kind == gemmScore {
			pk, eff = peak, gpu.EfficiencyMax
		}
		t := g.flops() / (pk * eff * g.shapeFactor(c.GEMMDimHalf))
		if g.kind == gemmReplicated {
			l.flops += g.flops() / tp
		} else {
			l.flops += g.flops()
		}
		l.seconds += t
		if g.kind == gemmExpert {
			expertS += t
			if grouped {
				groupedS += g.flops()/(pk*eff*g.groupedFactor(d)) - t
			}
		}
	}
	// Forward and backward (twice the forward's products); element-wise
	// bytes count both passes.
	l.flops, l.seconds = 3*l.flops, 3*l.seconds
	l.seconds += d.elementwiseBytes(w, gpu) * tokens * h / tp / (gpu.HBMTBs * 1e12)
	if f > 0 {
		l.moe = moeLayer(w, gpu, d, tokens, 3*expertS, 3*groupedS)
		l.seconds += l.moe.total()
	}
	return l
}

// expertGEMMs are an MoE layer's expert products on one GPU: each of its
// e/ep local experts runs three h x f/etp products (gate and up, then
// down; two, up and down, for an MLP kind of two matrices) on its share of the stage's token copies. A stage's tp x cp x dp
// GPUs hold dp·cp tensor groups of tokens tokens each; their k copies
// spread over e experts, each expert on etp GPUs and replicated over
// tp·cp·dp/(etp·ep) expert data-parallel ranks, so each local expert
// gets tokens·k·ep·etp/(e·tp) (with etp = tp, k·ep/e of its tensor
// group's tokens).
func expertGEMMs(w *Workload, tokens, f float64) [2]gemm {
	h, etp := float64(w.Hidden), float64(w.etp())
	local := float64(w.Experts) / float64(max(w.EP, 1)) // experts on one GPU
	perExpert := expertTokens(w, tokens) * float64(max(w.TopK, 1)) / local
	ups := (w.mlpMatrices(true) - 1) * local
	return [2]gemm{{m: perExpert, n: f / etp, k: h, times: ups, kind: gemmExpert}, {m: perExpert, n: h, k: f / etp, times: local, kind: gemmExpert}}
}

// expertTokens is the tokens whose copies one GPU's experts take, for
// tokens tokens on its tensor group: tokens·etp/tp (all of them with
// etp = tp; a 1/tp slice with etp = 1).
func expertTokens(w *Workload, tokens float64) float64 {
	return tokens * float64(w.etp()) / float64(w.TP)
}

// moeLayer is what an MoE layer's parts add to its compute on one GPU,
// per micro-batch forward and backward, for tokens tokens on the GPU
// (its tensor-parallel group's), expertS seconds of expert products
// (forward and backward, as dense GEMMs of their shapes) and curveS
// seconds the grouped GEMM's efficiency curve adds to them
// (groupedFactor against shapeFactor, forward and backward):
//
//   - router: [bs/tp x h]·[h x e] on the GPU's sequence-parallel slice of the
//     tokens (Megatron-Core runs it there), at the BF16 ceiling and its shape factor,
//     forward and backward (3x), whatever the linear layers' precision;
//   - permute: each token's k copies gathered into expert order and
//     scattered back (a read and a write of the copies and of the token,
//     (1 + k)·bs·h/tp elements each way), forward and again backward, at
//     the GPU's HBM bandwidth, in BF16;
//   - grouped: curveS (0 on a GPU of one expert, or on a stack that
//     runs one GEMM per expert, whose products run as dense GEMMs), plus
//     the fixed cost of what the stack launches (moeFixedSeconds): the
//     cost that does not shrink with the tokens, so the products'
//     efficiency falls with tokens per expert and with a faster (FP8,
//     FP4) product;
//   - imbalance: the expert-parallel group waits for its most loaded GPU
//     (imbalance's max/mean), charged on the expert products; none with
//     token_drop, where every expert takes exactly its mean load;
//   - quantize: in FP8 and FP4 only, each input of an expert product cast
//     from BF16 (quantizeSeconds).
func moeLayer(w *Workload, gpu *GPUSpec, d *JCTData, tokens, expertS, curveS float64) moeParts {
	h, tp := float64(w.Hidden), float64(w.TP)
	e, k := float64(w.Experts), float64(max(w.TopK, 1))
	router := gemm{m: tokens / tp, n: e, k: h, times: 1} // its sequence-parallel slice
	var p moeParts
	p.router = 3 * router.flops() / (gpu.PeakTFLOPS * 1e12 * gpu.EfficiencyMax * router.shapeFactor(d.Compute.GEMMDimHalf))
	elements := (1 + k) * tokens * h / tp
	p.permute = permutePasses * 2 * elements * d.Collective.ActivationBytes / (gpu.HBMTBs * 1e12)
	p.grouped = moeFixedSeconds(w, d) + curveS
	if !w.TokenDrop {
		p.imbalance = (expertS + p.grouped) * (imbalance(w, expertTokens(w, tokens)) - 1)
	}
	p.quantize = quantizeSeconds(w, gpu, d, expertTokens(w, tokens)*k)
	return p
}

// expertLaunches is the expert products of an MoE layer (gate, up and
// down) times its passes (forward, and the data- and weight-gradient
// products backward), each a launch of its own.
const expertLaunches = 3 * 3

// moeFixedSeconds is the fixed cost of one MoE layer's expert products
// on one GPU, forward and backward, by what w's stack launches: on a
// stack that runs one GEMM per expert ([frameworks] expert_gemm =
// "per_expert"), [moe] grouped_gemm_us per local expert, product and
// pass; on one that runs a product as one grouped kernel (or a GPU's one
// expert as one GEMM), [moe] kernel_launch_us per product and pass,
// whatever the experts the GPU holds.
func moeFixedSeconds(w *Workload, d *JCTData) float64 {
	if f := d.framework(w); f != nil && f.ExpertGEMM == ExpertGEMMPerExpert {
		local := float64(w.Experts) / float64(max(w.EP, 1))
		return expertLaunches * local * d.MoE.GroupedGEMMUS * 1e-6
	}
	return expertLaunches * d.MoE.KernelLaunchUS * 1e-6
}

// quantizeSeconds is the time to cast an MoE layer's expert-product
// inputs to the workload's FP8 or FP4 for copies token copies on the GPU,
// forward and backward, memory-bound at its HBM bandwidth (0 in BF16):
// forward the first product's input (h) and the second's (f/etp),
// backward the second's output gradient (h) and the first's (2f/etp,
// gate and up; f/etp for an MLP of two matrices), each element read in BF16 ([moe] cast_read_bytes) and
// written [moe] cast_copies times at the precision's width (row- and
// column-wise, for the forward and the weight-gradient products). The
// dense layers' casts are not charged here: their kernels fuse them
// (the FP8 fit of [compute] low_precision_ceiling holds them).
func quantizeSeconds(w *Workload, gpu *GPUSpec, d *JCTData, copies float64) float64 {
	width := precisionBytes(precisionOrBF16(w.Precision))
	if width >= bf16Bytes {
		return 0
	}
	h, f := float64(w.Hidden), expertWidth(w)/float64(w.etp())
	elements := copies * (2*h + w.mlpMatrices(true)*f)
	return elements * (d.MoE.CastReadBytes + d.MoE.CastCopies*width) / (gpu.HBMTBs * 1e12)
}

// bf16Bytes is the width of a BF16 element.
const bf16Bytes = 2

// precisionBytes is the width in bytes of one element of a GEMM input in
// precision p: 1 for FP8 (E4M3, block-scaled MXFP8 alike; the scales are
// not counted), half for FP4, 2 for BF16.
func precisionBytes(p string) float64 {
	switch p {
	case PrecisionFP8, PrecisionMXFP8:
		return 1
	case PrecisionFP4:
		return 0.5
	}
	return bf16Bytes
}

// permutePasses are the permutations of an MoE layer per micro-batch:
// dispatch and combine forward, and their gradients backward.
const permutePasses = 4

// imbalance is the expected max/mean load of the GPUs of an expert-
// parallel group of ep when tokens tokens on each (expertTokens) pick k of e experts at
// random (e/ep experts on each GPU): a GPU's share of one token's k
// picks is hypergeometric (mean k/ep, variance k·(1/ep)(1-1/ep)(e-k)/
// (e-1)); over the group's ep·tokens tokens a GPU's load is near normal,
// and the largest of ep such loads lies about sqrt(2 ln ep) standard
// deviations above the mean. Uniform routing: a lower bound, as a
// trained router's balance loss leaves its loads more skewed, and the
// routing of Megatron-Core's --moe-router-force-load-balancing, which
// benchmark runs set, as it replaces the router's scores with random
// ones (megatron/core/transformer/moe/router.py, apply_random_logits);
// the spread shrinks as the square root of the tokens routed, so a
// group routing fewer tokens per expert waits longer. 1 with no expert
// parallelism.
func imbalance(w *Workload, tokens float64) float64 {
	ep := float64(max(w.EP, 1))
	e, k := float64(w.Experts), float64(max(w.TopK, 1))
	if ep <= 1 || e <= 1 {
		return 1
	}
	q := 1 / ep
	mean := tokens * k // ep·tokens tokens x k/ep picks each
	variance := ep * tokens * k * q * (1 - q) * (e - k) / (e - 1)
	return 1 + math.Sqrt(2*math.Log(ep)*variance)/mean
}

// precisionOrBF16 is p, or BF16 for "".
func precisionOrBF16(p string) string {
	if p == "" {
		return PrecisionBF16
	}
	return p
}
