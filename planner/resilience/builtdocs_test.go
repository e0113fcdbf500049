package resilience

import (
	"flag"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/builtdoc"
)

var writeBuilt = flag.Bool("write-built", false, "rewrite the built_*.go files from data/ (go generate)")

// TestBuiltDocs: the failure rates and recovery times built into the program are what
// data/reliability.toml decodes to, and its generated file is up to date.
// Mutations caught: a figure edited in data/reliability.toml (or in the generated
// file) without the other, a field the generated file leaves out.
func TestBuiltDocs(t *testing.T) {
	f := builtdoc.File{Path: "built_reliability.go", PkgPath: "fabricplan/planner/resilience", Var: "builtReliability", Gen: "go generate ./planner/resilience"}
	if err := builtdoc.CheckData(data.FS, "reliability.toml", builtReliability, decodeReliability, f, *writeBuilt); err != nil {
		t.Error(err)
	}
}
