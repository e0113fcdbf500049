package planner

import (
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
)

// planPrint is a plan reduced to what DeepEqual can compare: the cheaper
// designs without their apply functions, and without the media chooser
// and memo state (the cable map stands for the media chooser).
func planPrint(p *Plan) Plan {
	q := *p
	q.media, q.hallRun = nil, nil
	q.Cheaper = nil
	for _, c := range p.Cheaper {
		c.apply = nil
		q.Cheaper = append(q.Cheaper, c)
	}
	return q
}

// samePlan fails unless got is want field by field, cable map included.
func samePlan(t *testing.T, what string, want, got *Plan) {
	t.Helper()
	w, g := planPrint(want), planPrint(got)
	if !reflect.DeepEqual(w, g) {
		v, u := reflect.ValueOf(w), reflect.ValueOf(g)
		differ := "an unexported field"
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && !reflect.DeepEqual(v.Field(i).Interface(), u.Field(i).Interface()) {
				differ = f.Name
				t.Errorf("%s: %s differs from a plan built afresh:\n got %+v\nwant %+v", what, f.Name, u.Field(i), v.Field(i))
			}
		}
		if differ == "an unexported field" {
			t.Errorf("%s: %s differs from a plan built afresh", what, differ)
		}
	}
	if want.Hall != nil && !reflect.DeepEqual(printLinks(t, want), printLinks(t, got)) {
		t.Errorf("%s: the cable map differs from a plan built afresh", what)
	}
}

// Every scenario field is in the back-end memo's key, or named here as
// one the back end never reads (cleared by backEndInputs) and
// takeInputs copies from the new scenario: each field edited in turn
// (by reflection, so a field added later is edited too) changes the key
// exactly when it is not named. Mutations caught: backEndInputs
// clearing a field the back end reads (the reliability overrides: their
// edit keeps the key), a field left out of takeInputs (a plan showing
// another scenario's name or workload).
func TestBackEndKeyCoversScenario(t *testing.T) {
	notRead := []string{"Name", "Workload", "Phases", "Growth", "Storage"}
	taken := append(slices.Clone(notRead), "Networks", "Reliability", "Facility", "Prices", "Quotes") // by value in the key: the plan's own copies
	cat := testCatalog(t)
	nic := cat.NICs["cx7-400"]
	plain := ibScenario(1000)
	base := backEndKeyOf(&plain, cat, nic, backEndNeed{})
	st := reflect.TypeFor[Scenario]()
	for i := range st.NumField() {
		name := st.Field(i).Name
		rs := ibScenario(1000)
		f := reflect.ValueOf(&rs).Elem().Field(i)
		pokeValue(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		if changed := backEndKeyOf(&rs, cat, nic, backEndNeed{}) != base; changed == slices.Contains(notRead, name) {
			t.Errorf("scenario field %s: key changed %v, but it is listed as read by the back end %v", name, changed, !changed)
		}
	}
	// takeInputs copies every field it is said to take.
	w := perf.NewWorkload()
	f, relOff := 2.0, false
	rs := Scenario{Name: "n", Workload: &w, Networks: &NetworksInputs{}, Phases: []Phase{{GPUs: 8}}, Growth: &Growth{}, Storage: &StorageInputs{WriteGBs: 9},
		Reliability: &ReliabilityInputs{GPUPerYear: &f, PortFailover: &relOff}, Facility: &hall.Facility{}, Prices: map[string]float64{"x": 1}, Quotes: &Quotes{}}
	var p Plan
	p.takeInputs(&rs)
	got, want := reflect.ValueOf(p.Scenario), reflect.ValueOf(rs)
	for _, name := range taken {
		if !reflect.DeepEqual(got.FieldByName(name).Interface(), want.FieldByName(name).Interface()) {
			t.Errorf("takeInputs leaves %s out", name)
		}
	}
}

// A plan whose back end comes from the memo is the plan built afresh,
// over every hall case, after an edit of an input the key holds (which
// must miss) and of one it leaves out (which hits). Each keyed edit is
// checked to change the plan, else the check could not fail. Mutations
// caught: a keyed input left out of backEndKeyOf (prices, spares, side
// networks, cluster, network: the edited plan keeps the old bill or
// networks); takeInputs forgetting the workload or the name; the
// workload or the name in the key (no reuse after their edit).
func TestBackEndMemoMatchesFresh(t *testing.T) {
	cat := testCatalog(t)
	spare := 50.0
	edits := []struct {
		name  string
		keyed bool
		edit  func(s *Scenario)
	}{
		{"workload", false, func(s *Scenario) {
			w := perf.NewWorkload()
			w.GlobalBatchTokens *= 8
			s.Workload = &w
		}},
		{"name", false, func(s *Scenario) { s.Name = "renamed" }},
		{"price of a switch", true, func(s *Scenario) {
			s.Prices = map[string]float64{"q3400": 1, "qm9700": 1, "tomahawk5": 1, "tomahawk6-100g": 1}
		}},
		{"spare optics", true, func(s *Scenario) { s.Reliability = &ReliabilityInputs{SpareOpticsPct: &spare} }},
		{"front-end ports", true, func(s *Scenario) { s.Networks = &NetworksInputs{FrontEndPorts: 4} }},
		{"cluster size", true, func(s *Scenario) { s.Cluster.GPUs += max(s.Cluster.GPUsPerServer, 1) }},
	}
	cases := hallMemoCases(t, cat)
	names := SortedKeys(cases)
	if testing.Short() {
		names = names[:3]
	}
	for _, name := range names {
		base := cases[name]
		t.Run(name, func(t *testing.T) {
			forgetHalls()
			first, err := Build(base, cat)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Build(base, cat) // from the memo
			if err != nil {
				t.Fatal(err)
			}
			samePlan(t, "again", first, again)
			for _, e := range edits {
				s := base.Clone()
				e.edit(&s)
				hits := backEndMemo.Hits()
				got, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%s: %v", e.name, err)
				}
				if hit := backEndMemo.Hits() > hits; hit == e.keyed {
					t.Errorf("%s: memo hit %v, want %v", e.name, hit, !e.keyed)
				}
				want := walkedPlan(t, s, cat)
				samePlan(t, e.name, want, got)
				if e.keyed && reflect.DeepEqual(planPrint(want).BOM, planPrint(first).BOM) && reflect.DeepEqual(want.Networks, first.Networks) &&
					reflect.DeepEqual(want.Spares, first.Spares) {
					t.Errorf("%s: the edit changes neither the bill nor the networks: it cannot show a stale back end", e.name)
				}
			}
		})
	}
}

// A plan from the memo is its caller's own: editing one plan's bill,
// tiers, runs, notes, bands, drivers or side networks never shows
// in the next plan of the same inputs. Mutation caught: any of those
// slices or maps shared with the memo by copyBackEnd.
//
// An append to one link tier's runs (their copies share one allocation)
// leaves the next tier's alone, and likewise one network's notes.
// Mutation caught: the runs' or the notes' slices not capped at their
// lengths.
func TestBackEndMemoCopiesAreOwn(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(3000)
	s.Facility = &hall.Facility{}
	forgetHalls()
	want := walkedPlan(t, s, cat)
	for range 2 { // the first keeps, the second takes the kept one
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		p.BOM[0].Qty = -1
		p.SwitchTiers[0].Switches = -1
		p.LinkTiers[0].Runs[0].Links = -1
		next := p.LinkTiers[1].Runs[0]
		p.LinkTiers[0].Runs = append(p.LinkTiers[0].Runs, LinkRun{Links: -2})
		if p.LinkTiers[1].Runs[0] != next {
			t.Fatalf("an append to the first tier's runs wrote over the next tier's: %+v", p.LinkTiers[1].Runs[0])
		}
		var noted []int // the networks with notes: an append to one's (one allocation) leaves the next's alone
		for i := range p.Networks.List {
			if len(p.Networks.List[i].Notes) > 0 {
				noted = append(noted, i)
			}
		}
		if len(noted) < 2 {
			t.Fatalf("%d networks have notes: an append to one cannot be checked against the next", len(noted))
		}
		a, b := &p.Networks.List[noted[0]], &p.Networks.List[noted[1]]
		nextNote := b.Notes[0]
		a.Notes = append(a.Notes, "appended")
		if b.Notes[0] != nextNote {
			t.Fatalf("an append to %s's notes wrote over %s's: %q", a.Name, b.Name, b.Notes[0])
		}
		p.Notes[0] = "edited"
		p.SanityBands[0].Value = -1
		p.Cost.Drivers[0].SwingUSD = -1
		p.Networks.List[0].Ports = -1
		for i := range p.Networks.List {
			if notes := p.Networks.List[i].Notes; len(notes) > 0 {
				notes[0] = "edited"
			}
		}
	}
	got, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	samePlan(t, "after edits of earlier plans", want, got)
}

// Plans built at once on several goroutines (the window's background
// plans, a comparison's scenarios) each equal their plan built afresh;
// run with -race. Mutation caught: the memo read or written without
// its lock.
func TestBackEndMemoConcurrent(t *testing.T) {
	cat := testCatalog(t)
	scenarios := []Scenario{ibScenario(1000), ibScenario(3000), planBenchScenario(5000)}
	var wants []*Plan
	for _, s := range scenarios {
		wants = append(wants, walkedPlan(t, s, cat))
	}
	forgetHalls()
	var wg sync.WaitGroup
	got := make([][]*Plan, len(scenarios))
	for i, s := range scenarios {
		got[i] = make([]*Plan, 4)
		for k := range got[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := Build(s, cat)
				if err != nil {
					t.Error(err)
					return
				}
				got[i][k] = p
			}()
		}
	}
	wg.Wait()
	for i := range scenarios {
		for _, p := range got[i] {
			if p != nil {
				samePlan(t, scenarios[i].Network.Switch, wants[i], p)
			}
		}
	}
}

// A plan handed out works out its fabric afresh for the JCT model: a
// caller that halves its NIC speed and estimates again gets a slower
// step, from a plan built afresh and from one that took its back end
// from the memo. Mutation caught: build leaves its fabricView on the
// plan (the second estimate reads the view of the fabric as built and
// equals the first).
func TestFabricViewNotHandedOut(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(3000)
	s.Facility = &hall.Facility{}
	forgetHalls()
	for i, what := range []string{"built afresh", "from the memo"} {
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.fabricView != nil {
			t.Errorf("%s: the plan holds the build's view of its fabric", what)
		}
		w := p.JCT.Workload
		before, err := EstimateJCT(p, w, cat.JCT)
		if err != nil {
			t.Fatal(err)
		}
		p.Scenario.Network.NICGbps /= 2
		after, err := EstimateJCT(p, w, cat.JCT)
		if err != nil {
			t.Fatal(err)
		}
		if !(after.Planned.StepS > before.Planned.StepS) {
			t.Errorf("%s (build %d): step %g s at half the NIC speed, %g s before: the estimate did not see the change", what, i+1, after.Planned.StepS, before.Planned.StepS)
		}
	}
}

// A released walk buffer outlives garbage collections until the next
// build takes it (the window collects during most re-plans, and a pool
// alone let its buffers go), one at a time; one past
// keptBufferMaxBytes is not held. Mutations caught: every buffer given
// to the pool only (gone after two collections), the kept buffer handed
// out twice, a buffer of any size held.
func TestKeepHoldsOneBufferThroughCollections(t *testing.T) {
	var k keep[[]int]
	a, b := &[]int{1}, &[]int{2}
	k.put(a, 8)
	k.put(b, 8) // one is held already: to the pool
	runtime.GC()
	runtime.GC()
	if got := k.get(); got != a {
		t.Fatalf("got %v after two collections, want the buffer kept", *got)
	}
	if got := k.get(); got == a {
		t.Fatal("the kept buffer handed out twice")
	}
	var big keep[[]int]
	huge := &[]int{3}
	big.put(huge, keptBufferMaxBytes+1)
	runtime.GC()
	runtime.GC()
	if got := big.get(); got == huge {
		t.Fatal("a buffer past keptBufferMaxBytes was held through two collections")
	}
}
