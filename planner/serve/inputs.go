package serve

import (
	"fmt"
	"math"

	"fabricplan/internal/fielderr"
)

// Workload kinds ([workload] kind).
const (
	KindTraining  = "training"
	KindInference = "inference"
	KindRL        = "rl"
)

// Serving layouts (Inference.Layout).
const (
	LayoutColocated     = "colocated"
	LayoutDisaggregated = "disaggregated"
)

// Pool placements (Inference.Placement).
const (
	// PlaceSeparate puts the prefill and decode pools in different NVLink
	// domains: every KV move crosses the back end.
	PlaceSeparate = "separate"
	// PlaceSameDomain puts a prefill instance and its decode instance in
	// one NVLink domain (a rack-scale system): KV moves over NVLink.
	PlaceSameDomain = "same_domain"
)

// Weight-sync modes (RL.SyncMode).
const (
	// SyncBroadcast sends the whole model from the trainers to every
	// rollout instance as a pipelined broadcast.
	SyncBroadcast = "broadcast"
	// SyncScatter has each trainer GPU write its shard to every rollout
	// instance with point-to-point RDMA writes.
	SyncScatter = "scatter"
)

// Number formats of weights and KV caches.
const (
	PrecisionBF16 = "bf16"
	PrecisionFP8  = "fp8"
	PrecisionFP4  = "fp4"
)

// Limits of the inputs: larger values are typing mistakes.
const (
	MaxTokens   = 1 << 24 // tokens of one prompt or answer
	MaxWidth    = 1 << 16 // GPUs of one instance or one EP group
	MaxBatch    = 1 << 16 // requests per decode GPU
	MaxLatent   = 1 << 16 // MLA latent elements per token and layer
	MaxTargetS  = 3600.0  // a latency target, seconds
	MaxRequests = 1e9     // requests per second
	MaxSteps    = 1 << 20 // RL steps between syncs
	MaxStepS    = 1e6     // one RL step, seconds
	// MinStepS is the shortest RL step taken: a step rolls out and
	// trains on a model whose weights are then synced, which a
	// millisecond does not hold; under it the step is a typing mistake
	// (1e-300 s showed every sync as 100.0% of the time between syncs).
	MinStepS = 1e-3
)

// Inference is a serving workload: the traffic (prompt and answer
// lengths, prefix-cache hits), the model's KV shape beyond the [workload]
// preset, the layout and the targets. Zero fields take their defaults.
type Inference struct {
	InputTokens   int     `toml:"input_tokens"`
	OutputTokens  int     `toml:"output_tokens"`
	PrefixHitRate float64 `toml:"prefix_hit_rate,omitempty,omitzero"`
	// KVLatent is multi-head latent attention's cached elements per token
	// and layer (DeepSeek-V3: 512 latent + 64 rotary = 576); 0: the model
	// caches K and V per KV head (grouped-query attention).
	KVLatent int `toml:"kv_latent,omitempty,omitzero"`
	// HeadDim is one attention head's width (0: hidden / heads).
	HeadDim int `toml:"head_dim,omitempty,omitzero"`
	// KVPrecision and WeightPrecision are "bf16" ("" too), "fp8" or
	// (weights only) "fp4".
	KVPrecision     string `toml:"kv_precision,omitempty"`
	WeightPrecision string `toml:"weight_precision,omitempty"`
	// Layout is "disaggregated" ("" too) or "colocated"; Placement is
	// "separate" ("" too) or "same_domain".
	Layout    string `toml:"layout,omitempty"`
	Placement string `toml:"placement,omitempty"`
	// PrefillGPUs and DecodeGPUs are the pools (0: the cluster split in
	// the ratio of their work); the widths are one instance's tensor and
	// expert parallelism (0: 8 for TP, 1 for EP; a decode with EP runs
	// data-parallel attention).
	PrefillGPUs int `toml:"prefill_gpus,omitempty,omitzero"`
	DecodeGPUs  int `toml:"decode_gpus,omitempty,omitzero"`
	PrefillTP   int `toml:"prefill_tp,omitempty,omitzero"`
	DecodeTP    int `toml:"decode_tp,omitempty,omitzero"`
	DecodeEP    int `toml:"decode_ep,omitempty,omitzero"`
	// DecodeBatch is the requests each decode GPU serves at once (0: the
	// largest that meets TargetTPOTS and fits in memory).
	DecodeBatch int `toml:"decode_batch,omitempty,omitzero"`
	// Targets: time per output token and to the first token, seconds,
	// and requests per second of the whole cluster (0: none).
	TargetTPOTS     float64 `toml:"target_tpot_s,omitempty,omitzero"`
	TargetTTFTS     float64 `toml:"target_ttft_s,omitempty,omitzero"`
	TargetRequestsS float64 `toml:"target_requests_s,omitempty,omitzero"`
}

// Traffic of a serving workload chosen in the window before any is
// typed [estimate: a chat turn of the shares DeepSeek's service
// reported, 3.6 input tokens per output token, deepseek-ai/open-infra-index,
// 2025-03-01].
const (
	DefaultInputTokens  = 2000
	DefaultOutputTokens = 550
)

// NewInference is the serving workload a kind switched to inference
// starts from: the default traffic, every other field at its default.
func NewInference() Inference {
	return Inference{InputTokens: DefaultInputTokens, OutputTokens: DefaultOutputTokens}
}

// RL is a reinforcement-learning post-training workload: the trainer and
// rollout pools (or colocated), how the weights go from one to the
// other, and how often.
type RL struct {
	TrainerGPUs int  `toml:"trainer_gpus,omitempty,omitzero"`
	RolloutGPUs int  `toml:"rollout_gpus,omitempty,omitzero"`
	Colocated   bool `toml:"colocated,omitempty"`
	// RolloutTP is one rollout instance's GPUs (0: 8).
	RolloutTP int `toml:"rollout_tp,omitempty,omitzero"`
	// SyncMode is "broadcast" ("" too) or "scatter"; SyncPrecision the
	// format the weights travel in: "bf16" ("" too) or "fp8" (converted
	// on the way).
	SyncMode      string `toml:"sync_mode,omitempty"`
	SyncPrecision string `toml:"sync_precision,omitempty"`
	// StepsPerSync is the training steps between syncs (0: 1); StepS one
	// step's rollout and training, seconds (0: data/inference.toml's).
	StepsPerSync int     `toml:"steps_per_sync,omitempty,omitzero"`
	StepS        float64 `toml:"step_s,omitempty,omitzero"`
}

// Validate checks in and returns one *fielderr.FieldError per bad field,
// each under table ("inference").
func (in *Inference) Validate(table string) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New(table+"."+field, fix, format, args...))
	}
	counts := []struct {
		key       string
		v, lo, hi int
	}{
		{"input_tokens", in.InputTokens, 1, MaxTokens}, {"output_tokens", in.OutputTokens, 1, MaxTokens},
		{"kv_latent", in.KVLatent, 0, MaxLatent}, {"head_dim", in.HeadDim, 0, MaxLatent},
		{"prefill_gpus", in.PrefillGPUs, 0, math.MaxInt32}, {"decode_gpus", in.DecodeGPUs, 0, math.MaxInt32},
		{"prefill_tp", in.PrefillTP, 0, MaxWidth}, {"decode_tp", in.DecodeTP, 0, MaxWidth},
		{"decode_ep", in.DecodeEP, 0, MaxWidth}, {"decode_batch", in.DecodeBatch, 0, MaxBatch},
	}
	for _, c := range counts {
		if c.v < c.lo || c.v > c.hi {
			add(c.key, fmt.Sprintf("give a whole number from %d to %d", c.lo, c.hi), "%d is out of range", c.v)
		}
	}
	if !inRange(in.PrefixHitRate, 0, 1) || in.PrefixHitRate == 1 {
		add("prefix_hit_rate", "give a share from 0 to 0.99", "%g is not a hit rate", in.PrefixHitRate)
	}
	for _, t := range []struct {
		key string
		v   float64
		hi  float64
	}{{"target_tpot_s", in.TargetTPOTS, MaxTargetS}, {"target_ttft_s", in.TargetTTFTS, MaxTargetS}, {"target_requests_s", in.TargetRequestsS, MaxRequests}} {
		if !inRange(t.v, 0, t.hi) {
			add(t.key, fmt.Sprintf("give seconds or a rate from 0 to %g", t.hi), "%g is out of range", t.v)
		}
	}
	in.choiceErrors(add)
	return errs
}

// choiceErrors checks the named choices of in through add.
func (in *Inference) choiceErrors(add func(field, fix, format string, args ...any)) {
	if !oneOf(in.KVPrecision, PrecisionBF16, PrecisionFP8) {
		add("kv_precision", `write "bf16" or "fp8"`, "unknown precision %q", in.KVPrecision)
	}
	if !oneOf(in.WeightPrecision, PrecisionBF16, PrecisionFP8, PrecisionFP4) {
		add("weight_precision", `write "bf16", "fp8" or "fp4"`, "unknown precision %q", in.WeightPrecision)
	}
	if !oneOf(in.Layout, LayoutDisaggregated, LayoutColocated) {
		add("layout", `write "disaggregated" or "colocated"`, "unknown layout %q", in.Layout)
	}
	if !oneOf(in.Placement, PlaceSeparate, PlaceSameDomain) {
		add("placement", `write "separate" or "same_domain"`, "unknown placement %q", in.Placement)
	}
	if in.Layout == LayoutColocated && (in.PrefillGPUs > 0 || in.DecodeGPUs > 0) {
		add("layout", "leave prefill_gpus and decode_gpus out, or write layout = \"disaggregated\"", "a colocated layout has no separate pools")
	}
}

// Validate checks r and returns one *fielderr.FieldError per bad field,
// each under table ("rl").
func (r *RL) Validate(table string) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New(table+"."+field, fix, format, args...))
	}
	for _, c := range []struct {
		key    string
		v, max int
	}{{"trainer_gpus", r.TrainerGPUs, math.MaxInt32}, {"rollout_gpus", r.RolloutGPUs, math.MaxInt32}, {"rollout_tp", r.RolloutTP, MaxWidth}, {"steps_per_sync", r.StepsPerSync, MaxSteps}} {
		if c.v < 0 || c.v > c.max {
			add(c.key, fmt.Sprintf("give a whole number from 0 to %d (0: the default)", c.max), "%d is out of range", c.v)
		}
	}
	if r.StepS != 0 && !inRange(r.StepS, MinStepS, MaxStepS) {
		add("step_s", fmt.Sprintf("give seconds from %g to %g, or 0 for the estimate", MinStepS, MaxStepS), "%g is out of range", r.StepS)
	}
	if !oneOf(r.SyncMode, SyncBroadcast, SyncScatter) {
		add("sync_mode", `write "broadcast" or "scatter"`, "unknown sync mode %q", r.SyncMode)
	}
	if !oneOf(r.SyncPrecision, PrecisionBF16, PrecisionFP8) {
		add("sync_precision", `write "bf16" or "fp8"`, "unknown precision %q", r.SyncPrecision)
	}
	if r.Colocated && (r.TrainerGPUs > 0 || r.RolloutGPUs > 0) {
		add("colocated", "leave trainer_gpus and rollout_gpus out, or write colocated = false", "colocated RL shares every GPU")
	}
	return errs
}

// oneOf says whether v is "" or one of choices.
func oneOf(v string, choices ...string) bool {
	if v == "" {
		return true
	}
	for _, c := range choices {
		if v == c {
			return true
		}
	}
	return false
}

// inRange says whether v is finite and in [lo, hi].
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }

// SLOMisses names the service-level targets of in that r misses, each
// with the estimate and the target ("TPOT 0.120 s > 0.100 s"); nil when
// it meets every one (or in sets none).
func (in Inference) SLOMisses(r *Result) []string {
	var out []string
	if t := in.TargetTPOTS; t > 0 && r.Decode.TPOTS > t {
		out = append(out, fmt.Sprintf("TPOT %.3f s > %.3f s", r.Decode.TPOTS, t))
	}
	if t := in.TargetTTFTS; t > 0 && r.TTFTS > t {
		out = append(out, fmt.Sprintf("TTFT %.3f s > %.3f s", r.TTFTS, t))
	}
	return out
}
