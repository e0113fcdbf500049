package explore

import (
	"fmt"
	"strings"
	"testing"

	"fabricplan/planner"
)

// styleRow is the comparison's row of a style (fails the test when absent).
func styleRow(t *testing.T, c *StyleComparison, style string) StyleRow {
	t.Helper()
	for _, r := range c.Rows {
		if r.Style == style {
			return r
		}
	}
	t.Fatalf("no %s row in %v", style, c.Rows)
	return StyleRow{}
}

// The scenario's own row is the scenario planned as given: the same
// cost, power, switches, links and job time as Build, at sizes off the
// grid, on both fabrics and in every style a scenario can be written in.
// Mutations caught: the own row rebuilt with the style's defaults (a
// 2-plane SuperPOD compared as one plane, a ToR size of 2 replaced by the
// radix's), the own row flagged on the wrong style, a lean build that
// drops the job estimate; with Build's plan given (CompareStylesWith),
// that plan ignored or put in every style's row.
func TestStyleCompareOwnRowIsTheBuild(t *testing.T) {
	cat := testCatalog(t)
	eth := func(gpus int) planner.Scenario {
		s := planner.NewScenario()
		s.Cluster.GPUs, s.Network.Fabric = gpus, planner.Ethernet
		return s
	}
	cases := []struct {
		name  string
		s     planner.Scenario
		style string
	}{
		{"IB 1000 rail-optimized", ibScenario(1000), planner.TopoRailOptimized},
		{"IB 3000 two planes", func() planner.Scenario { s := ibScenario(3000); s.Network.Planes = 2; return s }(), StyleMultiPlane},
		{"IB 520 ToR of 2", func() planner.Scenario {
			s := ibScenario(520)
			s.Network.RailOptimized, s.Network.ServersPerToR = false, 2
			return s
		}(), planner.TopoToR},
		{"IB 512 rail-only", func() planner.Scenario { s := ibScenario(512); s.Network.Topology = planner.TopoRailOnly; return s }(), planner.TopoRailOnly},
		{"Ethernet 2400 dual-plane", func() planner.Scenario { s := eth(2400); s.Network.Topology = planner.TopoDualPlane; return s }(), planner.TopoDualPlane},
		{"Ethernet 6000 spines 3:1", func() planner.Scenario {
			s := eth(6000)
			s.Network.Tiers, s.Network.SpineOversubscription = 3, "3:1"
			return s
		}(), planner.TopoRailOptimized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := planner.Build(tc.s, cat)
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			c := CompareStyles(tc.s, cat)
			own := c.Own()
			if own == nil || own.Style != tc.style {
				t.Fatalf("own row %+v, want the %s row", own, tc.style)
			}
			got := own.Plan
			if got == nil {
				t.Fatalf("own row does not build: %v", own.Err)
			}
			if got.Cost.Total != want.Cost.Total || got.Power.Total != want.Power.Total ||
				got.TotalSwitches() != want.TotalSwitches() || got.Links != want.Links || got.Tiers != want.Tiers {
				t.Errorf("own row: $%.0f %.0f W %d switches %+v %d tiers; Build: $%.0f %.0f W %d switches %+v %d tiers",
					got.Cost.Total, got.Power.Total, got.TotalSwitches(), got.Links, got.Tiers,
					want.Cost.Total, want.Power.Total, want.TotalSwitches(), want.Links, want.Tiers)
			}
			if want.JCT != nil && (got.JCT == nil || got.JCT.Planned.Days != want.JCT.Planned.Days) {
				t.Errorf("own row's job time differs from Build's %.3f days", want.JCT.Planned.Days)
			}
			if n := len(c.Rows); n != len(StyleOrder) {
				t.Errorf("%d rows, want one per style (%d)", n, len(StyleOrder))
			}
			// Given Build's plan, the own row is that plan and the
			// others are the rows built here.
			cw := CompareStylesWith(tc.s, cat, want)
			for i, r := range cw.Rows {
				b := c.Rows[i]
				switch {
				case r.Own && r.Plan != want:
					t.Errorf("CompareStylesWith: own row %s is not the plan given", r.Style)
				case !r.Own && (r.Plan == nil) != (b.Plan == nil):
					t.Errorf("CompareStylesWith: %s builds %v, CompareStyles %v", r.Style, r.Plan != nil, b.Plan != nil)
				case !r.Own && r.Plan != nil && (r.Plan.Cost.Total != b.Plan.Cost.Total || r.Plan.Links != b.Plan.Links):
					t.Errorf("CompareStylesWith: %s row $%.0f %+v, CompareStyles $%.0f %+v", r.Style, r.Plan.Cost.Total, r.Plan.Links, b.Plan.Cost.Total, b.Plan.Links)
				}
			}
		})
	}
}

// Every row is the same cluster: the GPUs, fabric, NIC speed and
// workload stay; only the style's settings move. Mutations caught: a
// variant that starts from NewScenario (default GPUs or fabric), one that
// resets the NIC speed with the NIC.
func TestStyleCompareKeepsTheCluster(t *testing.T) {
	cat := testCatalog(t)
	s := planner.NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.NICGbps = 2304, planner.Ethernet, 800
	for _, r := range CompareStyles(s, cat).Rows {
		n := r.Scenario.Network
		if r.Scenario.Cluster.GPUs != 2304 || n.Fabric != planner.Ethernet || n.NICGbps != 800 {
			t.Errorf("%s: %d GPUs %s %dG, want 2304 Ethernet 800G", r.Style, r.Scenario.Cluster.GPUs, n.Fabric, n.NICGbps)
		}
		if r.Plan != nil && r.Plan.GPUs != 2304 {
			t.Errorf("%s plans %d GPUs", r.Style, r.Plan.GPUs)
		}
		if got := StyleOf(r.Scenario); got != r.Style {
			t.Errorf("%s row built as %s", r.Style, got)
		}
	}
}

// Each style's published shape, worked by hand on QM9700 at 400G (64
// ports, 32 down at 1:1) with 8-GPU servers of eight 400G NICs:
//   - 512 GPUs = 64 servers = 512 ports. Rail-optimized: 16 leaves of 32
//     down, their 512 uplinks on 8 spines: 24 switches, 2 tiers.
//     Rail-only: 8 rails of 64 ports; a rail's one switch has nothing
//     above it, so all 64 ports face servers: 8 switches, 1 tier (the
//     issue's own count). ToR: 32 down / 8 ports = 4 servers per ToR.
//     Multi-plane: 2 planes of 4 rails, the same 512 links to the
//     servers.
//   - Dual-plane: the 2 x 200G ConnectX-7, 1,024 ports at 200G, where
//     QM9700 splits to 128 ports (64 down): per plane 512 ports on 8
//     leaves and 4 spines, 24 switches over 2 planes.
//   - On a DGX H100 (its eight one-port ConnectX-7 fixed) dual-plane does
//     not build: the row carries the reason instead of failing the
//     comparison.
//
// Mutations caught: rail-only given a spine, ToR sized by the whole
// radix (8 per ToR), multi-plane left on one plane, an unbuildable style
// dropping the comparison or its reason.
func TestStyleCompareHandWorked(t *testing.T) {
	cat := testCatalog(t)
	c := CompareStyles(ibScenario(512), cat)
	ro := styleRow(t, c, planner.TopoRailOptimized)
	if ro.Plan == nil || ro.Plan.TotalSwitches() != 24 || ro.Plan.Tiers != 2 {
		t.Errorf("rail-optimized: %+v, want 24 switches in 2 tiers", ro.Plan)
	}
	only := styleRow(t, c, planner.TopoRailOnly)
	if only.Plan == nil || only.Plan.TotalSwitches() != 8 || only.Plan.Tiers != 1 || only.Plan.Switches(planner.TierSpine) != 0 {
		t.Errorf("rail-only: %+v (%v), want 8 switches, 1 tier, no spine", only.Plan, only.Err)
	}
	tor := styleRow(t, c, planner.TopoToR)
	if tor.Plan == nil || tor.Plan.ServersPerUnit != 4 || tor.Label() != "ToR, 4/ToR" {
		t.Errorf("ToR: %q, want 4 servers per ToR", tor.Label())
	}
	mp := styleRow(t, c, StyleMultiPlane)
	if mp.Plan == nil || mp.Plan.Planes != 2 || mp.Plan.Links.ServerLeaf != 512 {
		t.Errorf("multi-plane: %+v, want 2 planes with 512 server links", mp.Plan)
	}
	if dp := styleRow(t, c, planner.TopoDualPlane).Plan; dp == nil || dp.TotalSwitches() != 24 || dp.Planes != 2 || dp.Links.ServerLeaf != 1024 {
		t.Errorf("dual-plane: %+v, want 24 switches over 2 planes, 1,024 server links", dp)
	}
	dgx := ibScenario(512)
	dgx.Cluster.System = "dgx-h100"
	c = CompareStyles(dgx, cat)
	dp := styleRow(t, c, planner.TopoDualPlane)
	if dp.Plan != nil || dp.Err == nil || !strings.Contains(dp.Err.Error(), "ports_per_nic") {
		t.Errorf("dual-plane on a DGX H100: plan %v err %v, want the NIC's ports as the reason", dp.Plan != nil, dp.Err)
	}
	if got := len(c.Built()); got != 4 {
		t.Errorf("DGX H100: %d styles build, want 4", got)
	}
}

// Properties over sizes and fabrics. Rail-only never has more tiers than
// rail-optimized (a rail is a subset of the ports) nor a spine joining
// rails (its planes are its rails); dual-plane, where it builds, has
// twice the server links of rail-optimized (each NIC's two ports) and
// leaves in two equal planes; multi-plane keeps rail-optimized's server
// links. Mutations caught: rail-only built as rail-optimized, dual-plane
// with one port per NIC, multi-plane doubling ports instead of sharing
// them out.
func TestStyleCompareProperties(t *testing.T) {
	cat := testCatalog(t)
	for _, fabric := range []planner.Fabric{planner.InfiniBand, planner.Ethernet} {
		for _, gpus := range []int{96, 520, 1000, 3000, 12_000, 40_000} {
			t.Run(fmt.Sprintf("%s/%d", fabric, gpus), func(t *testing.T) {
				s := planner.NewScenario()
				s.Cluster.GPUs, s.Network.Fabric = gpus, fabric
				c := CompareStyles(s, cat)
				ro := styleRow(t, c, planner.TopoRailOptimized).Plan
				if ro == nil {
					t.Fatalf("rail-optimized does not build")
				}
				if only := styleRow(t, c, planner.TopoRailOnly).Plan; only != nil {
					if only.Tiers > ro.Tiers {
						t.Errorf("rail-only %d tiers > rail-optimized %d", only.Tiers, ro.Tiers)
					}
					if only.Planes != only.ServerPorts {
						t.Errorf("rail-only: %d networks for %d rails", only.Planes, only.ServerPorts)
					}
				}
				if dp := styleRow(t, c, planner.TopoDualPlane).Plan; dp != nil {
					if dp.Links.ServerLeaf != 2*ro.Links.ServerLeaf {
						t.Errorf("dual-plane %d server links, want 2 x %d", dp.Links.ServerLeaf, ro.Links.ServerLeaf)
					}
					if dp.Planes != 2 || dp.Switches(planner.TierLeaf)%2 != 0 {
						t.Errorf("dual-plane: %d planes, %d leaves; want 2 planes of equal leaves", dp.Planes, dp.Switches(planner.TierLeaf))
					}
				}
				if mp := styleRow(t, c, StyleMultiPlane).Plan; mp != nil && mp.Links.ServerLeaf != ro.Links.ServerLeaf {
					t.Errorf("multi-plane %d server links, want %d", mp.Links.ServerLeaf, ro.Links.ServerLeaf)
				}
			})
		}
	}
}

// BenchmarkStyleCompare times building a cluster in all five styles.
// Target: under 20 ms for 16k GPUs.
func BenchmarkStyleCompare(b *testing.B) {
	cat := testCatalog(b)
	for _, g := range []int{1_024, 16_384, 100_000} {
		b.Run(fmt.Sprintf("gpus=%d", g), func(b *testing.B) {
			s := planner.NewScenario()
			s.Cluster.GPUs, s.Network.Fabric, s.Network.NICGbps = g, planner.Ethernet, 800
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if c := CompareStyles(s, cat); len(c.Built()) == 0 {
					b.Fatal("no style builds")
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// TestMorePlanesNeverSlowAJob: spreading the same NICs over more planes
// (multi-plane), or splitting each NIC over two (dual-plane), never
// makes the job slower, on both fabrics, both routings and sizes off the
// grid. Mutations caught: the job's uplinks counted once per plane
// (more leaves hashed, a bigger maximum), a plane's flows hashed onto
// another plane's uplinks.
func TestMorePlanesNeverSlowAJob(t *testing.T) {
	cat := testCatalog(t)
	w := dpJob()
	w.GlobalBatchTokens = 8192 << 12 // a sequence for each of up to 4,096 ranks
	for _, gpus := range []int{1000, 3000, 6000} {
		for _, f := range []planner.Fabric{planner.InfiniBand, planner.Ethernet} {
			for _, routing := range []string{planner.RouteAdaptive, planner.RouteStatic} {
				t.Run(fmt.Sprintf("%d %s %s", gpus, f, routing), func(t *testing.T) {
					// Flat lengths (flatLengths): more planes take more racks
					// and longer wires, whose delay TestHallWireDelay checks.
					s := flatLengths(planner.NewScenario())
					s.Cluster.GPUs, s.Cluster.System = gpus, "dgx-h100"
					s.Network.Fabric, s.Network.Routing = f, routing
					s.Workload = &w
					step := func(v planner.Scenario) (float64, bool) {
						p, err := planner.Build(v, cat)
						if err != nil || p.JCT == nil {
							return 0, false
						}
						return p.JCT.Planned.StepS, true
					}
					base, ok := step(s)
					if !ok {
						t.Fatal("one plane does not build")
					}
					for _, style := range []string{StyleMultiPlane, planner.TopoDualPlane} {
						got, ok := step(styleVariant(s, style))
						if !ok && style == StyleMultiPlane {
							t.Errorf("%s does not build", style)
						}
						if ok && got > base*(1+1e-9) {
							t.Errorf("%s: step %.5f s, one plane %.5f s", style, got, base)
						}
					}
				})
			}
		}
	}
}
