package planner

import "testing"

// TestPublishedBeyondNVIDIA enters published back-end designs outside
// NVIDIA's reference architectures, as a user would, and checks the
// switches and links per tier against the counts the sources give or
// state the rule for. docs/published.md lists every design collected, the
// ones that do not enter or do not reproduce, and why.
//
//   - Alibaba HPN, one pod (Qian et al., "Alibaba HPN: A Data Center
//     Network for Large Language Model Training", SIGCOMM 2024; the
//     shipped data/scenarios/alibaba-hpn-pod.toml): 15 segments of 128
//     hosts, 8 NICs of 2 x 200G each, one port to each ToR of a
//     non-stacked pair (two planes), 51.2T ToRs of 128 x 200G down and 60
//     x 400G up. By hand: a segment's 128 x 8 x 2 = 2,048 ports on 128-port
//     ToRs = 16 ToRs (8 rails x 2 planes), 15 segments 240; 240 x 60 =
//     14,400 ToR uplinks; a plane's 120 ToRs reach every aggregation
//     switch of their plane with one link, 60 per plane (the paper's 120
//     down-links of a 128 x 400G aggregation switch, the other 8 kept for
//     the core), 120 in all; 30,720 host links.
//   - Huawei AI Fabric for HPC ("Recommended Networking", Huawei
//     CloudEngine design guide EDOC1100155250, support.huawei.com): 1,024
//     single-homed servers at 100GE on CE8850-64CQ-EI leaves and spines
//     (64 x 100GE), 1:1, two layers. By hand: 32 servers per leaf (32
//     down, 32 up) = 32 leaves; 1,024 uplinks on 64-port spines = 16
//     spines. It needs the 25G-lane 100G parts (ce8850-64cq, e810-100):
//     HDR100's 50G lanes do not join a QSFP28 switch.
//
// Mutations caught: the 64 x 100G switch given a 128-port (12.8T) radix
// (16 leaves and 8 spines), the 100G adapter on 50G lanes (refused: no
// lane rate in common with the switch); both checked.
func TestPublishedBeyondNVIDIA(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		s    func() Scenario
		want string
	}{
		{"Alibaba HPN pod, 15,360 GPUs", func() Scenario { return scenarioFile(t, "alibaba-hpn-pod") },
			"2 tiers, 240/120/0 switches, links 30720/14400/0"},
		{"Huawei AI Fabric, 1,024 servers at 100GE", func() Scenario {
			s := NewScenario()
			s.Cluster.GPUs, s.Cluster.GPUsPerServer = 1024, 1
			n := &s.Network
			n.Fabric, n.NICGbps, n.NIC, n.Switch = Ethernet, 100, "e810-100", "ce8850-64cq"
			return s
		}, "2 tiers, 32/16/0 switches, links 1024/1024/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s()
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got := tierCounts(p); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			checkPlanInvariants(t, p.GPUs, p)
		})
	}
}
