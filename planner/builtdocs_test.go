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
	file := func(name, v string) builtdoc.File {
		return builtdoc.File{Path: name, PkgPath: "fabricplan/planner", Var: v, Gen: "go generate ./planner"}
	}
	for doc, check := range map[string]func() error{
		"catalog.toml": func() error {
			return builtdoc.CheckData(data.FS, "catalog.toml", builtCatalog, decodeCatalog, file("built_catalog.go", "builtCatalog"), *writeBuilt)
		},
		"prices.toml": func() error {
			return builtdoc.CheckData(data.FS, "prices.toml", builtPriceData, decodePriceData, file("built_prices.go", "builtPriceData"), *writeBuilt)
		},
		"facility.toml": func() error {
			return builtdoc.CheckData(data.FS, "facility.toml", builtFacilityData, decodeFacilityData, file("built_facility.go", "builtFacilityData"), *writeBuilt)
		},
	} {
		t.Run(doc, func(t *testing.T) {
			if err := check(); err != nil {
				t.Error(err)
			}
		})
	}
}
