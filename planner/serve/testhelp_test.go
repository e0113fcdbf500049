package serve

import (
	"io/fs"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/perf"
)

// testData loads data/inference.toml and data/jct.toml.
func testData(t testing.TB) (*Data, *perf.JCTData) {
	t.Helper()
	src, err := fs.ReadFile(data.FS, "inference.toml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseData(src)
	if err != nil {
		t.Fatal(err)
	}
	jsrc, err := fs.ReadFile(data.FS, "jct.toml")
	if err != nil {
		t.Fatal(err)
	}
	jd, err := perf.ParseJCTData(jsrc)
	if err != nil {
		t.Fatal(err)
	}
	return d, jd
}
