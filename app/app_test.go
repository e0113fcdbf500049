package app

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"fabricplan/app/model"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/scenariofile"
)

// Typing a GPU count plans it; the cards show the new plan. Expected
// figures by hand: 4,096 GPUs / 8 per server = 512 servers, one 400G port
// per GPU = 4,096 ports.
func TestTypingGPUsUpdatesSummary(t *testing.T) {
	u := newTestUI(t)
	if got := u.Figures()["Servers"]; got != "128" { // 1,024 / 8
		t.Fatalf("default scenario: %s servers, want 128", got)
	}
	typeIn(u, "cluster.gpus", "4096")
	if u.Plan().GPUs != 4096 || u.State().Status != model.Current {
		t.Fatalf("plan has %d GPUs, state %v", u.Plan().GPUs, u.State().Status)
	}
	f := u.Figures()
	if f["Servers"] != "512" || f["Back-end NIC ports"] != "4,096" || f["GPUs"] != "4,096" {
		t.Errorf("summary after typing 4096: %v", f)
	}
	test.Tap(findButton(t, u.inputs.content, "32,768"))
	u.WaitIdle()
	if u.Plan().GPUs != 32768 || entry(u, "cluster.gpus").Text != "32768" {
		t.Errorf("preset: %d GPUs, entry %q", u.Plan().GPUs, entry(u, "cluster.gpus").Text)
	}
}

// With the real debounce pause, typing a burst ends with the plan of what
// was typed. The rule that drops results of replaced inputs (the cards
// once showed a 10,000-GPU plan while the field read 100000) is caught by
// app/model's TestOlderResultsAreDropped; this checks the window wires
// the debouncer so the last keystroke wins.
func TestTypingShowsOnlyTheLatestPlan(t *testing.T) {
	u := newTestUI(t)
	u.planner.Delay = planDelay
	e := entry(u, "cluster.gpus")
	e.SetText("")
	test.Type(e, "2048")
	u.WaitIdle()
	if u.Plan().GPUs != 2048 {
		t.Errorf("plan of %d GPUs after typing 2048", u.Plan().GPUs)
	}
}

func TestFabricChangesSwitchChoices(t *testing.T) {
	u := newTestUI(t)
	opts := strings.Join(choice(u, "network.switch").Options, " ")
	if !strings.Contains(opts, "qm9700") || strings.Contains(opts, "sn5600") {
		t.Fatalf("InfiniBand switch options: %s", opts)
	}
	pick(u, "network.switch", choice(u, "network.switch").Options[1])
	pick(u, "network.fabric", model.FabricEthernet)
	opts = strings.Join(choice(u, "network.switch").Options, " ")
	if strings.Contains(opts, "qm9700") || !strings.Contains(opts, "sn5600") || !strings.Contains(opts, "tomahawk5") {
		t.Errorf("Ethernet switch options: %s", opts)
	}
	if u.Plan().Scenario.Network.Fabric != planner.Ethernet || u.Plan().Switch.Fabric != planner.Ethernet {
		t.Errorf("plan fabric %s on %s", u.Plan().Scenario.Network.Fabric, u.Plan().Switch.Key)
	}
	// The reset is said, not silent.
	if !strings.Contains(u.status.Text, "Switch ") || !strings.Contains(u.status.Text, model.SwitchAuto) {
		t.Errorf("status %q does not say the switch went back to auto", u.status.Text)
	}
}

// Inputs that do not plan leave the last plan on screen dimmed, under a
// banner with every problem in the words of the labels. Mutations caught:
// cards shown undimmed as if current, a truncated one-line error, and
// file keys (network.tiers) in place of labels.
func TestStaleBanner(t *testing.T) {
	u := newTestUI(t)
	before := u.Plan()
	cards := u.Figures()
	typeIn(u, "cluster.gpus", "lots")
	if l := errLabel(u, "cluster.gpus"); !l.Visible() || !strings.Contains(l.Text, "whole number") {
		t.Errorf("GPU field error %q (visible %v)", l.Text, l.Visible())
	}
	if u.Plan() != before || !reflect.DeepEqual(u.Figures(), cards) {
		t.Error("the last valid plan was not kept")
	}
	if !u.Dimmed() || !u.bannerBox.Visible() || !strings.Contains(u.banner.Text, "GPUs: ") {
		t.Errorf("stale plan not dimmed or banner missing: dimmed %v, banner %q", u.Dimmed(), u.banner.Text)
	}
	// A value the planner rejects: one tier of 64-port switches cannot
	// hold 50,000 GPUs (three can: 64³/4 = 65,536 ports).
	typeIn(u, "cluster.gpus", "50000")
	pick(u, "network.tiers", "1")
	if l := errLabel(u, "network.tiers"); !l.Visible() {
		t.Error("no error under Tiers")
	}
	if !strings.Contains(u.banner.Text, "Tiers: ") || strings.Contains(u.banner.Text, "network.") {
		t.Errorf("banner %q: want the label Tiers, no file keys", u.banner.Text)
	}
	if u.Plan().GPUs != 50000 || !u.Dimmed() {
		t.Errorf("shown plan %d GPUs, dimmed %v; want the 50,000-GPU plan dimmed", u.Plan().GPUs, u.Dimmed())
	}
	// More than three tiers: the planner's advice names the inputs by
	// their labels. Mutation caught: "network.planes" in the banner.
	pick(u, "network.tiers", model.TiersAuto)
	typeIn(u, "cluster.gpus", "100000")
	if !u.Dimmed() || !strings.Contains(u.banner.Text, "three tiers") || strings.Contains(u.banner.Text, "network.") ||
		strings.Contains(u.banner.Text, "ports_per_nic") || !strings.Contains(u.banner.Text, "“Planes”") {
		t.Errorf("banner for 100,000 GPUs on 400G InfiniBand:\n%s", u.banner.Text)
	}
	typeIn(u, "cluster.gpus", "50000")
	pick(u, "network.tiers", "1")
	pick(u, "network.tiers", model.TiersAuto)
	if errLabel(u, "network.tiers").Visible() || u.bannerBox.Visible() || u.Dimmed() || u.Plan().GPUs != 50000 {
		t.Errorf("the problem stays after the fix: tiers error %v, banner %v %q, dimmed %v, %d GPUs",
			errLabel(u, "network.tiers").Visible(), u.bannerBox.Visible(), u.banner.Text, u.Dimmed(), u.Plan().GPUs)
	}
	// A workload that does not fit shows under its field.
	typeIn(u, "cluster.gpus", "1024")
	typeIn(u, "workload.pp", "512")
	if !errLabel(u, "workload.pp").Visible() {
		t.Error("no error for pp 512 on 1,024 GPUs")
	}
	// The fabric does not depend on the job: it is planned and shown,
	// neither dimmed nor under a banner, the job's problem beside its
	// field. Mutation caught: a job that cannot run refusing the plan.
	if u.Dimmed() || u.bannerBox.Visible() || u.Plan().GPUs != 1024 || u.Plan().JCT != nil {
		t.Errorf("pp 512 on 1,024 GPUs: dimmed %v, banner %v, plan of %d GPUs with JCT %v; want the fabric current, no JCT",
			u.Dimmed(), u.bannerBox.Visible(), u.Plan().GPUs, u.Plan().JCT != nil)
	}
	typeIn(u, "workload.pp", "4")
	if errLabel(u, "workload.pp").Visible() || u.Plan().JCT == nil {
		t.Errorf("pp 4: error still shown (%v) or no JCT", errLabel(u, "workload.pp").Visible())
	}
}

func TestSaveThenOpen(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "2048")
	pick(u, "network.fabric", model.FabricEthernet)
	pick(u, "network.oversubscription", "2:1")
	typeIn(u, "cluster.server_price_usd", "250000")
	pick(u, "workload.model", "gpt3-175b")
	typeIn(u, "name", "Pod B")
	want := u.Scenario()
	path := filepath.Join(t.TempDir(), "plan")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	if u.Dirty() || !strings.HasSuffix(u.m.Path(), "plan.toml") {
		t.Fatalf("after save: dirty %v, path %s", u.Dirty(), u.m.Path())
	}
	u.NewScenario()
	u.WaitIdle()
	if u.Scenario().Equal(want) {
		t.Fatal("New did not reset the scenario")
	}
	if err := u.OpenPath(path + ".toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	if got := u.Scenario(); !got.Equal(want) {
		t.Errorf("open(save(x)) != x\n got %+v\nwant %+v", got, want)
	}
	if entry(u, "cluster.gpus").Text != "2048" || radio(u, "network.fabric").Selected != model.FabricEthernet ||
		choice(u, "workload.model").Selected != "gpt3-175b" || entry(u, "name").Text != "Pod B" {
		t.Error("the inputs do not show the opened scenario")
	}
	// A broken file is reported and the current scenario stays.
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("schema = 1\n[cluster]\ngpus = -3\n"), 0o644)
	if err := u.OpenPath(bad); err == nil || !strings.Contains(err.Error(), "cluster.gpus (line 3)") {
		t.Errorf("open bad file: %v", err)
	}
	if !u.Scenario().Equal(want) {
		t.Error("a failed open changed the scenario")
	}
}

// Saving from the window keeps the comments the user wrote at the top of
// the file. Mutation caught: re-encoding under the default header.
func TestSaveKeepsTheFilesComments(t *testing.T) {
	u := newTestUI(t)
	path := filepath.Join(t.TempDir(), "pod.toml")
	src := "# Pod A — quote 2026-10 from the vendor\n# owner: network team\nschema = 1\n[cluster]\ngpus = 512\ngpus_per_server = 8\n"
	os.WriteFile(path, []byte(src), 0o644)
	if err := u.OpenPath(path); err != nil {
		t.Fatal(err)
	}
	typeIn(u, "cluster.gpus", "768")
	u.Save()
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# Pod A — quote 2026-10 from the vendor\n# owner: network team\n") || !strings.Contains(string(b), "gpus = 768") {
		t.Errorf("saved:\n%s", b)
	}
}

// With unsaved changes, New asks Save / Don't save / Cancel. Mutations
// caught: a yes/no "discard?" question (no way to save first), Cancel
// that still runs the action, and Save that runs it when saving failed.
func TestUnsavedPrompt(t *testing.T) {
	u := newTestUI(t)
	if u.Dirty() || strings.HasPrefix(u.win.Title(), "*") {
		t.Fatal("fresh UI is dirty")
	}
	typeIn(u, "cluster.gpus", "512")
	if !u.Dirty() || !strings.HasPrefix(u.win.Title(), "* ") {
		t.Fatalf("after a change: dirty %v, title %q", u.Dirty(), u.win.Title())
	}
	ask := func() fyne.CanvasObject {
		u.guarded(u.NewScenario)
		d := topDialog(u)
		if d == nil {
			t.Fatal("New with unsaved changes did not ask")
		}
		for _, b := range []string{"Save", "Don't save", "Cancel"} {
			if findButton(t, d, b) == nil {
				t.Fatalf("no %q button", b)
			}
		}
		return d
	}
	test.Tap(findButton(t, ask(), "Cancel"))
	u.WaitIdle()
	if u.Plan().GPUs != 512 || topDialog(u) != nil {
		t.Fatal("Cancel ran New or left the dialog up")
	}
	ask()
	pressKey(u, fyne.KeyEscape) // Esc cancels
	if topDialog(u) != nil || u.Plan().GPUs != 512 {
		t.Fatal("Esc did not cancel")
	}
	// Save on a file: saved, then New.
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	typeIn(u, "cluster.gpus", "640")
	ask()
	pressKey(u, fyne.KeyReturn) // Enter saves
	u.WaitIdle()
	if s, err := scenariofile.Load(path, u.cat); err != nil || s.Cluster.GPUs != 640 {
		t.Errorf("Save before New: file has %d GPUs (%v)", s.Cluster.GPUs, err)
	}
	if u.Plan().GPUs != 1024 || u.Dirty() {
		t.Errorf("after saving: %d GPUs, dirty %v; want New's 1,024", u.Plan().GPUs, u.Dirty())
	}
	typeIn(u, "cluster.gpus", "896")
	test.Tap(findButton(t, ask(), "Don't save"))
	u.WaitIdle()
	if u.Plan().GPUs != 1024 {
		t.Error("Don't save did not run New")
	}
	if s, _ := scenariofile.Load(path, u.cat); s.Cluster.GPUs != 640 {
		t.Error("Don't save wrote the file")
	}
	u.guarded(u.NewScenario) // clean: no question
	if topDialog(u) != nil {
		t.Error("asked with nothing unsaved")
	}
}

// Error dialogs close with Enter or Esc. Mutation caught: Fyne's plain
// dialog, which takes no keys.
func TestErrorDialogKeys(t *testing.T) {
	u := newTestUI(t)
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		u.showError(os.ErrPermission)
		if topDialog(u) == nil {
			t.Fatal("no dialog")
		}
		pressKey(u, k)
		if topDialog(u) != nil {
			t.Errorf("%s did not close the error dialog", k)
		}
	}
}

// Undo and redo go through the window: the inputs and the plan follow.
func TestUndoRedo(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "4096")
	pick(u, "network.oversubscription", "2:1")
	u.Undo()
	u.WaitIdle()
	if choice(u, "network.oversubscription").Selected != "1:1" || u.Plan().Scenario.Network.Oversubscription != "1:1" {
		t.Error("undo did not restore 1:1")
	}
	u.Undo()
	u.WaitIdle()
	if entry(u, "cluster.gpus").Text != "1024" || u.Plan().GPUs != 1024 || u.Dirty() {
		t.Errorf("second undo: entry %q, plan %d, dirty %v", entry(u, "cluster.gpus").Text, u.Plan().GPUs, u.Dirty())
	}
	u.Redo()
	u.WaitIdle()
	if u.Plan().GPUs != 4096 {
		t.Errorf("redo: %d GPUs", u.Plan().GPUs)
	}
}

// Pins are named snapshots, removable one by one; the compare table marks
// what differs. Mutation caught: pinning the live plan, which changed
// when pp or prices changed afterwards.
func TestPinAndCompare(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabCompare)
	if err := u.PinCurrent("baseline"); err != nil {
		t.Fatal(err)
	}
	pinned := u.Pinned()[0].Plan
	cost := pinned.Cost.Total
	pick(u, "network.nic_gbps", "800G")
	typeIn(u, "workload.pp", "8") // tp 4 would not fit 70B in memory
	u.inputs.prices.item.SetSelected("qm9700")
	u.inputs.prices.price.SetText("1")
	u.WaitIdle()
	if pinned.Cost.Total != cost || u.Pinned()[0].Plan.Scenario.Network.NICGbps != 400 {
		t.Fatal("the pin changed with the inputs")
	}
	vs := u.m.Variants()
	if len(vs) != 2 || vs[0].Label != "baseline" || vs[1].Plan.Scenario.Network.NICGbps != 800 {
		t.Fatalf("compare variants: %+v", vs)
	}
	for _, c := range compareCharts {
		u.compare.pick.SetSelected(c)
		u.WaitIdle()
		if u.compare.view.fig == nil {
			t.Fatalf("%s compare chart not drawn: %s", c, u.compare.view.message.Text)
		}
	}
	rows, cols := u.compare.table.Length()
	if rows != len(u.m.Compare().Rows) || cols != 2 {
		t.Errorf("table %dx%d", rows, cols)
	}
	for _, r := range u.compare.cmp.Rows {
		if r.Name == "Fabric" && !r.Differs {
			t.Error("400G against 800G not marked as differing")
		}
	}
	if err := u.PinCurrent("second"); err != nil {
		t.Fatal(err)
	}
	u.compare.pinSel.SetSelected("baseline")
	test.Tap(u.compare.remove)
	if ps := u.Pinned(); len(ps) != 1 || ps[0].Label != "second" {
		t.Errorf("after removing baseline: %v", ps)
	}
}

func TestExports(t *testing.T) {
	u := newTestUI(t)
	dir := t.TempDir()
	u.SelectTab(TabCharts)
	u.WaitIdle()
	for _, name := range []string{"c.png", "c.svg", "c.pdf"} {
		if err := ExportChart(u.visibleFigure(), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	// A name ending in @2x.png exports twice the pixels: 2400x1600.
	// Mutation caught: the @2x name ignored, a 2x file at 1200x800.
	if err := ExportChart(u.visibleFigure(), filepath.Join(dir, "c@2x.png")); err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]int{"c.png": 1200, "c@2x.png": 2400} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("exported %s: %v", name, err)
		} else if img.Bounds().Dx() != w {
			t.Errorf("%s is %d px wide, want %d", name, img.Bounds().Dx(), w)
		}
	}
	if err := ExportChart(u.visibleFigure(), filepath.Join(dir, "c.gif")); err == nil {
		t.Error("exported a .gif")
	}
	if err := u.ExportBOM(filepath.Join(dir, "bom.csv")); err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "bom.csv"))
	if !strings.HasPrefix(string(csv), "category,key,name") || !strings.Contains(string(csv), "qm9700") {
		t.Errorf("BOM CSV:\n%s", csv)
	}
	pages := 0
	if err := u.ExportReport(filepath.Join(dir, "r.pdf"), u.Scenario(), func(done, total int) { pages = total }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r.pdf")); !bytes.HasPrefix(b, []byte("%PDF")) || pages < 8 {
		t.Errorf("report: %d pages", pages)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 6 {
		t.Errorf("files left: %d (temporary files?)", len(entries))
	}
	// A stale plan is never exported as if current.
	typeIn(u, "cluster.gpus", "many")
	if err := u.ExportBOM(filepath.Join(dir, "stale.csv")); err != model.ErrStale {
		t.Errorf("BOM of stale inputs: %v", err)
	}
}

func TestSearchTabUseDesign(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabSearch)
	u.search.target.SetText("5")
	u.StartSearch()
	u.WaitIdle()
	r, _ := u.m.SearchResult()
	if r == nil || len(u.m.SearchRows()) != len(r.Front) || u.search.view.fig == nil {
		t.Fatalf("search: %v, %d rows", r, len(u.m.SearchRows()))
	}
	if r.Cheapest == nil {
		t.Fatal("no pick within 5%")
	}
	for i, d := range u.m.SearchRows() {
		if d == r.Cheapest {
			u.search.table.Select(widgetCell(i))
		}
	}
	if u.search.use.Disabled() {
		t.Fatal("Use disabled for fresh results")
	}
	u.search.useSelected()
	u.WaitIdle()
	// The design is planned whole, hall and all, as the search priced
	// the designs it shows as laid out: the plan shown costs what the
	// search said. Catches Use planning another design (or the old
	// inputs), the search pricing its pick flat, and the plan left clean.
	got := u.Plan()
	if r.Cheapest.Priced != explore.PricedHall || got.Hall == nil || got.Cost.Total != r.Cheapest.CostUSD || !u.Dirty() {
		t.Errorf("use design: the plan costs %v (hall %v), the search's %s design %v", got.Cost.Total, got.Hall != nil, r.Cheapest.Priced, r.Cheapest.CostUSD)
	}
	if got.Scenario.Network.Switch != r.Cheapest.Scenario.Network.Switch || got.Scenario.Network.Topology != r.Cheapest.Scenario.Network.Topology {
		t.Errorf("use design: planned %s %s, design %s %s", got.Scenario.Network.Switch, got.Scenario.Network.Topology,
			r.Cheapest.Scenario.Network.Switch, r.Cheapest.Scenario.Network.Topology)
	}
	u.m.SortSearch(5)
	rows := u.m.SearchRows()
	for i := 1; i < len(rows); i++ {
		if rows[i].Days < rows[i-1].Days {
			t.Fatal("not sorted by JCT")
		}
	}
}

// Results of a search on 1,024 GPUs are marked stale once 16,384 GPUs are
// open, and cannot be used. Mutation caught: "Use this design" silently
// setting GPUs back to 1,024.
func TestSearchResultsGoStale(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabSearch)
	u.StartSearch()
	u.WaitIdle()
	u.search.table.Select(widgetCell(0))
	if err := u.OpenPath("../data/scenarios/eth-800g-16k.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	if !u.search.staleMsg.Visible() || !strings.Contains(u.search.staleMsg.Text, "GPUs 1024 → 16384") {
		t.Errorf("stale message %q (visible %v)", u.search.staleMsg.Text, u.search.staleMsg.Visible())
	}
	if !u.search.use.Disabled() {
		t.Error("Use enabled on stale results")
	}
	u.search.useSelected()
	u.WaitIdle()
	if u.Plan().GPUs != 16384 {
		t.Errorf("a stale design was applied: %d GPUs", u.Plan().GPUs)
	}
}

func TestScenarioFileFromOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.toml")
	s := planner.NewScenario()
	s.Cluster.GPUs = 333
	if err := scenariofile.Save(path, s); err != nil {
		t.Fatal(err)
	}
	u := newTestUIWith(t, Options{ScenarioPath: path, Ephemeral: true})
	if u.Plan().GPUs != 333 || !strings.Contains(u.win.Title(), "s.toml") {
		t.Errorf("opened %d GPUs, title %q", u.Plan().GPUs, u.win.Title())
	}
}

func TestPriceOverride(t *testing.T) {
	u := newTestUI(t)
	before := u.Plan().Cost.Switches
	u.inputs.prices.item.SetSelected("qm9700")
	// The catalog's QM9700 street price: $36,000 (research/prices.md §1).
	if !strings.Contains(u.inputs.prices.price.PlaceHolder, "36,000") {
		t.Errorf("placeholder %q", u.inputs.prices.price.PlaceHolder)
	}
	// Its condition, grade and date: street, one dated source, Aug 2024.
	if !strings.HasPrefix(u.inputs.prices.source.Text, "street, single-source, 2024-08. ") {
		t.Errorf("source %q", u.inputs.prices.source.Text)
	}
	u.inputs.prices.price.SetText("72000")
	u.WaitIdle()
	if got := u.Plan().Cost.Switches; got != 2*before {
		t.Errorf("switch cost %v after doubling the price, was %v", got, before)
	}
	if u.Scenario().Prices["qm9700"] != 72000 || !u.Dirty() {
		t.Error("override not in the scenario")
	}
	u.inputs.prices.price.SetText("")
	u.WaitIdle()
	if u.Plan().Cost.Switches != before {
		t.Error("clearing the override did not restore the catalog price")
	}
}

// Choosing a rack-scale system plans 4 rails per tray and locks the
// inputs the system fixes. By hand: 576 GPUs / 4 per tray = 144 trays.
// Mutation caught: the system select writing only the key while
// gpus_per_server keeps its old value in the plan.
func TestSystemChoice(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "576")
	pick(u, "cluster.system", "gb300-nvl72")
	p := u.Plan()
	if p == nil || p.System == nil || p.System.Key != "gb300-nvl72" {
		t.Fatalf("plan system: %+v", p)
	}
	if p.RailsPerPlane != 4 || p.Servers != 144 || p.PortGbps != 800 {
		t.Errorf("rails %d, trays %d, %dG; want 4, 144, 800G", p.RailsPerPlane, p.Servers, p.PortGbps)
	}
	if !choice(u, "cluster.gpus_per_server").Disabled() || !radio(u, "network.nic_gbps").Disabled() || choice(u, "cluster.gpus_per_server").Selected != "4" {
		t.Error("GPUs per server and NIC speed are not locked to the system's")
	}
	pick(u, "cluster.system", planner.CustomSystem)
	if choice(u, "cluster.gpus_per_server").Disabled() {
		t.Error("custom leaves GPUs per server locked")
	}
}

// A system scenario saved from the window opens again without errors.
// Mutation caught: the scenario keeps gpus_per_server 8 under an NVL72
// system, which the reloaded file then reports as a conflict.
func TestSystemScenarioRoundTrip(t *testing.T) {
	u := newTestUI(t)
	pick(u, "cluster.system", "gb200-nvl72")
	path := filepath.Join(t.TempDir(), "nvl.toml")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenPath(path); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	u.WaitIdle()
	if u.Plan().System == nil || u.Plan().System.Key != "gb200-nvl72" {
		t.Error("the reopened scenario lost its system")
	}
}

// The pin dialog pins under the typed name on Enter and closes on Esc.
// Mutation caught: a dialog whose Enter does nothing (Fyne's own).
func TestPinDialogKeys(t *testing.T) {
	u := newTestUI(t)
	u.PinDialog()
	if topDialog(u) == nil {
		t.Fatal("no pin dialog")
	}
	pressKey(u, fyne.KeyEscape)
	if topDialog(u) != nil || len(u.Pinned()) != 0 {
		t.Fatal("Esc pinned or left the dialog up")
	}
	u.PinDialog()
	pressKey(u, fyne.KeyReturn)
	if topDialog(u) != nil || len(u.Pinned()) != 1 || u.Pinned()[0].Label != "#1 IB 400G, 1,024 GPUs" {
		t.Errorf("Enter: pins %v", u.Pinned())
	}
}

// At 100,000 GPUs the search's times are under two days: the status
// line, the designs table and the chart all write them in hours.
// Mutation caught: the status line writing the target as "0.28 days"
// while the chart's title says "6.6 hours".
func TestSearchTimesShareOneUnit(t *testing.T) {
	u := newTestUI(t)
	u.showError = func(err error) { t.Fatal(err) }
	if err := u.OpenPath("../data/scenarios/ib-xdr-100k.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	u.SelectTab(TabSearch)
	u.search.target.SetText("5")
	u.StartSearch()
	u.WaitIdle()
	r, _ := u.m.SearchResult()
	fig := u.search.view.fig
	if r == nil || fig == nil || r.Cheapest == nil {
		t.Fatalf("search: result %v, chart %v; status %q", r, fig, u.search.info.Text)
	}
	target := r.TimeUnit().Format(r.Target)
	if !strings.HasSuffix(target, " hours") {
		t.Fatalf("target %q: at 100k GPUs the job takes hours", target)
	}
	title := fig.Panels[0][0].Title.Text
	if !strings.Contains(strings.ReplaceAll(title, "\n", " "), target) || !strings.Contains(u.search.info.Text, "meeting "+target) {
		t.Errorf("chart title %q and status %q should both say %q", title, u.search.info.Text, target)
	}
	if cell := u.search.cell(0, 5); !strings.HasSuffix(cell, " hours") {
		t.Errorf("designs table JCT %q, want hours", cell)
	}
	if strings.Contains(u.search.info.Text, " days") {
		t.Errorf("status %q mixes in days", u.search.info.Text)
	}
}

// The window's content fits a 1024x640 screen (less a menu bar) for
// every example scenario, on every tab: nothing forces the window wider
// or taller than the screen. Mutations caught: a bar of controls in an
// HBox (the Search tab's buttons made the window 1,243 px wide), a check
// box whose long caption cannot wrap.
func TestContentFitsALaptop(t *testing.T) {
	const menuBar = 30
	u := newTestUI(t)
	for _, path := range []string{"", "../data/scenarios/gb300-nvl72-4k.toml", "../data/scenarios/ib-xdr-100k.toml", "../data/scenarios/eth-800g-16k.toml"} {
		if path != "" {
			if err := u.OpenPath(path); err != nil {
				t.Fatal(err)
			}
			u.WaitIdle()
		}
		for _, tab := range u.TabNames() {
			u.SelectTab(tab)
			u.WaitIdle()
			u.win.Resize(fyne.NewSize(1024, 640-menuBar))
			if m := u.win.Content().MinSize(); m.Width > 1024 || m.Height > 640-menuBar {
				t.Errorf("%s, %s tab: content needs %.0fx%.0f, more than 1024x%d", path, tab, m.Width, m.Height, 640-menuBar)
			}
		}
	}
}
