package planner

import (
	"fmt"
	"slices"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

// MaxBackgroundLoad is the largest background load a tier may carry.
const MaxBackgroundLoad = 0.9

// validateSharing checks the phase, background loads and algorithm.
func validateSharing(w *perf.Workload) []error {
	var errs []error
	if w.Phase != "" && w.Phase != perf.PhaseRandom && w.Phase != perf.PhaseAligned {
		errs = append(errs, fielderr.New("workload.phase", fmt.Sprintf("use %q or %q", perf.PhaseRandom, perf.PhaseAligned), "unknown phase %q", w.Phase))
	}
	for _, b := range []struct {
		name string
		v    float64
	}{{"background_leaf", w.BackgroundLeaf}, {"background_spine", w.BackgroundSpine}} {
		if !inRange(b.v, 0, MaxBackgroundLoad) {
			errs = append(errs, fielderr.New("workload."+b.name, fmt.Sprintf("give a fraction of the uplinks from 0 to %g, e.g. 0.2", MaxBackgroundLoad), "%g", b.v))
		}
	}
	if w.Polarization != nil && !inRange(*w.Polarization, 0, 1) {
		errs = append(errs, fielderr.New("workload.polarization", "give a share from 0 (independent hashes) to 1 (the second stage never re-spreads), or leave it out for the data's", "%g", *w.Polarization))
	}
	if w.Algorithm != "" && !slices.Contains(perf.Algorithms, w.Algorithm) {
		errs = append(errs, fielderr.New("workload.algorithm", fmt.Sprintf("use one of %v, or leave it out for the fastest", perf.Algorithms), "unknown algorithm %q", w.Algorithm))
	}
	return errs
}

// validateWorkload checks the [workload] table against the JCT data d and
// returns every problem found.
func validateWorkload(w *perf.Workload, d *perf.JCTData) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New("workload."+field, fix, format, args...))
	}
	errs = append(errs, workloadModelErrors(w, d)...)
	errs = append(errs, workloadRangeErrors(w)...)
	if w.KVHeads > 0 && w.Heads > 0 && (w.KVHeads > w.Heads || w.Heads%w.KVHeads != 0) {
		add("kv_heads", fmt.Sprintf("give a divisor of heads (%d), e.g. 8", w.Heads), "%d KV heads for %d query heads", w.KVHeads, w.Heads)
	}
	if !validPrecision(w.Precision) {
		add("precision", fmt.Sprintf("use one of %v", precisions), "unknown precision %q", w.Precision)
	}
	errs = append(errs, validateSharing(w)...)
	if w.Placement != "" && w.Placement != perf.PlacePacked && w.Placement != perf.PlaceSpread {
		add("placement", fmt.Sprintf("use %q or %q", perf.PlacePacked, perf.PlaceSpread), "unknown placement %q", w.Placement)
	}
	errs = append(errs, checkConsistency(w, d)...)
	errs = append(errs, workloadOverlapErrors(w)...)
	return errs
}

// workloadModelErrors checks the model and GPU keys against the data d (when
// given) and that a custom model gives its shape.
func workloadModelErrors(w *perf.Workload, d *perf.JCTData) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New("workload."+field, fix, format, args...))
	}
	if d != nil {
		if _, ok := d.Models[w.Model]; !ok && w.Model != "custom" {
			add("model", `use "custom" or one of `+textfmt.KeyList(d.Models), "unknown model %q", w.Model)
		}
		if _, ok := d.GPUs[w.GPU]; !ok {
			add("gpu", "use one of "+textfmt.KeyList(d.GPUs), "unknown GPU %q", w.GPU)
		}
		if _, ok := d.Frameworks[w.Framework]; !ok && w.Framework != "" {
			add("framework", "leave it out or use one of "+textfmt.KeyList(d.Frameworks), "unknown training stack %q", w.Framework)
		}
	}
	if w.Model == "custom" && (w.ParamsB <= 0 || w.Layers <= 0 || w.Hidden <= 0 || w.SeqLen <= 0) {
		add("model", "give params_b, layers, hidden and seq_len", "a custom model needs its shape")
	}
	return errs
}

// workloadRangeErrors checks the workload's numbers against their ranges; a
// field with a preset may be 0 (the preset's value).
func workloadRangeErrors(w *perf.Workload) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New("workload."+field, fix, format, args...))
	}
	// Ranges: beyond the largest published models by orders of magnitude,
	// and small enough that no product the JCT model forms overflows.
	for _, r := range []struct {
		name    string
		v       float64
		lo, hi  float64
		preset  bool // 0 means "the preset's value"
		example string
	}{
		{"params_b", w.ParamsB, minParamsB, 1e5, true, "405"},
		{"active_params_b", w.ActiveParamsB, minParamsB, 1e5, true, "37"},
		{"layers", float64(w.Layers), 0, 10_000, true, "126"},
		{"hidden", float64(w.Hidden), 0, 1 << 20, true, "16384"},
		{"seq_len", float64(w.SeqLen), 0, 1 << 24, true, "8192"},
		{"vocab", float64(w.Vocab), 0, 1 << 24, true, "128256"},
		{"experts", float64(w.Experts), 0, 4096, true, "256"},
		{"top_k", float64(w.TopK), 0, 4096, true, "8"},
		{"heads", float64(w.Heads), 0, MaxHeads, true, "128"},
		{"kv_heads", float64(w.KVHeads), 0, MaxHeads, true, "8"},
		{"route_nodes", float64(w.RouteNodes), 0, MaxRouteNodes, true, "4"},
		{"global_batch_tokens", float64(w.GlobalBatchTokens), 1, maxBatchTokens, false, "16777216"},
		{"micro_batch", float64(w.MicroBatch), 1, MaxMicroBatch, false, "1"},
		{"tp", float64(w.TP), 1, MaxTP, false, "8"},
		{"pp", float64(w.PP), 1, MaxPP, false, "4"},
		{"vpp", float64(w.VPP), 1, MaxVPP, true, "1"},
		{"ep", float64(w.EP), 1, MaxEP, false, "1"},
		{"etp", float64(w.ETP), 1, MaxTP, true, "1"},
		{"cp", float64(w.CP), 0, MaxCP, true, "2"},
		{"tokens_total", w.TokensTotal, 1, MaxTokensTotal, false, "1e12"},
		{"compute_efficiency", w.ComputeEfficiency, minComputeEfficiency, 1, true, "0.45"},
		{"zero_stage", float64(w.ZeROStage), 0, MaxZeROStage, false, "1"},
		{"jobs", float64(w.Jobs), 0, MaxJobs, true, "2"},
		{"qps_per_connection", float64(w.QueuePairs), 0, MaxQueuePairs, true, "4"},
	} {
		if inRange(r.v, r.lo, r.hi) || r.preset && r.v == 0 {
			continue
		}
		fix := fmt.Sprintf("give a number from %g to %g, e.g. %s", r.lo, r.hi, r.example)
		if r.preset {
			fix += ", or leave it out for the preset"
		}
		add(r.name, fix, "%g is out of range", r.v)
	}
	return errs
}

// workloadOverlapErrors checks the overlaps given: fractions from 0 to 1.
func workloadOverlapErrors(w *perf.Workload) []error {
	var errs []error
	add := func(field, fix, format string, args ...any) {
		errs = append(errs, fielderr.New("workload."+field, fix, format, args...))
	}
	for _, o := range []struct {
		name string
		v    *float64
	}{{"overlap_dp", w.OverlapDP}, {"overlap_pp", w.OverlapPP}, {"overlap_tp", w.OverlapTP}, {"overlap_ep", w.OverlapEP}, {"overlap_cp", w.OverlapCP}} {
		if o.v != nil && !inRange(*o.v, 0, 1) {
			add(o.name, "give a fraction from 0 (fully exposed) to 1 (fully hidden)", "%g", *o.v)
		}
	}
	return errs
}
