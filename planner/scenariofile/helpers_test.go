package scenariofile

import (
	"encoding/json"
	"math"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/fielderr"
	"fabricplan/planner"
)

func testCatalog(t testing.TB) *planner.Catalog {
	t.Helper()
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatalf("load catalog: %v", err)
	}
	return cat
}

// namesField reports whether err holds a field error of field.
func namesField(err error, field string) bool {
	for _, fe := range fielderr.FieldErrors(err) {
		if fe.Field == field {
			return true
		}
	}
	return false
}

// assertFinite fails when a plan's headline figures are not finite and
// non-negative, or its cost does not encode as JSON.
func assertFinite(t testing.TB, p *planner.Plan) {
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
