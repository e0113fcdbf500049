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

// groupP and allToAllGroupP are group and allToAllGroup as a pointer,
// for a test that lays out a group and times a collective on it at once.
func (m *netModel) groupP(ranks, stride int) *commGroup {
	g := m.group(ranks, stride)
	return &g
}

func (m *netModel) allToAllGroupP(ranks, stride int) *commGroup {
	g := m.allToAllGroup(ranks, stride)
	return &g
}

// resolveOnce resolves w against d as one estimate does, by value.
func resolveOnce(w Workload, d *JCTData) resolved {
	r := resolved{w: w}
	r.finish(d)
	return r
}
