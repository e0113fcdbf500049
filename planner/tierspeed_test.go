package planner

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCoreSpeedProperties: Quantum-X800 (144 x 800G, 288 x 400G) with
// 800G server ports, 400G leaf-to-spine links and cores at 400G or
// 800G, over off-grid sizes: the spine-core links carry at least the
// leaf-spine bandwidth (non-blocking spines), faster cores never add
// spine-core links and always have the ports for them (core counts may
// differ by the wiring's balance headroom either way), the JSON says core_uplink_gbps only where
// it differs, the BOM's spine_core modules are 800G parts, and every
// tier's built ratio in bandwidth is at most 1:1.
// Mutations caught: TierGbps ignoring the core speed (400G modules on
// 800G links), spines sending one link up per link down at twice the
// speed, cores sized on the 400G radix (288 ports: half the cores), the
// JSON key always or never written.
func TestCoreSpeedProperties(t *testing.T) {
	cat := testCatalog(t)
	for _, gpus := range []int{5000, 12345, 20000, 41472} {
		var links [2]int
		for i, core := range []int{400, 800} {
			s := NewScenario()
			s.Cluster.GPUs = gpus
			n := &s.Network
			n.Fabric, n.NICGbps, n.Switch, n.Tiers, n.UplinkGbps, n.CoreUplinkGbps = InfiniBand, 800, "q3400", 3, 400, core
			p, err := Build(s, cat)
			if err != nil {
				t.Fatalf("%d GPUs, %dG cores: %v", gpus, core, err)
			}
			links[i] = p.Links.SpineCore
			if coreRadix := cat.Switches["q3400"].Radix(core); p.Switches(TierCore)*coreRadix < p.Links.SpineCore {
				t.Errorf("%d GPUs, %dG cores: %d cores of %d ports for %d links", gpus, core, p.Switches(TierCore), coreRadix, p.Links.SpineCore)
			}
			if p.Links.SpineCore*core < p.Links.LeafSpine*400 {
				t.Errorf("%d GPUs, %dG cores: %d spine-core links carry less than %d leaf-spine links at 400G", gpus, core, p.Links.SpineCore, p.Links.LeafSpine)
			}
			for _, o := range p.BuiltOversubscription() {
				if o.Worst > 1+1e-9 {
					t.Errorf("%d GPUs, %dG cores: %s built %.3f:1 (worst), asked 1:1", gpus, core, o.Tier, o.Worst)
				}
			}
			if g := p.TierGbps("spine_core"); g != core {
				t.Errorf("%d GPUs: spine-core at %dG, want %dG", gpus, g, core)
			}
			for _, l := range p.BOM {
				if l.tier == "spine_core" && l.Category == CatTransceiver {
					if mod := cat.Transceivers[l.Key]; mod == nil || mod.LinkGbps != core {
						t.Errorf("%d GPUs: spine_core module %s, want a %dG part", gpus, l.Key, core)
					}
				}
			}
			b, err := json.Marshal(p.Report())
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(b), `"core_uplink_gbps":800`); has != (core == 800) {
				t.Errorf("%d GPUs, %dG cores: JSON has core_uplink_gbps %v", gpus, core, has)
			}
		}
		if links[1] > links[0] {
			t.Errorf("%d GPUs: 800G cores need %d links, more than %d at 400G", gpus, links[1], links[0])
		}
	}
}

// TestCoreSpeedRefused: a core speed the switch does not run, one no
// switch of the fabric runs, and a negative one are refused naming
// network.core_uplink_gbps and the fix; below three tiers an asked core
// speed is a note, not an error. Mutations caught: the validation left
// out (a plan on a zero core radix), the field name lost, the two-tier
// note missing.
func TestCoreSpeedRefused(t *testing.T) {
	checkSpeedRefused(t, "network.core_uplink_gbps", []refusedSpeed{
		{"qm9700 has no 800G", func(n *Network) { n.Switch, n.CoreUplinkGbps = "qm9700", 800 }, "offers 400G, 200G"},
		{"no switch offers it", func(n *Network) { n.Switch, n.CoreUplinkGbps = Auto, 2400 }, "no infiniband switch"},
		{"negative", func(n *Network) { n.CoreUplinkGbps = -400 }, "-400 Gb/s"},
	})
	cat := testCatalog(t)
	s := NewScenario()
	s.Network.Switch, s.Network.CoreUplinkGbps = "qm9700", 200
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers == 3 || !strings.Contains(strings.Join(p.Notes, "\n"), "core_uplink_gbps 200 applies between pod spines and cores") {
		t.Errorf("%d tiers, notes %q: want a two-tier plan with the core speed note", p.Tiers, p.Notes)
	}
}

// TestSlowUplinksHandCount: 1,024 GPUs on QM9700 (64 x 400G, 128 x
// 200G), 400G server ports, 200G uplinks at 1:1, built through the
// planner: 32 leaves of 32 x 400G down and 64 x 200G up, 2,048
// leaf-spine links over 16 spines of 128 x 200G; 1,024 switch-side
// 4 x 200G modules on the leaf-spine links (2,048 x 2 ends / 4 a cage);
// each leaf as configured 96 ports; a note says why the leaf has more
// up ports than down. At 2:1 the leaf keeps 42 down and 42 x 200G up
// (m = 64 / (1 x 3) = 21): 1,024 / 42 = 24.4, so 3 full units of 8 rail
// leaves with 42 servers and one of 2: 32 leaves, 3 x 8 x 42 + 8 x
// ceil(2 x 1 x 2 / 2) = 1,008 + 16 = 1,024 links over 8 spines of 128;
// modules: 24 x ceil(42 / 4) + 8 x 1 at the leaves and 8 x 128 / 4 at
// the spines = 264 + 8 + 256 = 528 (a 42-uplink leaf leaves half a
// cage's module unused).
// Mutations caught: the ratio counted in ports (32 down, 32 up at 200G:
// 2:1 sold as 1:1), the leaf radix as 64 (used ports over installed),
// modules priced at 400G, the report silent.
func TestSlowUplinksHandCount(t *testing.T) {
	cat := testCatalog(t)
	cases := []struct {
		ratio                                string
		leaves, spines, leafSpine, leafRadix int
		wantNote                             bool
		wantMods                             int
		worstLeaf                            float64
	}{
		{"1:1", 32, 16, 2048, 96, true, 1024, 1},
		{"2:1", 32, 8, 1024, 85, true, 528, 2},
	}
	for _, tc := range cases {
		t.Run(tc.ratio, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs = 1024
			n := &s.Network
			n.Switch, n.UplinkGbps, n.Oversubscription = "qm9700", 200, tc.ratio
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(p.Switches(TierLeaf), p.Switches(TierSpine), p.Links.LeafSpine, p.SwitchTiers[0].Radix)
			want := fmt.Sprint(tc.leaves, tc.spines, tc.leafSpine, tc.leafRadix)
			if got != want {
				t.Errorf("leaves, spines, leaf-spine links, leaf radix = %s, want %s", got, want)
			}
			mods := 0
			for _, l := range p.BOM {
				if l.tier == "leaf_spine" && l.Category == CatTransceiver {
					mods += l.Qty
					if m := cat.Transceivers[l.Key]; m == nil || m.LinkGbps != 200 {
						t.Errorf("leaf_spine module %s, want a 200G part", l.Key)
					}
				}
			}
			if mods != tc.wantMods {
				t.Errorf("%d leaf_spine modules, want %d", mods, tc.wantMods)
			}
			if has := strings.Contains(strings.Join(p.Notes, "\n"), "below the 400G server ports"); has != tc.wantNote {
				t.Errorf("slow uplink note %v, want %v", has, tc.wantNote)
			}
			for _, o := range p.BuiltOversubscription() {
				if o.Tier == TierLeaf && o.Worst > tc.worstLeaf+1e-9 {
					t.Errorf("leaf built %.3f:1 worst, asked %s", o.Worst, tc.ratio)
				}
			}
		})
	}
}

// TestSlowUplinkProperties: on QM9700 with 400G server ports over
// off-grid sizes and ratios, 200G uplinks carry at least the servers'
// bandwidth over the ratio, never build a leaf over the asked ratio, and
// take twice (within a unit's rounding) the links of 400G uplinks for
// the same bandwidth. Mutations caught: upFor dividing where it should
// multiply (half the uplinks at 200G), the leaf split treating 200G
// ports as 400G ones (leaves over-subscribed 2x).
func TestSlowUplinkProperties(t *testing.T) {
	cat := testCatalog(t)
	for _, ratio := range []string{"1:1", "2:1", "5:3"} {
		for _, gpus := range []int{24, 200, 1000, 4104} {
			var links [2]int
			for i, up := range []int{400, 200} {
				s := NewScenario()
				s.Cluster.GPUs = gpus
				n := &s.Network
				n.Switch, n.UplinkGbps, n.Oversubscription = "qm9700", up, ratio
				p, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%s %d GPUs %dG up: %v", ratio, gpus, up, err)
				}
				links[i] = p.Links.LeafSpine
				d, u, _ := Ratio(ratio)
				if p.Tiers >= 2 && p.Links.LeafSpine*up*d < p.Links.ServerLeaf*400*u {
					t.Errorf("%s %d GPUs %dG up: %d uplinks carry less than %d x 400G over %s", ratio, gpus, up, p.Links.LeafSpine, p.Links.ServerLeaf, ratio)
				}
				for _, o := range p.BuiltOversubscription() {
					if o.Tier == TierLeaf && o.Worst > float64(d)/float64(u)*(1+1e-9) {
						t.Errorf("%s %d GPUs %dG up: leaf built %.3f:1 (worst)", ratio, gpus, up, o.Worst)
					}
				}
			}
			if links[0] > 0 && (links[1] < 2*links[0]-64 || links[1] > 2*links[0]+64) {
				t.Errorf("%s %d GPUs: %d links at 200G, want about twice %d at 400G", ratio, gpus, links[1], links[0])
			}
		}
	}
}
