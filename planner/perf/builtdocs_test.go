package perf

import (
	"flag"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/builtdoc"
)

var writeBuilt = flag.Bool("write-built", false, "rewrite the built_*.go files from data/ (go generate)")

// TestBuiltDocs: the JCT data built into the program is what
// data/jct.toml decodes to, and its generated file is up to date.
// Mutations caught: a constant edited in data/jct.toml (or the
// generated file) without the other, a field the generated file leaves
// out.
func TestBuiltDocs(t *testing.T) {
	f := builtdoc.File{Path: "built_jctdata.go", PkgPath: "fabricplan/planner/perf", Var: "builtJCTData", Gen: "go generate ./planner/perf"}
	if err := builtdoc.CheckData(data.FS, "jct.toml", builtJCTData, decodeJCTData, f, *writeBuilt); err != nil {
		t.Error(err)
	}
}
