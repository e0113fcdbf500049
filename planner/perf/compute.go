package perf

// expertWidth is the hidden width f of one expert's MLP in a mixture of
// experts, from total = dense + e·x and active = dense + k·x parameters,
// x = layers · 3·h·f (three h x f matrices per layer, as in Mixtral and
// DeepSeek); 0 for a dense model.
func expertWidth(w *Workload) float64 {
	e, k := float64(w.Experts), float64(max(w.TopK, 1))
	if e <= k || w.ActiveParamsB >= w.ParamsB {
		return 0
	}
	perExpert := (w.ParamsB - w.ActiveParamsB) * 1e9 / (e - k)
	return perExpert / float64(w.Layers) / (3 * float64(w.Hidden))
}

// gemm is one matrix product of a training step on one GPU: an m x k
// matrix times a k x n matrix, times how often it runs per layer.
type gemm struct {
	m, n, k float64
	times   float64
}

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

// computeEfficiency is the fraction of the GPU's peak a transformer layer
// reaches, from the shapes its matrix products have on one GPU after
// tensor parallelism (Megatron-LM's column- and row-parallel layers),
// for a micro-batch of b sequences of s tokens:
//
//	attention:  [bs x h]·[h x (1+2g)h/tp], [bs x h/tp]·[h/tp x h], scores 2·[s x h/tp]·[h/tp x s] per sequence
//	MLP:        [bs x h]·[h x 4h/tp], [bs x 4h/tp]·[4h/tp x h]
//	MoE MLP:    k·ep/e·bs tokens per local expert, three h x f/tp products
//
// each at efficiency_max x its shape factor (the linear layers at the
// FP8 or FP4 peak x low_precision_ceiling in those precisions), plus the element-wise work
// (layer norms, dropout, residuals, activation), memory-bound at the
// GPU's HBM bandwidth; the backward pass repeats the forward's shapes
// twice; g is kv_heads/heads (grouped-query attention narrows the K and
// V projections). Larger micro-batches, longer sequences and narrower tensor
// parallelism move it, as well as the hidden size.
func computeEfficiency(w *Workload, gpu *GPUSpec, d *JCTData) float64 {
	c := d.Compute
	h, tp := float64(w.Hidden), float64(w.TP)
	s, b := float64(w.SeqLen), float64(w.MicroBatch)
	sl := w.localSeq() // context parallelism: this GPU's share of each sequence
	tokens := b * sl
	gemms := append(make([]gemm, 0, 5), // five shapes: no growth, kept off the heap
		gemm{tokens, (1 + 2*w.kvShare()) * h / tp, h, 1},
		gemm{tokens, h, h / tp, 1},
		gemm{sl, s, h / tp, 2 * b}, // QK^T and scores x V, per sequence: local queries against all keys
	)
	if f := expertWidth(w); f > 0 {
		ep := float64(max(w.EP, 1))
		local := float64(w.Experts) / ep // experts on one GPU
		perExpert := tokens * float64(max(w.TopK, 1)) / local
		gemms = append(gemms, gemm{perExpert, f / tp, h, 2 * local}, gemm{perExpert, h, f / tp, local})
	} else {
		gemms = append(gemms, gemm{tokens, 4 * h / tp, h, 1}, gemm{tokens, h, 4 * h / tp, 1})
	}
	peak := gpu.PeakTFLOPS * 1e12
	// The linear layers run in the workload's precision; attention's
	// score products (gemms[2]) stay BF16.
	linearPeak, linearEff := peak, gpu.EfficiencyMax
	if p := precisionOrBF16(w.Precision); p != PrecisionBF16 {
		linearPeak, linearEff = gpu.gemmPeakTFLOPS(p)*1e12, gpu.EfficiencyMax*c.LowPrecisionCeiling
	}
	var flops, seconds float64
	for i, g := range gemms {
		pk, eff := linearPeak, linearEff
		if i == 2 {
			pk, eff = peak, gpu.EfficiencyMax
		}
		flops += g.flops()
		seconds += g.flops() / (pk * eff * g.shapeFactor(c.GEMMDimHalf))
	}
	// Forward and backward (twice the forward's products); element-wise
	// bytes count both passes.
	flops, seconds = 3*flops, 3*seconds
	ew := c.ElementwiseBytes
	if gpu.ElementwiseBytes > 0 {
		ew = gpu.ElementwiseBytes
	}
	seconds += ew * tokens * h / tp / (gpu.HBMTBs * 1e12)
	return flops / (peak * seconds)
}

// precisionOrBF16 is p, or BF16 for "".
func precisionOrBF16(p string) string {
	if p == "" {
		return PrecisionBF16
	}
	return p
}
