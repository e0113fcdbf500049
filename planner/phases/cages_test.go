package phases

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// cageCases are plans whose tiers' ends carry different links a cage:
// one speed, 200G or 400G server ports under 400G or 800G uplinks, two
// planes, three tiers and chassis spines (planner's TestCagesAgree's
// cases).
func cageCases(t *testing.T) map[string]planner.Scenario {
	t.Helper()
	mixed := func(gpus, nicGbps, portsPerNIC, upGbps int) planner.Scenario {
		s := planner.NewScenario()
		s.Cluster.GPUs, s.Cluster.GPUsPerServer = gpus, 8
		n := &s.Network
		n.Fabric, n.Switch, n.NICGbps, n.PortsPerNIC, n.UplinkGbps = planner.Ethernet, "tomahawk5", nicGbps, portsPerNIC, upGbps
		return s
	}
	out := map[string]planner.Scenario{
		"qm9700 one speed":         ibScenario(3000),
		"th5 200G/400G":            mixed(1000, 200, 0, 400),
		"th5 2x200G/400G 2 planes": mixed(2500, 400, 2, 400),
		"th5 400G/800G":            mixed(1000, 400, 0, 800),
	}
	s := mixed(5000, 200, 0, 400)
	s.Network.Tiers, s.Network.PodGPUs = 3, 2048
	out["th5 200G/400G/400G 3 tier"] = s
	s = mixed(9000, 400, 0, 800)
	s.Network.Tiers = 3
	out["th5 400G/800G/800G 3 tier"] = s
	src, err := data.FS.ReadFile("scenarios/meta-roce-24k.toml")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := planner.ScenarioFromData(src)
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

// TestTallyCages holds the final phase's tally of switch-side modules
// (one a cage a link opens) to the cages the cable map's port names open
// at each end of each tier; planner's TestCagesAgree holds those names
// to the BOM's count, so building for the final size ends on the BOM's
// modules. Catches the tally counting a tier's cages by the leaf's down
// cage at the server speed instead of each end's own model and speed
// (checked: 200G servers under 400G uplinks then tally half the
// leaf-spine modules).
func TestTallyCages(t *testing.T) {
	cat := testCatalog(t)
	for name, s := range cageCases(t) {
		t.Run(name, func(t *testing.T) {
			s.Facility = &hall.Facility{Layout: hall.LayoutFlat}
			p, err := planner.Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			type end struct {
				tier, side int
				dev        string
				cage       string
			}
			seen := map[end]bool{}
			var named [planner.LinkTierCount][2]int
			tierIx := map[string]int{"server_leaf": 0, "leaf_spine": 1, "spine_core": 2}
			_ = p.WalkCables(func(r *planner.CableRun) error {
				ti := tierIx[r.Tier]
				for side, dp := range [2][3]string{{r.ADevice, r.APort, r.AModel}, {r.BDevice, r.BPort, r.BModel}} {
					if dp[2] == "" {
						continue // a server end
					}
					cage, _, _ := strings.Cut(dp[1], "/") // P33/2 is cage 33
					if e := (end{ti, side, dp[0], cage}); !seen[e] {
						seen[e] = true
						named[ti][side]++
					}
				}
				return nil
			})
			tally := tallyFinal(p, []int{p.Servers})
			for ti := range planner.LinkTierCount {
				for side := range 2 {
					if ti == 0 && side == 0 {
						continue // the server end: no switch cage
					}
					if got := tally.mods[ti][side][0]; got != named[ti][side] {
						t.Errorf("tier %d %s end: phase tally %d modules, cable map opens %d cages",
							ti, [2]string{"lower", "upper"}[side], got, named[ti][side])
					}
				}
			}
		})
	}
}
