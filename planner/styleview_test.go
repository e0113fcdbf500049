package planner

import (
	"fmt"
	"testing"
)

// TestNamedStyleOverridesRailOptimized: a scenario that names its style
// ("topology = top-of-rack" in a file that leaves rail_optimized at its
// default, true) is planned in that style. By hand, 1,024 GPUs of 8 per
// server, 2 servers per ToR: 128 servers, 64 ToRs of 16 down and 16 up,
// 16 spines of 64 ports; rail-optimized it would be 32 leaves. And the
// views the diagram reads: a rail-only plan of 512 GPUs builds 8 rail
// networks (1 elsewhere); 16-GPU servers with 8-GPU NVLink leave a
// rail-only plan's rails joined by no NVLink domain (a gap), DGX H100
// none. Mutations caught: topology ignored where rail_optimized is true
// (the search's top-of-rack variants were built rail-optimized), rail
// networks counted as planes, the gap always or never reported.
func TestNamedStyleOverridesRailOptimized(t *testing.T) {
	cat := testCatalog(t)
	cases := []struct {
		name string
		edit func(s *Scenario)
		want string // leaves, spines, rail networks, gap
	}{
		{"top-of-rack named", func(s *Scenario) { s.Network.Topology, s.Network.ServersPerToR = TopoToR, 2 }, "64 16 1 false"},
		{"rail-optimized named over false", func(s *Scenario) { s.Network.Topology, s.Network.RailOptimized = TopoRailOptimized, false }, "32 16 1 false"},
		{"rail-only 512", func(s *Scenario) {
			s.Cluster.GPUs, s.Cluster.System, s.Network.Topology = 512, "dgx-h100", TopoRailOnly
		}, "8 0 8 false"},
		{"rail-only 16-GPU servers", func(s *Scenario) { s.Cluster.GPUsPerServer, s.Network.Topology = 16, TopoRailOnly }, "16 0 16 true"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs, s.Network.Switch = 1024, "qm9700"
			tc.edit(&s)
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(p.Switches(TierLeaf), p.Switches(TierSpine), p.RailNetworks(), p.RailOnlyGap() != "")
			if got != tc.want {
				t.Errorf("leaves, spines, rail networks, NVLink gap = %s, want %s", got, tc.want)
			}
		})
	}
}
