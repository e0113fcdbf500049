package validation

import (
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
