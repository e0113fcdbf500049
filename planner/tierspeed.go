package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// CoreSpeed is the speed in Gb/s of the spine-to-core ports: the
// scenario's core_uplink_gbps, or uplink (the leaf-to-spine speed) when
// it is left out.
func (n Network) CoreSpeed(uplink int) int {
	if n.CoreUplinkGbps > 0 {
		return n.CoreUplinkGbps
	}
	return uplink
}

// coreGbps is the spine-to-core port speed (the uplink speed unless
// core_uplink_gbps asks another).
func (p *Plan) coreGbps() int {
	if p.CoreGbps > 0 {
		return p.CoreGbps
	}
	return p.UplinkGbps
}

// SlowUplinks reports whether a leaf's uplinks run slower than its
// server ports (400G server ports, 200G uplinks split 2 x 200G).
func (p *Plan) SlowUplinks() bool { return p.UplinkGbps > 0 && p.UplinkGbps < p.PortGbps }

// slowUplinkNote reports a leaf whose uplinks run slower than its server
// ports: its ratio counts Gb/s, so a full leaf has more up ports than
// down ones at 1:1.
func slowUplinkNote(p *Plan) []string {
	if !p.SlowUplinks() || len(p.SwitchTiers) < 2 {
		return nil
	}
	var leafDown, leafUp, leaves int
	for _, l := range p.tierLoads[0] {
		if l.Switches > leaves {
			leaves, leafDown, leafUp = l.Switches, l.Down, l.Up
		}
	}
	return []string{fmt.Sprintf("leaf uplinks run at %dG, below the %dG server ports: the most common leaf has %d x %dG down (%s Gb/s) and %d x %dG up (%s Gb/s), "+
		"as oversubscription %s counts bandwidth, not ports; each uplink is a split of a %dG-capable port",
		p.UplinkGbps, p.PortGbps, leafDown, p.PortGbps, textfmt.Int(leafDown*p.PortGbps), leafUp, p.UplinkGbps, textfmt.Int(leafUp*p.UplinkGbps),
		p.Scenario.Network.Oversubscription, p.PortGbps)}
}

// coreSpeedNote says where core_uplink_gbps has no tier to apply to:
// below three tiers there are no cores.
func coreSpeedNote(n Network, tiers int) []string {
	if n.CoreUplinkGbps == 0 || tiers >= 3 {
		return nil
	}
	return []string{fmt.Sprintf("core_uplink_gbps %d applies between pod spines and cores: this %d-tier fabric has no cores (set tiers = 3 for pods joined by cores)",
		n.CoreUplinkGbps, tiers)}
}

// checkSwitchSpeed says whether the switch runs ports at g Gb/s; the
// error names field and the speeds the switch offers.
func checkSwitchSpeed(sw *Switch, field string, g int) error {
	if sw.Radix(g) > 0 {
		return nil
	}
	return fielderr.New(field, "use one of "+gbpsList(sw.Speeds())+", or leave it out",
		"%s has no %dG ports: it offers %s", sw.Key, g, gbpsList(sw.Speeds()))
}

// validateCoreUplink checks core_uplink_gbps: a speed the chosen switch
// (or, with switch auto, some switch of the fabric that also runs the
// server and uplink speeds) offers.
func (s *Scenario) validateCoreUplink(cat *Catalog) []error {
	return s.validateLinkSpeed(cat, "network.core_uplink_gbps", s.Network.CoreUplinkGbps,
		"give the spine-to-core port speed in Gb/s, e.g. 800, or leave it out for the uplink speed",
		func(port int) []int { return []int{port, s.Network.UplinkSpeed(port)} })
}

// mixedCore is the plan's spine-to-core speed when it differs from the
// leaf-to-spine speed in a three-tier fabric, else 0 (left out of the
// JSON).
func mixedCore(p *Plan) int {
	if p.Tiers >= 3 && p.coreGbps() != p.UplinkGbps {
		return p.coreGbps()
	}
	return 0
}

// tierSpeedField is the scenario field that sets a link tier's speed.
func tierSpeedField(linkTier string) string {
	switch linkTier {
	case "leaf_spine":
		return "network.uplink_gbps"
	case "spine_core":
		return "network.core_uplink_gbps"
	}
	return "network.nic_gbps"
}
