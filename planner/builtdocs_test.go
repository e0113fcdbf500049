package planner

import (
	"flag"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/builtdoc"
)

var writeBuilt = flag.Bool("write-built", false, "rewrite the built_*.go files from data/ (go generate)")

// TestBuiltDocs: the catalog, price and facility data built into the
// program are what their TOML decodes to, and their generated files are
// up to date. Mutations caught: a figure edited in a data/ file (or in
// its generated file) without the other, a field the generated file
// leaves out.
func TestBuiltDocs(t *testing.T) {
	const gen = "go generate ./planner"
	file := func(name, doc, v string) builtdoc.File {
		return builtdoc.File{Path: name, PkgPath: "fabricplan/planner", Var: v, From: "data/" + doc, Gen: gen}
	}
	for _, tc := range []struct {
		doc   string
		check func(src []byte) error
	}{
		{"catalog.toml", func(src []byte) error {
			return builtdoc.Check(builtCatalog, src, decodeCatalog, file("built_catalog.go", "catalog.toml", "builtCatalog"), *writeBuilt)
		}},
		{"prices.toml", func(src []byte) error {
			return builtdoc.Check(builtPriceData, src, decodePriceData, file("built_prices.go", "prices.toml", "builtPriceData"), *writeBuilt)
		}},
		{"facility.toml", func(src []byte) error {
			return builtdoc.Check(builtFacilityData, src, decodeFacilityData, file("built_facility.go", "facility.toml", "builtFacilityData"), *writeBuilt)
		}},
	} {
		t.Run(tc.doc, func(t *testing.T) {
			src, err := data.FS.ReadFile(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.check(src); err != nil {
				t.Error(err)
			}
		})
	}
}
