package planner

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

// countGrammar is the one grammar of counts, shared by the window, the
// CLI flags and the fuzz seeds: each way a person writes 16,384 (or a
// rounded 16 thousand) reads the same, and each mistake gets the same
// error wherever it is typed.
var countGrammar = []struct {
	in   string
	want int
	err  string // "" when it parses
}{
	{in: "16384", want: 16384},
	{in: "16,384", want: 16384},
	{in: "16_384", want: 16384},
	{in: "16 384", want: 16384},
	{in: " 16k ", want: 16000},
	{in: "16K", want: 16000},
	{in: "1.5k", want: 1500},
	{in: "1M", want: 1_000_000},
	{in: "1e6", want: 1_000_000},
	{in: "10M", want: 10_000_000},
	{in: "10,000,001", err: "give a number from 1 to 10,000,000"},
	{in: "0", err: "give a number from 1 to 10,000,000"},
	{in: "-8", err: "give a number from 1 to 10,000,000"},
	{in: "1.5", err: `"1.5" is not a whole number`},
	{in: "16x", err: `"16x" is not a whole number`},
	{in: "", err: `"" is not a whole number`},
	{in: "k", err: `"k" is not a whole number`},
	{in: "NaN", err: `"NaN" is not a whole number`},
}

// TestCountGrammar reads the GPU count through the field table.
// Mutations caught: a parser that drops "_" or the k suffix (the CLI's
// own Atoi rejected 16k and 16,384), one that rounds 1.5 to a count, and
// a limit that differs from the planner's 10,000,000.
func TestCountGrammar(t *testing.T) {
	f, ok := FieldByKey("cluster.gpus")
	if !ok {
		t.Fatal("no cluster.gpus field")
	}
	for _, tc := range countGrammar {
		t.Run(tc.in, func(t *testing.T) {
			s := NewScenario()
			err := f.Set(&s, tc.in)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Set(%q): %v, want %d", tc.in, err, tc.want)
			case tc.err == "" && s.Cluster.GPUs != tc.want:
				t.Errorf("Set(%q) = %d GPUs, want %d", tc.in, s.Cluster.GPUs, tc.want)
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Errorf("Set(%q): error %v, want %q", tc.in, err, tc.err)
			case tc.err != "" && s.Cluster.GPUs != 1024:
				t.Errorf("Set(%q) failed but changed the GPUs to %d", tc.in, s.Cluster.GPUs)
			}
		})
	}
}

// TestFieldLimitsAreTheValidations: the largest value the table takes is
// one the scenario's validation takes, and one more is refused by both,
// for the limits the window used to retype (pp 4,096 and vpp 64 where
// files allow 65,536 and 1,024; planes 16 where validation allows 64).
// The figures are the documented limits (docs/scenario.md). Mutations
// caught: the table or the validation retyping a different cap.
func TestFieldLimitsAreTheValidations(t *testing.T) {
	for _, tc := range []struct {
		key  string
		max  int
		poke func(*Scenario, int)
	}{
		{"cluster.gpus", 10_000_000, func(s *Scenario, v int) { s.Cluster.GPUs = v }},
		{"network.planes", 64, func(s *Scenario, v int) { s.Network.Planes = v }},
		{"workload.tp", 65_536, func(s *Scenario, v int) { s.Workload.TP = v }},
		{"workload.pp", 65_536, func(s *Scenario, v int) { s.Workload.PP = v }},
		{"workload.vpp", 1_024, func(s *Scenario, v int) { s.Workload.VPP = v }},
		{"workload.ep", 65_536, func(s *Scenario, v int) { s.Workload.EP = v }},
		{"workload.micro_batch", 4_096, func(s *Scenario, v int) { s.Workload.MicroBatch = v }},
		{"workload.jobs", 4_096, func(s *Scenario, v int) { s.Workload.Jobs = v }},
		{"workload.qps_per_connection", 128, func(s *Scenario, v int) { s.Workload.QueuePairs = v }},
	} {
		t.Run(tc.key, func(t *testing.T) {
			cat := testCatalog(t)
			f, _ := FieldByKey(tc.key)
			s := NewScenario()
			w := perf.NewWorkload()
			s.Workload = &w
			if err := f.Set(&s, textfmt.Int(tc.max)); err != nil {
				t.Fatalf("the table refuses %s = %s: %v", tc.key, textfmt.Int(tc.max), err)
			}
			if rangeErr(s, cat, tc.key, tc.max) {
				t.Errorf("validation refuses %s = %d, which the table takes", tc.key, tc.max)
			}
			if err := f.Set(&s, strconv.Itoa(tc.max+1)); err == nil || !strings.Contains(err.Error(), textfmt.Int(tc.max)) {
				t.Errorf("the table takes %s = %d or does not name its limit: %v", tc.key, tc.max+1, err)
			}
			tc.poke(&s, tc.max+1)
			if !rangeErr(s, cat, tc.key, tc.max) {
				t.Errorf("validation takes %s = %d, which the table refuses", tc.key, tc.max+1)
			}
		})
	}
}

// rangeErr says whether validating s finds key outside 1 to max: an
// error on key whose fix names max (other problems, such as vpp over the
// model's layers per stage, do not count).
func rangeErr(s Scenario, cat *Catalog, key string, max int) bool {
	for _, fe := range fielderr.FieldErrors(s.Validate(cat)) {
		if fe.Field == key && strings.Contains(fe.Fix, "to "+strconv.Itoa(max)) {
			return true
		}
	}
	return false
}

// TestFieldsTouchOnlyTheirKey sets every number and toggle to a value
// off its default and reads every other field back unchanged. Mutations
// caught: a Get or Set wired to the wrong struct field (pp writing vpp),
// and Get creating a [workload] or [facility] table in the scenario it
// reads. A field changes another only where its Also declares it.
func TestFieldsTouchOnlyTheirKey(t *testing.T) {
	base := NewScenario()
	before := map[string]string{}
	for _, f := range Fields() {
		before[f.Key] = f.Get(&base)
	}
	if base.Workload != nil || base.Facility != nil || base.Networks != nil || base.Reliability != nil || base.Inference != nil || base.RL != nil {
		t.Fatal("Get added a table to the scenario it read")
	}
	// An [inference] or [rl] input is edited under its kind: its base has
	// the kind chosen (and the table it adds), read back the same way.
	bases := map[string]Scenario{"": base}
	befores := map[string]map[string]string{"": before}
	for _, kind := range []string{"inference", "rl"} {
		s := base.Clone()
		kf, _ := FieldByKey("workload.kind")
		if err := kf.Set(&s, kind); err != nil {
			t.Fatal(err)
		}
		bases[kind], befores[kind] = s, map[string]string{}
		for _, f := range Fields() {
			befores[kind][f.Key] = f.Get(&s)
		}
	}
	for _, f := range Fields() {
		kind, _, _ := strings.Cut(f.Key, ".")
		if kind != "inference" && kind != "rl" {
			kind = ""
		}
		base, before := bases[kind], befores[kind]
		text, ok := offDefault(f, before[f.Key])
		if !ok {
			continue
		}
		t.Run(f.Key, func(t *testing.T) {
			s := base.Clone()
			if err := f.Set(&s, text); err != nil {
				t.Fatalf("Set(%q): %v", text, err)
			}
			if got := f.Get(&s); got != text {
				t.Errorf("Get after Set(%q) = %q", text, got)
			}
			for _, g := range Fields() {
				if g.Key == f.Key || g.Key == "facility.layout" || slices.Contains(f.Also, g.Key) { // a hall number turns the hall on
					continue
				}
				if got := g.Get(&s); got != before[g.Key] {
					t.Errorf("setting %s changed %s: %q -> %q", f.Key, g.Key, before[g.Key], got)
				}
			}
		})
	}
}

// offDefault is a value of f other than cur, inside its limits.
func offDefault(f Field, cur string) (string, bool) {
	switch f.Kind {
	case FieldToggle:
		return strconv.FormatBool(cur != "true"), true
	case FieldCount:
		for v := int(f.Min); v <= int(f.Max) && v <= int(f.Min)+3; v++ {
			if t := strconv.Itoa(v); t != cur && v != 0 {
				return t, true
			}
		}
	case FieldNumber, FieldMoney:
		v := f.Min + 0.5
		if f.Max > 0 && v > f.Max {
			v = f.Max
		}
		if t := formatNumber(v); t != cur && v > 0 {
			return t, true
		}
	}
	return "", false
}

// FuzzParseInt: whatever is typed, ParseInt either refuses it or returns
// a count inside its limits that reads back the same when printed.
func FuzzParseInt(f *testing.F) {
	for _, tc := range countGrammar {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := textfmt.ParseInt(in, 1, MaxGPUs)
		if err != nil {
			return
		}
		if v < 1 || v > MaxGPUs {
			t.Fatalf("textfmt.ParseInt(%q) = %d, outside 1 to %d", in, v, MaxGPUs)
		}
		if back, err := textfmt.ParseInt(textfmt.Int(v), 1, MaxGPUs); err != nil || back != v {
			t.Fatalf("textfmt.ParseInt(%q) = %d, but %q reads %d, %v", in, v, textfmt.Int(v), back, err)
		}
	})
}

// FuzzFieldSet: no text makes any field's Set panic, and a failed Set
// leaves the scenario as it was.
func FuzzFieldSet(f *testing.F) {
	for _, seed := range []string{"", "16k", "1:1", "true", "-1", "1e400", "NaN", "packed", "2.5 m"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, fl := range Fields() {
			s := NewScenario()
			if err := fl.Set(&s, in); err != nil && !s.Equal(NewScenario()) {
				t.Fatalf("%s: Set(%q) failed (%v) but changed the scenario", fl.Key, in, err)
			}
		}
	})
}
