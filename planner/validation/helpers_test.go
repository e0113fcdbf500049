package validation

import (
	"maps"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
)

// testCatalog is the shipped catalog, with its JCT constants.
func testCatalog(t testing.TB) *planner.Catalog {
	t.Helper()
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatalf("load catalog: %v", err)
	}
	return cat
}

// slowerGPU is cat with gpu's GEMM ceiling (efficiency_max) scaled by
// f, the maps copied so the shipped catalog is left alone: a model made
// worse on purpose.
func slowerGPU(t testing.TB, cat *planner.Catalog, gpu string, f float64) *planner.Catalog {
	t.Helper()
	jd := *cat.JCT
	jd.GPUs = maps.Clone(jd.GPUs)
	g := *jd.GPUs[gpu]
	g.EfficiencyMax *= f
	jd.GPUs[gpu] = &g
	c := *cat
	c.JCT = &jd
	return &c
}
