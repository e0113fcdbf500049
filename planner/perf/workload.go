package perf

import "fmt"

// Workload is the training job the JCT model times: a model (a preset from
// data/jct.toml, with any field overridden), a GPU, the batch and the
// parallelism. Zero numeric fields take the preset's value; nil overlaps
// take data/jct.toml's defaults.
type Workload struct {
	// Kind is what the cluster runs: "training" ("" too), "inference"
	// or "rl" (planner/serve times the last two; this package times
	// the training step of every kind's [workload]).
	Kind  string `toml:"kind,omitempty"`
	Model string `toml:"model"`
	GPU   string `toml:"gpu"`

	ParamsB       float64 `toml:"params_b,omitempty,omitzero"`
	ActiveParamsB float64 `toml:"active_params_b,omitempty,omitzero"`
	Layers        int     `toml:"layers,omitempty,omitzero"`
	Hidden        int     `toml:"hidden,omitempty,omitzero"`
	SeqLen        int     `toml:"seq_len,omitempty,omitzero"`
	Vocab         int     `toml:"vocab,omitempty,omitzero"`
	Experts       int     `toml:"experts,omitempty,omitzero"`
	TopK          int     `toml:"top_k,omitempty,omitzero"`
	// Heads and KVHeads are the attention's query heads and key/value
	// heads (grouped-query attention when fewer); 0 takes the preset's,
	// and no KV heads means one per query head.
	Heads   int `toml:"heads,omitempty,omitzero"`
	KVHeads int `toml:"kv_heads,omitempty,omitzero"`
	// Framework is the training stack that runs the job (a key of
	// data/jct.toml [frameworks]: "megatron-te", "megatron-legacy",
	// "fsdp", "fsdp2", "deepspeed", "composer", "torchtitan", ...): it
	// sets the overlaps the workload leaves unset and the class of its
	// kernels. "" takes [overlap]'s defaults and the GPU's kernels.
	Framework string `toml:"framework,omitempty"`
	// Precision is the GEMMs' number format: "bf16" (or ""), "fp8",
	// "mxfp8" (block-scaled, Blackwell) or "fp4", where the GPU has it.
	Precision string `toml:"precision,omitempty"`
	// RouteNodes is node-limited routing: each token goes to experts on
	// at most this many nodes (NVLink domains), sent once per node and
	// fanned out over NVLink (DeepSeek-V3: 4); 0 sends every copy.
	RouteNodes int `toml:"route_nodes,omitempty,omitzero"`

	GlobalBatchTokens int `toml:"global_batch_tokens"`
	MicroBatch        int `toml:"micro_batch"`
	TP                int `toml:"tp"`
	// CP is context parallelism: each sequence split over cp GPUs, which
	// pass K and V around a ring (0 is 1).
	CP int `toml:"cp,omitempty,omitzero"`
	PP int `toml:"pp"`
	// VPP is the virtual pipeline stages per pipeline stage
	// (interleaving); 0 takes DefaultVPP with a pipeline (fillVPP).
	VPP int `toml:"vpp"`
	EP  int `toml:"ep"`
	// ETP is the expert layers' tensor parallelism (Megatron-Core's
	// expert_tensor_parallel_size): each expert's MLP split over etp
	// GPUs; 0 takes tp, Megatron-LM's default. The expert layers fold
	// etp x ep x expert data parallel over the tp x cp x dp GPUs of a
	// pipeline stage (MoE parallel folding), so with etp below tp the
	// expert-parallel group may reach past dp into the tensor group.
	ETP  int  `toml:"etp,omitempty,omitzero"`
	ZeRO bool `toml:"zero"`
	// Recompute sits beside ZeRO so the two bools share a word: a
	// Workload keeps a JCT within its size class (TestJCTSizeClass).
	Recompute bool `toml:"recompute"`
	// RecomputeLayers is how many of the model's layers recompute their
	// forward pass in the backward one, where recompute leaves them not
	// all (Megatron-LM --recompute-granularity full --recompute-method
	// block --recompute-num-layers n: n per virtual stage, n·pp·vpp in
	// all); 0 with recompute = false is none. At most layers. Two bytes
	// beside the bools: no more words.
	RecomputeLayers uint16 `toml:"recompute_layers,omitempty,omitzero"`
	// TokenDrop is Megatron-Core's token dropping with padding at a
	// capacity factor of 1 (moe_expert_capacity_factor = 1.0 with
	// moe_pad_expert_input_to_capacity, the defaults of NeMo's
	// MegatronTokenDropCallback, which its performance recipes add):
	// each expert takes exactly its mean load, the tokens past it
	// dropped and the room below it padded, so no GPU of the
	// expert-parallel group waits for a more loaded one. false is
	// dropless (every token computed, the wait charged). A byte beside
	// the bools: no more words.
	TokenDrop bool `toml:"token_drop,omitempty"`
	// defaulted marks the overlaps fillOverlaps filled (bit i for
	// overlapClasses[i]) and the vpp fillVPP derived (vppDefaulted,
	// vppCapped): the breakdown names where they came from.
	defaulted uint8
	// ZeROStage is 0-3: what the data-parallel group shards (1 the
	// optimizer, 2 also gradients, 3 also weights); 0 takes 1 with zero
	// = true, else none.
	ZeROStage   int     `toml:"zero_stage,omitempty,omitzero"`
	TokensTotal float64 `toml:"tokens_total"`
	// ComputeEfficiency overrides the GPU's achieved fraction of peak on
	// the model's GEMMs (0: the GPU preset's curve).
	ComputeEfficiency float64 `toml:"compute_efficiency,omitempty,omitzero"`

	// Placement is where the scheduler puts the job's servers: "packed"
	// (contiguous: a group leaves its leaf group only when it spans more
	// than one) or "spread" (scattered: every group that leaves the
	// NVLink domain crosses the tier above the leaves). "" is packed.
	Placement string `toml:"placement,omitempty"`
	// Jobs is how many jobs of this shape share the cluster at once, each
	// on an equal share of its GPUs (0 is 1).
	Jobs int `toml:"jobs,omitempty,omitzero"`
	// QueuePairs is the RDMA queue pairs NCCL opens per connection
	// (NCCL_IB_QPS_PER_CONNECTION); each is one flow for ECMP to hash.
	// 0 takes data/jct.toml's default.
	QueuePairs int `toml:"qps_per_connection,omitempty,omitzero"`
	// Polarization overrides data/jct.toml's [ecmp] polarization for this
	// fabric: the share of a second hashed stage's uplinks static routing
	// cannot reach because the switches repeat the first stage's hash (0:
	// independent hashes, 1: the second stage never re-spreads); nil takes
	// the data's.
	Polarization *float64 `toml:"polarization,omitempty"`
	// Phase is how other jobs' traffic on shared links lines up with
	// this job's: "random" ("" too: they cross for their share of a
	// step) or "aligned" (they cross exactly when this job does).
	Phase string `toml:"phase,omitempty"`
	// BackgroundLeaf and BackgroundSpine are the fractions (0 to 0.9) of
	// the leaf uplinks' and the spine uplinks' capacity other traffic
	// holds while the job runs.
	BackgroundLeaf  float64 `toml:"background_leaf,omitempty,omitzero"`
	BackgroundSpine float64 `toml:"background_spine,omitempty,omitzero"`
	// Algorithm forces the all-reduce algorithm: "ring", "tree", "nvls",
	// "nvls_tree" or "sharp"; "" picks the fastest that can run.
	Algorithm string `toml:"algorithm,omitempty"`

	OverlapDP *float64 `toml:"overlap_dp,omitempty,omitzero"`
	OverlapPP *float64 `toml:"overlap_pp,omitempty,omitzero"`
	OverlapTP *float64 `toml:"overlap_tp,omitempty,omitzero"`
	OverlapEP *float64 `toml:"overlap_ep,omitempty,omitzero"`
	OverlapCP *float64 `toml:"overlap_cp,omitempty,omitzero"`

	// Architecture is the model's shape past its size (ffn_hidden, mlp,
	// expert_ffn_hidden, shared experts, dense_layers, head widths,
	// latent attention) and selective recomputation's modules, each
	// optional; nil takes the derivations from params_b, hidden and
	// heads. Embedded: its fields sit in [workload]. Shared by copies
	// of the workload: never changed once set.
	*Architecture

	// computeEff caches the compute efficiency worked out from the
	// shapes while one estimate times the job many ways (0: not yet).
	computeEff float64
}

// NewWorkload returns the default job: Llama 3 70B on H100, tensor
// parallel 8 inside the server, pipeline parallel 4 with 5 virtual
// stages (DefaultVPP, derived: VPP is left at 0), 16M-token batches
// (Llama 3's), distributed optimizer, one trillion tokens.
func NewWorkload() Workload {
	return Workload{
		Model: "llama3-70b", GPU: "h100",
		GlobalBatchTokens: 16 << 20, MicroBatch: 1,
		TP: 8, PP: 4, EP: 1, ZeRO: true,
		TokensTotal: 1e12,
	}
}

// Precisions a workload's GEMMs may run in.
const (
	PrecisionBF16  = "bf16"
	PrecisionFP8   = "fp8"
	PrecisionMXFP8 = "mxfp8"
	PrecisionFP4   = "fp4"
)

var precisions = []string{PrecisionBF16, PrecisionFP8, PrecisionMXFP8, PrecisionFP4}

func validPrecision(p string) bool {
	if p == "" {
		return true
	}
	for _, q := range precisions {
		if p == q {
			return true
		}
	}
	return false
}

// Precisions lists the GEMM precisions gpu runs: BF16, then FP8 and
// MXFP8 and FP4 where it has them.
func (g *GPUSpec) Precisions() []string { return g.appendPrecisions(nil) }

// appendPrecisions appends the precisions gpu runs to out.
func (g *GPUSpec) appendPrecisions(out []string) []string {
	out = append(out, PrecisionBF16)
	if g.FP8TFLOPS > 0 {
		out = append(out, PrecisionFP8)
	}
	if g.MXFP8 {
		out = append(out, PrecisionMXFP8)
	}
	if g.FP4TFLOPS > 0 {
		out = append(out, PrecisionFP4)
	}
	return out
}

// gemmPeakTFLOPS is gpu's dense peak for the linear layers' GEMMs in
// precision p (BF16's for "" or an unknown one).
func (g *GPUSpec) gemmPeakTFLOPS(p string) float64 {
	switch p {
	case PrecisionFP8, PrecisionMXFP8:
		return g.FP8TFLOPS
	case PrecisionFP4:
		return g.FP4TFLOPS
	}
	return g.PeakTFLOPS
}

// DefaultVPP is the virtual stages per pipeline stage a workload with a
// pipeline takes when it gives no vpp: the default job's (Llama 3 70B,
// 80 layers at pp 4 in 5 virtual stages of 4 layers, NewWorkload).
const DefaultVPP = 5

// Bits of Workload.defaulted past the overlaps': vpp was not given
// (vppDefaulted), and DefaultVPP was more than a stage's layers
// (vppCapped).
const (
	vppDefaulted = 1 << (len(overlapClasses) + iota)
	vppCapped
)

// fillVPP gives a workload without a vpp (0) one it can run, and marks
// it derived: 1 without a pipeline (no stage to interleave), else
// DefaultVPP, capped at the layers one stage holds (rounded up, the
// bound checkConsistency holds a typed vpp to), so a default the user
// never typed never refuses a shallow model.
func fillVPP(w *Workload) {
	if w.VPP > 0 {
		return
	}
	w.defaulted |= vppDefaulted
	if w.PP <= 1 {
		w.VPP = 1
		return
	}
	perStage := max((w.Layers+w.PP-1)/w.PP, 1)
	w.VPP = DefaultVPP
	if perStage < DefaultVPP {
		w.VPP = perStage
		w.defaulted |= vppCapped
	}
}

// vppOrigin says where a derived vpp came from, for the breakdown: ""
// for a vpp the workload gave.
func (w *Workload) vppOrigin() string {
	switch {
	case w.defaulted&vppCapped != 0:
		return fmt.Sprintf(" (default %d, capped at the %d layers a stage holds)", DefaultVPP, w.VPP)
	case w.defaulted&vppDefaulted != 0:
		return " (default)"
	}
	return ""
}

// cp is the context-parallel size, at least 1. It and the other small
// figures of a workload below take it by pointer: a Workload is some
// 350 bytes, and a value receiver copied it whole at each call, inlined
// or not (a step reads them a dozen times).
func (w *Workload) cp() int { return max(w.CP, 1) }

// etp is the expert layers' tensor-parallel size: ETP, or tp when it is
// not set (Megatron-LM megatron/training/arguments.py: "if
// args.expert_tensor_parallel_size is None: args.expert_tensor_parallel_size
// = args.tensor_model_parallel_size").
func (w *Workload) etp() int {
	if w.ETP > 0 {
		return w.ETP
	}
	return w.TP
}

// expertsFold says whether the expert layers fold onto a stage of dp
// data-parallel ranks: etp x ep must divide the stage's tp x cp x dp
// GPUs, the rest being the experts' data parallelism (Megatron-Core
// megatron/core/parallel_state.py: expert_data_parallel_size = world /
// (expert_tensor x expert_model x pipeline parallel sizes); Liu et al.,
// MoE Parallel Folding, arXiv 2504.14960). With etp = tp this is ep
// dividing cp x dp.
func (w *Workload) expertsFold(dp int) bool {
	stage, experts := w.TP*w.cp()*dp, w.etp()*max(w.EP, 1)
	return experts <= stage && stage%experts == 0
}

// FoldedDP is the largest data-parallel size up to dp whose stage of
// tp x cp x dp GPUs holds whole expert-parallel groups (ep x etp); 0
// when none does. A job's ranks past it stay idle.
// Exported for planner/resilience.
func (w *Workload) FoldedDP(dp int) int {
	for ; dp > 0 && !w.expertsFold(dp); dp-- {
	}
	return dp
}

// epFix says which ep fits a stage of tp x cp x dp GPUs: the largest
// that divides both the stage's GPUs over etp and the experts (any
// divisor of the stage without an expert count), or plan more GPUs.
func (w *Workload) epFix(dp int) string {
	stage := w.TP * w.cp() * dp / w.etp()
	best := 1
	for ep := 2; ep <= stage; ep++ {
		if stage%ep == 0 && (w.Experts == 0 || w.Experts%ep == 0) {
			best = ep
		}
	}
	upTo := fmt.Sprintf("ep %d or less", best)
	if best == 1 {
		upTo = "ep 1"
	}
	return fmt.Sprintf("use %s (it must divide tp x cp x dp / etp = %d and the experts), or plan more GPUs", upTo, stage)
}

// expertDP is the expert layers' data-parallel size on a stage of dp
// data-parallel ranks: tp x cp x dp / (etp x ep), at least 1.
func (w *Workload) expertDP(dp int) float64 {
	return max(float64(w.TP*w.cp()*dp)/float64(w.etp()*max(w.EP, 1)), 1)
}

// modelParallel is the GPUs one data-parallel rank spans: tp x cp x pp.
func (w *Workload) modelParallel() int { return w.TP * w.cp() * w.PP }

// localSeq is the tokens of one sequence each GPU of a context-parallel
// group holds.
func (w *Workload) localSeq() float64 { return float64(w.SeqLen) / float64(w.cp()) }

// maxBatchTokens is the largest global batch the inputs accept.
const maxBatchTokens = 1 << 40

// recomputeShare is the share of the layers that recompute their
// forward pass: 1 with recompute, else recompute_layers of layers.
func (w *Workload) recomputeShare() float64 {
	if w.Recompute {
		return 1
	}
	if w.RecomputeLayers == 0 || w.Layers <= 0 {
		return 0
	}
	return min(float64(w.RecomputeLayers)/float64(w.Layers), 1)
}

// kvShare is the fraction of the query heads' width K and V have:
// kv_heads / heads with grouped-query attention, else 1.
func (w *Workload) kvShare() float64 {
	if w.Heads <= 0 || w.KVHeads <= 0 || w.KVHeads >= w.Heads {
		return 1
	}
	return float64(w.KVHeads) / float64(w.Heads)
}

// Placements of a job's servers (Workload.Placement).
const (
	PlacePacked = "packed"
	PlaceSpread = "spread"
)
