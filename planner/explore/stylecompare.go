package explore

import (
	"fmt"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// StyleMultiPlane is the style comparison's name for a rail-optimized
// fabric split over parallel planes (each server's ports shared out
// among them): the scenario's planes where it has more than one, else
// two.
const StyleMultiPlane = "multi-plane"

// multiPlanes is the planes a multi-plane variant gets where the
// scenario has one: two, the smallest split (NVIDIA's SuperPOD and
// Alibaba HPN both run two planes).
const multiPlanes = 2

// StyleOrder is the order of the style comparison's rows.
var StyleOrder = []string{planner.TopoRailOptimized, planner.TopoToR, planner.TopoRailOnly, planner.TopoDualPlane, StyleMultiPlane}

// StyleRow is one design style built for a cluster: the scenario with the
// style's settings, its plan, or why it does not build.
type StyleRow struct {
	Style    string           // one of StyleOrder
	Scenario planner.Scenario // the variant built
	// Own says the row is the scenario's own design, built as given.
	Own  bool
	Plan *planner.Plan // nil when the style does not build
	Err  error         // why it does not build (a finding, not a refusal)
	// Findings are what the style's plan leaves the job: traffic between
	// rails without an NVLink path on a rail-only fabric.
	Findings []string
}

// Label names the row's design in a few words: the style with what sets
// its size ("top-of-rack, 16 per ToR", "multi-plane x2").
func (r StyleRow) Label() string {
	switch {
	case r.Style == planner.TopoToR && r.Plan != nil:
		return fmt.Sprintf("ToR, %d/ToR", r.Plan.ServersPerUnit)
	case r.Style == planner.TopoToR:
		return "ToR"
	case r.Style == StyleMultiPlane:
		return fmt.Sprintf("multi-plane x%d", r.Scenario.Network.Planes)
	}
	return r.Style
}

// Days is the row's job time in days with the workload (0 without a plan
// or an estimate).
func (r StyleRow) Days() float64 {
	if r.Plan == nil || r.Plan.JCT == nil {
		return 0
	}
	return r.Plan.JCT.Planned.Days
}

// StyleComparison is one cluster built in every design style with the
// same GPUs, system, fabric, NIC speed and workload.
type StyleComparison struct {
	Rows []StyleRow // in StyleOrder
}

// Own is the scenario's own row (nil when the comparison is empty).
func (c *StyleComparison) Own() *StyleRow {
	for i := range c.Rows {
		if c.Rows[i].Own {
			return &c.Rows[i]
		}
	}
	return nil
}

// Built is the rows that build, in order.
func (c *StyleComparison) Built() []StyleRow {
	var out []StyleRow
	for _, r := range c.Rows {
		if r.Plan != nil {
			out = append(out, r)
		}
	}
	return out
}

// MoneyScale is the one scale the comparison's costs are written in.
func (c *StyleComparison) MoneyScale() textfmt.MoneyScale {
	var usd []float64
	for _, r := range c.Built() {
		usd = append(usd, r.Plan.Cost.Total)
	}
	return textfmt.MoneyScaleFor(usd...)
}

// TimeUnit is the one unit the comparison's job times are written in.
func (c *StyleComparison) TimeUnit() textfmt.DurationUnit {
	var days []float64
	for _, r := range c.Built() {
		days = append(days, r.Days())
	}
	return textfmt.DurationUnitFor(days...)
}

// StyleOf is the comparison's style of a scenario: its design style,
// with a rail-optimized fabric over more than one plane called
// multi-plane.
func StyleOf(s planner.Scenario) string {
	st := s.Network.Style()
	if st == planner.TopoRailOptimized && s.Network.Planes > 1 {
		return StyleMultiPlane
	}
	return st
}

// CompareStyles builds s in every design style: its own design as given,
// and the others with their published defaults on the same GPUs, system,
// fabric, switch, NIC speed, ratios and workload: rail-optimized on one
// plane; top-of-rack with as many servers per ToR as the leaf's down
// ports take; rail-only, one network per rail; dual-plane, each NIC split
// in two ports over two planes with uplinks at the NIC's speed where the
// switch runs them (Alibaba HPN: 2 x 200G down, 400G up); multi-plane,
// rail-optimized over two planes. The tiers are left to the planner
// (each style needs its own) and a pod size is dropped (it is the own
// design's leaf groups). A style that does not build is a row with its
// reason. Builds are lean: what the chart reads (sizing, cost, power,
// the job's step), not the failure what-if or the networks beside.
//
// s is the scenario as given, not a plan's Scenario: a plan's has the
// defaults of its own style filled in (a rail's cable length to the
// leaf), which another style's variant would keep.
func CompareStyles(s planner.Scenario, cat *planner.Catalog) *StyleComparison {
	return CompareStylesWith(s, cat, nil)
}

// CompareStylesWith is CompareStyles with the own style's row taken from
// plan, s's plan as Build made it, where the caller has one (nil: built
// here): at 100,000 GPUs that build is a sixth of the comparison. A
// fuller plan than the lean build reads the same in every figure the
// comparison shows (cost, power, switches, transceivers, the job's
// step).
func CompareStylesWith(s planner.Scenario, cat *planner.Catalog, plan *planner.Plan) *StyleComparison {
	own := StyleOf(s)
	c := &StyleComparison{}
	for _, style := range StyleOrder {
		v := s
		if style != own {
			v = styleVariant(s, style)
		}
		row := StyleRow{Style: style, Scenario: v, Own: style == own}
		if row.Own && plan != nil {
			row.Plan = plan
		} else {
			row.Plan, row.Err = planner.BuildWith(v, cat, planner.BuildOptions{})
		}
		if row.Err != nil && v.Network.UplinkGbps != s.Network.UplinkGbps {
			// The switch cannot run its uplinks at the NIC's speed:
			// the style at the split ports' speed.
			row.Scenario.Network.UplinkGbps = s.Network.UplinkGbps
			row.Plan, row.Err = planner.BuildWith(row.Scenario, cat, planner.BuildOptions{})
		}
		if p := row.Plan; p != nil {
			if gap := p.RailOnlyGap(); gap != "" {
				row.Findings = []string{gap}
			}
			if p != plan {
				row.Plan = p.FiguresOnly() // the comparison reads figures alone
			}
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// styleVariant is s in style with that style's published defaults (see
// CompareStyles).
func styleVariant(s planner.Scenario, style string) planner.Scenario {
	n := &s.Network
	n.Tiers, n.PodGPUs, n.ServersPerToR, n.ServersPerLeaf = 0, 0, 0, 0
	n.LeafPairs, n.PeerLinkPorts = false, 0
	n.Topology, n.RailOptimized = "", true
	n.Planes, n.PortsPerNIC = 1, 0
	switch style {
	case planner.TopoToR:
		n.RailOptimized = false
	case planner.TopoRailOnly, planner.TopoDualPlane:
		n.Topology = style
	case StyleMultiPlane:
		n.Planes = multiPlanes
	}
	if style == planner.TopoDualPlane {
		if n.NIC != planner.Auto {
			n.NIC = planner.Auto // a dual-port NIC of the same speed
		}
		if n.UplinkGbps == 0 {
			n.UplinkGbps = n.NICGbps // HPN: 2 x 200G to the ToRs, 400G above them
		}
	}
	return s
}
