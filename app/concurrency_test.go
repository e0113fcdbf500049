package app

import (
	"path/filepath"
	"strconv"
	"testing"

	"fyne.io/fyne/v2/test"

	"fabricplan/internal/cputime"
)

// Editing prices, pinning and exporting while a design search and a
// report run in the background. Run under -race (scripts/test.sh does):
// mutations caught are the ones the race detector saw before the view
// model — the price editor writing the Prices map that explore.Search
// read, and the report goroutine reading the window's live plan.
func TestEditsDuringSearchAndReport(t *testing.T) {
	u := newTestUI(t)
	dir := t.TempDir()
	u.SelectTab(TabSearch)
	u.StartSearch()
	report := make(chan error, 1)
	snap := u.Scenario()
	u.work.add()
	go func() {
		defer u.work.done()
		report <- u.ExportReport(filepath.Join(dir, "r.pdf"), snap, nil)
	}()
	u.inputs.prices.item.SetSelected("qm9700")
	for i := 0; i < 20; i++ {
		u.inputs.prices.price.SetText(strconv.Itoa(10000 + 500*i))
		typeIn(u, "workload.pp", []string{"8", "4"}[i%2])
		if i%5 == 0 {
			if err := u.PinCurrent("pin " + strconv.Itoa(i)); err != nil {
				t.Fatal(err)
			}
			if err := u.ExportBOM(filepath.Join(dir, "bom.csv")); err != nil {
				t.Fatal(err)
			}
		}
	}
	test.Tap(u.compare.remove) // nothing picked: a no-op, never a crash
	u.WaitIdle()
	if err := <-report; err != nil {
		t.Fatalf("report: %v", err)
	}
	if r, _ := u.m.SearchResult(); r == nil {
		t.Fatal("the search did not finish")
	}
	if stale, _ := u.m.SearchStale(); !stale {
		t.Error("results of the old prices are not marked stale")
	}
	if len(u.Pinned()) != 4 {
		t.Errorf("%d pins, want 4", len(u.Pinned()))
	}
	// Each pin kept the switch price it was pinned with.
	for i, p := range u.Pinned() {
		if want := float64(10000 + 500*5*i); p.Plan.Scenario.Prices["qm9700"] != want {
			t.Errorf("%s: qm9700 at %v, want %v", p.Label, p.Plan.Scenario.Prices["qm9700"], want)
		}
	}
}

// BenchmarkInputChange times one GPU-count edit at 100k GPUs through to
// the result on screen: plan, summary cards and BOM ("Summary", target
// under 16 ms, one frame) and with the Charts tab showing the cost chart
// redrawn too ("Charts", target under 100 ms). "Summary" and "Charts"
// toggle between two counts, so every string they show was measured
// before; "Summary-fresh" types a new count each time (100,000 + 8i), as
// a user does, so every figure that changes is a new string to measure;
// "Summary-networks" toggles with the Networks table showing below the
// cards (its cells truncate, shaping their text on every SetText);
// "Summary-fresh-toured" types new counts after each lower tab was shown
// once, as in a session, the bill of materials showing again (a hidden
// table that had been shown was refreshed, cell by cell, on every edit).
// The debounce pause is not counted; typing never waits for either (both
// run off the UI goroutine). cpu-ms/op is the CPU time of one edit, every
// goroutine's (the wall time on a shared machine also counts the waits
// for a core).
func BenchmarkInputChange(b *testing.B) {
	for _, bc := range []struct {
		name, tab     string
		fresh, toured bool
	}{
		{TabSummary, TabSummary, false, false}, {TabCharts, TabCharts, false, false},
		{TabSummary + "-fresh", TabSummary, true, false}, {TabSummary + "-networks", TabSummary + "/Networks", false, false},
		{TabSummary + "-fresh-toured", TabSummary + "/Bill", true, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			u := newTestUI(b)
			pick(u, "network.nic_gbps", "800G")
			typeIn(u, "cluster.gpus", "100000")
			if bc.toured {
				for _, tab := range []string{"/Per", "/Step", "/Notes", "/Networks"} {
					u.SelectTab(TabSummary + tab)
				}
			}
			u.SelectTab(bc.tab)
			u.WaitIdle()
			e := entry(u, "cluster.gpus")
			text := func(i int) string { return []string{"100008", "100000"}[i%2] }
			if bc.fresh {
				text = func(i int) string { return strconv.Itoa(100000 + 8*(i+1)) }
			}
			c0, n := cputime.Used(), 0
			for i := 0; b.Loop(); i++ {
				e.SetText(text(i))
				u.WaitIdle()
				n++
			}
			if cpu := cputime.Used() - c0; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
			}
			if p := u.Plan(); p == nil || p.GPUs < 100000 {
				b.Fatal("not planned")
			}
			if bc.tab == TabCharts && u.charts.view.fig == nil {
				b.Fatal("no chart drawn")
			}
		})
	}
}
