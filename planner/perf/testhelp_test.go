package perf

import (
	"io/fs"
	"testing"

	"fabricplan/data"
)

// testData is data/jct.toml, decoded and checked.
func testData(t testing.TB) *JCTData {
	t.Helper()
	src, err := fs.ReadFile(data.FS, "jct.toml")
	if err != nil {
		t.Fatalf("read jct.toml: %v", err)
	}
	d, err := ParseJCTData(src)
	if err != nil {
		t.Fatalf("jct data: %v", err)
	}
	return d
}
