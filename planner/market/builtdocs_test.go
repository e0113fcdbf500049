package market

import (
	"flag"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/builtdoc"
)

var writeBuilt = flag.Bool("write-built", false, "rewrite the built_*.go files from data/ (go generate)")

// TestBuiltDocs: the market tables built into the program are what
// data/market.toml decodes to, and its generated file is up to date.
// Mutations caught: a figure edited in data/market.toml (or in the generated
// file) without the other, a field the generated file leaves out.
func TestBuiltDocs(t *testing.T) {
	f := builtdoc.File{Path: "built_market.go", PkgPath: "fabricplan/planner/market", Var: "builtTables", Gen: "go generate ./planner/market"}
	if err := builtdoc.CheckData(data.FS, "market.toml", builtTables, decodeTables, f, *writeBuilt); err != nil {
		t.Error(err)
	}
}
