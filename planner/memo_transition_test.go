package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
)

// A re-plan after an edit (warm: the memos hold the plan before it) must
// show exactly what a plan of the edited scenario from nothing shows
// (cold: every memo forgotten, a catalog of its own). The plans' JSON
// reports (what plan --json prints) are compared byte for byte, for one
// valid edit of every input of several shipped scenarios: every field of
// the field table and, by reflection, every scenario figure the table
// cannot reach (reliability rates, side networks' speeds, growth, the
// facility's figures, ...), price overrides, vendor quotes, the phases
// and the fabric with its switch. Each edit is also undone (A, B, A
// equals a cold A) and interleaved with another scenario (A, B, other,
// B) so a memo of the last value is exercised; the phased build-out is
// compared likewise, and a quarter of the edits are swept (three sizes)
// after a sweep of the scenario before. Mutations caught (each tried:
// the test fails): backEndInputs clearing the reliability overrides,
// hallInputs clearing the facility, a job memo key without the
// workload's global batch and micro-batches; and by construction any other memo key that omits an
// input its result reads, a memo hit that hands out a shared plan later
// edited (the undo sees the edit), a takeInputs that forgets an input
// the key leaves out, and a last-value memo keyed by pointer where a
// pointee changed.

// forgetAllMemos empties every memo of this package a plan reads
// through: the back-end and hall memos (forgetHalls forgets the back
// ends too). A memo added to the
// package must be forgotten here (TestNoHandKeyedCaches lists the
// package-level memos there are). The price draws' memo (pricedraw) and
// perf's collision table cannot be reached from here and need not be:
// their keys are their functions' whole arguments, and probCache's
// plans by identity (a cold plan is another pointer).
func forgetAllMemos() {
	forgetHalls()
}

// memoScenario is a shipped scenario, with the edits that make it
// exercise more (a non-power-of-two size, a [facility] table, side
// networks, phases).
type memoScenario struct {
	name string
	s    Scenario
}

func memoScenarios(t *testing.T) []memoScenario {
	t.Helper()
	load := func(file string) Scenario {
		src, err := data.FS.ReadFile("scenarios/" + file + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		s, err := ScenarioFromData(src)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return s
	}
	dgx := load("dgx-h100-superpod-4su") // InfiniBand DGX, 1,016 GPUs, [networks]
	gb := load("gb300-nvl72-4k")         // GB300 NVL72, a workload
	eth := load("eth-800g-16k")          // Ethernet, two planes
	eth.Cluster.GPUs = 6144 + 8
	eth.Facility = &hall.Facility{RackKW: 40} // a [facility] table: the hall laid out
	// A mixture of experts, so the experts' figures plan.
	for _, kv := range [][2]string{{"workload.model", "deepseek-v3"}, {"workload.ep", "8"}} {
		if f, _ := FieldByKey(kv[0]); f.Set(&eth, kv[1]) != nil {
			t.Fatalf("eth-800g-16k: %s = %s", kv[0], kv[1])
		}
	}
	ib := load("ib-ndr-1k")
	ib.Cluster.GPUs = 1000
	w := perf.NewWorkload()
	ib.Workload = &w
	ib.Networks = &NetworksInputs{FrontEnd: "separate", Storage: "separate"}
	ib.Phases = []Phase{{GPUs: 512}, {GPUs: 1000}}
	ib.Growth = &Growth{RecableCrews: 2}
	return []memoScenario{{"dgx-h100-superpod-4su", dgx}, {"gb300-nvl72-4k", gb}, {"eth-800g-16k@6152+facility+deepseek-v3", eth}, {"ib-ndr-1k@1000+networks+phases", ib}}
}

// planJSON is plan --json's output for s on cat: Build, then the
// cheaper alternatives, then the report.
func planJSON(s Scenario, cat *Catalog) ([]byte, error) {
	p, err := Build(s, cat)
	if err != nil {
		return nil, err
	}
	p.FindCheaper(cat)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p.Report()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// PlanPhasesJSON is planner/phases's phased plan of s on cat as JSON
// (phases --json's body). The phased build-out sits above this package
// and cannot be imported here: phasesmemo_test.go, in package
// planner_test (which may import it), sets this before the tests run.
var PlanPhasesJSON func(s Scenario, cat *Catalog) ([]byte, error)

// phasesJSON is a phased plan's JSON, or its error's text: a phased
// build-out builds every phase through the memos.
func phasesJSON(s Scenario, cat *Catalog) []byte {
	b, err := PlanPhasesJSON(s, cat)
	if err != nil {
		return []byte("error: " + err.Error())
	}
	return b
}

// sweepJSON is a sweep of s over three sizes (one not a power of two):
// every row's report or error. A sweep's sizes share the fabric's
// sizing memo and the link media memo. The sweep (planner/explore,
// which this package cannot import) is built here as explore.Sweep
// builds its rows: flat links, the count checked by GPUCountCheck, one
// workload memo, the memory fix and the failure what-if; explore's
// TestSweepAfterEditAsCold checks the sweep itself warm against cold.
func sweepJSON(s Scenario, cat *Catalog) []byte {
	var b bytes.Buffer
	o := BuildOptions{Resilience: true, JCT: jctParts{Fix: true, Memo: new(perf.WorkloadMemo)}, Check: GPUCountCheck(s.FlatLinks(), cat)}
	for _, g := range []int{1000, 2048 + 8, 6144 + 8} {
		p := s.FlatLinks()
		p.Cluster.GPUs = g
		r, err := BuildWith(p, cat, o)
		if err != nil {
			fmt.Fprintf(&b, "%d: error: %v\n", g, err)
			continue
		}
		j, err := json.Marshal(r.Report())
		if err != nil {
			fmt.Fprintf(&b, "%d: %v\n", g, err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// coldReport is s planned from nothing.
func coldReport(t *testing.T, s Scenario) ([]byte, error) {
	forgetAllMemos()
	return planJSON(s, testCatalog(t))
}

// memoEdit is one edit of a scenario.
type memoEdit struct {
	field string
	apply func(*Scenario) error
}

// tableEdits are the candidate edits of field f of s, best first.
func tableEdits(f Field, s Scenario, cat *Catalog) []memoEdit {
	cur := f.Get(&s)
	var texts []string
	switch f.Kind {
	case FieldText:
		texts = []string{cur + " (edited)"}
	case FieldToggle:
		texts = []string{strconv.FormatBool(cur != "true")}
	case FieldChoice:
		texts = f.Choices
		if texts == nil {
			texts = catalogChoices(f.Key, cat)
		}
	case FieldCount, FieldNumber, FieldMoney:
		texts = numberTexts(f, cur)
	}
	var out []memoEdit
	for _, text := range texts {
		if text == cur {
			continue
		}
		out = append(out, memoEdit{f.Key + "=" + strconv.Quote(text), func(s *Scenario) error { return f.Set(s, text) }})
	}
	return out
}

// numberTexts are the candidate values of number field f at cur: near
// it, then round figures and port speeds, inside f's limits.
func numberTexts(f Field, cur string) []string {
	var texts []string
	v, _ := strconv.ParseFloat(strings.ReplaceAll(cur, ",", ""), 64)
	for _, c := range []float64{v * 2, v + 1, v * 1.25, v / 2, v - 1, f.Min + 1, 2, 8, 1000, 0.5, f.Min, f.Max, 400, 800, 200, 512, 2048} {
		if f.Kind == FieldCount {
			c = float64(int(c))
		}
		if c < f.Min || (f.Max > 0 && c > f.Max) {
			continue
		}
		texts = append(texts, strconv.FormatFloat(c, 'f', -1, 64))
	}
	if f.Optional && cur != "" {
		texts = append(texts, "")
	}
	return texts
}

// catalogChoices are the catalog keys a choice of no fixed choices takes.
func catalogChoices(key string, cat *Catalog) []string {
	switch key {
	case "cluster.system":
		return cat.SystemKeys()
	case "workload.model":
		return SortedKeys(cat.JCT.Models)
	case "workload.gpu":
		return SortedKeys(cat.JCT.GPUs)
	}
	return append([]string{Auto}, cat.SwitchKeys()...)
}

// leafValues are a value's scalar leaves by path (pointers followed,
// nil written as such).
func leafValues(v reflect.Value, path string, out map[string]string) {
	switch v.Kind() {
	case reflect.Pointer:
		switch {
		case !v.IsNil():
			leafValues(v.Elem(), path, out)
		case v.Type().Elem().Kind() == reflect.Struct:
			leafValues(reflect.Zero(v.Type().Elem()), path, out) // a table made by an edit changes only what it sets
		default:
			out[path] = "nil"
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Name != "Quotes" {
				leafValues(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice:
		out[path+".len"] = strconv.Itoa(v.Len())
		for i := range v.Len() {
			leafValues(v.Index(i), path+"["+strconv.Itoa(i)+"]", out)
		}
	case reflect.Map:
		out[path+".len"] = strconv.Itoa(v.Len())
		for _, k := range v.MapKeys() {
			leafValues(v.MapIndex(k), path+"["+fmt.Sprint(k)+"]", out)
		}
	default:
		out[path] = fmt.Sprint(v.Interface())
	}
}

// changedLeaves are the leaves whose value differs between a and b.
func changedLeaves(a, b Scenario) []string {
	la, lb := map[string]string{}, map[string]string{}
	leafValues(reflect.ValueOf(a), "", la)
	leafValues(reflect.ValueOf(b), "", lb)
	var out []string
	for k, v := range lb {
		if la[k] != v {
			out = append(out, k)
		}
	}
	for k := range la {
		if _, ok := lb[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// scalarLeaf is a settable scalar of a Scenario: its path and the field
// indices that reach it (through pointers to structs).
type scalarLeaf struct {
	path  string
	index [][]int
	typ   reflect.Type
}

// scenarioLeaves lists the scalar inputs of a Scenario the field table
// may miss: those of its cluster, network, workload, reliability, side
// networks, growth, facility and pricing (not its slices and maps:
// phases, prices and quotes are edited by hand).
func scenarioLeaves() []scalarLeaf {
	var out []scalarLeaf
	var walk func(t reflect.Type, path string, index [][]int)
	walk = func(t reflect.Type, path string, index [][]int) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			idx := append(slices.Clone(index[:len(index)-1]), append(slices.Clone(index[len(index)-1]), i))
			ft := f.Type
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				walk(ft.Elem(), path+"."+f.Name, append(idx, nil))
				continue
			}
			if ft.Kind() == reflect.Struct {
				walk(ft, path+"."+f.Name, idx)
				continue
			}
			if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map {
				continue
			}
			out = append(out, scalarLeaf{path + "." + f.Name, idx, ft})
		}
	}
	st := reflect.TypeFor[Scenario]()
	for _, name := range []string{"Cluster", "Network", "Workload", "Reliability", "Networks", "Growth", "Facility", "Pricing"} {
		f, _ := st.FieldByName(name)
		if f.Type.Kind() == reflect.Pointer {
			walk(f.Type.Elem(), "."+name, [][]int{{f.Index[0]}, nil})
		} else {
			walk(f.Type, "."+name, [][]int{{f.Index[0]}})
		}
	}
	return out
}

// reach follows l's indices in s (a clone), making the structs on the
// way that are nil (the workload the default job), and returns the leaf.
func (l scalarLeaf) reach(s *Scenario) reflect.Value {
	v := reflect.ValueOf(s).Elem()
	for i, idx := range l.index {
		if i > 0 { // through a pointer
			if v.IsNil() {
				if v.Type() == reflect.TypeFor[*perf.Workload]() {
					w := perf.NewWorkload()
					v.Set(reflect.ValueOf(&w))
				} else {
					v.Set(reflect.New(v.Type().Elem()))
				}
			}
			v = v.Elem()
		}
		v = v.FieldByIndex(idx)
	}
	return v
}

// leafEdits are the candidate values of leaf l of s, best first.
func leafEdits(l scalarLeaf, s Scenario) []memoEdit {
	var vals []any
	cur := reflect.Value{}
	{
		c := s.Clone()
		cur = l.reach(&c)
	}
	t := l.typ
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	if ptr && !cur.IsNil() {
		cur = cur.Elem()
	} else if ptr {
		cur = reflect.Zero(t)
	}
	switch t.Kind() {
	case reflect.Int:
		v := cur.Int()
		vals = []any{v * 2, v + 1, v - 1, int64(2), int64(8), int64(48), int64(1)}
	case reflect.Float64:
		v := cur.Float()
		vals = []any{v * 1.25, v + 0.5, v * 0.8, 0.5, 1.0, 10.0, 0.05, 100.0}
	case reflect.Bool:
		vals = []any{!cur.Bool()}
	case reflect.String:
		if strings.HasSuffix(l.path, "Oversubscription") {
			vals = []any{"2:1", "1:1"}
		}
		if strings.HasSuffix(l.path, ".NIC") {
			vals = []any{Auto, "cx7-400", "cx8-800", "bf3-400"}
		}
		if strings.HasSuffix(l.path, "Pricing.Quotes") {
			vals = []any{"other.csv"}
		}
		if t == reflect.TypeFor[Fabric]() {
			vals = []any{string(Ethernet), string(InfiniBand)}
		}
	}
	var out []memoEdit
	for _, v := range vals {
		nv := reflect.ValueOf(v).Convert(t)
		if !ptr && nv.Equal(cur) {
			continue
		}
		out = append(out, memoEdit{l.path + "=" + fmt.Sprint(v), func(s *Scenario) error {
			leaf := l.reach(s)
			if ptr {
				p := reflect.New(t)
				p.Elem().Set(nv)
				leaf.Set(p)
			} else {
				leaf.Set(nv)
			}
			return nil
		}})
	}
	return out
}

// firstDiff is the JSON path where a and b first differ, in the
// reports' order, with both values there.
func firstDiff(a, b []byte) string {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	type frame struct {
		obj     bool
		key     string
		idx     int
		wantKey bool
	}
	var stack []frame
	path := func(stack []frame) string {
		var p strings.Builder
		p.WriteString("$")
		for _, f := range stack {
			if f.obj {
				p.WriteString("." + f.key)
			} else {
				p.WriteString("[" + strconv.Itoa(f.idx) + "]")
			}
		}
		return p.String()
	}
	for {
		ta, ea := da.Token()
		tb, eb := db.Token()
		if ea != nil || eb != nil {
			if ea != nil && eb != nil {
				return "(no difference)"
			}
			return path(stack) + " (one report ends first)"
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			if ta != tb {
				return fmt.Sprintf("%s.{key %v against %v}", path(stack[:n-1]), ta, tb)
			}
			if k, ok := ta.(string); ok {
				stack[n-1].key, stack[n-1].wantKey = k, false
				continue
			}
		}
		if ta != tb {
			return fmt.Sprintf("%s (%v against %v)", path(stack), ta, tb)
		}
		switch ta {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{obj: ta == json.Delim('{'), wantKey: true})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 { // a value ended
			if stack[n-1].obj {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].idx++
			}
		}
	}
}

// handEdits are the edits of the inputs that are neither table fields
// nor scalars: price overrides, vendor quotes (a set loaded, then
// another with another price) and the phases.
func handEdits(s Scenario, base []byte) [][]memoEdit {
	var rep Report
	_ = json.Unmarshal(base, &rep)
	var keys []string
	for _, l := range rep.BOM {
		if l.Key != "" && l.UnitUSD > 0 && !slices.Contains(keys, l.Key) && len(keys) < 2 {
			keys = append(keys, l.Key)
		}
	}
	var out [][]memoEdit
	for _, k := range keys {
		f := PriceField(k)
		out = append(out, []memoEdit{{"prices." + k, func(s *Scenario) error { return f.Set(s, "12345") }}})
	}
	if len(keys) > 0 {
		quote := func(usd float64) *Quotes {
			return &Quotes{Path: "q.csv", Quotes: []Quote{{Part: keys[0], UnitPrice: usd, Currency: "USD", USDPer: 1,
				Vendor: "Memo Test", Date: "2026-01-01", ValidUntil: "2099-12-31"}}}
		}
		out = append(out, []memoEdit{{"quotes(" + keys[0] + ")", func(s *Scenario) error {
			if s.Quotes != nil {
				s.Quotes = quote(s.Quotes.Quotes[0].UnitPrice + 1000) // another set, another price
			} else {
				s.Quotes = quote(4321)
			}
			return nil
		}}})
		out = append(out, []memoEdit{{"pricing.quotes", func(s *Scenario) error { s.Pricing.Quotes = "other.csv"; return nil }}})
	}
	other := Ethernet // the other fabric needs its own switches
	if s.Network.Fabric == Ethernet {
		other = InfiniBand
	}
	out = append(out, []memoEdit{{"network.fabric=" + string(other) + " with switch and NIC auto", func(s *Scenario) error {
		s.Network.Fabric, s.Network.Switch, s.Network.NIC = other, Auto, Auto
		s.Network.SpineSwitch, s.Network.CoreSwitch = "", ""
		return nil
	}}})
	if len(s.Phases) > 0 {
		out = append(out, []memoEdit{{"phase[0].gpus", func(s *Scenario) error { s.Phases[0].GPUs /= 2; return nil }}})
	}
	return out
}

// pickEdit applies the first of candidates whose edited scenario plans
// (preferring one whose cold report differs from base's), returning the
// scenario, its cold report and the edit's name; ok is false when none
// plans.
func pickEdit(t *testing.T, s Scenario, base []byte, candidates []memoEdit) (Scenario, []byte, string, bool) {
	var fall Scenario
	var fallJSON []byte
	fallName := ""
	for i, e := range candidates {
		if i == 12 {
			break
		}
		edited := s.Clone()
		if e.apply(&edited) != nil {
			continue
		}
		cold, err := coldReport(t, edited)
		if err != nil {
			continue
		}
		if !bytes.Equal(cold, base) {
			return edited, cold, e.field, true
		}
		if fallName == "" {
			fall, fallJSON, fallName = edited, cold, e.field
		}
	}
	return fall, fallJSON, fallName, fallName != ""
}

func TestMemoTransitions(t *testing.T) {
	cat := testCatalog(t)
	scens := memoScenarios(t)
	if testing.Short() {
		scens = scens[1:3] // an NVL72 and the Ethernet hall: half the time
	}
	colds := make([][]byte, len(scens))
	for i, sc := range scens {
		var err error
		if colds[i], err = coldReport(t, sc.s); err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
	}
	leaves := scenarioLeaves()
	covered := tableReach(t, cat, leaves)
	for i, sc := range scens {
		o := (i + 1) % len(scens)
		r := &memoRun{t: t, cat: cat, sc: sc, cold: colds[i], other: scens[o], otherCold: colds[o]}
		if len(sc.s.Phases) > 0 {
			forgetAllMemos()
			r.coldPhases = phasesJSON(sc.s, testCatalog(t))
		}
		for _, f := range Fields() {
			r.try(f.Key, tableEdits(f, sc.s, cat))
		}
		for _, cands := range handEdits(sc.s, colds[i]) {
			r.try(cands[0].field, cands)
		}
		for _, l := range leaves {
			if !covered[l.path] {
				r.try(l.path, leafEdits(l, sc.s))
			}
		}
		t.Logf("%s: %d edits checked; no edit that plans: %v", sc.name, r.edits, r.none)
	}
}

// memoRun checks the edits of one scenario, warm against cold.
type memoRun struct {
	t               *testing.T
	cat             *Catalog
	sc, other       memoScenario
	cold, otherCold []byte // their plans' reports, cold
	coldPhases      []byte // sc's phased build-out, cold (with phases)
	edits, sweeps   int
	none            []string // the inputs with no edit that plans
}

// try checks the first of candidates that plans, or notes that none does.
func (r *memoRun) try(what string, candidates []memoEdit) {
	edited, cold, name, ok := pickEdit(r.t, r.sc.s, r.cold, candidates)
	if !ok {
		r.none = append(r.none, what)
		return
	}
	r.edits++
	base, other := r.sc.s, r.other
	_, _ = planJSON(base, r.cat) // the plan before the edit, memos live
	_ = r.check("edit "+name, edited, cold) &&
		r.check("undo "+name+" (A, B, A)", base, r.cold) &&
		r.check("edit "+name+" after "+other.name, edited, cold) &&
		r.check(other.name+" after edit "+name, other.s, r.otherCold) &&
		r.check("edit "+name+" again after "+other.name, edited, cold)
	if r.sweeps++; r.sweeps%4 == 0 { // a sample: a sweep is twenty plans
		r.checkSweep(name, edited)
	}
	if len(base.Phases) > 0 {
		r.checkPhases(name, edited)
	}
}

// check says whether s planned warm prints want, and reports it if not.
func (r *memoRun) check(what string, s Scenario, want []byte) bool {
	got, err := planJSON(s, r.cat)
	if err != nil {
		r.t.Errorf("%s: %s: warm plan fails: %v", r.sc.name, what, err)
		return false
	}
	if !bytes.Equal(got, want) {
		r.t.Errorf("%s: %s: the warm plan differs from the cold one at %s", r.sc.name, what, firstDiff(got, want))
		return false
	}
	return true
}

// checkSweep compares the sweep of edited after one of the scenario
// before with its sweep cold.
func (r *memoRun) checkSweep(name string, edited Scenario) {
	forgetAllMemos()
	cold := sweepJSON(edited, testCatalog(r.t))
	_ = sweepJSON(r.sc.s, r.cat)
	if warm := sweepJSON(edited, r.cat); !bytes.Equal(warm, cold) {
		r.t.Errorf("%s: sweep after edit %s: the warm sweep differs from the cold one: %s", r.sc.name, name, firstLineDiff(warm, cold))
	}
}

// checkPhases compares the phased build-out of edited after the
// scenario's, and the scenario's again, with theirs cold.
func (r *memoRun) checkPhases(name string, edited Scenario) {
	forgetAllMemos()
	cold := phasesJSON(edited, testCatalog(r.t))
	_ = phasesJSON(r.sc.s, r.cat)
	if warm := phasesJSON(edited, r.cat); !bytes.Equal(warm, cold) {
		r.t.Errorf("%s: phases after edit %s: the warm plan differs from the cold one at %s", r.sc.name, name, firstDiff(warm, cold))
	}
	if warm := phasesJSON(r.sc.s, r.cat); !bytes.Equal(warm, r.coldPhases) {
		r.t.Errorf("%s: phases after undoing %s: the warm plan differs from the cold one at %s", r.sc.name, name, firstDiff(warm, r.coldPhases))
	}
}

// tableReach is the scalar inputs the field table's edits change, found
// on a scenario with every optional table present; the others are
// edited by reflection (leafEdits). The test logs them: the inputs the
// window cannot edit but a scenario file can.
func tableReach(t *testing.T, cat *Catalog, leaves []scalarLeaf) map[string]bool {
	full := ibScenario(1000)
	w := perf.NewWorkload()
	full.Workload, full.Reliability, full.Networks, full.Growth, full.Facility = &w, &ReliabilityInputs{}, &NetworksInputs{}, &Growth{}, &hall.Facility{}
	covered := map[string]bool{}
	for _, f := range Fields() {
		for _, e := range tableEdits(f, full, cat) {
			edited := full.Clone()
			if e.apply(&edited) == nil {
				for _, l := range changedLeaves(full, edited) {
					covered[l] = true
				}
			}
		}
	}
	var lacking []string
	for _, l := range leaves {
		if !covered[l.path] {
			lacking = append(lacking, l.path)
		}
	}
	t.Logf("scenario inputs no field of the table sets, edited by reflection: %v", lacking)
	return covered
}

// firstLineDiff is where two sweeps' rows first differ: the row's
// size and the JSON path in its report.
func firstLineDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("row %d at %s", i+1, firstDiff(la[i], lb[i]))
		}
	}
	return "(row count)"
}

// firstDiff names the first place two reports differ, in their order.
// Mutations caught: an array index not advanced after a nested object
// (every later element named [0]), an object key kept from the previous
// member, a difference past the first one named.
func TestFirstDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{`{"a":1,"b":[1,2]}`, `{"a":1,"b":[1,3]}`, "$.b[1] (2 against 3)"},
		{`{"z":[{"x":1},{"x":2}],"a":5}`, `{"z":[{"x":1},{"x":3}],"a":6}`, "$.z[1].x (2 against 3)"},
		{`{"z":{"x":[1]},"a":5}`, `{"z":{"x":[1]},"a":6}`, "$.a (5 against 6)"},
		{`{"a":1,"b":2}`, `{"a":1,"c":2}`, "$.{key b against c}"},
		{`{"a":[1,2]}`, `{"a":[1]}`, "$.a[1] (2 against ])"},
		{`{"a":1}`, `{"a":1}`, "(no difference)"},
	} {
		if got := firstDiff([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("firstDiff(%s, %s) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
