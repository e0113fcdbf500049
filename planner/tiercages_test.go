package planner

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/fielderr"
	"fabricplan/planner/fabric"
)

// mixedCageScenario is a Tomahawk 5 fabric whose leaves run their down
// ports at downGbps and their uplinks at upGbps: two speeds whose cages
// carry different link counts (200G four a cage, 400G two, 800G one).
func mixedCageScenario(gpus, nicGbps, portsPerNIC, upGbps int) Scenario {
	s := NewScenario()
	s.Cluster.GPUs, s.Cluster.GPUsPerServer = gpus, 8
	n := &s.Network
	n.Fabric, n.Switch, n.NICGbps, n.PortsPerNIC, n.UplinkGbps = Ethernet, "tomahawk5", nicGbps, portsPerNIC, upGbps
	return s
}

// cageOf is the cage number of a switch port name ("P33/2" and "P33" are
// cage 33).
func cageOf(t *testing.T, port string) int {
	t.Helper()
	num, _, _ := strings.Cut(strings.TrimPrefix(port, "P"), "/")
	c, err := strconv.Atoi(num)
	if err != nil {
		t.Fatalf("port %q: no cage number", port)
	}
	return c
}

// TestUplinkPortNamesMixedCages names a leaf's uplinks by their own
// cages where the down ports run at another speed. By hand: 1,000 GPUs on
// 125 servers of 8 x 200G, one Tomahawk 5 leaf per rail: 125 down ports,
// four 200G links a cage, fill cages 1-32 (ceil(125/4)); 125 x 200G at
// 1:1 is 62.5 -> 63 uplinks at 400G, two a cage, from cage 33: P33/1,
// P33/2, P34/1, ..., the 63rd alone in cage 64 (33 + 62/2). At 400G
// down (two a cage, 128 ports: SUs of 64 servers) and 800G up (one a
// cage): 64 down ports fill cages 1-32, 64 x 400 / 800 = 32 uplinks take
// P33, P34, ..., P64, one cage each.
// Catches: uplinks named by the down ports' cages (the leaf's cage at
// the server speed: P33/3 as the third, and a last cage past 48 never
// reached), which also halves the phase tally's uplink modules.
func TestUplinkPortNamesMixedCages(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct {
		name               string
		s                  Scenario
		first, third, last string
		ups                int
	}{
		{"200G down, 400G up", mixedCageScenario(1000, 200, 0, 400), "P33/1", "P34/1", "P64/1", 63},
		{"2x200G NIC ports, 400G up", mixedCageScenario(1000, 400, 2, 400), "P33/1", "P34/1", "P64/1", 63},
		{"400G down, 800G up", mixedCageScenario(1000, 400, 0, 800), "P33", "P35", "P64", 32},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(c.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			var leaf string
			var ports []string
			_ = p.WalkCables(func(r *CableRun) error {
				if r.Tier == "leaf_spine" && (leaf == "" || r.ADevice == leaf) {
					leaf = r.ADevice
					ports = append(ports, r.APort)
				}
				return nil
			})
			if len(ports) != c.ups {
				t.Fatalf("%s has %d uplinks, want %d", leaf, len(ports), c.ups)
			}
			if ports[0] != c.first || ports[2] != c.third || ports[len(ports)-1] != c.last {
				t.Errorf("%s uplinks %s, %s, ..., %s; want %s, %s, ..., %s", leaf, ports[0], ports[2], ports[len(ports)-1], c.first, c.third, c.last)
			}
		})
	}
}

// cageCases are plans whose ends of one link tier carry different link
// counts a cage (mixed speeds per tier, another spine model), with the
// plain one-speed fabric as control.
func cageCases(t *testing.T) map[string]Scenario {
	t.Helper()
	out := map[string]Scenario{
		"qm9700 one speed":          ibScenario(3000),
		"th5 200G/400G":             mixedCageScenario(1000, 200, 0, 400),
		"th5 2x200G/400G 2 planes":  mixedCageScenario(2500, 400, 2, 400),
		"th5 200G/400G/400G 3 tier": mixedCageScenario(5000, 200, 0, 400),
		"th5 400G/800G":             mixedCageScenario(1000, 400, 0, 800),
		"th5 400G/800G/800G 3 tier": mixedCageScenario(9000, 400, 0, 800),
	}
	s := out["th5 200G/400G/400G 3 tier"]
	s.Network.Tiers, s.Network.PodGPUs = 3, 2048
	out["th5 200G/400G/400G 3 tier"] = s
	s = out["th5 400G/800G/800G 3 tier"]
	s.Network.Tiers = 3
	out["th5 400G/800G/800G 3 tier"] = s
	src, err := data.FS.ReadFile("scenarios/meta-roce-24k.toml")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := ScenarioFromData(src)
	if err != nil {
		t.Fatal(err)
	}
	meta.Cluster.GPUs = 7000 // three pods of chassis spines, quicker than 24k
	out["meta chassis spines 7000"] = meta
	// OSFP leaves on 100G lanes under the QSFP-DD chassis: the ends share
	// no lane rate, so each takes its own module.
	meta.Network.Switch = "tomahawk6-100g"
	out["meta chassis spines 7000, tomahawk 6 leaves"] = meta
	return out
}

// TestCagesAgree holds, over cageCases, the switch-side cages the cable
// map's port names open at each end of each tier to the BOM's count, and
// keeps every name within its model's cages (planner/phases holds its
// final phase's tally of modules to the same names: TestTallyCages).
// Where one SU is the whole cluster, the unit bill's leaf uplink modules
// are the BOM's too.
// Catches: a tier's ports named or counted by the leaf's cage at the
// server speed instead of their own end's model and speed (the old
// numbering named 4 uplinks to a 2-link cage and tallied half the
// uplink modules; the unit bill counted them so too).
func TestCagesAgree(t *testing.T) {
	cat := testCatalog(t)
	for name, s := range cageCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := Build(flatLengths(s), cat)
			if err != nil {
				t.Fatal(err)
			}
			type end struct {
				tier, side int
				dev        string
				cage       int
			}
			seen := map[end]bool{}
			var named [linkTierCount][2]int
			tierIx := map[string]int{"server_leaf": 0, "leaf_spine": 1, "spine_core": 2}
			_ = p.WalkCables(func(r *CableRun) error {
				ti := tierIx[r.Tier]
				for side, dp := range [2][3]string{{r.ADevice, r.APort, r.AModel}, {r.BDevice, r.BPort, r.BModel}} {
					if dp[2] == "" {
						continue // a server end
					}
					sw := cat.Switches[dp[2]]
					top := sw.Speeds()[0]
					c := cageOf(t, dp[1])
					if cages := sw.Radix(top) / sw.LinksPerCage(top); c > cages {
						t.Fatalf("%s %s: cage %d of a %d-cage %s", dp[0], dp[1], c, cages, sw.Key)
					}
					if e := (end{ti, side, dp[0], c}); !seen[e] {
						seen[e] = true
						named[ti][side]++
					}
				}
				return nil
			})
			var pl fabric.Plane
			loads := [][]fabric.Load{nil, nil, nil}
			copy(loads, p.tierLoads)
			pl.LeafLoads, pl.SpineLoads, pl.CoreLoads = loads[0], loads[1], loads[2]
			want := p.switchEndModules(pl, p.Planes)
			for ti := range linkTierCount {
				for side := range 2 {
					if ti == 0 && side == 0 {
						continue // the server end: no switch cage
					}
					if named[ti][side] != want[ti][side] {
						t.Errorf("%s %s end: cable map opens %d cages, BOM count %d",
							linkTierNames[ti], [2]string{"lower", "upper"}[side], named[ti][side], want[ti][side])
					}
				}
			}
			if b := p.UnitBill(); b.Units == 1 && p.linkTier("leaf_spine").Medium == Optics {
				// One SU is the whole cluster: its leaf uplink modules are the BOM's.
				up := 0.0
				for _, r := range b.Rows {
					if r.Group == BillTransceivers && strings.Contains(r.Item, "leaf end (up)") {
						up += r.Unit
					}
				}
				if int(up) != want[1][0] {
					t.Errorf("unit bill: %v leaf uplink modules in the one SU, BOM %d", up, want[1][0])
				}
			}
		})
	}
}

// TestEightHundredGOnHundredGLanes: every 100G-lane switch with 800G
// ports (Tomahawk 5, SN5600, Tomahawk 6 in its 100G-SerDes option)
// builds 800G uplinks over 400G server ports, laid out in the hall, at
// sizes off the grid, with an 800G module of 100G lanes (DR8 or SR8, one
// link a cage) at both ends of the leaf-spine tier wherever it is
// optical.
// Mutation caught: the catalog without 800G modules on 100G lanes, where
// uplink_gbps = 800 failed with a misleading 3 m reach.
func TestEightHundredGOnHundredGLanes(t *testing.T) {
	cat := testCatalog(t)
	for _, sw := range []string{"tomahawk5", "sn5600", "tomahawk6-100g"} {
		for _, gpus := range []int{1000, 4100} {
			s := mixedCageScenario(gpus, 400, 0, 800)
			s.Network.Switch = sw
			p, err := Build(s, cat)
			if err != nil {
				t.Fatalf("%s %d GPUs: %v", sw, gpus, err)
			}
			mods := 0
			for _, l := range p.BOM {
				if l.tier == "leaf_spine" && l.Category == CatTransceiver {
					m := cat.Transceivers[l.Key]
					if m.LinkGbps != 800 || m.Links != 1 || m.LaneGbps[0] != 100 {
						t.Errorf("%s %d GPUs: leaf-spine module %s (%dG x %d, %v lanes)", sw, gpus, l.Key, m.LinkGbps, m.Links, m.LaneGbps)
					}
					mods += l.Qty
				}
			}
			if mods == 0 {
				t.Errorf("%s %d GPUs: no leaf-spine modules (media %+v)", sw, gpus, p.LinkTiers[1])
			}
		}
	}
}

// TestNoModuleAtSpeedSaysSo: where the catalog has no transceiver at a
// tier's speed for a switch (here the 800G modules on 100G lanes taken
// out), a hall run past the cables' reach is refused on the speed, named
// with the switch and the missing module, not on the hall's length.
// Mutation caught: the hall's "shorten the hall ... the longest reach
// here is 3 m" for a speed no module carries, which no hall edit fixes.
func TestNoModuleAtSpeedSaysSo(t *testing.T) {
	cat := testCatalog(t)
	k := moduleKey{"osfp", 800, 1}
	var kept []*Transceiver
	for _, m := range cat.modules[k] {
		if m.LaneGbps[0] != 100 {
			kept = append(kept, m)
		}
	}
	cat.modules[k] = kept
	for _, gpus := range []int{1000, 3001} {
		_, err := Build(mixedCageScenario(gpus, 400, 0, 800), cat)
		var fe *fielderr.FieldError
		if !errors.As(err, &fe) || fe.Field != "network.uplink_gbps" ||
			!strings.Contains(err.Error(), "no osfp transceiver in the catalog carries 800G on tomahawk5 (leaf_spine)") {
			t.Errorf("%d GPUs: error %v, want network.uplink_gbps naming the missing 800G module", gpus, err)
		}
	}
}

// TestServerEndWithoutModuleSaysSo: an 800G ConnectX-8 split 2 x 400G on
// Quantum-X800 has a switch-end module (1.6T split 4 x 400G) but no
// server-end one in the catalog (its twin-port 400G modules run 100G
// lanes). The plan is refused on the split, naming the NIC and what is
// missing, laid out in a hall and at flat lengths, on and off the grid.
// Mutation caught: the refusal on the run's length ("no medium reaches
// 20 m ... reach 500 m at most", "shorten the hall ... 5 m"), which no
// length or hall edit fixes.
func TestServerEndWithoutModuleSaysSo(t *testing.T) {
	cat := testCatalog(t)
	for _, gpus := range []int{1000, 1024} {
		for _, flat := range []bool{false, true} {
			s := NewScenario()
			s.Cluster.GPUs = gpus
			s.Network.Fabric, s.Network.NICGbps, s.Network.Switch, s.Network.PortsPerNIC = InfiniBand, 800, "q3400", 2
			if flat {
				s = flatLengths(s)
			}
			_, err := Build(s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) || fe.Field != "network.ports_per_nic" ||
				!strings.Contains(err.Error(), "no osfp transceiver carries 2 x 400G for cx8-800") {
				t.Errorf("%d GPUs (flat %v): error %v, want network.ports_per_nic naming the missing 2 x 400G module", gpus, flat, err)
			}
		}
	}
}
