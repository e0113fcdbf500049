package planner

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

func namesField(err error, field string) bool {
	for _, fe := range fielderr.FieldErrors(err) {
		if fe.Field == field {
			return true
		}
	}
	return false
}

func assertFinite(t testing.TB, p *Plan) {
	t.Helper()
	if _, err := json.Marshal(p.Cost); err != nil {
		t.Fatalf("cost does not encode: %v", err)
	}
	vals := []float64{p.Cost.Total, p.Cost.PerGPU, p.Power.Total}
	if p.JCT != nil {
		vals = append(vals, p.JCT.Planned.StepS, p.JCT.Baseline.StepS, p.JCT.Gain, p.JCT.Planned.Days)
	}
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("figure %d is %v", i, v)
		}
	}
}

// Every plan of a valid scenario has finite figures, so --json never
// fails on NaN and the window never prints "NaN µs".
func TestPlanFiguresFinite(t *testing.T) {
	cat := testCatalog(t)
	src := "schema = 1\n[prices]\nqm9700 = 1e8\n[workload]\nlayers = 10000\nhidden = 1048576\nseq_len = 16777216\nparams_b = 100000\nmodel = \"custom\"\nglobal_batch_tokens = 1099511627776\ntp = 8\npp = 1\nvpp = 1\n"
	s, err := ScenarioFromData([]byte(src))
	if err == nil {
		err = s.Validate(cat)
	}
	if err != nil {
		t.Fatal(err)
	}
	// A model this large cannot fit: the finding says so in finite
	// numbers, and the plan's figures are finite.
	p, err := Build(s, cat)
	if err != nil || p.JCT == nil || p.JCT.FitsMemory() {
		t.Fatalf("absurd workload: %v", err)
	}
	if f := strings.Join(p.JCT.Findings, " "); strings.Contains(f, "NaN") || strings.Contains(f, "Inf") {
		t.Fatalf("absurd workload: %s", f)
	}
	w := *s.Workload
	// The step time of the absurd job, memory aside, is finite too.
	if p.JCT, err = estimateJCT(p, w, cat.JCT, false); err != nil {
		t.Fatal(err)
	}
	assertFinite(t, p)
}
