package planner

import (
	"bytes"
	"encoding/json"
	"fabricplan/planner/perf"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestPartialBuildsAgree checks that a build asking for less (a sweep's,
// a search's, the lean check) gives the very numbers the full build gives
// for everything both compute, over sizes off the power-of-two grid,
// every system, both fabrics, a job that fits and one over memory; and
// that what it was not asked for stays nil. The mutations it catches: a
// build without the networks that times the failure what-if with the
// catalog's checkpoint time instead of the one the storage network
// allows (every goodput figure of a sweep moves); a failure
// what-if or memory-fix search that reads a part only the full build
// fills (the breakdown by effect, the packed alternative); a lean build
// that skips part of the BOM, the cost or the job's steps.
func TestPartialBuildsAgree(t *testing.T) {
	cat := testCatalog(t)
	needs := []struct {
		name string
		n    BuildOptions
	}{
		{"sweep", BuildOptions{Resilience: true, JCT: jctParts{Fix: true}}}, // planner/explore's Sweep
		{"sweep rows", BuildOptions{JCT: jctParts{Fix: true}}},              // and SweepWith without failures
		{"lean", needLean},
		{"search with failures", BuildOptions{Resilience: true}},
		{"networks", BuildOptions{Networks: true}},
		{"fix without detail", BuildOptions{JCT: jctParts{Fix: true}}},
		{"bands alone", BuildOptions{Bands: true}},
	}
	cases := partialCases(cat)
	fixes, built := 0, 0
	for _, c := range cases {
		full, ferr := Build(c.s, cat)
		for _, nd := range needs {
			t.Run(c.name+"/"+nd.name, func(t *testing.T) {
				got, err := build(c.s, cat, nd.n)
				if ferr != nil || err != nil {
					if fmt.Sprint(err) != fmt.Sprint(ferr) {
						t.Fatalf("error %v, full build's %v", err, ferr)
					}
					t.Logf("does not plan: %v", err)
					return
				}
				built++
				if full.JCT != nil && full.JCT.Fix != nil && nd.n.JCT.Fix {
					fixes++
				}
				comparePartial(t, full, got, nd.n)
			})
		}
	}
	if built < len(cases)*len(needs)*9/10 || fixes < 4 {
		t.Errorf("only %d partial builds planned (%d with a memory fix): the table no longer reaches what it checks", built, fixes)
	}
}

// partialCase is one scenario TestPartialBuildsAgree builds every way.
type partialCase struct {
	name string
	s    Scenario
}

// partialCases are sizes off the power-of-two grid on every system and
// both fabrics, and a job over memory on each.
func partialCases(cat *Catalog) []partialCase {
	over := perf.NewWorkload() // Llama 3 405B without pipeline stages: 373 GB per H100
	over.Model, over.PP = "llama3-405b", 1
	var cases []partialCase
	for _, sys := range cat.SystemKeys() {
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			for _, g := range []int{1000, 3000, 50_001, 130_000} {
				s := NewScenario()
				s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch = g, f, Auto
				s.Network.Planes = 1 + g/65_536 // 400G InfiniBand reaches 65,536 ports a plane
				if sys != CustomSystem {
					s.Cluster.System = sys
				}
				cases = append(cases, partialCase{fmt.Sprintf("%s/%s/%d", sys, f, g), s})
			}
			s := NewScenario()
			s.Cluster.GPUs, s.Network.Fabric, s.Network.Oversubscription = 4_000, f, "2:1"
			w := over
			s.Workload = &w
			if sys != CustomSystem {
				s.Cluster.System = sys
			}
			cases = append(cases, partialCase{fmt.Sprintf("%s/%s/over-memory", sys, f), s})
		}
	}
	return cases
}

// comparePartial compares a build that asked for n with the full build:
// equal in everything but what n leaves out, which must stay nil, and
// notes the full build has too.
func comparePartial(t *testing.T, full, got *Plan, n BuildOptions) {
	t.Helper()
	want := partialWant(t, full, got, n)
	for _, note := range got.Notes {
		if !slices.Contains(full.Notes, note) {
			t.Errorf("note %q is not the full build's", note)
		}
	}
	g := *got
	want.Notes, g.Notes = nil, nil
	// The media chooser is a walk's cache that points back at its own
	// plan (which differs in what n leaves out); the hall it chose for
	// is compared.
	want.media, g.media = nil, nil
	if reflect.DeepEqual(&want, &g) {
		return
	}
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(g)
	for i := range wv.NumField() {
		if f := wv.Type().Field(i); f.IsExported() && !reflect.DeepEqual(wv.Field(i).Interface(), gv.Field(i).Interface()) {
			t.Errorf("%s differs from the full build's:\n got %+v\nwant %+v", f.Name, gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
	if !t.Failed() {
		t.Errorf("an unexported field differs from the full build's")
	}
}

// partialWant is the full build with what n leaves out taken away. The
// memory fix of a build without the job's breakdown is compared on its
// change, step and memory, then taken as got's.
func partialWant(t *testing.T, full, got *Plan, n BuildOptions) Plan {
	t.Helper()
	want := *full
	if !n.Networks {
		want.Networks = nil
	}
	if !n.Resilience {
		want.Resilience = nil
	}
	if !n.Packed {
		want.Cheaper = nil
	}
	if !n.Bands {
		want.SanityBands, want.Cost.Drivers = nil, nil
	}
	if full.JCT == nil {
		return want
	}
	wj := *full.JCT
	if !n.JCT.Fix {
		wj.Fix = nil
	}
	if !n.JCT.Detail {
		// The exported fields of the full estimate, less the detail, over
		// got's (its unexported ones, the detail's cache, stay got's).
		wj = withoutDetail(full.JCT, got.JCT)
		if !n.JCT.Fix {
			wj.Fix = nil
		}
	}
	if wj.Fix != nil && got.JCT != nil && got.JCT.Fix != nil {
		if g, w := got.JCT.Fix, wj.Fix; g.Change != w.Change || g.JCT.Planned.StepS != w.JCT.Planned.StepS || g.JCT.Memory != w.JCT.Memory {
			t.Errorf("memory fix %q (step %g s), full build's %q (%g s)", g.Change, g.JCT.Planned.StepS, w.Change, w.JCT.Planned.StepS)
		}
		wj.Fix = got.JCT.Fix
	}
	want.JCT = &wj
	return want
}

// withoutDetail is the full estimate's exported fields, less the
// breakdown and findings a build without detail leaves out, over a copy
// of got (nil: of full).
func withoutDetail(full, got *perf.JCT) perf.JCT {
	if got == nil {
		got = full
	}
	out := *got
	fv, ov := reflect.ValueOf(full).Elem(), reflect.ValueOf(&out).Elem()
	for i := range fv.NumField() {
		if f := fv.Type().Field(i); f.IsExported() && f.Name != "Effects" && f.Name != "Findings" {
			ov.Field(i).Set(fv.Field(i))
		}
	}
	return out
}

// BuildWith with every option set answers as Build (the published
// report, word for word), and with none leaves out what a lean build
// does. Mutations caught: an option BuildWith does not pass on to the
// build (the networks beside the back end, the sanity bands or the
// failure what-if missing from the full report, or present in the lean
// plan).
func TestBuildWithAsBuild(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(3000)
	w := perf.NewWorkload()
	s.Workload = &w
	full, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	all, err := BuildWith(s, cat, BuildOptions{Packed: true, Networks: true, Resilience: true,
		JCT: jctParts{Fix: true, Detail: true}, Bands: true, Recall: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(full.Report())
	got, _ := json.Marshal(all.Report())
	if !bytes.Equal(got, want) {
		t.Errorf("BuildWith every option differs from Build at %s", firstDiff(got, want))
	}
	lean, err := BuildWith(s, cat, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lean.Networks != nil || lean.Resilience != nil || lean.SanityBands != nil || lean.JCT.Effects != nil {
		t.Errorf("lean build holds networks %v, what-if %v, bands %v, effects %v", lean.Networks != nil, lean.Resilience != nil, lean.SanityBands != nil, lean.JCT.Effects != nil)
	}
	if full.Networks == nil || full.Resilience == nil || full.SanityBands == nil {
		t.Fatal("the full build no longer holds what this test compares")
	}
}
