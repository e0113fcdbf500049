package explore

import (
	"fmt"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// The shapes published designs use beyond the styles (issue 46), tried
// by the search beside each non-blocking single-plane candidate where
// its inputs allow, each priced as every other design and given its
// reason (Design.Reason):
//
//   - director chassis spines: the spine layer (and, at three tiers, the
//     core) on a modular chassis above fixed leaves (rail or top-of-rack),
//     as Meta's 7800R3 spines and the HDR clusters' CS8500 directors were
//     built;
//   - a collapsed core: two tiers whose spines are one pair of chassis a
//     plane, every leaf on both (the enterprise designs' two-box core);
//   - leaf pairs: an Ethernet top-of-rack design's servers dual-homed
//     over pairs of leaves (ESI-LAG, or MLAG with the scenario's peer
//     link ports);
//   - zones joined by a reduced core: three tiers, spines oversubscribed
//     toward the cores at zoneCoreRatio (Meta's AI zones under a 7:1
//     aggregation layer).

// zoneCoreRatio is the spines' down:up ratio a search tries above
// three-tier pods: Meta's 1:7 between its AI zones (Gangidi et al.,
// "RoCE networks for distributed AI training at scale", SIGCOMM 2024:
// the aggregation layer above the 3,072-GPU zones).
const zoneCoreRatio = "7:1"

// collapsedSpines is the spines a plane of a collapsed core keeps: one
// chassis pair.
const collapsedSpines = planner.CollapsedSpines

// chassisSpines are the modular chassis a search tries as the spines of
// a fabric on f whose switch-to-switch ports run at gbps.
func chassisSpines(cat *planner.Catalog, f planner.Fabric, gbps int) []*planner.Switch {
	return cat.ChassisSpines(f, gbps)
}

// appendShapeVariants appends to out s (fewest tiers, non-blocking, one
// plane) in the published shapes its inputs allow: leaf pairs on Ethernet, and, for
// each chassis, its spines and a collapsed core above s's leaves and
// above top-of-rack leaves (the HDR clusters' CS8500 spines above ToR
// switches). A scenario naming its own spine switch keeps it; one
// asking for more spines than a pair gets no collapsed core.
//
// A search priced in the hall (hall) tries only the shapes whose hall
// bound holds (layOutDesigns prunes by it): not leaf pairs (laid out in
// the hall now, but their bound is not checked against it), nor chassis
// above top-of-rack leaves, whose tight bound comes out up to 3% above
// the hall's cost with split NIC ports (a 200-GPU DGX H100 cluster at
// 800G as 2 x 400G on SN5600 ToRs under a 7808R3 pair: $2,610,852
// against $2,535,052), so every design of a search is priced one way.
func appendShapeVariants(out []planner.Scenario, s planner.Scenario, chassis []*planner.Switch, hall bool) []planner.Scenario {
	n := s.Network
	tor := s
	tor.Network.Topology, tor.Network.RailOptimized = planner.TopoToR, false
	leaves := []planner.Scenario{s, tor}
	if hall {
		leaves = leaves[:1]
	}
	if !hall && n.Fabric == planner.Ethernet && n.PodGPUs == 0 && n.StorageNodes == 0 {
		v := tor
		v.Network.LeafPairs = true
		if !n.LeafPairs {
			v.Network.PeerLinkPorts = 0 // ESI-LAG: no peer link
		}
		out = append(out, v)
	}
	for i := range chassis {
		for _, below := range leaves {
			out = below.AppendChassisShapes(out, chassis[i:i+1])
		}
	}
	return out
}

// Shape names the published shapes a design takes (see the file's
// comment), for its label: "collapsed core", "leaf pairs (MLAG)", ...
// Chassis spines are named by the label's switches.
const (
	shapeCollapsed = "collapsed core"
	shapeChassis   = "chassis spines"
	shapeZones     = "zones"
	shapePairs     = "leaf pairs"
)

// designShape is the published shape plan p takes and why a search
// tries it: "" for none of them.
func designShape(p *planner.Plan) (name, reason string) {
	n := p.Scenario.Network
	spine := p.SwitchOf(planner.TierSpine)
	perPlane := p.Switches(planner.TierSpine) / max(p.Planes, 1)
	switch {
	case p.LeafPairs != nil:
		link := "ESI-LAG, no peer link"
		if k := p.LeafPairs.PeerPortsEach; k > 0 {
			link = fmt.Sprintf("MLAG, %s a leaf on the peer link", textfmt.Plural(k, "port"))
		}
		return shapePairs, fmt.Sprintf("%s: each server's ports split over a pair of top-of-rack leaves (%s pairs), so a lost leaf takes half of a server's ports, not all",
			link, textfmt.Int(p.LeafPairs.Pairs))
	case spine.Chassis != nil && p.Tiers == 2 && perPlane == collapsedSpines:
		return shapeCollapsed, fmt.Sprintf("collapsed core: the spine layer is one pair of %s chassis a plane, every leaf on both", spine.Key)
	case spine.Chassis != nil && p.Tiers >= 2:
		return shapeChassis, fmt.Sprintf("director chassis spines: %s %s chassis a plane above fixed %s leaves",
			textfmt.Int(perPlane), spine.Key, p.Switch.Key)
	case p.Tiers == 3 && n.SpineRatio() != "1:1":
		return shapeZones, fmt.Sprintf("zones joined by a reduced core: %s a plane, their spines %s toward %s a plane",
			textfmt.Plural(p.Pods, "pod"), n.SpineRatio(), textfmt.Plural(p.Switches(planner.TierCore)/max(p.Planes, 1), "core"))
	}
	return "", ""
}

// shapeSuffix is what a design's label adds for its shape, named as
// designShape names it: the collapsed core and leaf pairs (chassis
// spines show in the label's switches, the zones' core ratio in its
// style).
func shapeSuffix(name string) string {
	switch name {
	case shapeCollapsed, shapePairs:
		return ", " + name
	}
	return ""
}
