package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// A sweep without the failure what-if (fabricplan sweep's) gives every
// size the plan of the sweep with it, less Plan.Resilience and the note
// on the checkpoint write the what-if reads, over sizes that plan, fail
// and run out of memory (Llama 3 405B at pp 1 needs 373 GB a GPU).
// (planner's TestPartialBuildsAgree checks the sweep's builds against
// a full build.) Mutations caught: SweepWith still running the what-if without
// Failures (Resilience set), or dropping it with Failures; a rows-only
// sweep that drops the memory fix its rows print, or any figure.
func TestSweepWithoutFailures(t *testing.T) {
	cat := testCatalog(t)
	s := planner.NewScenario()
	s.Network.Switch = "qm9700" // 64 ports: 65,537 GPUs do not plan (three tiers reach 64³/4)
	over := perf.NewWorkload()
	over.Model, over.PP = "llama3-405b", 1
	sizes := []int{16, 1000, 3000, 70_000}
	for _, w := range []*perf.Workload{nil, &over} {
		s.Workload = w
		full := Sweep(s, cat, sizes)
		rows := SweepWith(s, cat, sizes, SweepOptions{})
		fixes := 0
		for i, r := range rows {
			f := full[i]
			if r.GPUs != f.GPUs || fmt.Sprint(r.Err) != fmt.Sprint(f.Err) || (r.Plan == nil) != (f.Plan == nil) {
				t.Fatalf("%d GPUs: row %d %v, with failures %d %v", sizes[i], r.GPUs, r.Err, f.GPUs, f.Err)
			}
			if r.Plan == nil {
				continue
			}
			if f.Plan.Resilience == nil || r.Plan.Resilience != nil {
				t.Errorf("%d GPUs: what-if %v with failures, %v without", sizes[i], f.Plan.Resilience != nil, r.Plan.Resilience != nil)
			}
			if j := r.Plan.JCT; j != nil && j.Fix != nil {
				fixes++
			}
			sameReportBut(t, sizes[i], f.Plan, r.Plan)
		}
		if w != nil && fixes == 0 {
			t.Errorf("no row over memory names a fix: the table no longer checks the fix")
		}
	}
}

func FuzzParseGPUList(f *testing.F) {
	for _, s := range []string{"256:131072", "1,2,3", "8:8", "1k:1M:100", "", "0", "5:1", "a:b", "1:2:3:4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		list, err := ParseGPUList(spec)
		if err != nil {
			return
		}
		if len(list) == 0 || len(list) > MaxSweepPoints+64 {
			t.Fatalf("%q: %d points", spec, len(list))
		}
		for _, g := range list {
			if g < 1 || g > planner.MaxGPUs {
				t.Fatalf("%q: count %d out of range", spec, g)
			}
		}
	})
}

// sameReportBut checks that got's published report is want's less the
// failure what-if (Plan.Resilience), and that got's notes are among
// want's (the what-if adds the note on the checkpoint write it reads).
func sameReportBut(t *testing.T, gpus int, want, got *planner.Plan) {
	t.Helper()
	for _, n := range got.Notes {
		if !slices.Contains(want.Notes, n) {
			t.Errorf("%d GPUs: note %q is not the sweep with failures'", gpus, n)
		}
	}
	wr, gr := want.Report(), got.Report()
	wr.Resilience, wr.Notes, gr.Notes = nil, nil, nil
	wj, err := json.Marshal(wr)
	if err != nil {
		t.Fatal(err)
	}
	gj, err := json.Marshal(gr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wj, gj) {
		t.Errorf("%d GPUs: report without failures\n%s\nwant (with failures, less the what-if)\n%s", gpus, gj, wj)
	}
}

// sweepText is a sweep of s at sizes: every row's published report or
// error, a line each.
func sweepText(t *testing.T, s planner.Scenario, cat *planner.Catalog, sizes []int) []string {
	t.Helper()
	var out []string
	for _, r := range Sweep(s, cat, sizes) {
		if r.Err != nil {
			out = append(out, fmt.Sprintf("%d: error: %v", r.GPUs, r.Err))
			continue
		}
		j, err := json.Marshal(r.Plan.Report())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d: %s", r.GPUs, j))
	}
	return out
}

// A sweep made right after the sweep of other inputs, with the
// planner's memos warm, gives row for row the sweep made on a catalog of
// its own (the memos, keyed by the catalog, cold), for edits of inputs
// every row reads, at sizes off the power-of-two grid; and so does the
// first sweep made again after it. (planner's TestMemoTransitions checks
// the same builds against every memo forgotten.) Mutation caught: a memo
// whose key leaves out an input a sweep's rows read (the NIC memo
// keyed without the ports per NIC: the split-port sweep answers with
// the single-port NIC).
func TestSweepAfterEditAsCold(t *testing.T) {
	cat := testCatalog(t)
	base := planner.NewScenario()
	w := perf.NewWorkload()
	base.Workload = &w
	sizes := []int{1000, 2048 + 8, 6144 + 8}
	for _, tc := range []struct {
		name string
		edit func(s *planner.Scenario)
	}{
		{"oversubscription", func(s *planner.Scenario) { s.Network.Oversubscription = "2:1" }},
		{"switch", func(s *planner.Scenario) { s.Network.Switch = "qm9700" }},
		{"planes", func(s *planner.Scenario) { s.Network.Planes = 2 }},
		{"price basis", func(s *planner.Scenario) { s.Pricing.Basis = "list" }},
		{"ports per NIC", func(s *planner.Scenario) { s.Network.PortsPerNIC = 2 }},
		{"workload", func(s *planner.Scenario) {
			o := *s.Workload
			o.Model, o.PP = "llama3-405b", 1 // over memory: the rows name a fix
			s.Workload = &o
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edited := base.Clone()
			tc.edit(&edited)
			first := sweepText(t, base, cat, sizes)
			warm := sweepText(t, edited, cat, sizes)
			again := sweepText(t, base, cat, sizes)
			cold := sweepText(t, edited, testCatalog(t), sizes)
			for i := range cold {
				if warm[i] != cold[i] {
					t.Errorf("row %d after the unedited sweep:\n%s\nwant (cold)\n%s", i, warm[i], cold[i])
				}
				if again[i] != first[i] {
					t.Errorf("unedited row %d after the edited sweep:\n%s\nwant\n%s", i, again[i], first[i])
				}
			}
		})
	}
}
