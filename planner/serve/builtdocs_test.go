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
	src, err := data.FS.ReadFile("inference.toml")
	if err != nil {
		t.Fatal(err)
	}
	f := builtdoc.File{Path: "built_inference.go", PkgPath: "fabricplan/planner/serve", Var: "builtData", From: "data/inference.toml", Gen: "go generate ./planner/serve"}
	if err := builtdoc.Check(builtData, src, decodeData, f, *writeBuilt); err != nil {
		t.Error(err)
	}
}
