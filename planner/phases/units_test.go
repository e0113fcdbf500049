package phases

import (
	"fmt"
	"testing"

	"fabricplan/planner"
)

// TestUnitsArePlanUnits: "N units" is N of the scalable units the plan
// prints (UnitCount, UnitWords), the last one the cluster's remainder
// when it is partial. Hand counts:
//   - GB200 NVL72 SuperPOD, 9,216 GPUs: an SU is 8 NVL72 racks of 18
//     trays of 4 GPUs = 576 GPUs (NVIDIA DGX SuperPOD GB200 RA), so
//     1, 2, 4, 8 SU = 576, 1,152, 2,304, 4,608, then 9,216.
//   - DGX H100 4-SU SuperPOD: 127 DGX of 8 GPUs = 1,016 (the 128th slot
//     is the UFM host's); an SU is 32 DGX = 256 GPUs, so 1, 2, 3, 4 SU =
//     256, 512, 768, 1,016 (the last SU has 31 DGX).
//   - Ethernet top-of-rack, HGX H100, 4 servers a ToR, 1,000 GPUs = 125
//     servers: a unit is one ToR's 4 servers = 32 GPUs, 32 units (31
//     full, the last 1 server): 1, 8, 31, 32 = 32, 256, 992, 1,000.
//   - InfiniBand DGX H100 at an odd 1,000 GPUs (125 DGX): 32-DGX units,
//     4 of them (the last 29 DGX): 1, 3, 4 = 256, 768, 1,000.
//
// Catches units counted in leaf groups (one GB200 rack, 72 GPUs, instead
// of the 8-rack SU: phases of 72, 144, 288, 576) and a partial last unit
// refused (4 SU of the 4-SU SuperPOD read as 1,024 GPUs, past 1,016).
func TestUnitsArePlanUnits(t *testing.T) {
	gb200 := planner.NewScenario()
	gb200.Cluster.System, gb200.Cluster.GPUs = "gb200-nvl72", 9216
	gb200.Network.Switch, gb200.Network.LeafAlignment = "qm9700", planner.AlignRack
	h100SU := ibScenario(1016)
	h100SU.Cluster.System = "dgx-h100"
	tor := planner.NewScenario()
	tor.Cluster.System, tor.Cluster.GPUs = "hgx-h100", 1000
	tor.Network.Fabric, tor.Network.Switch, tor.Network.ServersPerToR = planner.Ethernet, "sn5600", 4
	tor.Network.RailOptimized = false
	odd := ibScenario(1000)
	odd.Cluster.System = "dgx-h100"
	cases := []struct {
		name  string
		s     planner.Scenario
		units []int
		want  []int
	}{
		{"gb200 nvl72 16 su", gb200, []int{1, 2, 4, 8}, []int{576, 1152, 2304, 4608, 9216}},
		{"dgx h100 4-su superpod", h100SU, []int{1, 2, 3, 4}, []int{256, 512, 768, 1016}},
		{"ethernet tor 4 a leaf", tor, []int{1, 8, 31, 32}, []int{32, 256, 992, 1000}},
		{"ib odd size", odd, []int{1, 3, 4}, []int{256, 768, 1000}},
	}
	cat := testCatalog(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.Phases = nil
			for _, u := range tc.units {
				tc.s.Phases = append(tc.s.Phases, planner.Phase{Units: u})
			}
			final, err := planner.Build(tc.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			phases, _, err := resolvePhases(tc.s, final)
			if err != nil {
				t.Fatalf("units %v: %v", tc.units, err)
			}
			got := make([]int, len(phases))
			for i, ph := range phases {
				got[i] = ph.GPUs
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("units %v -> GPUs %v, want %v (the plan: %d units %s)", tc.units, got, tc.want, final.UnitCount(), final.UnitWords())
			}
		})
	}
}
