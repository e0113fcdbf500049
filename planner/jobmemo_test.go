package planner

import (
	"encoding/json"
	"fmt"
	"reflect"
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
// figure, and the memo is checked to serve the edits that leave the job
// alone (the memo keeps front-end steps only: an edit of the front end
// times its step afresh). Mutations caught (each applied to jobKey and
// seen to fail): the key without the fabric (net: the edited cluster or
// routing shows the old front-end step), without the workload (the old
// job's step after a batch or tp edit), without the JCT data (the old
// data's step), the front-end step kept without its front end (the old
// front end's step after a port edit); a step handed out without
// cloning its classes shows in TestJobMemoCopiesAreOwn.
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
	w := NewWorkload()
	fail := 20.0
	failover := true // one plane: off unless asked
	edits := []struct {
		name string
		edit func(s *Scenario)
		hit  bool // the memo serves the job's front-end step
	}{
		{"first plan", func(*Scenario) {}, false},
		{"workload: global batch x4", func(s *Scenario) {
			w.GlobalBatchTokens *= 4
			s.Workload = &w
		}, false},
		{"workload: tp 4", func(s *Scenario) { w.TP = 4 }, false},
		{"workload: data-parallel overlap", func(s *Scenario) { // the same replicas and micro-batches
			overlap := 0.2
			w.OverlapDP = &overlap
		}, false},
		{"what-if: link failures a year", func(s *Scenario) { s.Reliability = &ReliabilityInputs{LinkPerYear: &fail} }, true},
		{"what-if: port failover", func(s *Scenario) { s.Reliability.PortFailover = &failover }, true},
		{"front end: 1 port per server", func(s *Scenario) { s.Networks = &NetworksInputs{FrontEndPorts: 1} }, false},
		{"front end: 400G", func(s *Scenario) { s.Networks.FrontEndGbps = 400 }, false},
		{"back end: static routing", func(s *Scenario) { s.Network.Routing = RouteStatic }, false},
		{"back end: 32 more GPUs", func(s *Scenario) { s.Cluster.GPUs += 32 }, false},
		{"JCT data: RoCE efficiency and TCP line rate", func(*Scenario) { cat.JCT = &otherJCT }, false},
		{"JCT data as loaded", func(*Scenario) { cat.JCT = jct }, true},
		{"back end: 32 GPUs fewer", func(s *Scenario) { s.Cluster.GPUs -= 32 }, true},
	}
	forgetHalls()
	forgetJobs()
	before := ""
	for _, e := range edits {
		e.edit(&s)
		s := s.Clone()
		s.Workload = cloneWorkload(s.Workload)
		hits := jobHits.Load()
		got, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if hit := jobHits.Load() > hits; hit != e.hit {
			t.Errorf("%s: job memo hit %v, want %v", e.name, hit, e.hit)
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
func cloneWorkload(w *Workload) *Workload {
	if w == nil {
		return nil
	}
	c := *w
	return &c
}

// A front-end step from the memo is its plan's own: editing one plan's
// traffic classes never shows in the next. Mutation caught: the kept
// step's classes handed out (or kept) without a copy.
func TestJobMemoCopiesAreOwn(t *testing.T) {
	cat := testCatalog(t)
	s := planBenchScenario(2048)
	forgetHalls()
	forgetJobs()
	want := walkedPlan(t, s, cat)
	for range 2 { // the first keeps, the second takes the kept step
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		p.Networks.FrontEndJCT.Step.Classes[0].ExposedS = -1
	}
	got, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	samePlan(t, "after edits of earlier plans", want, got)
}

// Shown plans built at once on several goroutines, of jobs that share
// the memo, each equal their cold plans (run with -race). Mutation
// caught: the memo read or written outside its lock.
func TestJobMemoConcurrent(t *testing.T) {
	cat := testCatalog(t)
	var scenarios []Scenario
	var want []string
	for _, g := range []int{1024, 2048} {
		for _, tp := range []int{4, 8} {
			s := planBenchScenario(g)
			w := NewWorkload()
			w.TP = tp
			s.Workload = &w
			scenarios = append(scenarios, s)
			want = append(want, reportJSON(t, walkedPlan(t, s, cat)))
		}
	}
	forgetHalls()
	forgetJobs()
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

// Every pointer in a workload is read by value into its memo key
// (workloadKeyOf), so a workload whose optional figure is rewritten in
// place never finds another's steps. Catches a pointer field added to
// Workload later and left out of workloadKeyOf (keyed by its address).
func TestWorkloadKeyByValue(t *testing.T) {
	w := NewWorkload()
	v := reflect.ValueOf(&w).Elem()
	pointers := 0
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Pointer:
			pointers++
			if f.Type().Elem().Kind() != reflect.Float64 {
				t.Fatalf("workload field %s points at a %s: workloadKeyOf reads only *float64", v.Type().Field(i).Name, f.Type().Elem())
			}
			x := 0.25
			f.Set(reflect.ValueOf(&x))
		case reflect.Slice, reflect.Map, reflect.Interface, reflect.Func, reflect.Chan:
			t.Fatalf("workload field %s is a %s: the memo key cannot hold it by value", v.Type().Field(i).Name, f.Kind())
		}
	}
	k := workloadKeyOf(w)
	kv := reflect.ValueOf(k.w)
	for i := range kv.NumField() {
		if kv.Field(i).Kind() == reflect.Pointer && !kv.Field(i).IsNil() {
			t.Errorf("workload field %s is keyed by its address", kv.Type().Field(i).Name)
		}
	}
	if n := len(k.opt); n != pointers {
		t.Errorf("the key holds %d optional figures, the workload has %d", n, pointers)
	}
	for i, set := range k.set {
		if !set || k.opt[i] != 0.25 {
			t.Errorf("optional figure %d: set %v, value %v, want 0.25", i, set, k.opt[i])
		}
	}
}
