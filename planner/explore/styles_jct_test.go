package explore

import (
	"fmt"
	"math"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// styleJob builds s in style (a ToR of torServers servers where style is
// top-of-rack) with w and returns its plan.
func styleJob(t *testing.T, s planner.Scenario, style string, torServers int, w perf.Workload) *planner.Plan {
	t.Helper()
	s = styleVariant(s, style)
	if style == planner.TopoToR {
		s.Network.ServersPerToR = torServers
	}
	s.Workload = &w
	p, err := planner.Build(s, testCatalog(t))
	if err != nil {
		t.Fatalf("%s: %v", style, err)
	}
	if p.JCT == nil {
		t.Fatalf("%s: no job estimate", style)
	}
	return p
}

// TestToRSendsSameRailTrafficAcrossTheSpine: jobs whose data-parallel
// rings fit under one rail-optimized leaf group (32 servers of eight
// H100 on 64-port QM9700) stay there, at 400G x 0.92 = 46 GB/s; on
// top-of-rack switches of 4 servers the same rings leave every ToR and
// cross the spines, keeping 95% of it (data/jct.toml [crossing], Baidu's
// dynamic load balancing figure): 43.7 GB/s, and the job is slower.
// With static routing the ToR design also hashes its crossing flows and
// loses more still. Sizes off the grid (3 and 5 jobs of 32 servers).
// Mutations caught: crossing the tier free on a balanced fabric (the
// styles' job times equal), the ToR's rings kept under their leaf, the
// crossing loss charged to a ring that stays under its leaf.
func TestToRSendsSameRailTrafficAcrossTheSpine(t *testing.T) {
	for _, jobs := range []int{3, 5} {
		t.Run(fmt.Sprintf("%d jobs", jobs), func(t *testing.T) {
			s := ibScenario(256 * jobs)
			s.Cluster.System = "dgx-h100"
			w := dpJob()
			w.Jobs = jobs
			rail := styleJob(t, s, planner.TopoRailOptimized, 0, w)
			tor := styleJob(t, s, planner.TopoToR, 4, w)
			rdp, tdp := dpClass(t, rail.JCT.Planned), dpClass(t, tor.JCT.Planned)
			if rdp.CrossesTier || math.Abs(rdp.BusBWGBs-46) > 0.3 {
				t.Errorf("rail-optimized: dp crosses %v at %.2f GB/s, want under its leaf at 46", rdp.CrossesTier, rdp.BusBWGBs)
			}
			if !tdp.CrossesTier || math.Abs(tdp.BusBWGBs-46*0.95) > 0.3 {
				t.Errorf("ToR of 4: dp crosses %v at %.2f GB/s, want across the spine at 43.7", tdp.CrossesTier, tdp.BusBWGBs)
			}
			if !(tor.JCT.Planned.StepS > rail.JCT.Planned.StepS) {
				t.Errorf("ToR step %.4f s not above rail-optimized %.4f s", tor.JCT.Planned.StepS, rail.JCT.Planned.StepS)
			}
			s.Network.Routing = planner.RouteStatic
			torStatic := styleJob(t, s, planner.TopoToR, 4, w)
			railStatic := styleJob(t, s, planner.TopoRailOptimized, 0, w)
			if got := dpClass(t, torStatic.JCT.Planned).BusBWGBs; !(got < tdp.BusBWGBs) {
				t.Errorf("ToR, static routing: dp %.2f GB/s, want below adaptive's %.2f", got, tdp.BusBWGBs)
			}
			if got := dpClass(t, railStatic.JCT.Planned).BusBWGBs; math.Abs(got-46) > 0.3 {
				t.Errorf("rail-optimized, static routing: dp %.2f GB/s, want 46 (no hashing under one leaf)", got)
			}
		})
	}
}

// TestDualPlaneStyleBuildsHPNUplinks: the comparison's dual-plane row is
// HPN's build, 2 x 200G per 400G NIC to the ToRs and 400G above them,
// at sizes off the grid. Mutation caught: the variant left at the split
// ports' speed (200G uplinks, twice the links above the leaves).
func TestDualPlaneStyleBuildsHPNUplinks(t *testing.T) {
	cat := testCatalog(t)
	for _, gpus := range []int{1000, 2400} {
		s := planner.NewScenario()
		s.Cluster.GPUs = gpus
		s.Network.Fabric, s.Network.Switch = planner.Ethernet, "tomahawk5"
		row := styleRow(t, CompareStyles(s, cat), planner.TopoDualPlane)
		if row.Plan == nil {
			t.Fatalf("%d GPUs: dual-plane does not build: %v", gpus, row.Err)
		}
		if p := row.Plan; p.PortGbps != 200 || p.UplinkGbps != 400 {
			t.Errorf("%d GPUs: dual-plane ports %dG, uplinks %dG; want HPN's 200G and 400G", gpus, p.PortGbps, p.UplinkGbps)
		}
	}
}
