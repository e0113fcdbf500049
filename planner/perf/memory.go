package perf

import (
	"fmt"
	"math"
)

// MemoryUse is what one GPU holds while training, in GB (10^9 bytes), on
// the pipeline stage that needs the most: model state (weights,
// gradients, optimizer) by the ZeRO stage's sharding, activations by
// Korthikanti et al.'s per-layer counts, and a reserve for the CUDA
// context, NCCL buffers and allocator slack.
type MemoryUse struct {
	Stage         string  `json:"stage"` // "first", "last" or "only" pipeline stage
	WeightsGB     float64 `json:"weights_gb"`
	GradientsGB   float64 `json:"gradients_gb"`
	OptimizerGB   float64 `json:"optimizer_gb"`
	ActivationsGB float64 `json:"activations_gb"`
	ReserveGB     float64 `json:"reserve_gb"`
	TotalGB       float64 `json:"total_gb"`
	HBMGB         float64 `json:"hbm_gb"`
	// TightGB is the most a layout may need and still run: the GPU's
	// memory plus the margin practitioners recover by rebalancing stages
	// and recomputing selectively (data/jct.toml [memory] tight_margin).
	TightGB float64 `json:"tight_gb"`
	// Status is MemoryFits, MemoryTight or MemoryOver.
	Status string `json:"status"`
}

// Memory statuses (MemoryUse.Status).
const (
	MemoryFits  = "fits"
	MemoryTight = "tight"
	MemoryOver  = "does not fit"
)

// Fits says whether the job runs in the GPU's memory: it fits, or it is
// tight (within the margin practitioners recover).
func (m MemoryUse) Fits() bool { return m.TotalGB <= max(m.TightGB, m.HBMGB) }

// OverGB is how much more than the GPU's memory the job needs (0 or
// negative when it fits).
func (m MemoryUse) OverGB() float64 { return m.TotalGB - m.HBMGB }

// status classifies the total against the memory and the tight margin.
func (m MemoryUse) status() string {
	switch {
	case m.TotalGB <= m.HBMGB:
		return MemoryFits
	case m.Fits():
		return MemoryTight
	}
	return MemoryOver
}

// Finding is the one-line verdict people read: empty when the job fits
// with room to spare.
func (m MemoryUse) Finding() string {
	switch m.Status {
	case MemoryTight:
		return fmt.Sprintf("memory tight: %.1f of %.0f GB per GPU, %.1f GB over but within the %.0f%% margin that stage rebalancing and selective recomputation recover (data/jct.toml [memory] tight_margin)",
			m.TotalGB, m.HBMGB, m.OverGB(), 100*(m.TightGB/m.HBMGB-1))
	case MemoryOver:
		return fmt.Sprintf("does not fit: needs %.1f of %.0f GB per GPU, %.1f GB over (tight would be up to %.0f GB)",
			m.TotalGB, m.HBMGB, m.OverGB(), m.TightGB)
	}
	return ""
}

// String is the breakdown as people read it.
func (m MemoryUse) String() string {
	return fmt.Sprintf("%.1f of %.0f GB per GPU on the %s pipeline stage (weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f, reserve %.0f)",
		m.TotalGB, m.HBMGB, m.Stage, m.WeightsGB, m.GradientsGB, m.OptimizerGB, m.ActivationsGB, m.ReserveGB)
}

// zeroStage is the workload's ZeRO stage: zero_stage when given, else 1
// for the distributed optimizer (zero = true), else 0.
func (w *Workload) zeroStage() int {
	switch {
	case w.ZeROStage > 0:
		return w.ZeROStage
	case w.ZeRO:
		return 1
	}
	return 0
}

// memoryUse is one GPU's memory for the resolved workload w at data-
// parallel size dp: the larger of the first and the last pipeline stage.
func memoryUse(w Workload, gpu *GPUSpec, d *JCTData, dp int) MemoryUse {
	mc := d.Memory
	const gb = 1e9
	tp, pp := float64(w.TP), float64(w.PP)
	h, s, b := float64(w.Hidden), w.localSeq(), float64(w.MicroBatch)

	// Parameters: embeddings (input and output tables, untied as in
	// Llama), experts (sharded over ep as well) and the rest.
	embed := float64(w.Vocab) * h
	total := w.ParamsB * 1e9
	experts, mlpScale := 0.0, w.mlpActivationScale(0)
	if f := expertWidth(&w); f > 0 {
		// A token's MLP activations go through k experts of width f and
		// the shared experts; a dense MLP is 4h wide. dense_layers of
		// the layers hold a dense MLP instead.
		moeLayers := w.Layers - w.denseLayers()
		experts = float64(w.Experts) * float64(moeLayers) * w.mlpMatrices(true) * h * f
		mlpScale = w.mlpActivationScale(f)
		if dl := w.denseLayers(); dl > 0 {
			share := float64(dl) / float64(w.Layers)
			mlpScale = share*w.mlpActivationScale(0) + (1-share)*mlpScale
		}
	}
	body := max(total-experts-2*embed, 0) // the builtin: math.Max is not inlined, and a job over memory sizes a hundred candidates
	// The optimizer shards over the data- and context-parallel ranks.
	shardDP := float64(dp * w.cp())
	// The experts' optimizer shards over the expert data-parallel ranks.
	expertDP := w.expertDP(dp)

	// Model state per parameter, by what the ZeRO stage shards over the
	// data-parallel group (Rajbhandari et al. 2020, section 5).
	zs := w.zeroStage()
	state := func(params, shards float64) (weights, grads, opt float64) {
		weights, grads, opt = params*mc.WeightBytes, params*mc.GradBytes, params*mc.OptimizerBytes
		if zs >= 1 {
			opt /= shards
		}
		if zs >= 2 {
			grads /= shards
		}
		if zs >= 3 {
			weights /= shards
		}
		return weights, grads, opt
	}

	// Activations per layer and micro-batch, bytes: s·b·h/tp times 34
	// (attention 15 + MLP 19, flash attention and sequence parallelism),
	// or 2 with full recomputation, which also rebuilds one layer's in
	// the backward pass.
	// Grouped-query attention keeps K and V kv_heads/heads as wide.
	attention := mc.AttentionActivation - mc.KVActivation*(1-w.kvShare())
	full := s * b * h / tp * (attention + mc.MLPActivation*mlpScale)
	rc := w.recomputeShare() // layers that keep only their input, the rest all
	perLayer := rc*s*b*h/tp*mc.RecomputeActivation + (1-rc)*full
	layersPerStage := float64(w.Layers) / pp
	logits := mc.LogitBytes * s * b * float64(w.Vocab) / tp

	stage := func(name string, embeds float64, inFlight float64, withLogits bool) MemoryUse {
		m := MemoryUse{Stage: name, ReserveGB: mc.ReserveGB, HBMGB: gpu.HBMGB, TightGB: gpu.HBMGB * (1 + mc.TightMargin)}
		dw, dg, do := state((body/pp+embeds)/tp, shardDP)
		ew, eg, eo := state(experts/(pp*float64(w.etp()*max(w.EP, 1))), expertDP)
		m.WeightsGB, m.GradientsGB, m.OptimizerGB = (dw+ew)/gb, (dg+eg)/gb, (do+eo)/gb
		act := layersPerStage * inFlight * perLayer
		if rc > 0 {
			act += full
		}
		if withLogits {
			act += logits
		}
		m.ActivationsGB = act / gb
		m.TotalGB = m.WeightsGB + m.GradientsGB + m.OptimizerGB + m.ActivationsGB + m.ReserveGB
		m.Status = m.status()
		return m
	}
	if w.PP == 1 {
		return stage("only", 2*embed, 1, true)
	}
	// 1F1B: the first stage holds min(pp, micro-batches) in flight, more
	// with interleaving (Korthikanti et al. section 4.2.3); the last one.
	micro := microbatches(&w, dp)
	inFlight := float64(min(w.PP, micro))
	if w.VPP > 1 {
		inFlight *= 1 + (pp-1)/(pp*float64(w.VPP))
	}
	first := stage("first", embed, inFlight, false)
	last := stage("last", embed, 1, true)
	if last.TotalGB > first.TotalGB {
		return last
	}
	return first
}

// microbatches is the micro-batches each data-parallel rank runs a step.
func microbatches(w *Workload, dp int) int {
	seqs := float64(w.GlobalBatchTokens) / float64(w.SeqLen)
	return max(int(math.Ceil(seqs/float64(w.MicroBatch*dp))), 1)
}

// mlpActivationScale is an MLP's activations per token against a GELU
// MLP 4h wide (Korthikanti et al.'s 19 bytes per element of s·b·h): a
// dense MLP of ffn_hidden, or with f > 0 an MoE layer's top_k experts
// of width f and its shared experts, each as wide as its width; an MLP
// whose kind is given keeps the outputs of its x - 1 up products (gate
// and up for SwiGLU), x - 1 times a GELU's. With no kind given an
// expert's count is the one before kinds: one width.
func (w *Workload) mlpActivationScale(f float64) float64 {
	h := float64(w.Hidden)
	ups := 1.0
	if w.Architecture != nil && w.Architecture.MLP != "" {
		ups = w.mlpMatrices(f > 0) - 1
	}
	if f <= 0 {
		return ups * w.ffnWidth() / (4 * h)
	}
	return ups * (float64(max(w.TopK, 1))*f + w.sharedWidth(f)) / (4 * h)
}
