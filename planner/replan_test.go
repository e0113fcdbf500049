package planner

import (
	"encoding/json"
	"fabricplan/planner/perf"
	"fmt"
	"sync"
	"testing"
)

// reportJSON is p's report as fabricplan plan --json writes it.
func reportJSON(t *testing.T, p *Plan) string {
	t.Helper()
	b, err := json.Marshal(p.Report())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A re-plan after an edit equals a cold plan of the same scenario (no
// memo: walkedPlan), field by field and in its report, as the window's
// edits follow one another: the workload, the failure what-if's inputs,
// the front end, the back end the job runs on, the JCT data. Each edit
// is checked to change the report, else it could not show a stale
// figure. Mutations caught: the back-end memo's inputs (backEndInputs)
// or the hall's (hallInputs) missing what an edit changes (the edited
// cluster, routing or front end shows the old plan's figures), a step
// kept from an earlier plan of another workload or JCT data.
func TestReplanAfterEditMatchesCold(t *testing.T) {
	cat := testCatalog(t)
	jct := cat.JCT
	defer func() { cat.JCT = jct }()
	otherJCT := *jct // the same GPUs and models, other efficiencies
	otherJCT.Efficiency.RoCEAdaptive *= 0.8
	otherJCT.TCP.LineRateFraction *= 0.5
	s := NewScenario()
	s.Cluster.GPUs = 4096
	s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g"
	w := perf.NewWorkload()
	fail := 20.0
	failover := true // one plane: off unless asked
	edits := []struct {
		name string
		edit func(s *Scenario)
	}{
		{"first plan", func(*Scenario) {}},
		{"workload: global batch x4", func(s *Scenario) {
			w.GlobalBatchTokens *= 4
			s.Workload = &w
		}},
		{"workload: tp 4", func(s *Scenario) { w.TP = 4 }},
		{"workload: data-parallel overlap", func(s *Scenario) { // the same replicas and micro-batches
			overlap := 0.2
			w.OverlapDP = &overlap
		}},
		{"what-if: link failures a year", func(s *Scenario) { s.Reliability = &ReliabilityInputs{LinkPerYear: &fail} }},
		{"what-if: port failover", func(s *Scenario) { s.Reliability.PortFailover = &failover }},
		{"front end: 1 port per server", func(s *Scenario) { s.Networks = &NetworksInputs{FrontEndPorts: 1} }},
		{"front end: 400G", func(s *Scenario) { s.Networks.FrontEndGbps = 400 }},
		{"back end: static routing", func(s *Scenario) { s.Network.Routing = RouteStatic }},
		{"back end: 32 more GPUs", func(s *Scenario) { s.Cluster.GPUs += 32 }},
		{"JCT data: RoCE efficiency and TCP line rate", func(*Scenario) { cat.JCT = &otherJCT }},
		{"JCT data as loaded", func(*Scenario) { cat.JCT = jct }},
		{"back end: 32 GPUs fewer", func(s *Scenario) { s.Cluster.GPUs -= 32 }},
	}
	forgetHalls()
	before := ""
	for _, e := range edits {
		e.edit(&s)
		s := s.Clone()
		s.Workload = cloneWorkload(s.Workload)
		got, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		want := walkedPlan(t, s, cat)
		samePlan(t, e.name, want, got)
		g, w := reportJSON(t, got), reportJSON(t, want)
		if g != w {
			t.Errorf("%s: the report differs from a cold plan's:\n got %s\nwant %s", e.name, g, w)
		}
		if w == before {
			t.Errorf("%s: the edit leaves the report as it was: it cannot show a stale figure", e.name)
		}
		before = w
		if got.Resilience == nil || got.Networks == nil || got.Networks.FrontEndJCT == nil {
			t.Fatalf("%s: no what-if or front-end step to check", e.name)
		}
	}
}

// cloneWorkload is a copy of w (nil stays nil), so that later edits of
// the test's workload leave a built scenario's alone.
func cloneWorkload(w *perf.Workload) *perf.Workload {
	if w == nil {
		return nil
	}
	c := *w
	return &c
}

// Shown plans built at once on several goroutines, sharing the hall and
// back-end memos, each equal their cold plans (run with -race). Mutation
// caught: a memo read or written outside its lock.
func TestReplanConcurrent(t *testing.T) {
	cat := testCatalog(t)
	var scenarios []Scenario
	var want []string
	for _, g := range []int{1024, 2048} {
		for _, tp := range []int{4, 8} {
			s := planBenchScenario(g)
			w := perf.NewWorkload()
			w.TP = tp
			s.Workload = &w
			scenarios = append(scenarios, s)
			want = append(want, reportJSON(t, walkedPlan(t, s, cat)))
		}
	}
	forgetHalls()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				k := (i + g) % len(scenarios)
				p, err := Build(scenarios[k], cat)
				if err != nil {
					errs <- err.Error()
					return
				}
				b, _ := json.Marshal(p.Report())
				if string(b) != want[k] {
					errs <- fmt.Sprintf("scenario %d: the report differs from a cold plan's", k)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
