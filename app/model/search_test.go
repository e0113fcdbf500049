package model

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
)

// designsOf is a hand-made search result of three designs of base: an
// 8,192-GPU one ($3M, 9 days), a 2,048-GPU one ($1M, 30 days) and a
// 4,096-GPU one ($2M, 12 days), all on the front, the $2M one the pick;
// the first two carry a reason for their shape, the third none.
func designsOf(base planner.Scenario) *explore.SearchResult {
	var ds []*explore.Design
	for _, d := range []struct {
		gpus       int
		cost, days float64
		reason     string
	}{{8192, 3e6, 9, "b: chassis spines"}, {2048, 1e6, 30, "a: zones"}, {4096, 2e6, 12, ""}} {
		s := base.Clone()
		s.Cluster.GPUs = d.gpus
		ds = append(ds, &explore.Design{Label: textfmt.Int(d.gpus), Scenario: s, CostUSD: d.cost, Days: d.days, OnFront: true, Reason: d.reason})
	}
	return &explore.SearchResult{Designs: ds, Front: ds, Cheapest: ds[2], Target: 15}
}

// The table lists the front sorted by cost, then by the column asked
// for; sorting clears the selection. Mutations caught: rows left in the
// planner's order, a selection kept on a row that moved, and the "Why
// tried" column sorted as another (designs without a reason must come
// last, not first as an empty string sorts).
func TestSearchRowsSortAndSelect(t *testing.T) {
	m := testModel(t)
	run, base := m.StartSearch()
	if !m.SearchDone(run, designsOf(base), nil) {
		t.Fatal("the latest run was dropped")
	}
	order := func() (out []string) {
		for _, d := range m.SearchRows() {
			out = append(out, d.Label)
		}
		return out
	}
	for _, tc := range []struct {
		col  int
		want [3]string
	}{
		{SortByCost, [3]string{"2,048", "4,096", "8,192"}},
		{SortByJCT, [3]string{"8,192", "4,096", "2,048"}},
		{SortByReason, [3]string{"2,048", "8,192", "4,096"}},
		{SortByLabel, [3]string{"2,048", "4,096", "8,192"}},
	} {
		m.SelectDesign(1)
		m.SortSearch(tc.col)
		if got := order(); [3]string(got) != tc.want {
			t.Errorf("sorted by %s: %v, want %v", SearchColumns[tc.col], got, tc.want)
		}
		if m.SelectedDesign() != -1 || m.CanUseDesign() {
			t.Errorf("sorted by %s: selection %d kept", SearchColumns[tc.col], m.SelectedDesign())
		}
	}
	if p := m.DesignPick(m.SearchRows()[1]); p != "cheapest meeting target" {
		t.Errorf("pick column of the $2M design %q", p)
	}
}

// UseDesign takes a design of fresh results as one undoable edit, and
// refuses a row the table lacks and any design once the inputs moved
// on, even while the search runs on the new inputs. Mutations caught:
// UseDesign without the stale check (a 2,048-GPU design applied over
// edited inputs), an out-of-range index that panics or picks row 0, and
// SearchDone taking the result of a replaced run.
func TestUseDesignRefusesStaleAndMissing(t *testing.T) {
	m := testModel(t)
	first, base := m.StartSearch()
	second, _ := m.StartSearch() // the user pressed Search again
	if m.SearchDone(first, designsOf(base), nil) || len(m.SearchRows()) != 0 {
		t.Fatal("the result of a replaced run was taken")
	}
	if !m.SearchDone(second, designsOf(base), nil) {
		t.Fatal("the latest run was dropped")
	}
	if _, err := m.UseDesign(3); err == nil || err.Error() != "no design 4: the table lists 3 designs" {
		t.Errorf("UseDesign(3) of 3: %v", err)
	}
	if _, err := m.UseDesign(-1); err == nil {
		t.Error("UseDesign(-1) took a design")
	}

	mustSet(t, m, "network.oversubscription", "2:1") // inputs move on
	run, _ := m.StartSearch()                        // and are searching
	if !m.SearchRunning() {
		t.Error("no search running after StartSearch")
	}
	m.SelectDesign(0)
	if _, err := m.UseDesign(0); !errors.Is(err, ErrSearchStale) || m.CanUseDesign() {
		t.Errorf("design of the 1:1 search over 2:1 inputs while searching: %v, can use %v", err, m.CanUseDesign())
	}
	if m.Scenario().Network.Oversubscription != "2:1" || m.Scenario().Cluster.GPUs != 1024 {
		t.Fatal("a refused design changed the inputs")
	}
	// The new run is cancelled: its error shows, the old results stay
	// and stay refused.
	cancelled := errors.New("search cancelled: context canceled")
	m.SearchDone(run, nil, cancelled)
	if res, err := m.SearchResult(); res == nil || err != cancelled || m.SearchRunning() {
		t.Errorf("after a cancelled run: result %v, error %v, running %v", res != nil, err, m.SearchRunning())
	}
	if _, err := m.UseDesign(0); !errors.Is(err, ErrSearchStale) {
		t.Errorf("old results used after a cancelled run: %v", err)
	}

	m.Undo() // back to the searched inputs: the results fit again
	m.SortSearch(SortByCost)
	d, err := m.UseDesign(0)
	if err != nil || d.Label != "2,048" || m.Scenario().Cluster.GPUs != 2048 {
		t.Fatalf("UseDesign(0) of fresh results: %v, %d GPUs", err, m.Scenario().Cluster.GPUs)
	}
	if !m.Undo() || m.Scenario().Cluster.GPUs != 1024 {
		t.Error("using a design is not one undo step")
	}
}

// A real search's rows are the planner's front, and its run is taken.
func TestSearchDoneWithThePlanner(t *testing.T) {
	m := testModel(t)
	run, base := m.StartSearch()
	res, err := explore.Search(context.Background(), base, m.Catalog(), explore.SearchOptions{WithinPct: 5})
	if err != nil {
		t.Fatal(err)
	}
	m.SearchDone(run, res, nil)
	if len(m.SearchRows()) != len(res.Front) || len(res.Front) == 0 {
		t.Errorf("%d rows for a front of %d", len(m.SearchRows()), len(res.Front))
	}
	m.SetShowAll(true)
	if len(m.SearchRows()) != len(res.Designs) {
		t.Errorf("show all: %d rows of %d designs", len(m.SearchRows()), len(res.Designs))
	}
}

// An edit made while a search runs leaves the search's results stale
// when they arrive: they are for the inputs the run started on, not the
// edited ones, so "Use this design" refuses them until the inputs are
// back. Between the edit and the result the earlier run's results (on
// the unedited inputs) are already stale and refused. Mutation caught:
// SearchDone recording the inputs current when the result arrives as
// the searched ones (b := m.scenario.Clone() instead of s.base.Clone()):
// the 1:1 results then look fresh over the 2:1 edit and UseDesign
// applies a 1:1 design over it.
func TestEditDuringSearchLeavesResultsStale(t *testing.T) {
	m := testModel(t)
	run, base := m.StartSearch()
	m.SearchDone(run, designsOf(base), nil) // an earlier run on the same inputs
	if stale, _ := m.SearchStale(); stale {
		t.Fatal("results of the current inputs marked stale")
	}

	run, base = m.StartSearch()
	mustSet(t, m, "network.oversubscription", "2:1") // edited while the search runs
	m.SelectDesign(0)
	if stale, _ := m.SearchStale(); !stale || !m.SearchRunning() || m.CanUseDesign() {
		t.Errorf("between the edit and the result: stale %v, running %v, can use %v; want stale, running, refused",
			stale, m.SearchRunning(), m.CanUseDesign())
	}

	if !m.SearchDone(run, designsOf(base), nil) {
		t.Fatal("the latest run was dropped")
	}
	stale, why := m.SearchStale()
	if !stale || !strings.Contains(why, "1:1 → 2:1") {
		t.Errorf("results of the run started before the edit: stale %v (%q), want stale naming 1:1 → 2:1", stale, why)
	}
	m.SelectDesign(0)
	if m.CanUseDesign() {
		t.Error("a design of results run before the edit can be used")
	}
	if _, err := m.UseDesign(0); !errors.Is(err, ErrSearchStale) {
		t.Errorf("UseDesign of results run before the edit: %v, want ErrSearchStale", err)
	}
	if n := m.Scenario().Network; n.Oversubscription != "2:1" || m.Scenario().Cluster.GPUs != 1024 {
		t.Fatalf("a refused design changed the edited inputs: %s, %d GPUs", n.Oversubscription, m.Scenario().Cluster.GPUs)
	}

	m.Undo() // back to the inputs searched: the results fit them
	if stale, _ := m.SearchStale(); stale {
		t.Error("results still stale on the inputs they were run on")
	}
}
