package serve

import (
	"flag"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/builtdoc"
)

var writeBuilt = flag.Bool("write-built", false, "rewrite the built_*.go files from data/ (go generate)")

// TestBuiltDocs: the inference figures built into the program are what
// data/inference.toml decodes to, and its generated file is up to date.
// Mutations caught: a figure edited in data/inference.toml (or in the generated
// file) without the other, a field the generated file leaves out.
func TestBuiltDocs(t *testing.T) {
	f := builtdoc.File{Path: "built_inference.go", PkgPath: "fabricplan/planner/serve", Var: "builtData", Gen: "go generate ./planner/serve"}
	if err := builtdoc.CheckData(data.FS, "inference.toml", builtData, decodeData, f, *writeBuilt); err != nil {
		t.Error(err)
	}
}
