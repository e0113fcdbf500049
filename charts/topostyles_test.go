package charts

import (
	"strings"
	"testing"

	"fabricplan/planner"
)

// styleTopologyCases are plans in each design style beyond the
// rail-optimized Clos (and port speeds per tier), for the diagram.
func styleTopologyCases(t *testing.T) map[string]*planner.Plan {
	t.Helper()
	out, add := editedPlans(t)
	add("tor", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Network.Topology, s.Network.ServersPerToR = 1024, planner.TopoToR, 2
	})
	add("tor-3", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Network.Topology, s.Network.ServersPerToR = 1000, planner.TopoToR, 3
	})
	add("dualplane", func(s *planner.Scenario) {
		n := &s.Network
		s.Cluster.GPUs = 2048
		n.Fabric, n.Switch, n.Topology, n.Oversubscription, n.UplinkGbps = planner.Ethernet, "tomahawk5", planner.TopoDualPlane, "16:15", 400
	})
	add("railonly", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Cluster.System, s.Network.Switch, s.Network.Topology = 512, "dgx-h100", "qm9700", planner.TopoRailOnly
	})
	add("railonly-2tier", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Cluster.System, s.Network.Switch, s.Network.Topology = 4096, "dgx-h100", "qm9700", planner.TopoRailOnly
	})
	add("railonly-16gpu", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Cluster.GPUsPerServer, s.Network.Switch, s.Network.Topology = 1024, 16, "qm9700", planner.TopoRailOnly
	})
	add("core-speed", func(s *planner.Scenario) {
		n := &s.Network
		s.Cluster.GPUs = 20000
		n.NICGbps, n.Switch, n.Tiers, n.UplinkGbps, n.CoreUplinkGbps = 800, "q3400", 3, 400, 800
	})
	return out
}

// TestTopologyStyles: the diagram draws what is specific to each style,
// by hand from the plan's inputs. ToR, 1,024 GPUs of 8 per server, 2
// servers per ToR: 64 racks, each its ToR (16 down, 16 up) and servers
// 1 and 2 drawn one by one with 8 links each (16 in all). 1,000 GPUs at
// 3 per ToR: 125 servers, ceil(125 / 3) = 42 racks, 24 down : 24 up. Dual-plane on
// Tomahawk 5: each rail's ToR r and its twin r′ in plane 2, each NIC's
// 2 x 200G ports. Rail-only at 512 GPUs on QM9700: 8 rail switches
// side by side (64 nodes x 1 link each = 64 ports: one switch a rail),
// no spine, 512 server links, the NVLink domain joining the rails; at
// 4,096 GPUs each rail is a two-tier network of its own (512 ports > 64).
// 16-GPU servers with 8-GPU NVLink: the band says there is no path.
// Mixed speeds: leaf-spine links at 400G and spine-core at 800G. A
// rail network past one tier is named as such in its counts ("Per rail
// network", "more SUs in this rail network"), as DeepSeek's multi-plane
// fat tree (arXiv 2505.09343 §5) names one plane of one NIC per GPU.
// Mutations caught: the ToR drawn as a rail leaf group (no rack, one
// node box), the twin ToR left out, rail-only drawn as "plane 1 of 8"
// with one leaf, the NVLink band missing or green on a server without
// reach, link speeds taken from the server ports, the style marks drawn
// on a rail-optimized plan, rail-only's counts headed "Per plane" (a
// plane of the model, not of the fabric: it has one).
func TestTopologyStyles(t *testing.T) {
	plans := styleTopologyCases(t)
	plans["1k"] = topologyCases(t)["1k"]
	styleMarks := []string{"rack 1 of", "r1′", "NVLink", "no spine", "dual-ToR", "rail network"}
	for _, tc := range []struct {
		plan    string
		want    []string
		wantNot []string
	}{
		{"tor", []string{"rack 1 of 64: its ToR and 2 servers", "servers_per_tor = 2", "server 1: 8 GPUs", "server 2: 8 GPUs",
			"16 server links", "(8 from each server)", "1 ToR in the rack, 16 down : 16 up", "more racks in this"}, []string{"SU 1:", "r1′", "NVLink"}},
		{"tor-3", []string{"rack 1 of 42", "server 3: 8 GPUs", "24 down : 24 up", "24 server links"}, []string{"server 4"}},
		{"dualplane", []string{"r1′", "r8′", "dual-ToR: each NIC's 2", "200G ports reach r and r′ in 2 planes; a lost ToR halves a NIC", "1 more plane (the r′ ToRs)",
			"twin ToR r′ in plane 2"}, []string{"rack 1 of", "NVLink"}},
		{"railonly", []string{"8 rail switches, one network per rail", "no spine", "NVLink domain: each node's 8 GPUs join its 8 rails",
			"512 server links", ">r8<", "Every rail's switch drawn"}, []string{"more plane", "Plane 1 of", "spine switches"}},
		{"railonly-2tier", []string{"rail 1's network (of 8)", "7 more rail networks, alike", "NVLink domain", "Rail 1's network of 8 drawn",
			"Per rail network", "more SUs in this rail network", "in the rail network)"}, []string{"no spine", "rack 1 of", "Per plane", "in this plane", "in the plane)"}},
		{"railonly-16gpu", []string{"NVLink does not span the server"}, []string{"NVLink domain: each node"}},
		{"core-speed", []string{"leaf-spine links × 400G", "spine-core links × 800G", "Port speeds: leaf 800G down, 400G up; spine 400G down, 800G up; core 800G"}, nil},
		{"1k", nil, styleMarks},
	} {
		t.Run(tc.plan, func(t *testing.T) {
			fig, err := Topology(Input{Plan: plans[tc.plan]})
			if err != nil {
				t.Fatal(err)
			}
			b, err := fig.Bytes("svg", DefaultSize)
			if err != nil {
				t.Fatal(err)
			}
			svg := strings.ReplaceAll(strings.Join([]string{string(b), fig.Footnote}, "\n"), "&#39;", "'")
			for _, w := range tc.want {
				if !strings.Contains(svg, w) {
					t.Errorf("the drawing lacks %q", w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(svg, w) {
					t.Errorf("the drawing says %q", w)
				}
			}
		})
	}
}

// TestTopologyStyleCounts: in every style the diagram's counts are the
// plan's (the drawing may show several rail networks at once, never
// other numbers). Mutation caught: rail-only totals divided by the rail
// networks twice.
func TestTopologyStyleCounts(t *testing.T) {
	for name, p := range styleTopologyCases(t) {
		fig, err := Topology(Input{Plan: p})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, _ := fig.Series("counts")
		want := map[string]int{"leaf switches": p.Switches(planner.TierLeaf), "spine switches": p.Switches(planner.TierSpine),
			"server-leaf links": p.Links.ServerLeaf, "leaf-spine links": p.Links.LeafSpine}
		for i, l := range s.Labels {
			if w, ok := want[l]; ok && int(s.Values[i]) != w {
				t.Errorf("%s: %s %v, plan %d", name, l, s.Values[i], w)
			}
		}
	}
}
