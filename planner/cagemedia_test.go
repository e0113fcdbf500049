package planner

import (
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// A twin-port cage holds one module or one cable end, so both links of
// it take one medium: every cable map row is grouped by the switch cage
// (and server cage) at each end, and no cage may hold two media. Over
// systems, placements and odd sizes, with prices that make copper win
// near the leaves (so tiers do mix media). Catches: a medium chosen per
// link or per rack pair (a leaf cage with one ACC and one optical link,
// which no part can serve).
func TestTwinPortCageOneMedium(t *testing.T) {
	cases := []struct {
		name   string
		system string
		gpus   int
		f      hall.Facility
	}{
		{"dgx-h100 middle 256", "dgx-h100", 256, hall.Facility{RackKW: 40.8, TrayHeightM: 2.0, LeafPlacement: hall.PlaceMiddle}},
		{"dgx-h100 end 1000", "dgx-h100", 1000, hall.Facility{LeafPlacement: hall.PlaceEnd}},
		{"hgx-h100 middle 2056", "hgx-h100", 2056, hall.Facility{}},
		{"gb200-nvl72 720", "gb200-nvl72", 720, hall.Facility{RackKW: 140}},
		{"custom tor 333", "", 333, hall.Facility{LeafPlacement: hall.PlaceToR, RackUnits: 48}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := hallScenario(tc.gpus, tc.f)
			s.Cluster.System = tc.system
			s.Prices = map[string]float64{"acc": 600, "fiber": 50, "osfp-400x2": 700}
			p := buildHall(t, s)
			type cage struct {
				dev  string
				cage string
			}
			seen := map[cage]Medium{}
			mixed := map[Medium]bool{}
			err := p.WalkCables(func(c *CableRun) error {
				mixed[c.Medium] = true
				for _, e := range []cage{{c.BDevice, cagePart(c.BPort)}, {c.ADevice, cagePart(c.APort)}} {
					if e.cage == "" {
						continue // a port alone in its cage
					}
					if m, ok := seen[e]; ok && m != c.Medium {
						t.Fatalf("cage %s %s holds %s and %s links", e.dev, e.cage, m, c.Medium)
					}
					seen[e] = c.Medium
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(seen) == 0 {
				t.Fatal("no twin-port cage in the plan: the case tests nothing")
			}
			t.Logf("media %v, %d shared cages", mixed, len(seen))
		})
	}
}

// cagePart is the cage of a switch port named "P<cage>/<lane>" (a cage
// of several links), "" for a port alone in its cage. Server ports
// (U<nic>/P<port>) are not grouped: which ports share a server module
// depends on the system.
func cagePart(port string) string {
	if !strings.HasPrefix(port, "P") {
		return ""
	}
	cage, _, ok := strings.Cut(port, "/")
	if !ok {
		return ""
	}
	return cage
}

// Every transceiver cage holds links of one tier only, and no more of
// them than the switch's cage_links at that tier's speed (a server's
// cage: the ports one server module serves), over fabrics whose tiers
// run at different speeds. Catches: a spine's uplinks numbered in
// cages at the core speed from its first port (they land in the
// cages of its down links, which run at the uplink speed, and a
// spine-core link takes the medium chosen for leaf-spine links), a
// spine's first uplink port left at the leaf's.
func TestCagesHoldOneTier(t *testing.T) {
	cat := testCatalog(t)
	cases := map[string]Scenario{}
	s := NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch, s.Network.NICGbps = 24_576, InfiniBand, "q3400", 800
	s.Network.Tiers, s.Network.UplinkGbps, s.Network.CoreUplinkGbps = 3, 800, 400
	cases["q3400 800G up, 400G core"] = s
	s.Network.UplinkGbps, s.Network.CoreUplinkGbps = 400, 800
	cases["q3400 400G up, 800G core"] = s
	s = ibScenario(7000)
	s.Network.Tiers = 3
	cases["qm9700 three tiers"] = s
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Hall == nil {
				t.Fatal("no hall")
			}
			sets := p.media.sets
			type use struct{ tier, links int }
			cages := map[int32]*use{}
			err = p.WalkCables(func(c *CableRun) error {
				ti := tierIndex(c.Tier)
				a, b := sets.ends(ti, c)
				for i, at := range []int32{a, b} {
					u := cages[at]
					if u == nil {
						u = &use{tier: ti}
						cages[at] = u
					}
					if u.tier != ti {
						t.Fatalf("cage %d holds %s and %s links", at, linkTierNames[u.tier], c.Tier)
					}
					u.links++
					limit := sets.port[ti].cageLinks
					if i == 0 && ti == 0 {
						limit = sets.serverPerCage
					}
					if u.links > limit {
						t.Fatalf("cage %d holds %d %s links, over %d", at, u.links, c.Tier, limit)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Once the sets' media are chosen, every cage reads its set's medium
// and the union-find is let go (a byte a cage kept, not six): by hand,
// nine leaf-spine cages: 0-1 joined by a 3 m link and 1-2 by a 30 m one
// (one set, its longest 30 m); 3 alone with a 3 m link; 5-6 and 7-4 by
// 3 m links, then 6-4 by a 30 m one, a link between two cages each
// already in a set and neither its set's root (one set 4-5-6-7, its
// longest 30 m); 8 with none. Cages 0, 1, 5, 7 take the 30 m medium
// although their own links are 3 m; cage 3 the 3 m one; cage 8 none.
// Mutations caught: the medium left at the set's root only
// (cages 0 and 1 without one), a cage given the medium of its own
// longest link, the union-find kept after choosing, a link between two
// non-root cages left out of its set's longest (the 5-6-7-4 set on
// 3 m media that do not reach its 30 m link).
func TestChosenMediaPerCage(t *testing.T) {
	p := buildHall(t, hallScenario(1000, hall.Facility{}))
	short, ok1 := p.media.choose(tierLeafSpine, 3)
	long, ok2 := p.media.choose(tierLeafSpine, 30)
	if !ok1 || !ok2 || short.medium == long.medium {
		t.Fatalf("3 m takes %s, 30 m %s: the case needs two media", short.medium, long.medium)
	}
	s := newCageSets(newCageGrid(0, 0, [3]int{9, 0, 0}, [3]int{1, 0, 0}), p.media.port, 1)
	s.join(tierLeafSpine, 0, 1, 3)
	s.join(tierLeafSpine, 1, 2, 30)
	s.join(tierLeafSpine, 3, 3, 3)
	s.join(tierLeafSpine, 5, 6, 3)
	s.join(tierLeafSpine, 7, 4, 3)
	s.join(tierLeafSpine, 6, 4, 30)
	if err := s.choose(p); err != nil {
		t.Fatal(err)
	}
	l, sh := long.medium, short.medium
	want := []Medium{l, l, l, sh, l, l, l, l, ""}
	for a, w := range want {
		got := Medium("")
		if i := s.mediumIndexOf(int32(a)); i >= 0 {
			got = allMedia[i]
		}
		if got != w {
			t.Errorf("cage %d: %q, want %q", a, got, w)
		}
	}
	if s.up != nil || s.tier != nil {
		t.Error("the union-find is kept after choosing")
	}
}
