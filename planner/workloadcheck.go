package planner

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

// Floors of workload values that take a preset when 0. Below them the
// JCT model's figures lose meaning (and, near zero, leave float64):
//   - minComputeEfficiency: published LLM training runs reach 20-60% of
//     peak (research/jct-modelling.md); 1% is twenty times below the
//     worst of them, so anything lower is a typing mistake (0.45 typed as
//     0.0045), and 1e-310 would give an infinite step time.
//   - minParamsB: 10 million parameters, a twelfth of GPT-2 small (124M,
//     Radford et al. 2019); a model smaller than that needs no cluster.
const (
	minComputeEfficiency = 0.01
	minParamsB           = 0.01
)

// checkConsistency checks workload values against each other, with the
// model preset's layers, heads and experts filled in: tp and ep split
// whole heads and experts (checkSplits), and interleaving cannot split a
// pipeline stage finer than its layers (checkVPP).
func checkConsistency(w *perf.Workload, d *perf.JCTData) []error {
	layers, heads, experts := w.Layers, w.Heads, w.Experts
	if m := d.Model(w.Model); m != nil {
		layers, heads, experts = cmp.Or(layers, m.Layers), cmp.Or(heads, m.Heads), cmp.Or(experts, m.Experts)
	}
	errs := checkSplits(w, heads, experts)
	if err := checkVPP(w, layers); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// checkSplits checks that tensor parallelism splits the attention heads
// and expert parallelism the experts evenly: Megatron-LM refuses a tp
// that does not divide num_attention_heads and an ep that does not divide
// num_moe_experts (its argument checks), as every stack that shards
// whole heads and whole experts must. A model without the count given
// (heads or experts 0) is not checked.
func checkSplits(w *perf.Workload, heads, experts int) []error {
	var errs []error
	if heads > 0 && w.TP > 0 && heads%w.TP != 0 {
		errs = append(errs, fielderr.New("workload.tp", "give a tp that divides them: "+divisorsText(heads, MaxTP),
			"tp %d does not divide the model's %d attention heads", w.TP, heads))
	}
	if experts > 0 && w.EP > 1 && experts%w.EP != 0 {
		errs = append(errs, fielderr.New("workload.ep", "give an ep that divides them: "+divisorsText(experts, MaxEP),
			"ep %d does not divide the model's %d experts", w.EP, experts))
	}
	return errs
}

// divisorsText lists the divisors of n up to most: "1, 2, 4 or 8".
func divisorsText(n, most int) string {
	var ds []string
	for k := 1; k <= min(n, most); k++ {
		if n%k == 0 {
			ds = append(ds, strconv.Itoa(k))
		}
	}
	if len(ds) == 1 {
		return ds[0]
	}
	return strings.Join(ds[:len(ds)-1], ", ") + " or " + ds[len(ds)-1]
}

// checkVPP checks that interleaving does not split a pipeline stage finer
// than its layers. Without a pipeline (pp 1) there is no stage to split
// and the model reads no vpp, so the default vpp (or any) is no error
// there.
func checkVPP(w *perf.Workload, layers int) error {
	if layers < 1 || w.PP <= 1 || w.VPP < 1 || w.PP > layers {
		return nil // reported by the range checks or the JCT estimate
	}
	// Stages may hold a layer more than others (Llama 3 405B puts 126
	// layers on 16 stages of up to 8, with vpp 8), so the bound rounds up.
	perStage := (layers + w.PP - 1) / w.PP
	if w.VPP <= perStage {
		return nil
	}
	return fielderr.New("workload.vpp", fmt.Sprintf("give vpp from 1 to %d (layers / pp, rounded up), or fewer pipeline stages", perStage),
		"%d virtual stages per pipeline stage, but each of the %d stages holds only %s", w.VPP, w.PP, textfmt.Plural(perStage, "layer"))
}

// checkFinite reports the first cost, power or JCT figure of p that is
// not a finite number: the input ranges are meant to rule that out, and
// this makes sure no Inf or NaN reaches a screen, a chart or a file.
func (p *Plan) checkFinite() error {
	if finitePlan(p) {
		return nil // the typed walk (finite.go); the reflective one below names what it finds
	}
	for _, part := range [...]struct {
		name string
		v    reflect.Value
	}{{"cost", reflect.ValueOf(&p.Cost).Elem()}, {"power", reflect.ValueOf(&p.Power).Elem()}, {"jct", reflect.ValueOf(p.JCT)}} {
		if where := nonFinite(part.v, part.name); where != "" {
			return fmt.Errorf("%w: the model gave %s for these inputs; check the workload and price values (send the scenario to the developers if they look right)",
				ErrNotFinite, where)
		}
	}
	return nil
}

// ErrNotFinite marks a computed figure that is infinite or not a number.
var ErrNotFinite = errors.New("a figure is not a finite number")

// nonFinite walks v (structs, slices, pointers to numbers) and returns the
// path and value of the first float that is NaN or infinite, or "".
// Pointers to structs (catalog entries) are not followed. Every plan is
// checked, so a first walk builds no path: only a figure that fails is
// walked again to name it.
func nonFinite(v reflect.Value, path string) string {
	if allFinite(v, path == "jct") {
		return ""
	}
	return nonFiniteAt(v, path)
}

// allFinite is nonFinite's walk without the path: root follows a pointer
// to a struct (the JCT estimate itself).
func allFinite(v reflect.Value, root bool) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return isFinite(v.Float())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() && (v.Kind() == reflect.Interface || v.Elem().Kind() != reflect.Struct || root) {
			return allFinite(v.Elem(), false)
		}
	case reflect.Struct:
		for _, i := range exportedFields(v.Type()) {
			if !allFinite(v.Field(i), false) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !allFinite(v.Index(i), false) {
				return false
			}
		}
	}
	return true
}

// exportedFieldIndex caches exportedFields per struct type.
var exportedFieldIndex sync.Map // reflect.Type -> []int

// exportedFields lists the indices of struct type t's exported fields
// that may hold a float the walk reaches (holdsFloat): a field of
// strings, counts or catalog pointers is not visited (every plan is
// checked, and half a sweep's check went on such fields).
func exportedFields(t reflect.Type) []int {
	if f, ok := exportedFieldIndex.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && holdsFloat(f.Type, map[reflect.Type]bool{}) {
			out = append(out, i)
		}
	}
	exportedFieldIndex.Store(t, out)
	return out
}

// holdsFloat says whether a value of type t, walked as allFinite walks a
// field (a pointer to a struct not followed), may hold a float: an
// interface may hold anything. seen holds the types being asked about
// further up (a type that holds itself holds a float where its other
// fields do).
func holdsFloat(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Interface:
		return true
	case reflect.Pointer:
		return t.Elem().Kind() != reflect.Struct && holdsFloat(t.Elem(), seen)
	case reflect.Slice, reflect.Array:
		return holdsFloat(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && holdsFloat(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// nonFiniteAt is nonFinite's walk naming the path of what it finds.
func nonFiniteAt(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("%s = %g", path, f)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() && (v.Kind() == reflect.Interface || v.Elem().Kind() != reflect.Struct || path == "jct") {
			return nonFiniteAt(v.Elem(), path)
		}
	case reflect.Struct:
		return nonFiniteField(v, path)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if w := nonFiniteAt(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); w != "" {
				return w
			}
		}
	}
	return ""
}

// nonFiniteField is nonFiniteAt over the exported fields of the struct v.
func nonFiniteField(v reflect.Value, path string) string {
	t := v.Type()
	for i := range v.NumField() {
		if t.Field(i).IsExported() {
			if w := nonFiniteAt(v.Field(i), path+"."+t.Field(i).Name); w != "" {
				return w
			}
		}
	}
	return ""
}

// isFinite reports whether x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// defaultWorkload is NewWorkload for a plan without a [workload] table,
// its global batch raised where the cluster has more data-parallel ranks
// than the batch has micro-batches (Llama 3 70B's 16M tokens fill 2,048
// ranks), with a note saying so. A workload the user wrote is never
// changed: checkBatch reports it instead.
func (p *Plan) defaultWorkload(d *perf.JCTData) perf.Workload {
	w := perf.NewWorkload()
	m := d.Model(w.Model)
	if m == nil || p.Scenario.Workload != nil {
		return w
	}
	dp := p.GPUs / (w.TP * w.PP)
	if need := m.SeqLen * w.MicroBatch * dp; need > w.GlobalBatchTokens {
		w.GlobalBatchTokens = need
		p.Notes = append(p.Notes, raisedBatchNote(need))
	}
	return w
}

// raisedBatchNote says the default workload's batch is raised to tokens.
func raisedBatchNote(tokens int) string {
	b := make([]byte, 0, 128)
	b = append(b, "JCT: the default workload's batch is raised to "...)
	b = textfmt.AppendInt(b, tokens)
	return string(append(b, " tokens, one micro-batch per data-parallel rank"...))
}
