package perf

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
)

// Architecture is the model's shape past its size, as a published run
// or a model card states it: every field optional, and a field left at
// zero ("" for strings) takes the derivation the model made before it
// was given (an MLP 4·hidden wide of two matrices, one expert width
// from params_b and active_params_b, every layer an MoE layer, heads
// hidden/heads wide). A Workload holds it by pointer, embedded (its
// fields sit in [workload] beside the others): an Architecture is never
// changed once a workload holds it, since copies of the workload share
// it and the estimate memo keys on the pointer; set a new one to change
// it.
type Architecture struct {
	// FFNHidden is the width of a dense layer's MLP (Megatron-LM
	// --ffn-hidden-size; 0: 4·hidden).
	FFNHidden int `toml:"ffn_hidden,omitempty,omitzero" json:"ffn_hidden,omitempty"`
	// MLP is the MLP's kind: "gelu" (or "squared_relu": two matrices,
	// h x ffn and ffn x h) or "swiglu" (three: gate and up, then down;
	// Shazeer, GLU Variants Improve Transformer, 2020). "" is two
	// matrices for a dense layer and three for an expert, the shapes
	// the model took before (expertWidth's count).
	MLP string `toml:"mlp,omitempty" json:"mlp,omitempty"`
	// ExpertFFNHidden is one routed expert's MLP width (Megatron-LM
	// --moe-ffn-hidden-size; 0: derived from params_b and
	// active_params_b, expertWidth).
	ExpertFFNHidden int `toml:"expert_ffn_hidden,omitempty,omitzero" json:"expert_ffn_hidden,omitempty"`
	// SharedExperts is the experts every token goes through besides its
	// top_k routed ones (DeepSeek-V3: 1), each SharedExpertFFNHidden
	// wide (0: the routed experts' width), run as a dense MLP on the
	// tensor-parallel group (Megatron-Core SharedExpertMLP).
	SharedExperts         int `toml:"shared_experts,omitempty,omitzero" json:"shared_experts,omitempty"`
	SharedExpertFFNHidden int `toml:"shared_expert_ffn_hidden,omitempty,omitzero" json:"shared_expert_ffn_hidden,omitempty"`
	// DenseLayers is how many of an MoE model's layers have a dense MLP
	// of FFNHidden instead of experts (DeepSeek-V3's
	// first_k_dense_replace: 3); 0: every layer is an MoE layer.
	DenseLayers int `toml:"dense_layers,omitempty,omitzero" json:"dense_layers,omitempty"`
	// HeadDim is the width of one attention head (0: hidden/heads); the
	// query projection is heads·head_dim wide, key and value
	// kv_heads·head_dim (Qwen3: 128, wider than 4,096/64).
	HeadDim int `toml:"head_dim,omitempty,omitzero" json:"head_dim,omitempty"`
	// QKHeadDim and VHeadDim are multi-head latent attention's per-head
	// widths of the query and key (with the rotary part) and of the value
	// (DeepSeek-V3: 192 and 128); 0 takes HeadDim. MLA is on with
	// KVLoRARank: queries come through a QLoRARank-wide low-rank
	// projection (0: a full h x heads·qk one), keys and values through a
	// KVLoRARank one plus QKRopeHeadDim rotary columns shared by the
	// heads (DeepSeek-V2, arXiv 2405.04434, section 2.1; DeepSeek-V3
	// config.json: q_lora_rank 1536, kv_lora_rank 512,
	// qk_rope_head_dim 64).
	QKHeadDim     int `toml:"qk_head_dim,omitempty,omitzero" json:"qk_head_dim,omitempty"`
	VHeadDim      int `toml:"v_head_dim,omitempty,omitzero" json:"v_head_dim,omitempty"`
	QLoRARank     int `toml:"q_lora_rank,omitempty,omitzero" json:"q_lora_rank,omitempty"`
	KVLoRARank    int `toml:"kv_lora_rank,omitempty,omitzero" json:"kv_lora_rank,omitempty"`
	QKRopeHeadDim int `toml:"qk_rope_head_dim,omitempty,omitzero" json:"qk_rope_head_dim,omitempty"`
	// RecomputeModules is selective recomputation: the submodules whose
	// forward pass the backward one replays (Megatron-Core
	// --recompute-granularity selective --recompute-modules; names in
	// RecomputeModuleNames). A choice of the run, not of the model, kept
	// here so that a Workload stays in its size class. Empty with
	// recompute = false and no recompute_layers: none; it may not be
	// given with either (they recompute whole layers).
	RecomputeModules []string `toml:"recompute_modules,omitempty" json:"recompute_modules,omitempty"`
}

// Clone is a copy of a that shares nothing with it (nil for nil), for a
// workload copied to be edited.
func (a *Architecture) Clone() *Architecture {
	if a == nil {
		return nil
	}
	c := *a
	c.RecomputeModules = slices.Clone(a.RecomputeModules)
	return &c
}

// MLP kinds (Architecture.MLP).
const (
	MLPGELU        = "gelu"
	MLPSquaredReLU = "squared_relu"
	MLPSwiGLU      = "swiglu"
)

// Selective recomputation's modules (Architecture.RecomputeModules):
// Megatron-Core's, megatron/core/transformer/transformer_config.py,
// recompute_modules ("core_attn": the core attention; "moe_act": the
// MoE MLP's activation function; "layernorm": input_layernorm and
// pre_mlp_layernorm; "mla_up_proj": the MLA up projections and RoPE;
// "mlp": the dense MLP; "moe": the MoE layer; "shared_experts": the
// shared experts). The FLOPs each replays are recomputedFLOPs'.
const (
	RecomputeCoreAttn      = "core_attn"
	RecomputeMoEAct        = "moe_act"
	RecomputeLayerNorm     = "layernorm"
	RecomputeMLAUpProj     = "mla_up_proj"
	RecomputeMLP           = "mlp"
	RecomputeMoE           = "moe"
	RecomputeSharedExperts = "shared_experts"
)

// RecomputeModuleNames are the modules selective recomputation may name.
var RecomputeModuleNames = []string{RecomputeCoreAttn, RecomputeMoEAct, RecomputeLayerNorm, RecomputeMLAUpProj, RecomputeMLP, RecomputeMoE, RecomputeSharedExperts}

// maxArchDim bounds every width and count of an Architecture: above it
// a value is a typing mistake (the widest published FFN, Nemotron-4
// 340B's, is 73,728).
const maxArchDim = 1 << 20

// checkArchitecture checks a resolved workload's architecture: widths
// and counts within range, a known MLP kind and recompute modules,
// dense layers fewer than the layers of an MoE model, latent attention
// with its widths, and selective recomputation alone.
func checkArchitecture(w *Workload) error {
	a := w.Architecture
	if a == nil {
		return nil
	}
	if err := a.checkDims(); err != nil {
		return err
	}
	switch a.MLP {
	case "", MLPGELU, MLPSquaredReLU, MLPSwiGLU:
	default:
		return fielderr.New("workload.mlp", `use "gelu", "squared_relu" or "swiglu"`, "unknown MLP kind %q", a.MLP)
	}
	if a.DenseLayers > 0 && (w.Experts <= 1 || a.DenseLayers >= w.Layers) {
		return fielderr.New("workload.dense_layers", fmt.Sprintf("give fewer than the %d layers, on an MoE model (experts > 1)", w.Layers),
			"%d dense layers of %d with %d experts", a.DenseLayers, w.Layers, w.Experts)
	}
	if err := a.checkLatent(w); err != nil {
		return err
	}
	return a.checkRecompute(w)
}

// checkDims checks every width and count of a is 0 to maxArchDim.
func (a *Architecture) checkDims() error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"ffn_hidden", a.FFNHidden}, {"expert_ffn_hidden", a.ExpertFFNHidden}, {"shared_experts", a.SharedExperts},
		{"shared_expert_ffn_hidden", a.SharedExpertFFNHidden}, {"dense_layers", a.DenseLayers}, {"head_dim", a.HeadDim},
		{"qk_head_dim", a.QKHeadDim}, {"v_head_dim", a.VHeadDim}, {"q_lora_rank", a.QLoRARank},
		{"kv_lora_rank", a.KVLoRARank}, {"qk_rope_head_dim", a.QKRopeHeadDim},
	} {
		if f.v < 0 || f.v > maxArchDim {
			return fielderr.New("workload."+f.name, fmt.Sprintf("give 0 (derived) to %d", maxArchDim), "%s %d out of range", f.name, f.v)
		}
	}
	return nil
}

// checkLatent checks latent attention has its kv_lora_rank and rotary
// columns narrower than a query-key head.
func (a *Architecture) checkLatent(w *Workload) error {
	if (a.QLoRARank > 0 || a.QKRopeHeadDim > 0) && a.KVLoRARank == 0 {
		return fielderr.New("workload.kv_lora_rank", "give kv_lora_rank for latent attention, or leave q_lora_rank and qk_rope_head_dim out", "latent attention without a kv_lora_rank")
	}
	if a.KVLoRARank > 0 && a.QKRopeHeadDim >= a.qkDim(w) {
		return fielderr.New("workload.qk_rope_head_dim", fmt.Sprintf("give less than qk_head_dim (%d)", a.qkDim(w)), "%d rotary columns of a %d-wide head", a.QKRopeHeadDim, a.qkDim(w))
	}
	return nil
}

// checkRecompute checks selective recomputation names known modules
// and comes without whole-layer recomputation.
func (a *Architecture) checkRecompute(w *Workload) error {
	for _, m := range a.RecomputeModules {
		if !slices.Contains(RecomputeModuleNames, m) {
			return fielderr.New("workload.recompute_modules", "use "+strings.Join(RecomputeModuleNames, ", "), "unknown recompute module %q", m)
		}
	}
	if len(a.RecomputeModules) > 0 && (w.Recompute || w.RecomputeLayers > 0) {
		return fielderr.New("workload.recompute_modules", "give recompute_modules or recompute / recompute_layers, not both", "selective and whole-layer recomputation together")
	}
	return nil
}

// headDim is one attention head's width: head_dim, else hidden/heads
// (hidden with no heads).
func (a *Architecture) headDim(w *Workload) float64 {
	if a != nil && a.HeadDim > 0 {
		return float64(a.HeadDim)
	}
	return float64(w.Hidden) / float64(max(w.Heads, 1))
}

// qkDim is a query and key head's width: qk_head_dim, else headDim.
func (a *Architecture) qkDim(w *Workload) int {
	if a != nil && a.QKHeadDim > 0 {
		return a.QKHeadDim
	}
	return int(a.headDim(w))
}

// attentionWidths are the query-key and value widths of all the heads,
// heads·qk and heads·v (both hidden by default).
func (w *Workload) attentionWidths() (qk, v float64) {
	a := w.Architecture
	heads := float64(max(w.Heads, 1))
	if a == nil || (a.HeadDim == 0 && a.QKHeadDim == 0 && a.VHeadDim == 0) {
		h := float64(w.Hidden)
		return h, h
	}
	qk, v = heads*float64(a.qkDim(w)), heads*a.headDim(w)
	if a.VHeadDim > 0 {
		v = heads * float64(a.VHeadDim)
	}
	return qk, v
}

// mla says whether the attention is multi-head latent attention.
func (w *Workload) mla() bool { return w.Architecture != nil && w.Architecture.KVLoRARank > 0 }

// appendAttentionGEMMs appends one layer's attention products on one GPU
// for tokens tokens (sl of each sequence local, s in all, b sequences)
// after tensor parallelism over tp: the projections in, the projection
// out, the score products (kind gemmScore). By default (no head
// widths) [tokens x h]·[h x (1+2g)h/tp], [tokens x h/tp]·[h/tp x h], [sl x
// s]·[s x h/tp] twice per sequence, g = kv_heads/heads; with head
// widths the query is heads·qk wide, key kv_heads·qk, value
// kv_heads·v; with latent attention (mla) the query comes down to
// q_lora_rank and up to heads·qk (or straight up with no q_lora_rank),
// key and value down to kv_lora_rank plus the shared rotary columns
// (not split by tp: Megatron-Core's MLA runs its down projections
// replicated) and up to heads·(qk - rope + v).
func (w *Workload) appendAttentionGEMMs(out []gemm, tokens, sl, s, b, tp float64) []gemm {
	h := float64(w.Hidden)
	qk, v := w.attentionWidths()
	if w.mla() {
		a := w.Architecture
		heads := float64(max(w.Heads, 1))
		rope := float64(a.QKRopeHeadDim)
		if a.QLoRARank > 0 {
			q := float64(a.QLoRARank)
			out = append(out, gemm{m: tokens, n: q, k: h, times: 1, kind: gemmReplicated}, gemm{m: tokens, n: qk / tp, k: q, times: 1})
		} else {
			out = append(out, gemm{m: tokens, n: qk / tp, k: h, times: 1})
		}
		kv := float64(a.KVLoRARank)
		out = append(out,
			gemm{m: tokens, n: kv + rope, k: h, times: 1, kind: gemmReplicated},
			gemm{m: tokens, n: (qk - heads*rope + v) / tp, k: kv, times: 1})
	} else {
		g := w.kvShare()
		n := (1 + 2*g) * qk / tp // K and V as wide as Q: the form before head widths, to the bit
		if qk != v {
			n = (qk + g*qk + g*v) / tp
		}
		out = append(out, gemm{m: tokens, n: n, k: h, times: 1})
	}
	out = append(out, gemm{m: tokens, n: h, k: v / tp, times: 1})
	if qk == v {
		// QK^T and scores x V, per sequence: local queries against all keys.
		return append(out, gemm{m: sl, n: s, k: qk / tp, times: 2 * b, kind: gemmScore})
	}
	return append(out, gemm{m: sl, n: s, k: qk / tp, times: b, kind: gemmScore}, gemm{m: sl, n: v / tp, k: s, times: b, kind: gemmScore})
}

// mlpMatrices is how many h x width matrices an MLP of the workload
// has: three for SwiGLU, two for GELU and squared ReLU; with no kind
// given, expert (true) for an expert's (three, as expertWidth counts)
// or two for a dense layer's.
func (w *Workload) mlpMatrices(expert bool) float64 {
	switch {
	case w.Architecture != nil && w.Architecture.MLP == MLPSwiGLU:
		return 3
	case w.Architecture != nil && w.Architecture.MLP != "":
		return 2
	case expert:
		return 3
	}
	return 2
}

// ffnWidth is a dense layer's MLP width: ffn_hidden, else 4·hidden.
func (w *Workload) ffnWidth() float64 {
	if a := w.Architecture; a != nil && a.FFNHidden > 0 {
		return float64(a.FFNHidden)
	}
	return 4 * float64(w.Hidden)
}

// appendMLPGEMMs appends a dense MLP of width f on tokens tokens after
// tensor parallelism over tp: [tokens x h]·[h x (x-1)·f/tp] (the gate
// and up products fused, or the one up product) and [tokens x f/tp]·
// [f/tp x h], x the MLP's matrices.
func appendMLPGEMMs(out []gemm, tokens, h, f, tp, matrices float64) []gemm {
	return append(out, gemm{m: tokens, n: (matrices - 1) * f / tp, k: h, times: 1}, gemm{m: tokens, n: h, k: f / tp, times: 1})
}

// sharedWidth is the shared experts' total width: shared_experts x
// shared_expert_ffn_hidden (the routed width where not given); 0
// without shared experts or with no experts.
func (w *Workload) sharedWidth(f float64) float64 {
	a := w.Architecture
	if a == nil || a.SharedExperts == 0 || f <= 0 {
		return 0
	}
	if a.SharedExpertFFNHidden > 0 {
		f = float64(a.SharedExpertFFNHidden)
	}
	return float64(a.SharedExperts) * f
}

// denseLayers is how many of the layers have a dense MLP: dense_layers
// for an MoE model, all of them for a dense one.
func (w *Workload) denseLayers() int {
	if w.Architecture != nil {
		return w.Architecture.DenseLayers
	}
	return 0
}

// attentionFLOPsPerToken is the score products' FLOPs per token, layer
// and pass of three (forward and twice backward): 6·s·(qk + v)/2·2 =
// 6·s·(qk+v), with qk and v the heads' widths (12·h·s with the default
// heads: PaLM's 12·L·h·s, per layer).
func (w *Workload) attentionFLOPsPerToken() float64 {
	qk, v := w.attentionWidths()
	return 6 * float64(w.SeqLen) * (qk + v)
}

// selective says whether the workload recomputes named modules.
func (w *Workload) selective() bool {
	return w.Architecture != nil && len(w.Architecture.RecomputeModules) > 0
}

// recomputedFLOPsPerToken is the forward FLOPs per token, over every
// layer, that selective recomputation replays: each named module's
// forward products (2 FLOPs a multiply-add):
//
//   - core_attn: the score products, 2·s·(qk + v) a layer;
//   - mla_up_proj: latent attention's up projections, 2·(q_lora·heads·qk
//   - kv_lora·heads·(qk - rope + v)) a layer (none without MLA);
//   - mlp: the dense MLP, 2·x·h·ffn a dense layer (every layer of a
//     dense model);
//   - moe: the routed and shared experts, 2·x·h·(k·f + shared) an MoE
//     layer;
//   - shared_experts: the shared experts, 2·x·h·shared an MoE layer;
//   - moe_act, layernorm: element-wise, no matrix product (their memory
//     traffic is not charged).
func (w *Workload) recomputedFLOPsPerToken() float64 {
	if !w.selective() {
		return 0
	}
	a := w.Architecture
	h, s := float64(w.Hidden), float64(w.SeqLen)
	layers := float64(w.Layers)
	f := expertWidth(w)
	dense, moe := float64(w.denseLayers()), 0.0
	if f > 0 {
		moe = layers - dense
	} else {
		dense = layers
	}
	qk, v := w.attentionWidths()
	shared := w.sharedWidth(f)
	var perToken float64
	for _, m := range a.RecomputeModules {
		switch m {
		case RecomputeCoreAttn:
			perToken += layers * 2 * s * (qk + v)
		case RecomputeMLAUpProj:
			if w.mla() {
				heads, rope := float64(max(w.Heads, 1)), float64(a.QKRopeHeadDim)
				perToken += layers * 2 * (float64(a.QLoRARank)*qk + float64(a.KVLoRARank)*(qk-heads*rope+v))
			}
		case RecomputeMLP:
			perToken += dense * 2 * w.mlpMatrices(false) * h * w.ffnWidth()
		case RecomputeMoE:
			perToken += moe * 2 * w.mlpMatrices(true) * h * (float64(max(w.TopK, 1))*f + shared)
		case RecomputeSharedExperts:
			perToken += moe * 2 * w.mlpMatrices(true) * h * shared
		}
	}
	return perToken
}
