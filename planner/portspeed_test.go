package planner

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// TestUplinkSpeedProperties: on Tomahawk 5 (256 x 200G, 128 x 400G, 64 x
// 800G) with 200G server ports (HPN's dual-plane 2 x 200G NICs), over
// off-grid sizes and ratios: raising the uplink speed never adds
// uplinks; the leaf's built ratio in bandwidth never exceeds the asked
// one; and the switch-to-switch links carry at least the servers'
// bandwidth over the ratio. Mutations caught: fabric.Spec.UpFor not dividing by the
// speed factor (twice the uplinks at 400G), the ratio reported in
// links (2:1 shown for a 1:1 leaf with 400G uplinks), spines sized at
// the server-speed radix.
func TestUplinkSpeedProperties(t *testing.T) {
	cat := testCatalog(t)
	for _, ratio := range []string{"1:1", "2:1", "3:1", "16:15"} {
		for _, gpus := range []int{16, 200, 1000, 4104, 9000, 15360} {
			prevLinks := 0
			for i, up := range []int{200, 400} { // 800G on 100G lanes: no module in the catalog yet
				s := NewScenario()
				s.Cluster.GPUs = gpus
				n := &s.Network
				n.Fabric, n.Switch, n.Topology, n.Oversubscription, n.UplinkGbps = Ethernet, "tomahawk5", TopoDualPlane, ratio, up
				p, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%s %d GPUs %dG up: %v", ratio, gpus, up, err)
				}
				if i > 0 && p.Links.LeafSpine > prevLinks {
					t.Errorf("%s %d GPUs: %dG uplinks need %d leaf-spine links, more than %d at the slower speed", ratio, gpus, up, p.Links.LeafSpine, prevLinks)
				}
				prevLinks = p.Links.LeafSpine
				d, u, _ := Ratio(ratio)
				for _, o := range p.BuiltOversubscription() {
					if o.Tier == TierLeaf && o.Worst > float64(d)/float64(u)*(1+1e-9) {
						t.Errorf("%s %d GPUs %dG up: leaf built %.3f:1 (worst), more than asked", ratio, gpus, up, o.Worst)
					}
				}
				if p.Tiers >= 2 && p.Links.LeafSpine*up*d < p.Links.ServerLeaf*p.PortGbps*u {
					t.Errorf("%s %d GPUs %dG up: %d x %dG uplinks carry less than %d x %dG at %s", ratio, gpus, up, p.Links.LeafSpine, up, p.Links.ServerLeaf, p.PortGbps, ratio)
				}
			}
		}
	}
}

// TestUplinkSpeedRefused: a speed the switch does not offer (faster, or
// one it does not run at all) and a speed no switch of the fabric offers
// are refused naming network.uplink_gbps and what is offered; slower
// uplinks the switch runs are allowed (TestSlowUplinksHandCount). Mutations caught: validation left out (the plan builds on a
// zero radix), the offered list missing from the message.
func TestUplinkSpeedRefused(t *testing.T) {
	checkSpeedRefused(t, "network.uplink_gbps", []refusedSpeed{
		{"qm9700 has no 800G", func(n *Network) { n.Switch, n.UplinkGbps = "qm9700", 800 }, "offers 400G, 200G"},
		{"not a speed it runs", func(n *Network) { n.Switch, n.UplinkGbps = "qm9700", 300 }, "offers 400G, 200G"},
		{"no switch offers it", func(n *Network) { n.Switch, n.UplinkGbps = Auto, 2400 }, "no infiniband switch"},
		{"negative", func(n *Network) { n.UplinkGbps = -1 }, "-1 Gb/s"},
	})
}

// refusedSpeed is a link speed edit that validation refuses, with a
// text its error must hold.
type refusedSpeed struct {
	name     string
	set      func(n *Network)
	wantText string
}

// checkSpeedRefused validates a default scenario after each edit: the
// error must name field and hold the case's text.
func checkSpeedRefused(t *testing.T, field string, cases []refusedSpeed) {
	t.Helper()
	cat := testCatalog(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			tc.set(&s.Network)
			err := s.Validate(cat)
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); !strings.Contains(msg, field) || !strings.Contains(msg, tc.wantText) {
				t.Errorf("error %q: want %s and %q", msg, field, tc.wantText)
			}
		})
	}
}

// TestCheckSplits: the loader accepts a switch whose speeds are splits
// of one capacity in the same cages and refuses one that is not.
// Mutations caught: a port count that adds capacity (64 x 800G and 160 x
// 400G), cage_links that leave cages over or short.
func TestCheckSplits(t *testing.T) {
	cases := []struct {
		name  string
		ports map[string]int
		cages map[string]int
		ok    bool
	}{
		{"Tomahawk 5 (Broadcom: 64 x 800G, 128 x 400G, 256 x 200G)", map[string]int{"800": 64, "400": 128, "200": 256}, map[string]int{"800": 1, "400": 2, "200": 4}, true},
		{"Q3400 (144 x 800G in 72 twin cages, 288 x 400G)", map[string]int{"800": 144, "400": 288}, map[string]int{"800": 2, "400": 4}, true},
		{"capacity grows", map[string]int{"800": 64, "400": 160}, map[string]int{"800": 1, "400": 2}, false},
		{"cages differ", map[string]int{"800": 144, "400": 288}, map[string]int{"800": 2, "400": 2}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sw := &Switch{Ports: tc.ports, CageLinks: tc.cages}
			if err := sw.checkSplits(); (err == nil) != tc.ok {
				t.Errorf("checkSplits = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestQ3400MixedSpeedBuild builds 1,024 GPUs of ConnectX-8 in 2 x 400G
// mode (128 servers, 16 rails) on Q3400, with 400G and with 800G
// uplinks, counted by hand. A leaf at 1:1: 144 x 400G down and, with
// 800G uplinks, 72 x 800G up (288 / (2 x 2) = 72), else 144 x 400G.
// 128 servers fill one partial unit: 16 leaves of 128 down. 800G: 64
// uplinks each, 1,024 links over 144-port spines, ceil(1,024 / 144) = 8
// spines (64 / 8 = 8 links to each); switch-side modules, twin-port
// 800G: 16 x 64 / 2 + 8 x 128 / 2 = 1,024. 400G: 128 uplinks each,
// 2,048 links over 288-port spines, 8 spines; four 400G links a cage:
// 16 x 128 / 4 + 8 x 256 / 4 = 1,024. Copper (3 m ACC) at the servers.
// Mutations caught: uplinks by port count (2,048 at 800G), spine
// modules counted at four links a cage on 800G (512), the leaf-spine
// tier priced with 400G parts.
func TestQ3400MixedSpeedBuild(t *testing.T) {
	cat := testCatalog(t)
	cases := []struct {
		uplink                          int
		leaves, spines, leafSpine, mods int
		module                          string
	}{
		{800, 16, 8, 1024, 1024, "osfp-800x2"},
		{400, 16, 8, 2048, 1024, "osfp-400x4"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%dG up", tc.uplink), func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs = 1024
			n := &s.Network
			n.NICGbps, n.PortsPerNIC, n.Switch, n.UplinkGbps = 800, 2, "q3400", tc.uplink
			n.Media.ServerLeaf, n.Media.ServerLeafM = ACC, 3
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(p.Switches(TierLeaf), p.Switches(TierSpine), p.Links.LeafSpine, p.SwitchTransceivers, p.LinkTiers[1].UpperModule)
			want := fmt.Sprint(tc.leaves, tc.spines, tc.leafSpine, tc.mods, tc.module)
			if got != want {
				t.Errorf("leaves, spines, leaf-spine links, switch modules, module = %s, want %s", got, want)
			}
			if g := p.TierGbps("leaf_spine"); g != tc.uplink {
				t.Errorf("leaf-spine links at %dG, want %dG", g, tc.uplink)
			}
		})
	}
}

// TestUplinkSpeedReported: a plan with faster uplinks says each tier's
// speeds in its JSON (uplink_gbps, per-tier down_gbps and up_gbps) and
// text, and a plan without leaves those keys out, so default plans read
// as before. A laid-out hall measures every link at its tier's speed:
// each server link's modules are 200G parts, each switch-to-switch
// link's 400G parts, and each cable reaches at its link's speed. Hand
// count, 7,680 GPUs in two planes: 960 hosts, 7 full segments of 128 and
// one of 64, 8 ToRs each per plane (128 ToRs); a ToR as configured has
// 128 x 200G + 60 x 400G = 188 ports in use of 196 (256 lanes' worth
// less 60 taken by the double-width uplinks); up 16 x (7 x 60 + 30) =
// 7,200 (the half segment's ToRs need ceil(64 x 15 / 32) = 30); idle
// 128 x 196 - 15,360 - 7,200 = 2,528; 30 aggregation switches a plane
// of 128 x 400G take 120 links each: 60 x 8 = 480 idle.
// Mutations caught: the speeds always written (every default JSON
// changes), the leaf's up speed reported as the server speed, a hall
// priced with 200G parts on 400G links.
func TestUplinkSpeedReported(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		uplink   int
		facility bool
		want     []string
		wantNot  []string
	}{
		{400, false, []string{`"uplink_gbps":400`, `{"tier":"leaf","down":15360,"up":7200,"idle":2528,"down_gbps":200,"up_gbps":400}`, `{"tier":"spine","down":7200,"up":0,"idle":480,"down_gbps":400}`}, nil},
		{0, false, nil, []string{"uplink_gbps", "down_gbps"}},
		{400, true, []string{`"uplink_gbps":400`}, []string{"no hall layout"}},
	} {
		s := NewScenario()
		s.Cluster.GPUs = 7680
		n := &s.Network
		n.Fabric, n.Switch, n.Topology, n.Oversubscription, n.UplinkGbps = Ethernet, "tomahawk5", TopoDualPlane, "16:15", tc.uplink
		if tc.facility {
			s.Facility = &hall.Facility{}
		}
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("uplink %d: %v", tc.uplink, err)
		}
		b, err := json.Marshal(p.Report())
		if err != nil {
			t.Fatal(err)
		}
		js := string(b)
		for _, w := range tc.want {
			if !strings.Contains(js, w) {
				t.Errorf("uplink %d facility %v: JSON lacks %s", tc.uplink, tc.facility, w)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(js, w) {
				t.Errorf("uplink %d: JSON has %s", tc.uplink, w)
			}
		}
		if tc.facility {
			checkHallSpeeds(t, p, cat)
		}
	}
}

// checkHallSpeeds checks that a laid-out plan's links each take modules
// made for its tier's speed and a medium that reaches its length there.
func checkHallSpeeds(t *testing.T, p *Plan, cat *Catalog) {
	t.Helper()
	if p.Hall == nil {
		t.Fatal("no hall laid out")
	}
	seen := map[string]int{}
	err := p.WalkCables(func(c *CableRun) error {
		want := p.TierGbps(c.Tier)
		if c.Gbps != want {
			return fmt.Errorf("%s link at %dG, want %dG", c.Tier, c.Gbps, want)
		}
		for _, k := range []string{c.AModule, c.BModule} {
			if m := cat.Transceivers[k]; m != nil && m.LinkGbps != want {
				return fmt.Errorf("%s link %s-%s at %dG has module %s for %dG", c.Tier, c.ADevice, c.BDevice, want, k, m.LinkGbps)
			}
		}
		if reach := p.reachOf(*c); float64(reach) < c.Metres {
			return fmt.Errorf("%s link of %g m on %s reaching %d m at %dG", c.Tier, c.Metres, c.Part, reach, want)
		}
		seen[c.Tier]++
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	if seen["leaf_spine"] == 0 || seen["server_leaf"] == 0 {
		t.Errorf("links walked by tier: %v", seen)
	}
}
