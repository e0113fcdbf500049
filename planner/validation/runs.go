package validation

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/datadoc"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// RunFiles are the published training runs never fitted (issue #47),
// in data/: the development split and the held-out split, on which
// nothing may be tuned (data/runs/README.md says how they were split).
var RunFiles = []string{"runs/runs-dev.toml", "runs/runs-heldout.toml"}

// Run splits and kinds.
const (
	SplitDev     = "dev"
	SplitHeldOut = "heldout"
	RunDense     = "dense"
	RunMoE       = "moe"
)

// Run metrics.
const (
	MetricStepS      = "step_s"
	MetricTokensGPU  = "tokens_per_s_per_gpu"
	MetricTFLOPSGPU  = "tflops_per_gpu" // by Megatron-LM's model FLOP count
	runTokensTotal   = 1e12             // any total: the step does not depend on it
	megatronVocabPad = 128              // --make-vocab-size-divisible-by default
)

// TrainingRun is one published run of data/runs: what was published
// and the scenario the model times it with.
type TrainingRun struct {
	ID, Name, Kind, Split string
	Metric, Unit, Source  string
	Published             float64
	// Scenario is the scenario file the run maps to.
	Scenario string
	// NotModelled lists the run's fields the model cannot take yet, as
	// "key = value": reported, never folded into another input.
	NotModelled []string
	// Assumed lists inputs the model needs that the run does not
	// publish, with the value taken.
	Assumed []string
	// NoFigure says why the published metric cannot be compared with
	// the model ("" when it can).
	NoFigure string
	// flopsPerStep is Megatron-LM's FLOP count of one step, for
	// tflops_per_gpu runs.
	flopsPerStep float64
}

// RunResult is a run with the model's figure for its metric.
type RunResult struct {
	Run   TrainingRun
	Model float64
	Err   error // no figure: the run cannot be timed or compared
}

// Error is the model's relative error against the published figure.
func (r RunResult) Error() float64 { return (r.Model - r.Run.Published) / r.Run.Published }

// Within says whether the model is within a whole run's tolerance.
func (r RunResult) Within() bool { return r.Err == nil && math.Abs(r.Error()) <= RunTolerance }

// LoadRuns reads both run files from fsys, dev first.
func LoadRuns(fsys fs.FS) ([]TrainingRun, error) {
	var out []TrainingRun
	for _, name := range RunFiles {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read published runs: %w", err)
		}
		runs, err := ParseRuns(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, runs...)
	}
	return out, nil
}

// ParseRuns decodes one run file and maps each run to a scenario.
func ParseRuns(src []byte) ([]TrainingRun, error) {
	var doc struct {
		Schema int              `toml:"schema"`
		Split  string           `toml:"split"`
		Run    []map[string]any `toml:"run"`
	}
	if err := datadoc.Decode("published runs", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	if doc.Split != SplitDev && doc.Split != SplitHeldOut {
		return nil, fmt.Errorf("published runs: split %q, want %q or %q", doc.Split, SplitDev, SplitHeldOut)
	}
	out := make([]TrainingRun, 0, len(doc.Run))
	ids := map[string]bool{}
	for i, m := range doc.Run {
		r, err := mapRun(m)
		if err != nil {
			return nil, fmt.Errorf("run %d (%v): %w", i+1, m["id"], err)
		}
		if ids[r.ID] {
			return nil, fmt.Errorf("run %q listed twice", r.ID)
		}
		ids[r.ID] = true
		r.Split = doc.Split
		out = append(out, r)
	}
	return out, nil
}

// runFields reads a run's keys, recording which were used.
type runFields struct {
	m    map[string]any
	used map[string]bool
	err  error
}

func (f *runFields) has(k string) bool { _, ok := f.m[k]; return ok }

func (f *runFields) str(k string) string {
	f.used[k] = true
	v, ok := f.m[k]
	if !ok {
		return ""
	}
	s, isStr := v.(string)
	if !isStr && f.err == nil {
		f.err = fmt.Errorf("%s: %v is not a string", k, v)
	}
	return s
}

func (f *runFields) num(k string) float64 {
	f.used[k] = true
	switch v := f.m[k].(type) {
	case nil:
		return 0
	case int64:
		return float64(v)
	case float64:
		return v
	default:
		if f.err == nil {
			f.err = fmt.Errorf("%s: %v is not a number", k, v)
		}
	}
	return 0
}

func (f *runFields) integer(k string) int {
	v := f.num(k)
	if v != math.Trunc(v) || math.Abs(v) > 1<<40 {
		if f.err == nil {
			f.err = fmt.Errorf("%s: %v is not a whole number", k, v)
		}
		return 0
	}
	return int(v)
}

// describing are a run's keys that describe it or its source, and the
// batch arithmetic the model works out itself (dp, grad_accum and
// global_batch from the GPUs, the parallelism and global_batch_tokens).
var describing = map[string]bool{"id": true, "name": true, "kind": true, "model": true, "metric": true, "published": true, "unit": true,
	"source": true, "source_url": true, "source_date": true, "note": true, "system": true, "framework_version": true,
	"dp": true, "grad_accum": true, "global_batch": true}

// modelledFabrics are the fabric values the model takes.
var modelledFabrics = map[string]planner.Fabric{"infiniband": planner.InfiniBand, "ethernet": planner.Ethernet}

// mapRun reads one run: what was published, and the scenario of the
// inputs the model takes; every other field is listed as not modelled.
func mapRun(m map[string]any) (TrainingRun, error) {
	f := &runFields{m: m, used: map[string]bool{}}
	r := TrainingRun{ID: f.str("id"), Name: f.str("name"), Kind: f.str("kind"), Metric: f.str("metric"), Unit: f.str("unit"),
		Source: f.str("source"), Published: f.num("published")}
	for k := range describing {
		f.used[k] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "schema = 1\n[cluster]\ngpus = %d\n", f.integer("gpu_count"))
	if f.has("gpus_per_server") {
		fmt.Fprintf(&b, "gpus_per_server = %d\n", f.integer("gpus_per_server"))
	}
	r.NotModelled = append(r.NotModelled, writeRunSystem(&b, f)...)
	r.NotModelled = append(r.NotModelled, writeRunNetwork(&b, f)...)
	notModelled, assumed := writeRunWorkload(&b, f)
	r.NotModelled, r.Assumed = append(r.NotModelled, notModelled...), assumed
	r.Scenario = b.String()
	r.flopsPerStep, r.NoFigure = megatronFLOPs(f, r.Kind, r.Metric)
	if f.err != nil {
		return r, f.err
	}
	if err := r.check(); err != nil {
		return r, err
	}
	r.NotModelled = append(r.NotModelled, f.unused()...)
	return r, nil
}

// check says what the run lacks to be compared.
func (r *TrainingRun) check() error {
	if r.ID == "" || r.Source == "" || !(r.Published > 0) || math.IsInf(r.Published, 0) || (r.Kind != RunDense && r.Kind != RunMoE) {
		return errors.New("needs an id, a source, a published figure above 0 and kind dense or moe")
	}
	if r.Metric != MetricStepS && r.Metric != MetricTokensGPU && r.Metric != MetricTFLOPSGPU {
		return fmt.Errorf("unknown metric %q", r.Metric)
	}
	return nil
}

// unused is every field not read (but the source's other figures,
// also_*), as "key = value", sorted.
func (f *runFields) unused() []string {
	var rest []string
	for k, v := range f.m {
		if !f.used[k] && !strings.HasPrefix(k, "also_") {
			rest = append(rest, k+" = "+showValue(v))
		}
	}
	slices.Sort(rest)
	return rest
}

// writeRunNetwork writes the run's [network]: the fabric and NICs where
// it names them (the scenario's defaults otherwise); it returns what
// the model cannot take.
// rackSystems are the catalog's rack-scale systems by GPU and NVLink
// domain: a run that publishes that domain for that GPU runs on the
// system (its domain, trays and NICs); another domain is not modelled.
var rackSystems = map[string]map[int]string{
	"gb200": {72: "gb200-nvl72"},
	"gb300": {72: "gb300-nvl72"},
}

// writeRunSystem writes the run's system into [cluster] where its
// nvlink_domain names one of rackSystems; it returns nvlink_domain as
// not modelled otherwise.
func writeRunSystem(b *strings.Builder, f *runFields) (notModelled []string) {
	if !f.has("nvlink_domain") {
		return nil
	}
	d := f.integer("nvlink_domain")
	if sys, ok := rackSystems[f.str("gpu")][d]; ok {
		fmt.Fprintf(b, "system = %q\n", sys)
		return nil
	}
	return []string{"nvlink_domain = " + strconv.Itoa(d)}
}

func writeRunNetwork(b *strings.Builder, f *runFields) (notModelled []string) {
	b.WriteString("[network]\n")
	if fab := f.str("fabric"); fab != "" {
		if mf, ok := modelledFabrics[fab]; ok {
			fmt.Fprintf(b, "fabric = %q\n", mf)
		} else {
			notModelled = append(notModelled, "fabric = "+strconv.Quote(fab))
		}
	}
	if f.has("nic_gbps") {
		fmt.Fprintf(b, "nic_gbps = %d\n", f.integer("nic_gbps"))
	}
	if f.has("nics_per_server") {
		fmt.Fprintf(b, "nics_per_server = %d\n", f.integer("nics_per_server"))
	}
	return notModelled
}

// writeRunWorkload writes the run's [workload]: the model's shape,
// GPU, batch, parallelism and precision. It returns the fields the
// model cannot take and the inputs it had to assume.
func writeRunWorkload(b *strings.Builder, f *runFields) (notModelled, assumed []string) {
	b.WriteString("[workload]\nmodel = \"custom\"\n")
	assumed = writeRunStack(b, f)
	for _, k := range []string{"layers", "hidden", "heads", "kv_heads", "seq_len", "vocab", "experts", "top_k", "global_batch_tokens", "tp", "pp", "cp", "etp"} {
		if f.has(k) {
			fmt.Fprintf(b, "%s = %d\n", k, f.integer(k))
		}
	}
	for _, k := range []string{"params_b", "active_params_b"} {
		if f.has(k) {
			fmt.Fprintf(b, "%s = %s\n", k, strconv.FormatFloat(f.num(k), 'g', -1, 64))
		}
	}
	if p := f.str("precision"); p != "" {
		fmt.Fprintf(b, "precision = %q\n", p)
	}
	if drop, ok := f.m["token_drop"].(bool); ok {
		f.used["token_drop"] = true // any other type is listed as not taken
		if drop {
			b.WriteString("token_drop = true\n")
		}
	}
	notModelled = writeRunArch(b, f)
	if f.str("kind") == RunMoE && !f.has("active_params_b") {
		if a, ok := derivedActiveParamsB(f); ok {
			fmt.Fprintf(b, "active_params_b = %s\n", strconv.FormatFloat(a, 'g', 6, 64))
			assumed = append(assumed, fmt.Sprintf("active_params_b not published: %.4g derived from params_b, experts, top_k, expert_ffn_hidden, layers (less dense_layers) and hidden", a))
		} else {
			assumed = append(assumed, "active_params_b not published: the model takes every parameter as active")
		}
	}
	assumed = append(assumed, writeRunDefaults(b, f)...)
	rcNotModelled, sac := writeRunMemory(b, f)
	return append(notModelled, rcNotModelled...), append(assumed, sac...)
}

// archFields are the architecture fields a run records that the
// workload takes as they are (planner/perf Architecture).
var archFields = []string{"ffn_hidden", "expert_ffn_hidden", "shared_experts", "shared_expert_ffn_hidden", "dense_layers",
	"head_dim", "qk_head_dim", "v_head_dim", "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim"}

// writeRunArch writes the run's architecture: its widths and counts,
// its MLP kind where the model knows it, and latent attention where it
// gives the ranks (kv_lora_rank); it returns as not modelled another
// MLP kind, and an attention field but latent attention with its ranks. A dense run's shared-expert and
// dense-layer counts (zero where recorded) are left out.
func writeRunArch(b *strings.Builder, f *runFields) (notModelled []string) {
	moe := f.str("kind") == RunMoE
	for _, k := range archFields {
		if !f.has(k) {
			continue
		}
		v := f.integer(k)
		if !moe && (k == "shared_experts" || k == "dense_layers" || k == "expert_ffn_hidden" || k == "shared_expert_ffn_hidden") {
			continue
		}
		if v > 0 {
			fmt.Fprintf(b, "%s = %d\n", k, v)
		}
	}
	switch mlp := f.str("mlp"); mlp {
	case "":
	case perf.MLPGELU, perf.MLPSquaredReLU, perf.MLPSwiGLU:
		fmt.Fprintf(b, "mlp = %q\n", mlp)
	default:
		notModelled = append(notModelled, "mlp = "+strconv.Quote(mlp))
	}
	if att := f.str("attention"); att != "" && !(strings.HasPrefix(att, "mla") && f.has("kv_lora_rank")) {
		notModelled = append(notModelled, "attention = "+strconv.Quote(att))
	}
	return notModelled
}

// derivedActiveParamsB is an MoE run's active parameters in billions
// where the source gives the architecture but not the count: all
// parameters less the experts a token does not reach, (experts - top_k)
// x 3·h·f per MoE layer (three h x f matrices per expert, the gated MLP
// the model's expert width assumes, planner/perf expertWidth), over
// layers - dense_layers MoE layers. False when a field is missing.
func derivedActiveParamsB(f *runFields) (float64, bool) {
	for _, k := range []string{"params_b", "experts", "top_k", "expert_ffn_hidden", "layers", "hidden"} {
		if !f.has(k) {
			return 0, false
		}
	}
	moeLayers := float64(f.integer("layers") - f.integer("dense_layers"))
	idle := float64(f.integer("experts") - f.integer("top_k"))
	perExpert := 3 * float64(f.integer("hidden")) * f.num("expert_ffn_hidden")
	a := f.num("params_b") - moeLayers*idle*perExpert/1e9
	return a, a > 0 && idle > 0
}

// writeRunDefaults writes the inputs the model needs that a run may not
// publish (micro-batch, virtual stages, expert parallelism), and lists
// the value taken for each one it does not.
func writeRunDefaults(b *strings.Builder, f *runFields) (assumed []string) {
	for _, d := range []struct {
		key   string
		def   int
		why   string
		asked bool // whether a missing value is worth saying
	}{
		{"micro_batch", 1, "1 taken", true},
		{"vpp", 1, "1 taken (no interleaving)", f.integer("pp") > 1},
		{"ep", 1, "1 taken", f.str("kind") == RunMoE},
	} {
		v := d.def
		if f.has(d.key) {
			v = f.integer(d.key)
		} else if d.asked {
			assumed = append(assumed, d.key+" not published: "+d.why)
		}
		fmt.Fprintf(b, "%s = %d\n", d.key, v)
	}
	return assumed
}

// writeRunMemory writes the run's sharding (FSDP as ZeRO-3) and
// recomputation (full, or of recompute_layers whole layers where the
// source counts them, or torchtitan's per-op selective one as the whole
// layers it costs, perOpSACLayers, or a selective one by Megatron-Core
// modules, writeRunSelective), and returns what the model cannot take:
// another selective recomputation, or a partial one with no count of
// layers; and what it assumed.
func writeRunMemory(b *strings.Builder, f *runFields) (notModelled, assumed []string) {
	zero := f.integer("zero_stage")
	if fsdp, _ := f.m["fsdp"].(bool); fsdp && zero == 0 {
		zero = 3 // FSDP shards weights, gradients and optimizer: ZeRO-3
	}
	f.used["fsdp"] = true
	if zero > 0 {
		fmt.Fprintf(b, "zero_stage = %d\n", zero)
	}
	rc := f.str("recompute")
	full := rc == "full" || strings.HasPrefix(rc, "full ")
	partial := !full && f.has("recompute_layers")
	if n := f.integer("recompute_layers"); partial { // read either way: a full one needs no count
		fmt.Fprintf(b, "recompute_layers = %d\n", n)
	}
	sac := false
	if !full && !partial && strings.HasPrefix(rc, perOpSAC) {
		var n int
		if n, sac = perOpSACLayers(f); sac {
			fmt.Fprintf(b, "recompute_layers = %d\n", n)
			assumed = append(assumed, fmt.Sprintf("recompute %q taken as %d whole layers: every second matrix product of each block recomputed (wk, wo, w3), as many FLOPs", rc, n))
		}
	}
	if rc != "" && !full && !partial && !sac {
		notModelled = writeRunSelective(b, rc)
	}
	fmt.Fprintf(b, "recompute = %t\ntokens_total = %g\n", full, runTokensTotal)
	return notModelled, assumed
}

// writeRunSelective writes a selective recomputation by modules
// (selectiveModules) as recompute_modules, or returns it as not
// modelled.
func writeRunSelective(b *strings.Builder, rc string) (notModelled []string) {
	mods, ok := selectiveModules(rc)
	if !ok {
		return []string{"recompute = " + strconv.Quote(rc)}
	}
	fmt.Fprintf(b, "recompute_modules = [%s]\n", strings.Join(mods, ", "))
	return nil
}

// moduleAliases are the short names a source gives Megatron-Core's
// recompute modules (Megatron-MoE-ModelZoo's tables: "norm" and "act"
// for layernorm and moe_act).
var moduleAliases = map[string]string{"norm": perf.RecomputeLayerNorm, "act": perf.RecomputeMoEAct}

// selectiveModules reads a run's "selective (m1, m2, ...)" as
// Megatron-Core's recompute modules, quoted for TOML; false where it
// names none or one the model does not know.
func selectiveModules(rc string) ([]string, bool) {
	inner, ok := strings.CutPrefix(rc, "selective (")
	if !ok || !strings.HasSuffix(inner, ")") {
		return nil, false
	}
	var mods []string
	for _, m := range strings.Split(strings.TrimSuffix(inner, ")"), ",") {
		m = strings.TrimSpace(m)
		if a, ok := moduleAliases[m]; ok {
			m = a
		}
		if !slices.Contains(perf.RecomputeModuleNames, m) {
			return nil, false
		}
		mods = append(mods, strconv.Quote(m))
	}
	return mods, len(mods) > 0
}

// perOpSAC is how a run names torchtitan's per-op selective activation
// checkpointing (activation_checkpoint.mode "selective", selective_ac_option
// "op").
const perOpSAC = "selective (per-op SAC"

// perOpSACLayers is torchtitan's per-op selective recomputation of a
// Llama block (gated MLP) as the whole layers of the same forward FLOPs,
// the form the model takes (recompute_layers). torchtitan's policy
// (torchtitan/distributed/activation_checkpoint.py, _custom_policy: "Saves
// output of all compute ops, except every second mm", counted per block)
// recomputes the 2nd, 4th and 6th of a block's seven products, in the
// order its Llama forward runs them (wq, wk, wv, wo, w1, w3, w2): wk
// (h x kv), wo (q x h) and w3 (h x ffn), per token, of a layer's forward
// h (q + 2 kv) + q h + 3 h ffn + 2 s q (the score products as the model
// counts them, every key), with q = h and kv = kv_heads x h/heads; the
// saved attention and the cheap element-wise ops aside. Layers times that
// share, rounded. False where the run lacks a field or its MLP is not
// gated (another block, another order).
func perOpSACLayers(f *runFields) (int, bool) {
	for _, k := range []string{"layers", "hidden", "heads", "ffn_hidden", "seq_len"} {
		if !f.has(k) {
			return 0, false
		}
	}
	if mlp, _ := f.m["mlp"].(string); mlp != "swiglu" {
		return 0, false
	}
	h, s, ffn := float64(f.integer("hidden")), float64(f.integer("seq_len")), f.num("ffn_hidden")
	kv := h
	if f.has("kv_heads") {
		kv = h * float64(f.integer("kv_heads")) / float64(f.integer("heads"))
	}
	recomputed := h*kv + h*h + h*ffn
	layer := h*(h+2*kv) + h*h + 3*h*ffn + 2*s*h
	return int(math.Round(float64(f.integer("layers")) * recomputed / layer)), true
}

// megatronFLOPs is Megatron-LM's model FLOP count of one step for a
// run published in TFLOP/s per GPU: NVIDIA/Megatron-LM
// megatron/training/training.py, num_floating_point_operations as of
// 2024 (Megatron-Core r0.6-r0.8): 12 B s L h^2 (1 + (f/h) g + q/a + s/h
// + V/(2 L h)), with B sequences per step, q key/value heads of a
// query heads, g = 3/2 for SwiGLU, V the vocabulary padded to a
// multiple of 128 x tp. It counts no recomputation. An MoE run is
// counted by the later form that has routed and shared experts
// (megatronMoEFLOPs). Where a figure cannot be counted it returns why
// not instead.
func megatronFLOPs(f *runFields, kind, metric string) (float64, string) {
	if metric != MetricTFLOPSGPU {
		return 0, ""
	}
	if kind != RunDense {
		return megatronMoEFLOPs(f)
	}
	for _, k := range []string{"heads", "kv_heads", "ffn_hidden", "mlp", "vocab", "tp"} {
		if !f.has(k) {
			return 0, "Megatron-LM's FLOP count needs " + k + ", not published"
		}
	}
	s, l, h := float64(f.integer("seq_len")), float64(f.integer("layers")), float64(f.integer("hidden"))
	pad := float64(megatronVocabPad * f.integer("tp"))
	v := math.Ceil(float64(f.integer("vocab"))/pad) * pad
	g := 1.0
	if mlp, _ := f.m["mlp"].(string); mlp == "swiglu" {
		g = 1.5
	}
	ffn := f.num("ffn_hidden")
	q, a := float64(f.integer("kv_heads")), float64(f.integer("heads"))
	sequences := float64(f.integer("global_batch_tokens")) / s
	return 12 * sequences * s * l * h * h * (1 + ffn/h*g + q/a + s/h + v/(2*l*h)), ""
}

// megatronMoEFLOPs is Megatron-LM's model FLOP count of one step of an
// MoE run: NVIDIA/Megatron-LM megatron/training/training.py,
// num_floating_point_operations, transformer_flops (commit 001b00c,
// 2026, the form MoE runs of 2025-26 were published with), for B
// sequences of s tokens, L layers of width h, D of them dense:
//
//	B s (6 h (x f D + x fe k (L-D) + x fs (L-D)) + 6 L (h (q + 2 v) + q s + q h) + 6 h V)
//
// with x = 3 for SwiGLU (2 otherwise), f the dense layers' width, fe
// an expert's, k experts per token, fs the shared experts' total width,
// q = heads x head_dim and v = kv_heads x head_dim (head_dim hidden /
// heads where not published), the causal half of the s x s scores
// counted, and V the vocabulary padded as megatronFLOPs does. No
// multi-token prediction layers are counted (a run does not record
// them). Latent attention (MLA) is counted from head widths a run does
// not record, so such a run gets none; it says why.
func megatronMoEFLOPs(f *runFields) (float64, string) {
	mla := strings.HasPrefix(f.str("attention"), "mla")
	if mla {
		return 0, "published in TFLOP/s by Megatron-LM's count, which for latent attention (MLA) needs its query, key and value head widths, not recorded"
	}
	need := []string{"heads", "expert_ffn_hidden", "top_k", "vocab", "tp", "layers", "hidden", "seq_len"}
	if f.integer("dense_layers") > 0 {
		need = append(need, "ffn_hidden")
	}
	for _, k := range need {
		if !f.has(k) {
			return 0, "Megatron-LM's FLOP count needs " + k + ", not published"
		}
	}
	s, l, h := float64(f.integer("seq_len")), float64(f.integer("layers")), float64(f.integer("hidden"))
	dense := float64(f.integer("dense_layers"))
	heads := float64(f.integer("heads"))
	kvHeads := heads
	if f.has("kv_heads") {
		kvHeads = float64(f.integer("kv_heads"))
	}
	headDim := h / heads
	if f.has("head_dim") {
		headDim = float64(f.integer("head_dim"))
	}
	x := 2.0
	if mlp, _ := f.m["mlp"].(string); mlp == "swiglu" {
		x = 3
	}
	shared := float64(f.integer("shared_experts")) * f.num("shared_expert_ffn_hidden")
	q, v := heads*headDim, kvHeads*headDim
	pad := float64(megatronVocabPad * f.integer("tp"))
	vocab := math.Ceil(float64(f.integer("vocab"))/pad) * pad
	mlp := x * (f.num("ffn_hidden")*dense + (f.num("expert_ffn_hidden")*float64(f.integer("top_k"))+shared)*(l-dense))
	attention := l * (h*(q+2*v) + q*s + q*h)
	sequences := float64(f.integer("global_batch_tokens")) / s
	return sequences * s * (6*h*mlp + 6*attention + 6*h*vocab), ""
}

// showValue is a run field's value as the report shows it.
func showValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

// TimeRuns times every run on the model with cat's constants.
func TimeRuns(runs []TrainingRun, cat *planner.Catalog) []RunResult {
	out := make([]RunResult, len(runs))
	for i, r := range runs {
		v, err := r.model(cat)
		out[i] = RunResult{Run: r, Model: v, Err: err}
	}
	return out
}

// model is the model's figure for the run's metric.
func (r TrainingRun) model(cat *planner.Catalog) (float64, error) {
	if r.NoFigure != "" {
		return 0, errors.New(r.NoFigure)
	}
	j, err := Point{Scenario: r.Scenario}.stepOn(cat, "", "")
	if err != nil {
		return 0, err
	}
	gpus := float64(j.DP * j.Workload.ModelParallel())
	switch r.Metric {
	case MetricStepS:
		return j.Planned.StepS, nil
	case MetricTokensGPU:
		return j.Planned.TokensPerS / gpus, nil
	}
	return r.flopsPerStep / (j.Planned.StepS * gpus) / 1e12, nil
}
