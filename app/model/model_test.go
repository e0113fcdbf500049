package model

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/perf"
)

func testModel(t testing.TB) *Model {
	t.Helper()
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return New(cat, planner.NewScenario())
}

// settle plans the current inputs as the window does and applies them.
func settle(t testing.TB, m *Model) {
	t.Helper()
	m.Apply(Evaluate(m.Gen(), m.Scenario(), m.Catalog()))
}

func mustSet(t testing.TB, m *Model, key, text string) string {
	t.Helper()
	notice, err := m.Set(key, text)
	if err != nil {
		t.Fatalf("Set(%s, %q): %v", key, text, err)
	}
	return notice
}

// A typing mistake leaves the scenario as it was and makes the plan
// stale, with the problem in the words of the label. Mutation caught:
// showing the last plan as current while the field holds text that does
// not parse (the window used to show the 1,024-GPU cards under "abc").
func TestTypingErrorMakesThePlanStale(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	if st := m.State(); st.Status != Current {
		t.Fatalf("state %v, want current", st.Status)
	}
	if _, err := m.Set("cluster.gpus", "10x0"); err == nil || !strings.HasPrefix(err.Error(), "GPUs: ") {
		t.Fatalf("error %v, want one naming the GPUs label", err)
	}
	st := m.State()
	if st.Status != Stale || len(st.Problems) != 1 || st.Problems[0].Label != "GPUs" {
		t.Fatalf("state %+v, want stale with the GPUs problem", st)
	}
	if m.Text("cluster.gpus") != "10x0" || m.Scenario().Cluster.GPUs != 1024 {
		t.Errorf("text %q, scenario %d GPUs: the typed text shows and the scenario keeps 1,024", m.Text("cluster.gpus"), m.Scenario().Cluster.GPUs)
	}
	mustSet(t, m, "cluster.gpus", "2048")
	settle(t, m)
	if st := m.State(); st.Status != Current || m.Plan().GPUs != 2048 {
		t.Errorf("after the fix: state %v, plan %d GPUs", st.Status, m.Plan().GPUs)
	}
}

// An infeasible input keeps the last plan but marks it stale, with every
// problem named by its label, never its file key. Mutation caught:
// messages that say "network.planes" to a user who sees "Planes".
func TestInfeasibleInputsAreStaleInLabels(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	mustSet(t, m, "network.planes", "3") // 8 ports do not split over 3 planes
	settle(t, m)
	st := m.State()
	if st.Status != Stale {
		t.Fatalf("state %v, want stale", st.Status)
	}
	banner := st.Banner(m.Plan())
	if strings.Contains(banner, "network.") || !strings.Contains(banner, "Planes: ") {
		t.Errorf("banner names file keys or misses the label:\n%s", banner)
	}
	if !strings.Contains(banner, "1,024 GPUs") {
		t.Errorf("banner does not say which plan is shown:\n%s", banner)
	}
	if p := st.Problems; len(p) == 0 || p[0].Key != "network.planes" {
		t.Error("no problem under the Planes input")
	}
}

// Only the result for the current inputs is applied. Mutation caught:
// applying whichever background result arrives last, which showed a
// 10,000-GPU plan while the field read 100000.
func TestOlderResultsAreDropped(t *testing.T) {
	m := testModel(t)
	mustSet(t, m, "cluster.gpus", "10000")
	old := Evaluate(m.Gen(), m.Scenario(), m.Catalog())
	mustSet(t, m, "cluster.gpus", "4096")
	if m.Apply(old) {
		t.Fatal("a result for replaced inputs was applied")
	}
	if st := m.State(); st.Status == Current {
		t.Fatal("state current before the latest inputs are planned")
	}
	settle(t, m)
	if m.Plan().GPUs != 4096 {
		t.Errorf("plan of %d GPUs, want 4096", m.Plan().GPUs)
	}
}

// A change that resets other inputs says so. Mutation caught: switching
// to Ethernet silently resetting the switch.
func TestResetsAreAnnounced(t *testing.T) {
	m := testModel(t)
	mustSet(t, m, "network.switch", "qm9700")
	notice := mustSet(t, m, "network.fabric", FabricEthernet)
	if !strings.Contains(notice, "Switch qm9700") || !strings.Contains(notice, SwitchAuto) {
		t.Errorf("notice %q does not name the switch reset", notice)
	}
	if n := mustSet(t, m, "cluster.gpus", "2048"); n != "" {
		t.Errorf("GPUs change announced resets: %q", n)
	}
}

// Choices are those that fit: an 800G InfiniBand NIC offers no
// 400G-only switch, planes divide the server's ports.
func TestOptionsFit(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	planes := strings.Join(m.Options("network.planes"), ",")
	if planes != "1,2,4,8" { // 8 single-port NICs: the divisors of 8
		t.Errorf("planes %s, want 1,2,4,8", planes)
	}
	for _, o := range m.Options("network.switch")[1:] {
		if !strings.Contains(o, "x 400G") {
			t.Errorf("switch %q offered for 400G ports", o)
		}
	}
	mustSet(t, m, "cluster.system", "gb200-nvl72")
	if m.Enabled("cluster.gpus_per_server") || m.Enabled("network.nic_gbps") {
		t.Error("a catalog system leaves GPUs per server or NIC speed editable")
	}
	if m.Text("cluster.gpus_per_server") != "4" {
		t.Errorf("NVL72 tray shows %s GPUs, want 4", m.Text("cluster.gpus_per_server"))
	}
}

// Undo and redo step through edits; typing in one field is one step; and
// undoing back to the saved inputs is not a change; an edit after an undo
// drops what could be redone. Mutations caught: one undo step per
// keystroke, Dirty comparing edit counts, and commit keeping the redo
// stack (the last assertion runs with one step left to redo).
func TestUndoRedo(t *testing.T) {
	m := testModel(t)
	for _, txt := range []string{"2", "20", "204", "2048"} {
		mustSet(t, m, "cluster.gpus", txt)
	}
	mustSet(t, m, "network.oversubscription", "2:1")
	if !m.Dirty() {
		t.Fatal("edits not dirty")
	}
	m.Undo()
	if s := m.Scenario(); s.Network.Oversubscription != "1:1" || s.Cluster.GPUs != 2048 {
		t.Fatalf("after one undo: %s, %d GPUs", s.Network.Oversubscription, s.Cluster.GPUs)
	}
	m.Undo()
	if s := m.Scenario(); s.Cluster.GPUs != 1024 {
		t.Fatalf("typing was not one undo step: %d GPUs", s.Cluster.GPUs)
	}
	if m.Dirty() || m.Undo() {
		t.Error("back at the saved inputs but dirty or still undoable")
	}
	m.Redo()
	m.Redo()
	if s := m.Scenario(); s.Cluster.GPUs != 2048 || s.Network.Oversubscription != "2:1" {
		t.Errorf("after redo: %d GPUs, %s", s.Cluster.GPUs, s.Network.Oversubscription)
	}
	// Redo must have something to drop: undo once, then edit.
	m.Undo()
	mustSet(t, m, "cluster.gpus", "512")
	if m.Redo() {
		t.Error("a new edit kept the redo steps")
	}
	if s := m.Scenario(); s.Cluster.GPUs != 512 || s.Network.Oversubscription != "1:1" {
		t.Errorf("after the new edit: %d GPUs, %s; want 512, 1:1", s.Cluster.GPUs, s.Network.Oversubscription)
	}
}

// A pin is a snapshot: later edits of the workload and prices leave it.
// Mutation caught: pinning a plan that shares the scenario's Workload
// pointer or Prices map.
func TestPinsAreSnapshots(t *testing.T) {
	m := testModel(t)
	mustSet(t, m, "workload.tp", "8")
	settle(t, m)
	if err := m.PinCurrent(""); err != nil {
		t.Fatal(err)
	}
	pin := m.Pins()[0]
	cost, pp := pin.Plan.Cost.Total, pin.Plan.Scenario.Workload.PP
	mustSet(t, m, "workload.pp", "8") // tp 4 would not fit 70B in an H100's memory
	mustSet(t, m, "prices.qm9700", "1")
	settle(t, m)
	if got := m.Pins()[0].Plan; got.Cost.Total != cost || got.Scenario.Workload.PP != pp {
		t.Errorf("pin changed: cost %v→%v, pp %d→%d", cost, got.Cost.Total, pp, got.Scenario.Workload.PP)
	}
	if err := m.PinCurrent("cheap switches"); err != nil {
		t.Fatal(err)
	}
	if err := m.PinCurrent("cheap switches"); err == nil {
		t.Error("two pins with one name")
	}
	cmp := m.Compare()
	if len(cmp.Columns) != 3 || cmp.Columns[1] != "cheap switches" {
		t.Fatalf("columns %v", cmp.Columns)
	}
	for _, r := range cmp.Rows {
		if r.Name == "GPUs" && r.Differs {
			t.Error("GPUs marked as differing")
		}
		if (r.Name == "Cost" || r.Name == "Step time") && !r.Differs {
			t.Errorf("%s not marked as differing: %v", r.Name, r.Cells)
		}
	}
	if !m.Unpin(pin.Name) || len(m.Pins()) != 1 || m.Pins()[0].Name != "cheap switches" {
		t.Errorf("unpin left %v", m.Pins())
	}
}

func TestPinRefusedWhenStale(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	m.Set("cluster.gpus", "lots")
	if err := m.PinCurrent(""); err != ErrStale {
		t.Errorf("pin of stale inputs: %v", err)
	}
}

// Search results belong to the inputs they were run on. Mutation caught:
// "Use this design" applying a 1,024-GPU design to a 16,384-GPU scenario.
func TestSearchGoesStale(t *testing.T) {
	m := testModel(t)
	run, _ := m.StartSearch()
	m.SearchDone(run, &explore.SearchResult{}, nil)
	if stale, _ := m.SearchStale(); stale {
		t.Fatal("fresh results stale")
	}
	mustSet(t, m, "cluster.gpus", "16384")
	stale, why := m.SearchStale()
	if !stale || !strings.Contains(why, "GPUs 1024 → 16384") {
		t.Errorf("stale %v, %q", stale, why)
	}
	m.Undo()
	if stale, _ := m.SearchStale(); stale {
		t.Error("undo back to the searched inputs still stale")
	}
}

// BenchmarkEditToPlan is an input change at 100k GPUs through to the
// result applied, as the window does it (without the debounce pause).
func BenchmarkEditToPlan(b *testing.B) {
	m := testModel(b)
	texts := []string{"100000", "100008"}
	for i := 0; b.Loop(); i++ {
		m.Set("cluster.gpus", texts[i%2])
		m.Apply(Evaluate(m.Gen(), m.Scenario(), m.Catalog()))
	}
}

// Planner advice names inputs by their labels. Mutation caught: replacing
// "server_leaf" inside "server_leaf_m" (longest names must go first).
func TestInLabels(t *testing.T) {
	for in, want := range map[string]string{
		"raise network.planes":            "raise “Planes”",
		"with ports_per_nic to split":     "with “Ports per NIC” to split",
		"set network.media.server_leaf_m": "set “Server-leaf length (m)”",
		"server_leaf_m is long":           "“Server-leaf length (m)” is long",
		"no keys here: 3 tiers of qm9700": "no keys here: 3 tiers of qm9700",
	} {
		if got := InLabels(in); got != want {
			t.Errorf("InLabels(%q) = %q, want %q", in, got, want)
		}
	}
}

// Spares typed in the form reach the plan's BOM, an out-of-range value
// is named by its label, and clearing every override drops the
// [reliability] table. Mutations caught: the override written to the
// wrong field, an empty entry stored as 0 (no longer the data default),
// an empty table left behind in the saved file.
func TestSparesInputs(t *testing.T) {
	m := testModel(t)
	if h := m.Hint("reliability.spare_switches_pct"); !strings.Contains(h, "none") {
		t.Errorf("spare hint %q, want the data default (none)", h)
	}
	if h := m.Hint("reliability.repair_hours"); h != "data default: 24" {
		t.Errorf("repair hint %q, want the data file's 24", h)
	}
	mustSet(t, m, "reliability.spare_switches_pct", "10")
	settle(t, m)
	// 32 leaves and 16 spines at 10%: 4 + 2.
	if p := m.Plan(); p.Spares.Switches != 6 || p.Spares.Optics.Total != 0 {
		t.Errorf("spares %+v, want 6 switches, no optics", p.Spares)
	}
	if got := m.Text("reliability.spare_switches_pct"); got != "10" {
		t.Errorf("text %q, want 10", got)
	}
	mustSet(t, m, "reliability.spare_optics_pct", "250")
	settle(t, m)
	if st := m.State(); st.Status != Stale || len(st.Problems) == 0 || st.Problems[0].Label != "Spare optics (% of transceivers and AOCs)" {
		t.Errorf("state %+v, want stale naming the spare optics label", st)
	}
	mustSet(t, m, "reliability.spare_optics_pct", "")
	mustSet(t, m, "reliability.spare_switches_pct", "")
	settle(t, m)
	if r := m.Scenario().Reliability; r != nil {
		t.Errorf("overrides left after clearing them all: %+v", r)
	}
	if m.Plan().Spares.Switches != 0 {
		t.Error("spares left after clearing the input")
	}
}

// The job's place on the fabric is three inputs: placement, jobs sharing
// the cluster, queue pairs per connection. Mutations caught: an input
// that does not reach the workload, a bad value accepted, a blank queue
// pair count not falling back to NCCL's default.
func TestPlacementInputs(t *testing.T) {
	m := testModel(t)
	if got := m.Text("workload.placement"); got != perf.PlacePacked {
		t.Errorf("placement %q before any edit, want packed", got)
	}
	if got := m.Text("workload.jobs"); got != "1" {
		t.Errorf("jobs %q, want 1", got)
	}
	mustSet(t, m, "workload.model", "llama3-8b")
	mustSet(t, m, "workload.pp", "1")
	mustSet(t, m, "workload.placement", perf.PlaceSpread)
	mustSet(t, m, "workload.jobs", "4")
	mustSet(t, m, "workload.qps_per_connection", "8")
	settle(t, m)
	w := m.Scenario().Workload
	if w == nil || w.Placement != perf.PlaceSpread || w.Jobs != 4 || w.QueuePairs != 8 {
		t.Fatalf("workload %+v, want spread, 4 jobs, 8 QPs", w)
	}
	if p := m.Plan(); p == nil || p.JCT == nil || p.JCT.DP != 1024/4/8 {
		t.Errorf("plan %+v, want a JCT with dp 32 (a quarter of 1,024 GPUs over tp 8)", p)
	}
	for key, bad := range map[string]string{"workload.placement": "random", "workload.qps_per_connection": "0", "workload.jobs": "x"} {
		if _, err := m.Set(key, bad); err == nil {
			t.Errorf("Set(%s, %q) accepted", key, bad)
		}
	}
	mustSet(t, m, "workload.qps_per_connection", "")
	if got := m.Scenario().Workload.QueuePairs; got != 0 {
		t.Errorf("blank queue pairs left %d, want 0 (NCCL's default)", got)
	}
}

// The leaf-alignment input writes the scenario's key: "reference" leaves
// it out (the system's reference layout), rack and packed set it, and
// anything else is refused. Mutation caught: "reference" written into
// the file as a value the planner does not know.
func TestLeafAlignmentInput(t *testing.T) {
	m := testModel(t)
	if got := m.Text("network.leaf_alignment"); got != AlignReference {
		t.Fatalf("default shows %q", got)
	}
	for _, c := range []struct{ text, want string }{{planner.AlignPacked, "packed"}, {planner.AlignRack, "rack"}, {AlignReference, ""}} {
		if _, err := m.Set("network.leaf_alignment", c.text); err != nil {
			t.Fatal(err)
		}
		if got := m.Scenario().Network.LeafAlignment; got != c.want {
			t.Errorf("%s: scenario has %q, want %q", c.text, got, c.want)
		}
	}
	if _, err := m.Set("network.leaf_alignment", "diagonal"); err == nil {
		t.Error("an unknown alignment was accepted")
	}
}

// The networks beside the back end are inputs: choosing converged storage
// reaches the plan (no storage switches, the storage-server ports on the
// front end), a bad speed makes the plan stale naming the input, and
// clearing every choice removes the [networks] table. Mutations caught:
// an input that does not reach the scenario; the default choice written
// into the file; a blank number not falling back to the system's.
func TestNetworkInputs(t *testing.T) {
	m := testModel(t)
	if got := m.Text("networks.storage"); got != NetworkDefault {
		t.Errorf("storage text %q, want %q", got, NetworkDefault)
	}
	if h := m.Hint("networks.frontend_gbps"); h != "system default: 200" {
		t.Errorf("hint %q, want the custom servers' 200", h)
	}
	mustSet(t, m, "networks.storage", planner.NetSeparate)
	settle(t, m)
	if st := m.Plan().Networks.Net(planner.NetStorage); st.Kind != planner.NetSeparate || st.Switches == 0 {
		t.Fatalf("storage %+v, want a separate fabric", st)
	}
	mustSet(t, m, "networks.storage", planner.NetConverged)
	settle(t, m)
	if st := m.Plan().Networks.Net(planner.NetStorage); st.Kind != planner.NetConverged || st.Switches != 0 || st.Carried == 0 {
		t.Errorf("storage %+v, want converged on the front end", st)
	}
	mustSet(t, m, "networks.frontend_gbps", "37")
	settle(t, m)
	if st := m.State(); st.Status != Stale || len(st.Problems) == 0 || st.Problems[0].Label != "Front-end port speed (Gb/s)" {
		t.Errorf("state %+v, want stale naming the front-end speed", st)
	}
	if _, err := m.Set("networks.frontend_ports", "two"); err == nil {
		t.Error("text accepted as a port count")
	}
	mustSet(t, m, "networks.frontend_ports", "")
	mustSet(t, m, "networks.frontend_gbps", "")
	mustSet(t, m, "networks.storage", NetworkDefault)
	settle(t, m)
	if n := m.Scenario().Networks; n != nil {
		t.Errorf("networks left after clearing them all: %+v", n)
	}
}

// TestFabricEffectInputs: routing, in-network reduction, the other jobs'
// phase, background loads and the forced algorithm reach the scenario
// and the estimate, read back as set, and bad values are refused.
// Mutations caught: an input that does not reach the scenario, a blank
// background that is not none, "as load balancing" written as a routing
// value, an algorithm outside the list accepted.
func TestFabricEffectInputs(t *testing.T) {
	m := testModel(t)
	if got := m.Text("network.routing"); got != RoutingAsBalancing {
		t.Errorf("routing %q before any edit, want %q", got, RoutingAsBalancing)
	}
	mustSet(t, m, "workload.model", "llama3-8b")
	mustSet(t, m, "workload.pp", "1")
	mustSet(t, m, "network.routing", planner.RouteStatic)
	mustSet(t, m, "network.in_network_reduction", "true")
	mustSet(t, m, "workload.placement", perf.PlaceSpread)
	mustSet(t, m, "workload.jobs", "2")
	mustSet(t, m, "workload.phase", perf.PhaseAligned)
	mustSet(t, m, "workload.background_leaf", "0.25")
	mustSet(t, m, "workload.algorithm", perf.AlgoRing)
	settle(t, m)
	s := m.Scenario()
	w := s.Workload
	if s.Network.Routing != planner.RouteStatic || !s.Network.InNetworkReduction || w.Phase != perf.PhaseAligned ||
		w.BackgroundLeaf != 0.25 || w.Algorithm != perf.AlgoRing {
		t.Fatalf("network %+v, workload %+v", s.Network, w)
	}
	for key, want := range map[string]string{"network.routing": "static", "workload.background_leaf": "0.25", "workload.algorithm": "ring", "workload.phase": "aligned"} {
		if got := m.Text(key); got != want {
			t.Errorf("%s reads %q, want %q", key, got, want)
		}
	}
	if p := m.Plan(); p == nil || p.JCT == nil {
		t.Fatal("no estimate")
	}
	for key, bad := range map[string]string{"network.routing": "ecmp", "workload.phase": "late", "workload.background_leaf": "0.95", "workload.algorithm": "butterfly"} {
		if _, err := m.Set(key, bad); err == nil {
			t.Errorf("Set(%s, %q) accepted", key, bad)
		}
	}
	mustSet(t, m, "workload.background_leaf", "")
	mustSet(t, m, "network.routing", RoutingAsBalancing)
	mustSet(t, m, "workload.algorithm", AlgorithmFastest)
	if s := m.Scenario(); s.Workload.BackgroundLeaf != 0 || s.Network.Routing != "" || s.Workload.Algorithm != "" {
		t.Errorf("cleared inputs left %+v / %+v", s.Network, s.Workload)
	}
}
