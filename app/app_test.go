package app

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"fabricplan/planner"
)

func TestTypingGPUsUpdatesSummary(t *testing.T) {
	u := newTestUI(t)
	if got := u.Figures()["Servers"]; got != "128" {
		t.Fatalf("default scenario: %s servers, want 128", got)
	}
	u.inputs.gpus.SetText("")
	test.Type(u.inputs.gpus, "4096")
	if u.Plan().GPUs != 4096 {
		t.Fatalf("plan has %d GPUs", u.Plan().GPUs)
	}
	f := u.Figures()
	if f["Servers"] != "512" || f["Back-end NIC ports"] != "4,096" {
		t.Errorf("summary after typing 4096: %v", f)
	}
	if f["Switches"] != planner.FormatInt(u.Plan().TotalSwitches()) {
		t.Errorf("switches card %s, plan %d", f["Switches"], u.Plan().TotalSwitches())
	}
	test.Tap(findButton(t, u, "32,768"))
	if u.Plan().GPUs != 32768 {
		t.Errorf("preset: %d GPUs", u.Plan().GPUs)
	}
}

func TestFabricChangesSwitchChoices(t *testing.T) {
	u := newTestUI(t)
	opts := strings.Join(u.inputs.switchSel.Options, " ")
	if !strings.Contains(opts, "qm9700") || strings.Contains(opts, "sn5600") {
		t.Fatalf("InfiniBand switch options: %s", opts)
	}
	u.inputs.fabric.SetSelected(fabricEthernet)
	opts = strings.Join(u.inputs.switchSel.Options, " ")
	if strings.Contains(opts, "qm9700") || !strings.Contains(opts, "sn5600") || !strings.Contains(opts, "tomahawk5") {
		t.Errorf("Ethernet switch options: %s", opts)
	}
	if u.Plan().Scenario.Network.Fabric != planner.Ethernet || u.Plan().Switch.Fabric != planner.Ethernet {
		t.Errorf("plan fabric %s on %s", u.Plan().Scenario.Network.Fabric, u.Plan().Switch.Key)
	}
}

func TestInvalidInputKeepsLastPlan(t *testing.T) {
	u := newTestUI(t)
	before := u.Plan()
	cards := u.Figures()
	u.inputs.gpus.SetText("lots")
	f := u.inputs.field("cluster.gpus")
	if !f.errText.Visible() || !strings.Contains(f.errText.Text, "whole number") {
		t.Errorf("GPU field error %q (visible %v)", f.errText.Text, f.errText.Visible())
	}
	if u.Plan() != before || !reflect.DeepEqual(u.Figures(), cards) {
		t.Error("the last valid plan was not kept")
	}
	// A value the planner rejects: a single tier cannot hold 1,024 GPUs.
	u.inputs.gpus.SetText("1024")
	u.inputs.tiers.SetSelected("1")
	tf := u.inputs.field("network.tiers")
	if !tf.errText.Visible() || !strings.Contains(tf.errText.Text, "tiers") {
		t.Errorf("tiers error %q", tf.errText.Text)
	}
	if u.Plan().Tiers != 2 {
		t.Errorf("plan changed to %d tiers", u.Plan().Tiers)
	}
	u.inputs.tiers.SetSelected(tiersAuto)
	if tf.errText.Visible() {
		t.Error("error stays after the fix")
	}
	// A workload that does not fit shows next to its field.
	u.inputs.pp.SetText("512")
	if pf := u.inputs.field("workload.pp"); !pf.errText.Visible() {
		t.Error("no error for pp 512 on 1,024 GPUs")
	}
}

func TestSaveThenOpen(t *testing.T) {
	u := newTestUI(t)
	u.inputs.gpus.SetText("2048")
	u.inputs.fabric.SetSelected(fabricEthernet)
	u.inputs.oversub.SetSelected("2:1")
	u.inputs.serverPrice.SetText("250000")
	u.inputs.model.SetSelected("gpt3-175b")
	want := u.Scenario()
	path := filepath.Join(t.TempDir(), "plan")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	if u.Dirty() || !strings.HasSuffix(u.path, "plan.toml") {
		t.Fatalf("after save: dirty %v, path %s", u.Dirty(), u.path)
	}
	u.NewScenario()
	if reflect.DeepEqual(u.Scenario(), want) {
		t.Fatal("New did not reset the scenario")
	}
	if err := u.OpenPath(path + ".toml"); err != nil {
		t.Fatal(err)
	}
	if got := u.Scenario(); !reflect.DeepEqual(got, want) {
		t.Errorf("open(save(x)) != x\n got %+v\nwant %+v", got, want)
	}
	if u.inputs.gpus.Text != "2048" || u.inputs.fabric.Selected != fabricEthernet || u.inputs.model.Selected != "gpt3-175b" {
		t.Error("the inputs do not show the opened scenario")
	}
	// A broken file is reported and the current scenario stays.
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("schema = 1\n[cluster]\ngpus = -3\n"), 0o644)
	if err := u.OpenPath(bad); err == nil || !strings.Contains(err.Error(), "cluster.gpus (line 3)") {
		t.Errorf("open bad file: %v", err)
	}
	if !reflect.DeepEqual(u.Scenario(), want) {
		t.Error("a failed open changed the scenario")
	}
}

func TestDirtyPrompt(t *testing.T) {
	u := newTestUI(t)
	var asked []string
	var pending func()
	u.confirm = func(title, msg string, yes func()) { asked = append(asked, title); pending = yes }
	if u.Dirty() || strings.HasPrefix(u.win.Title(), "*") {
		t.Fatal("fresh UI is dirty")
	}
	u.inputs.gpus.SetText("512")
	if !u.Dirty() || !strings.HasPrefix(u.win.Title(), "* ") {
		t.Fatalf("after a change: dirty %v, title %q", u.Dirty(), u.win.Title())
	}
	u.guarded(u.NewScenario)
	if len(asked) != 1 || u.Plan().GPUs != 512 {
		t.Fatalf("New with unsaved changes did not ask first (asked %v, GPUs %d)", asked, u.Plan().GPUs)
	}
	pending()
	if u.Plan().GPUs != 1024 || u.Dirty() {
		t.Errorf("after agreeing: %d GPUs, dirty %v", u.Plan().GPUs, u.Dirty())
	}
	u.guarded(u.NewScenario) // clean: no question
	if len(asked) != 1 {
		t.Error("asked with nothing unsaved")
	}
}

func TestPinAndCompare(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabCompare)
	u.PinCurrent()
	u.inputs.nicSpeed.SetSelected("800G")
	vs := u.compare.variants()
	if len(vs) != 2 || vs[0].Plan.Scenario.Network.NICGbps != 400 || vs[1].Plan.Scenario.Network.NICGbps != 800 {
		t.Fatalf("compare variants: %+v", vs)
	}
	for _, c := range compareCharts {
		u.compare.pick.SetSelected(c)
		if u.compare.view.fig == nil {
			t.Fatalf("%s compare chart not drawn: %s", c, u.compare.view.message.Text)
		}
		name := u.compare.view.fig.Data[0].Name
		if c == "jct" {
			name = "gain" // the step panel has an RDMA and a TCP/IP bar per plan
		}
		if s, ok := u.compare.view.fig.Series(name); !ok || len(s.Values) != 2 {
			t.Errorf("%s chart draws %d plans", c, len(s.Values))
		}
	}
	rows, cols := u.compare.table.Length()
	if rows != len(compareRows) || cols != 2 {
		t.Errorf("table %dx%d", rows, cols)
	}
}

func TestExports(t *testing.T) {
	u := newTestUI(t)
	dir := t.TempDir()
	u.SelectTab(TabCharts)
	for _, name := range []string{"c.png", "c.svg", "c.pdf"} {
		if err := ExportChart(u.visibleFigure(), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "c.png"))
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("exported PNG: %v", err)
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
	if err := u.ExportReport(filepath.Join(dir, "r.pdf"), func(done, total int) { pages = total }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r.pdf")); !bytes.HasPrefix(b, []byte("%PDF")) || pages < 8 {
		t.Errorf("report: %d pages", pages)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 {
		t.Errorf("files left: %d (temporary files?)", len(entries))
	}
}

func TestSearchTabUseDesign(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabSearch)
	u.search.target.SetText("5")
	u.StartSearch()
	u.WaitSearch()
	r := u.search.result
	if r == nil || len(u.search.rows) != len(r.Front) || u.search.view.fig == nil {
		t.Fatalf("search: %v, %d rows", r, len(u.search.rows))
	}
	if r.Cheapest == nil {
		t.Fatal("no pick within 5%")
	}
	for i, d := range u.search.rows {
		if d == r.Cheapest {
			u.search.table.Select(widgetCell(i))
		}
	}
	u.search.useSelected()
	got := u.Plan()
	if got.Cost.Total != r.Cheapest.CostUSD || !u.Dirty() {
		t.Errorf("use design: plan costs %v, design %v", got.Cost.Total, r.Cheapest.CostUSD)
	}
	u.search.sortBy(5)
	for i := 1; i < len(u.search.rows); i++ {
		if u.search.rows[i].Days < u.search.rows[i-1].Days {
			t.Fatal("not sorted by JCT")
		}
	}
}

func TestScenarioFileFromOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.toml")
	s := planner.NewScenario()
	s.Cluster.GPUs = 333
	if err := planner.SaveScenario(path, s); err != nil {
		t.Fatal(err)
	}
	u := newTestUIWith(t, Options{ScenarioPath: path, Ephemeral: true})
	if u.Plan().GPUs != 333 || !strings.Contains(u.win.Title(), "s.toml") {
		t.Errorf("opened %d GPUs, title %q", u.Plan().GPUs, u.win.Title())
	}
}

// BenchmarkInputChange times one GPU-count edit with the Charts tab
// showing: plan, summary, and the visible chart redrawn. Target: < 50 ms.
func BenchmarkInputChange(b *testing.B) {
	for _, gpus := range []string{"1024", "100000"} {
		b.Run("gpus="+gpus, func(b *testing.B) {
			u := newTestUI(b)
			u.inputs.nicSpeed.SetSelected("800G")
			u.inputs.fabric.SetSelected(fabricEthernet)
			u.SelectTab(TabCharts)
			u.charts.pick.SetSelectedIndex(1) // cost
			alt := map[bool]string{false: gpus, true: gpus[:len(gpus)-1] + "8"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				u.inputs.gpus.SetText(alt[i%2 == 1])
			}
			b.StopTimer()
			if u.charts.view.fig == nil {
				b.Fatal("no chart drawn")
			}
		})
	}
}

func TestPriceOverride(t *testing.T) {
	u := newTestUI(t)
	before := u.Plan().Cost.Switches
	u.inputs.prices.item.SetSelected("qm9700")
	if !strings.Contains(u.inputs.prices.price.PlaceHolder, "13,500") {
		t.Errorf("placeholder %q", u.inputs.prices.price.PlaceHolder)
	}
	u.inputs.prices.price.SetText("27000")
	if got := u.Plan().Cost.Switches; got != 2*before {
		t.Errorf("switch cost %v after doubling the price, was %v", got, before)
	}
	if u.Scenario().Prices["qm9700"] != 27000 || !u.Dirty() {
		t.Error("override not in the scenario")
	}
	u.inputs.prices.price.SetText("")
	if u.Plan().Cost.Switches != before {
		t.Error("clearing the override did not restore the catalog price")
	}
}

// Choosing a rack-scale system plans 4 rails per tray and locks the
// inputs the system fixes. Mutation caught: the system select writing
// only the key while gpus_per_server keeps its old value in the plan.
func TestSystemChoice(t *testing.T) {
	u := newTestUI(t)
	u.inputs.gpus.SetText("576")
	u.inputs.system.SetSelected("gb300-nvl72")
	p := u.Plan()
	if p == nil || p.System == nil || p.System.Key != "gb300-nvl72" {
		t.Fatalf("plan system: %+v", p)
	}
	if p.RailsPerPlane != 4 || p.Servers != 144 || p.PortGbps != 800 {
		t.Errorf("rails %d, trays %d, %dG; want 4, 144, 800G", p.RailsPerPlane, p.Servers, p.PortGbps)
	}
	if !u.inputs.gpusPerServer.Disabled() || !u.inputs.nicSpeed.Disabled() || u.inputs.gpusPerServer.Selected != "4" {
		t.Error("GPUs per server and NIC speed are not locked to the system's")
	}
	u.inputs.system.SetSelected(planner.CustomSystem)
	if u.inputs.gpusPerServer.Disabled() {
		t.Error("custom leaves GPUs per server locked")
	}
}

// A system scenario saved from the window opens again without errors.
// Mutation caught: the scenario keeps gpus_per_server 8 under an NVL72
// system, which the reloaded file then reports as a conflict.
func TestSystemScenarioRoundTrip(t *testing.T) {
	u := newTestUI(t)
	u.inputs.system.SetSelected("gb200-nvl72")
	path := filepath.Join(t.TempDir(), "nvl.toml")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	if err := u.OpenPath(path); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if u.Plan().System == nil || u.Plan().System.Key != "gb200-nvl72" {
		t.Error("the reopened scenario lost its system")
	}
}
