package planner

import (
	"strings"
	"testing"
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
		f      Facility
	}{
		{"dgx-h100 middle 256", "dgx-h100", 256, Facility{RackKW: 40.8, TrayHeightM: 2.0, LeafPlacement: PlaceMiddle}},
		{"dgx-h100 end 1000", "dgx-h100", 1000, Facility{LeafPlacement: PlaceEnd}},
		{"hgx-h100 middle 2056", "hgx-h100", 2056, Facility{}},
		{"gb200-nvl72 720", "gb200-nvl72", 720, Facility{RackKW: 140}},
		{"custom tor 333", "", 333, Facility{LeafPlacement: PlaceToR, RackUnits: 48}},
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
