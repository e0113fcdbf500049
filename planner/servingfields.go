package planner

import (
	"fmt"
	"math"
	"strings"

	"fabricplan/planner/serve"
)

// servingFields are the [inference] and [rl] inputs the window edits.
// Each is edited only under its own workload kind (forKind): choosing
// the kind (workload.kind) adds its table with defaults first; a read
// under another kind sees an empty table (ownTable on the copy read).
func servingFields() []Field {
	in := func(at func(*serve.Inference) *int) func(*Scenario) *int {
		return func(s *Scenario) *int { return at(ownTable(&s.Inference)) }
	}
	inNum := func(at func(*serve.Inference) *float64) func(*Scenario) *float64 {
		return func(s *Scenario) *float64 { return at(ownTable(&s.Inference)) }
	}
	inText := func(at func(*serve.Inference) *string) func(*Scenario) *string {
		return func(s *Scenario) *string { return at(ownTable(&s.Inference)) }
	}
	rl := func(at func(*serve.RL) *int) func(*Scenario) *int {
		return func(s *Scenario) *int { return at(ownTable(&s.RL)) }
	}
	precisions := []string{serve.PrecisionBF16, serve.PrecisionFP8}
	fs := []Field{
		countField("inference.input_tokens", "Prompt tokens per request", 1, serve.MaxTokens, false, "", in(func(i *serve.Inference) *int { return &i.InputTokens })),
		countField("inference.output_tokens", "Answer tokens per request", 1, serve.MaxTokens, false, "", in(func(i *serve.Inference) *int { return &i.OutputTokens })),
		numberField("inference.prefix_hit_rate", "Prefix-cache hit rate", "", 0, 0.99, true, inNum(func(i *serve.Inference) *float64 { return &i.PrefixHitRate })),
		withDefault(choiceField("inference.layout", "Serving layout", []string{serve.LayoutDisaggregated, serve.LayoutColocated}, inText(func(i *serve.Inference) *string { return &i.Layout })), serve.LayoutDisaggregated),
		countField("inference.prefill_gpus", "Prefill GPUs", 1, math.MaxInt32, true, "blank: split by the pools' work", in(func(i *serve.Inference) *int { return &i.PrefillGPUs })),
		countField("inference.decode_gpus", "Decode GPUs", 1, math.MaxInt32, true, "blank: split by the pools' work", in(func(i *serve.Inference) *int { return &i.DecodeGPUs })),
		countField("inference.prefill_tp", "Prefill tensor parallel", 1, serve.MaxWidth, true, "blank: 8", in(func(i *serve.Inference) *int { return &i.PrefillTP })),
		countField("inference.decode_tp", "Decode tensor parallel", 1, serve.MaxWidth, true, "blank: 8", in(func(i *serve.Inference) *int { return &i.DecodeTP })),
		countField("inference.decode_ep", "Decode expert parallel", 1, serve.MaxWidth, true, "blank: 1", in(func(i *serve.Inference) *int { return &i.DecodeEP })),
		countField("inference.decode_batch", "Decode batch per GPU", 1, serve.MaxBatch, true, "blank: the largest that meets the TPOT target", in(func(i *serve.Inference) *int { return &i.DecodeBatch })),
		numberField("inference.target_tpot_s", "Target time per output token", "s", 0, serve.MaxTargetS, true, inNum(func(i *serve.Inference) *float64 { return &i.TargetTPOTS })),
		numberField("inference.target_ttft_s", "Target time to first token", "s", 0, serve.MaxTargetS, true, inNum(func(i *serve.Inference) *float64 { return &i.TargetTTFTS })),
		countField("inference.kv_latent", "MLA latent per token and layer", 1, serve.MaxLatent, true, "blank: K and V per KV head", in(func(i *serve.Inference) *int { return &i.KVLatent })),
		withDefault(choiceField("inference.kv_precision", "KV cache precision", precisions, inText(func(i *serve.Inference) *string { return &i.KVPrecision })), serve.PrecisionBF16),
		withDefault(choiceField("inference.weight_precision", "Weight precision (serving)", append(precisions, serve.PrecisionFP4), inText(func(i *serve.Inference) *string { return &i.WeightPrecision })), serve.PrecisionBF16),
		countField("rl.trainer_gpus", "RL trainer GPUs", 1, math.MaxInt32, true, "blank: half the cluster", rl(func(r *serve.RL) *int { return &r.TrainerGPUs })),
		countField("rl.rollout_gpus", "RL rollout GPUs", 1, math.MaxInt32, true, "blank: half the cluster", rl(func(r *serve.RL) *int { return &r.RolloutGPUs })),
		countField("rl.rollout_tp", "RL rollout instance GPUs", 1, serve.MaxWidth, true, "blank: 8", rl(func(r *serve.RL) *int { return &r.RolloutTP })),
		withDefault(choiceField("rl.sync_mode", "RL weight sync", []string{serve.SyncBroadcast, serve.SyncScatter}, func(s *Scenario) *string { return &ownTable(&s.RL).SyncMode }), serve.SyncBroadcast),
		withDefault(choiceField("rl.sync_precision", "RL sync precision", precisions, func(s *Scenario) *string { return &ownTable(&s.RL).SyncPrecision }), serve.PrecisionBF16),
		countField("rl.steps_per_sync", "RL steps between syncs", 1, serve.MaxSteps, true, "blank: 1", rl(func(r *serve.RL) *int { return &r.StepsPerSync })),
		numberField("rl.step_s", "RL step (rollout and training)", "s", 0, serve.MaxStepS, true, func(s *Scenario) *float64 { return &ownTable(&s.RL).StepS }),
	}
	for i := range fs {
		fs[i] = forKind(fs[i])
	}
	return fs
}

// withDefault makes choice f read its default where the file leaves the
// value out.
func withDefault(f Field, def string) Field {
	get := f.Get
	f.Get = func(s *Scenario) string {
		if v := get(s); v != "" {
			return v
		}
		return def
	}
	return f
}

// KindAllows reports whether the input key can be edited under the
// scenario's workload kind: an [inference] or [rl] input only under its
// own kind (whose table the kind adds), every other input always.
func (s *Scenario) KindAllows(key string) bool {
	kind, _, _ := strings.Cut(key, ".")
	if kind != serve.KindInference && kind != serve.KindRL {
		return true
	}
	return s.kind() == kind
}

// forKind makes f, an input of the [inference] or [rl] table its key
// starts with, refuse an edit under another workload kind: the edit
// would be lost with the table the kind leaves out.
func forKind(f Field) Field {
	kind, _, _ := strings.Cut(f.Key, ".")
	set := f.Set
	f.Help = strings.TrimPrefix(f.Help+"; workload kind "+kind+" only", "; ")
	f.Set = func(s *Scenario, text string) error {
		if k := s.kind(); !s.KindAllows(f.Key) {
			return fmt.Errorf("the workload kind is %s: choose %s (workload.kind) to edit %s", k, kind, f.Key)
		}
		return set(s, text)
	}
	return f
}
