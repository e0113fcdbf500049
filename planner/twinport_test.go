package planner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// twinPortSystems are the catalog systems whose back-end cages each
// carry more than one NIC's port (nics_per_node over modules_per_node:
// a DGX H100's 8 NICs on 4 twin-port OSFP cages), read from the catalog
// entries, not from the planner.
func twinPortSystems(t *testing.T) []string {
	t.Helper()
	var out []string
	for key, sys := range testCatalog(t).Systems {
		if sys.ModulesPerNode > 0 && sys.NICsPerNode > sys.ModulesPerNode {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		t.Fatal("no catalog system with twin-port cages")
	}
	return out
}

// twinPortCases are plans of every twin-port system at odd sizes (a
// partial unit and rack), on InfiniBand (the default switch) and on
// Ethernet (a 64 x 400G QSFP-DD Spectrum-4, single-port cages at the
// leaf, or a Tomahawk 5 at 800G), walked and counted.
func twinPortCases(t *testing.T) map[string]*Plan {
	t.Helper()
	cat := testCatalog(t)
	out := map[string]*Plan{}
	for _, key := range twinPortSystems(t) {
		for _, gpus := range []int{1000, 3000} {
			for _, fab := range []string{"ib", "eth"} {
				for _, counted := range []bool{false, true} {
					s := NewScenario()
					s.Cluster.System, s.Cluster.GPUs = key, gpus
					s = s.WithSystem(cat)
					if fab == "eth" {
						s.Network.Fabric, s.Network.Switch = Ethernet, "sn5400"
						if s.Network.NICGbps > 400 {
							s.Network.Switch = "tomahawk5"
						}
					}
					s.countedLinks = counted
					name := fmt.Sprintf("%s-%d-%s-counted=%v", key, gpus, fab, counted)
					p, err := Build(s, cat)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					out[name] = p
				}
			}
		}
	}
	return out
}

// The cable map names a twin-port system's ports by cage (P<cage>/<port>),
// so its module ends, counted once a cage (device and cage), equal the
// BOM's modules part by part, at the server end and at the switches'.
// Mutation caught: server ports named by NIC (U1/P1 ... U8/P1), which
// counts a DGX H100's 4 twin-port modules as 8 ends (1,000 map ends
// against the BOM's 500 at 1,000 GPUs).
func TestTwinPortMapModulesMatchBOM(t *testing.T) {
	for name, p := range twinPortCases(t) {
		t.Run(name, func(t *testing.T) {
			ends := map[string]map[string]bool{} // part -> device and cage
			note := func(part, dev, port string) {
				if part == "" {
					return
				}
				cage, _, _ := strings.Cut(port, "/")
				if ends[part] == nil {
					ends[part] = map[string]bool{}
				}
				ends[part][dev+" "+cage] = true
			}
			err := p.WalkCables(func(c *CableRun) error {
				note(c.AModule, c.ADevice, c.APort)
				note(c.BModule, c.BDevice, c.BPort)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			bom := map[string]int{}
			for _, l := range p.BOM {
				if l.Category == CatTransceiver && !l.Spare {
					bom[l.Key] += l.Qty
				}
			}
			for part, n := range bom {
				if got := len(ends[part]); got != n {
					t.Errorf("%s: %d module ends in the cable map, %d in the BOM", part, got, n)
				}
			}
			for part, e := range ends {
				if bom[part] == 0 {
					t.Errorf("%s: %d module ends in the cable map, none in the BOM", part, len(e))
				}
			}
		})
	}
}

// No AOC ends in a twin-port cage, server side or switch side: the
// catalog's AOC entry is unavailable on twin-port cages (an AOC has one
// link an end). Every twin-port system's plan, walked and counted, with
// the server module priced at $20,000 so that an AOC ($2,522) would be
// the cheapest 10 m server link were the server's cages not counted.
// Mutation caught: cageLinks counting the switch's cages only (the
// buyer's 986 AOCs on DGX H100 with SN5400, whose QSFP-DD cages take one
// link each).
func TestNoAOCInTwinPortCages(t *testing.T) {
	cat := testCatalog(t)
	cases := twinPortCases(t)
	for _, key := range twinPortSystems(t) {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs = key, 1000
		s = s.WithSystem(cat)
		s.Network.Fabric, s.Network.Switch = Ethernet, "sn5400"
		if s.Network.NICGbps > 400 {
			s.Network.Switch = "tomahawk5"
		}
		s.Prices = map[string]float64{cat.Systems[key].ServerModule: 20000}
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s, dear server modules: %v", key, err)
		}
		cases[key+"-dear-modules"] = p
	}
	for name, p := range cases {
		err := p.WalkCables(func(c *CableRun) error {
			if c.Medium == AOC {
				return fmt.Errorf("%s: %s %s to %s %s on an AOC", name, c.ADevice, c.APort, c.BDevice, c.BPort)
			}
			return nil
		})
		if err != nil {
			t.Error(err)
		}
		for _, l := range p.BOM {
			if l.Key == string(AOC) {
				t.Errorf("%s: %d AOCs in the BOM (%s)", name, l.Qty, l.Where)
			}
		}
	}
}

// The buyer's case by hand: 1,000 GPUs of DGX H100 on Ethernet with
// SN5400 leaves (64 x 400G QSFP-DD, 50G lanes). A DGX H100 has 8
// ConnectX-7 on 4 twin-port OSFP cages, so no AOC; a server link past the
// copper's 5 m takes a twin-port 2x400G OSFP DR module (FS.com $1,119
// for two links, 100G host lanes: the NIC runs them, 400GBASE-DR4 on the
// fibre), a QSFP-DD DR4 at the leaf (FS.com $749) and a fibre ($100):
// $100 + $749 + $1,119/2 = $1,408.50 a link, against $2,522 for the
// AOC. The links a copper cable (ACC, SGD 683.43 at 0.78 = $533.08)
// takes fill whole cages: both ports of a cage on one medium. Mutation
// caught: the system's module refused for its lane rate (100G against
// the plan's 50G): no medium then reaches 10 m and the plan fails (main
// at 3c905a0, where the AOC was let into the cage: 986 AOCs, 0 server
// modules).
func TestBuyerTwinPortHandPriced(t *testing.T) {
	const (
		fibreUSD   = 100
		leafModUSD = 749
		twinModUSD = 1119
		accUSD     = 683.43 * 0.78
	)
	s := NewScenario()
	s.Cluster.System, s.Cluster.GPUs = "dgx-h100", 1000
	s = s.WithSystem(testCatalog(t))
	s.Network.Fabric, s.Network.Switch = Ethernet, "sn5400"
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	var optical, copper int
	var serverMods, leafMods, spend float64
	for _, l := range p.BOM {
		switch {
		case l.Key == "osfp-400x2":
			serverMods += float64(l.Qty)
			spend += l.TotalUSD
		case l.Key == "qsfpdd-400x1" && l.tier == "server_leaf":
			leafMods += float64(l.Qty)
			spend += l.TotalUSD
		case l.tier == "server_leaf" && l.Key == fiberKey:
			optical += l.Qty
			spend += l.TotalUSD
		case l.tier == "server_leaf" && l.Category == CatCable:
			if l.Key != "acc" && l.Key != "dac" {
				t.Errorf("server link on %s (%d)", l.Key, l.Qty)
			}
			copper += l.Qty
			spend += l.TotalUSD
		}
	}
	// 125 servers of 8 ports; every cage one medium.
	if optical+copper != 1000 || optical%2 != 0 || copper%2 != 0 {
		t.Fatalf("%d optical and %d copper server links, want 1,000 in whole cages", optical, copper)
	}
	if serverMods != float64(optical/2) || leafMods != float64(optical) {
		t.Errorf("%g server and %g leaf modules for %d optical links, want %d and %d", serverMods, leafMods, optical, optical/2, optical)
	}
	want := float64(optical)*(fibreUSD+leafModUSD+twinModUSD/2.0) + float64(copper)*accUSD
	if math.Abs(spend-want) > 0.01*float64(copper)+0.5 {
		t.Errorf("server links cost $%.2f, by hand $%.2f (%d optical at $1,408.50, %d copper at $533.08)", spend, want, optical, copper)
	}
	if p.ServerTransceivers != optical/2 {
		t.Errorf("%d server transceivers, want %d", p.ServerTransceivers, optical/2)
	}
}
