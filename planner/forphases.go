package planner

import "fabricplan/planner/resilience"

// The names below let planner/phases, the phased build-out above this
// facade, read what it compares phases by without the plan's internals.

// ReliabilityWith is the catalog's reliability figures with the
// scenario's [reliability] overrides applied; ok is false when the
// catalog has none.
// Exported for planner/phases.
func (s *Scenario) ReliabilityWith(cat *Catalog) (r resilience.Reliability, ok bool) {
	if cat.Reliability == nil {
		return resilience.Reliability{}, false
	}
	return s.Reliability.apply(*cat.Reliability), true
}

// LineTier is the switch or link tier the line serves ("" for a line that
// serves none, as the NICs).
// Exported for planner/phases.
func (l BOMLine) LineTier() string { return l.tier }

// EndCages are the links one cage carries at each end of each link tier,
// by Link.Tier: [tier][0] the lower end's (0 at a server), [tier][1] the
// upper's. Port / EndCages()[tier][end] is a LinkEnd's cage.
// Exported for planner/phases.
func (p *Plan) EndCages() [LinkTierCount][2]int { return p.endCages() }

// LeafGroup is how the plan's leaves take its servers, per plane: a
// group of leaves leaves (one per rail when more than one) takes servers
// servers; leaf g's group's first server is g / leaves * servers.
// Exported for planner/phases.
func (p *Plan) LeafGroup() (leaves, servers int) {
	return p.layout.LeavesPerUnit, p.layout.ServersPerUnit
}

// UnitsGPUs is the GPUs online once the plan's first units scalable
// units (the units UnitCount counts and UnitWords describes) are built:
// units whole units, the last one (units = UnitCount) the cluster's
// remainder when it is partial. Past UnitCount it is units whole units,
// more than the plan's GPUs.
// Exported for planner/phases.
func (p *Plan) UnitsGPUs(units int) int {
	if units == p.UnitCount() {
		return p.GPUs
	}
	return units * p.Unit.GPUs
}
