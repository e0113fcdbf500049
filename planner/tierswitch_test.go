package planner

import (
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
)

// withSpineModel adds to cat a copy of switch key under key+"-up" with
// price, watts and height raised by the given amounts, as a spine model
// that sizes like the leaf's (same ports) but costs, draws and stands
// differently, so every consumer that reads the leaf's model for a spine
// shows.
func withSpineModel(cat *Catalog, key string, usd, watts float64, units int) *Switch {
	sw := *cat.Switches[key]
	sw.Key = key + "-up"
	sw.PriceUSD += usd
	sw.PriceRangeUSD = [2]float64{sw.PriceRangeUSD[0] + usd, sw.PriceRangeUSD[1] + usd}
	sw.Watts += watts
	sw.RackUnits = max(sw.RackUnits, 1) + units
	cat.Switches[sw.Key] = &sw
	return &sw
}

// TestSpineSwitchConsumers: a spine and core model that differs from the
// leaf's only in price, power and height changes the plan by exactly
// that, per spine and core (hand calculation: delta x upper switches;
// a taller one stands fewer to a rack),
// over sizes off the grid, both fabrics, two and three tiers, ToR and
// planes; the counts, links and ports stay the leaf-only plan's.
// Mutations caught: the BOM pricing or powering every tier with the
// leaf's model (p.Switch), the hall stacking spines at the leaf's
// height, the sizing reading the leaf's radix for spines, the design
// label, the networks table's back-end row or a chart's label naming
// only the leaf's model.
func TestSpineSwitchConsumers(t *testing.T) {
	const dUSD, dW, dU = 10_000.0, 500.0, 2
	for _, tc := range []struct {
		name string
		edit func(s *Scenario)
	}{
		{"IB 2 tiers 1,000 GPUs", func(s *Scenario) { s.Cluster.GPUs = 1000 }},
		{"IB 3 tiers 3,000 GPUs", func(s *Scenario) { s.Cluster.GPUs, s.Network.Tiers = 3000, 3 }},
		{"IB 2 planes 1,536 GPUs", func(s *Scenario) { s.Cluster.GPUs, s.Network.Planes = 1536, 2 }},
		{"RoCE TH5 ToR 2,040 GPUs", func(s *Scenario) {
			s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch, s.Network.RailOptimized = 2040, Ethernet, "tomahawk5", false
		}},
		{"RoCE TH5 3 tiers 7:1 6,144 GPUs", func(s *Scenario) {
			n := &s.Network
			s.Cluster.GPUs, n.Fabric, n.Switch, n.Tiers, n.SpineOversubscription = 6144, Ethernet, "tomahawk5", 3, "7:1"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := testCatalog(t)
			s := ibScenario(1024)
			tc.edit(&s)
			laid := s
			s = flatLengths(s) // a spine drawing more stands fewer to a rack: the hall's runs may change
			base, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			up := withSpineModel(cat, s.Network.Switch, dUSD, dW, 0)
			s.Network.SpineSwitch = up.Key
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			upper := base.Switches(TierSpine) + base.Switches(TierCore)
			if p.TotalSwitches() != base.TotalSwitches() || p.Links != base.Links || p.PortsTotal != base.PortsTotal {
				t.Fatalf("counts changed: %d switches %+v links %d ports, want %d %+v %d",
					p.TotalSwitches(), p.Links, p.PortsTotal, base.TotalSwitches(), base.Links, base.PortsTotal)
			}
			if got, want := p.Cost.Switches-base.Cost.Switches, float64(upper)*dUSD; math.Abs(got-want) > 1e-6 {
				t.Errorf("switch cost grew %.0f, want %d upper switches x %.0f = %.0f", got, upper, dUSD, want)
			}
			if got, want := p.Power.Switches-base.Power.Switches, float64(upper)*dW; math.Abs(got-want) > 1e-6 {
				t.Errorf("switch power grew %.0f W, want %d x %.0f = %.0f", got, upper, dW, want)
			}
			if p.Cost.Transceivers != base.Cost.Transceivers || p.Cost.Cables != base.Cost.Cables {
				t.Errorf("links' parts changed: optics %.0f cables %.0f, want %.0f %.0f", p.Cost.Transceivers, p.Cost.Cables, base.Cost.Transceivers, base.Cost.Cables)
			}
			if !strings.Contains(p.SwitchesText(), up.Key) || !strings.Contains(p.SwitchesText(), "leaf "+s.Network.Switch) {
				t.Errorf("label %q: want each tier's model", p.SwitchesText())
			}
			if n := p.Networks; n != nil && n.Net(NetBackEnd).Switch != p.SwitchesText() {
				t.Errorf("networks back-end row names %q, want each tier's model %q", n.Net(NetBackEnd).Switch, p.SwitchesText())
			}
			if got, want := p.SwitchModelsText(), s.Network.Switch+" + "+up.Key; got != want {
				t.Errorf("chart label %q, want %q", got, want)
			}
			if r := p.Report(); r.SpineSwitch != up.Key || (p.Tiers == 3) != (r.CoreSwitch == up.Key) {
				t.Errorf("JSON spine_switch %q core_switch %q, want %s (cores: only with three tiers)", r.SpineSwitch, r.CoreSwitch, up.Key)
			}
			// A taller spine: its racks hold fewer (the runs may change).
			tall := withSpineModel(cat, up.Key, 0, 0, dU)
			laid.Network.SpineSwitch = tall.Key
			if p, err = Build(laid, cat); err != nil {
				t.Fatal(err)
			}
			checkSpineRacks(t, p, tall)
		})
	}
}

// checkSpineRacks checks that every spine or core rack of p's hall holds
// no more of up's switches than its free units and power allow, and
// that their units are up's height (hand rule: free U / height).
func checkSpineRacks(t *testing.T, p *Plan, up *Switch) {
	t.Helper()
	h := p.Hall
	if h == nil {
		t.Fatal("no hall laid out")
	}
	free := h.Facility.RackUnits - h.Facility.ReservedUnits
	seen := 0
	defer func() {
		if seen == 0 {
			t.Error("no spine rack")
		}
	}()
	for i, r := range h.Racks {
		if r.Kind != hall.RackSpine && r.Kind != hall.RackCore {
			continue
		}
		seen++
		if r.Switches > free/up.RackUnits || r.UsedUnits != r.Switches*up.RackUnits {
			t.Errorf("rack %s holds %d %dU spines in %d U (used %d)", r.Name, r.Switches, up.RackUnits, free, r.UsedUnits)
		}
		for _, slot := range p.Elevation(i) {
			if slot.Kind == "switch" && (slot.Units != up.RackUnits || !strings.HasPrefix(slot.Label, up.Key)) {
				t.Errorf("rack %s elevation %+v: want %s, %dU", r.Name, slot, up.Key, up.RackUnits)
			}
		}
	}
}

// TestCableMapNamesTierModels: every cable-map row names the model at
// each end: the leaf's toward the servers, the spine's and core's above.
// Mutation caught: the map (or the topology file) giving every switch
// the leaf's model.
func TestCableMapNamesTierModels(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(3000)
	s.Network.Tiers = 3
	spine := withSpineModel(cat, "qm9700", 1, 1, 0)
	coreSw := *cat.Switches["qm9700"]
	coreSw.Key = "qm9700-core"
	cat.Switches[coreSw.Key] = &coreSw
	s.Network.SpineSwitch, s.Network.CoreSwitch = spine.Key, coreSw.Key
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{"server_leaf": {"", "qm9700"}, "leaf_spine": {"qm9700", spine.Key}, "spine_core": {spine.Key, coreSw.Key}}
	rows := map[string]int{}
	err = p.WalkCables(func(c *CableRun) error {
		rows[c.Tier]++
		if w := want[c.Tier]; c.AModel != w[0] || c.BModel != w[1] {
			return errors.New(c.Tier + ": " + c.AModel + " - " + c.BModel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("row names the wrong model: %v", err)
	}
	if rows["server_leaf"] != p.Links.ServerLeaf || rows["leaf_spine"] != p.Links.LeafSpine || rows["spine_core"] != p.Links.SpineCore {
		t.Errorf("rows %v, want the plan's links %+v", rows, p.Links)
	}
	files := IBNLFiles(p)
	for _, name := range []string{"QM9700.ibnl", "QM9700_UP.ibnl", "QM9700_CORE.ibnl"} {
		if files[name] == nil {
			t.Errorf("IBNL files %v: want %s", SortedKeys(files), name)
		}
	}
}

// TestTierSwitchErrors: a spine or core switch that cannot serve its tier
// is refused naming its field and a fix. Mutations caught: an unknown key
// or another fabric's switch accepted, a switch without ports at the
// tier's speed accepted (the spines' at the uplink speed), a spine whose
// lanes the leaves do not run accepted.
func TestTierSwitchErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(s *Scenario)
		field string
	}{
		{"unknown spine", func(s *Scenario) { s.Network.SpineSwitch = "qm9999" }, "network.spine_switch"},
		{"unknown core", func(s *Scenario) { s.Network.Tiers, s.Network.CoreSwitch = 3, "nope" }, "network.core_switch"},
		{"Ethernet spine on InfiniBand", func(s *Scenario) { s.Network.SpineSwitch = "tomahawk5" }, "network.spine_switch"},
		{"no 800G spine ports", func(s *Scenario) {
			s.Network.Switch, s.Network.UplinkGbps, s.Network.SpineSwitch = "q3400", 800, "qm9700"
			s.Cluster.GPUs = 2048
		}, "network.spine_switch"},
		{"lanes not shared", func(s *Scenario) {
			// QM8700 runs 50G lanes; QM9700 100G: no 200G link joins them.
			s.Network.NICGbps, s.Network.SpineSwitch = 200, "qm8700"
		}, "network.spine_switch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := testCatalog(t)
			s := ibScenario(1024)
			tc.edit(&s)
			_, err := Build(s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Fix == "" {
				t.Fatalf("error %v: want one naming %s with a fix", err, tc.field)
			}
		})
	}
}

// TestMetaRoCEChassisSpines: Meta's 24K RoCE cluster with its chassis
// CTSWs (data/scenarios/meta-roce-24k.toml; Gangidi et al., SIGCOMM
// 2024). Hand counts: 24,576 GPUs / 16 a ToR = 1,536 RTSWs; / 3,072 = 8
// zones of 192 RTSWs x 16 uplinks = 3,072 links. A 288-port 7808R3 with
// d down ports takes ceil(d/7) up at 7:1: 12 spines a zone give 256 +
// 37 = 293 ports (too many), 13 give at most 237 + 34 = 271: 13 a zone,
// 104 in all, each with 34 uplinks: 8 x 13 x 34 = 3,536 spine-core
// links on ceil(3,536/288) = 13 cores of 272. Cards: ceil(271/36) = 8 a
// spine, ceil(272/36) = 8 a core: 832 and 104. Mutations caught: spines
// sized at the leaf's radix (Tomahawk 6: 256 ports, 14 a zone), chassis
// cards not counted per tier, the cores not taking the spines' model.
func TestMetaRoCEChassisSpines(t *testing.T) {
	cat := testCatalog(t)
	src, err := data.FS.ReadFile("scenarios/meta-roce-24k.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScenarioFromData(src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	cards := map[string]int{}
	for _, l := range p.BOM {
		if strings.HasSuffix(l.Key, "/card") {
			cards[l.Where] += l.Qty
		}
	}
	got := []int{p.Switches(TierLeaf), p.Pods, p.Switches(TierSpine), p.Switches(TierCore), p.Links.LeafSpine, p.Links.SpineCore, cards[TierSpine], cards[TierCore]}
	want := []int{1536, 8, 104, 13, 24576, 3536, 832, 104}
	names := []string{"RTSWs", "zones", "CTSWs", "ATSWs", "leaf-spine", "spine-core", "spine cards", "core cards"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: got %d, want %d", names[i], got[i], want[i])
		}
	}
	if p.SwitchOf(TierSpine).Key != "arista-7808r3" || p.SwitchOf(TierCore).Key != "arista-7808r3" {
		t.Errorf("spines %s, cores %s: want the 7808R3 chassis", p.SwitchOf(TierSpine).Key, p.SwitchOf(TierCore).Key)
	}
}
