package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// UplinkSpeed is the speed in Gb/s of the switch-to-switch ports (leaf
// to spine, spine to core): the scenario's uplink_gbps, or port (the
// server port speed) when it is left out, as every tier ran before.
func (n Network) UplinkSpeed(port int) int {
	if n.UplinkGbps > 0 {
		return n.UplinkGbps
	}
	return port
}

// TierGbps is the port speed of a link tier's links (server_leaf,
// leaf_spine or spine_core): the server port speed toward the servers,
// the uplink speed between switches.
func (p *Plan) TierGbps(linkTier string) int {
	switch {
	case linkTier == "server_leaf" || p.UplinkGbps == 0:
		return p.PortGbps
	case linkTier == "spine_core":
		return p.coreGbps()
	}
	return p.UplinkGbps
}

// tierLane is the lane rate a link tier's links run: the NIC's joined
// lane toward the servers (and between switches at the server speed,
// as always), else the switch's fastest lane that divides the uplink
// speed.
func (p *Plan) tierLane(linkTier string) int {
	g := p.TierGbps(linkTier)
	if lower, upper := p.linkEnds(linkTier); lower != nil && (lower != p.Switch || upper != p.Switch) {
		prefer := 0 // at the server speed, the NIC's lane where both ends run it
		if g == p.PortGbps {
			prefer = p.LaneGbps
		}
		return switchLane(lower, upper, g, prefer)
	}
	if g == p.PortGbps {
		return p.LaneGbps
	}
	best := 0
	for _, l := range p.Switch.LaneGbps {
		if g%l == 0 {
			best = max(best, l)
		}
	}
	return best
}

// MixedSpeeds reports whether the switch-to-switch ports run at another
// speed than the server ports (or the spine-to-core ports at another
// than the leaf-to-spine ones).
func (p *Plan) MixedSpeeds() bool {
	return p.UplinkGbps != 0 && (p.UplinkGbps != p.PortGbps || p.Tiers >= 3 && p.coreGbps() != p.UplinkGbps)
}

// SpeedsText says each tier's port speed, as "leaf 400G down, 800G up;
// spine 800G"; empty when every port runs at the server speed.
func (p *Plan) SpeedsText() string {
	if !p.MixedSpeeds() {
		return ""
	}
	s := fmt.Sprintf("leaf %dG down, %dG up", p.PortGbps, p.UplinkGbps)
	switch {
	case p.Tiers >= 3 && p.coreGbps() != p.UplinkGbps:
		s += fmt.Sprintf("; spine %dG down, %dG up; core %dG", p.UplinkGbps, p.coreGbps(), p.coreGbps())
	case p.Tiers >= 3:
		s += fmt.Sprintf("; spine %dG; core %dG", p.UplinkGbps, p.UplinkGbps)
	case p.Tiers == 2:
		s += fmt.Sprintf("; spine %dG", p.UplinkGbps)
	}
	return s
}

// setTierSpeeds records each switch tier's port speeds and the ports a
// full switch of the tier has as configured (a leaf with faster uplinks
// has fewer, larger ports).
func (p *Plan) setTierSpeeds(spec fabricSpec) {
	for i := range p.SwitchTiers {
		t := &p.SwitchTiers[i]
		switch t.Name {
		case TierLeaf:
			t.DownGbps, t.UpGbps = p.PortGbps, p.UplinkGbps
			t.Radix = fabric.ConfiguredRadix(spec.Radix, spec.LeafW, spec.Up)
		case TierSpine:
			t.DownGbps, t.UpGbps, t.Radix = p.UplinkGbps, p.UplinkGbps, spec.UplinkRadix()
			if p.Tiers >= 3 {
				_, up := spec.SpinePorts()
				t.UpGbps, t.Radix = p.coreGbps(), fabric.ConfiguredRadix(spec.UplinkRadix(), spec.SpineW, up)
			}
		default:
			t.DownGbps, t.UpGbps, t.Radix = p.coreGbps(), p.coreGbps(), spec.CoreRadix()
		}
	}
	p.PortsTotal = 0
	for i := range p.SwitchTiers {
		p.PortsTotal += p.portsInstalled(i)
	}
}

// validateUplink checks uplink_gbps: a speed that the chosen switch (or,
// with switch auto, some switch of the fabric with ports at both
// speeds) offers, faster or slower than the server ports.
func (s *Scenario) validateUplink(cat *Catalog) []error {
	return s.validateLinkSpeed(cat, "network.uplink_gbps", s.Network.UplinkGbps,
		"give the switch-to-switch port speed in Gb/s, e.g. 800, or leave it out for the server port speed",
		func(port int) []int { return []int{port} })
}

// validateLinkSpeed checks a switch-to-switch port speed g given in
// field: in range (fix says how), and offered by the chosen switch or,
// with switch auto, by some switch of the fabric that also runs the
// speeds also(port) names (port: the server port speed).
func (s *Scenario) validateLinkSpeed(cat *Catalog, field string, g int, fix string, also func(port int) []int) []error {
	n := s.Network
	if g == 0 {
		return nil
	}
	if g < 0 || g > MaxUplinkGbps {
		return []error{fielderr.New(field, fix, "%d Gb/s", g)}
	}
	port := s.portGbps(cat)
	if port <= 0 {
		return nil
	}
	if n.Switch != Auto {
		sw := cat.Switches[n.Switch]
		if sw == nil || sw.Fabric != n.Fabric {
			return nil // validateHardware says so
		}
		if err := checkSwitchSpeed(sw, field, g); err != nil {
			return []error{err}
		}
		return nil
	}
	sws := cat.SwitchesFor(n.Fabric, port)
	var speeds []string
	for _, a := range also(port) {
		sws = uplinkCandidates(sws, a)
		speeds = append(speeds, strconv.Itoa(a)+"G")
	}
	ports := strings.Join(slices.Compact(speeds), " and ")
	// Only a switch the NIC joins is one the plan can pick (buildOn): a
	// speed offered by the others alone would fail there, naming the
	// switch the user never set (uplink_gbps = 800 on a 400G
	// ConnectX-7: Q3400's 200G lanes).
	joins := ""
	if nic := s.chooseNIC(cat); nic != nil {
		if j := laneJoined(sws, nic, port); len(j) > 0 && len(j) < len(sws) {
			sws, joins = j, fmt.Sprintf(" that %s (%s lanes) joins", nic.Key, laneList(nic.LaneGbps))
		}
	}
	if len(uplinkCandidates(sws, g)) == 0 {
		return []error{fielderr.New(field, fmt.Sprintf("leave it out, or give a speed they offer: %s", offeredSpeeds(sws)),
			"no %s switch with %s ports%s offers %dG ports", n.Fabric, ports, joins, g)}
	}
	return nil
}

// offeredSpeeds lists the port speeds switches sws offer, fastest first,
// with the switches: "400G, 200G (qm9700)".
func offeredSpeeds(sws []*Switch) string {
	var speeds []int
	keys := make([]string, len(sws))
	for i, sw := range sws {
		speeds, keys[i] = append(speeds, sw.Speeds()...), sw.Key
	}
	slices.Sort(speeds)
	slices.Reverse(speeds)
	return gbpsList(slices.Compact(speeds)) + " (" + strings.Join(keys, ", ") + ")"
}

// splitFix is the fix for a NIC speed no switch of fabric has ports at:
// the splits of a gbps NIC of the fabric that give ports a switch runs
// and that NIC joins ("ports_per_nic = 2 with switch = "q3400" (2 x 800G
// ports)", as the design search finds), else the port speeds the
// fabric's switches run.
func splitFix(cat *Catalog, fabric Fabric, gbps int) string {
	var fixes []string
	seen := map[int]bool{}
	for _, key := range SortedKeys(cat.NICs) {
		nic := cat.NICs[key]
		if nic.Gbps != gbps {
			continue
		}
		for _, k := range nic.PortSplits(fabric) {
			port := gbps / max(k, 1)
			if k < 2 || seen[k] || gbps%k != 0 {
				continue
			}
			if sws := laneJoined(cat.SwitchesFor(fabric, port), nic, port); len(sws) > 0 {
				seen[k] = true
				fixes = append(fixes, fmt.Sprintf("ports_per_nic = %d with switch = %q (%d x %dG ports)", k, sws[0].Key, k, port))
			}
		}
	}
	speeds := "choose a NIC speed or port split that gives " + gbpsList(switchSpeeds(cat, fabric)) + " ports"
	if len(fixes) == 0 {
		return speeds
	}
	return "split each NIC: " + textfmt.JoinOr(fixes) + "; or " + speeds
}

// uplinkCandidates keeps the switches with ports at the uplink speed.
func uplinkCandidates(sws []*Switch, uplink int) []*Switch {
	var out []*Switch
	for _, sw := range sws {
		if sw.Radix(uplink) > 0 {
			out = append(out, sw)
		}
	}
	return out
}

// MaxUplinkGbps bounds uplink_gbps: no catalog switch port is faster
// than 1.6T today; the bound leaves room for the next generation.
const MaxUplinkGbps = 3200

// speedRatio is a tier's down-port speed over its up-port speed, 1 when
// either is unknown: link counts times it give the bandwidth ratio.
func speedRatio(t SwitchTier) float64 {
	if t.DownGbps == 0 || t.UpGbps == 0 {
		return 1
	}
	return float64(t.DownGbps) / float64(t.UpGbps)
}

// checkSplits checks that the switch's port speeds are splits of one
// set of lanes and cages: ports x speed is the same switching capacity
// at every speed (a 51.2T switch is 64 x 800G, 128 x 400G or 256 x
// 200G), and at every speed the ports fill the same cages.
func (s *Switch) checkSplits() error {
	sp := s.Speeds()
	top := sp[0]
	capacity, cages := top*s.Radix(top), s.Radix(top)/s.LinksPerCage(top)
	for _, g := range sp[1:] {
		if g*s.Radix(g) != capacity {
			return fmt.Errorf("%d x %dG is not a split of %d x %dG: every speed's ports must add up to the same %d Gb/s", s.Radix(g), g, s.Radix(top), top, capacity)
		}
		if c := s.Radix(g) / s.LinksPerCage(g); c != cages || s.Radix(g)%s.LinksPerCage(g) != 0 {
			return fmt.Errorf("%d x %dG at %d links a cage fill %d cages, not the %d of %d x %dG: check cage_links", s.Radix(g), g, s.LinksPerCage(g), c, cages, s.Radix(top), top)
		}
	}
	return nil
}

// mixedUplink is the plan's uplink speed when it differs from the
// server port speed, else 0 (left out of the JSON).
func mixedUplink(p *Plan) int {
	if p.MixedSpeeds() {
		return p.UplinkGbps
	}
	return 0
}

// laneJoined keeps the switches the NIC joins at port Gb/s: a lane
// rate both run that divides the port speed.
func laneJoined(sws []*Switch, nic *NIC, port int) []*Switch {
	var usable []int
	for _, l := range nic.LaneGbps {
		if port%l == 0 {
			usable = append(usable, l)
		}
	}
	var out []*Switch
	for _, sw := range sws {
		if SharedLane(usable, sw.LaneGbps) > 0 {
			out = append(out, sw)
		}
	}
	return out
}
