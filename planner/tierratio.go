package planner

import (
	"fmt"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// SpineRatio is the spines' asked down:up: the scenario's
// spine_oversubscription, "1:1" when it is left out.
func (n Network) SpineRatio() string {
	if n.SpineOversubscription == "" {
		return "1:1"
	}
	return n.SpineOversubscription
}

// setSpineRatio sets the spines' down:up from the scenario; a ratio
// whose parts do not fit the switch's ports is an error naming the
// field. Non-blocking spines keep spineD 0, the sizing the planner has
// always done.
func (spec *fabricSpec) setSpineRatio(n Network, sw *Switch, port int) error {
	d, u, err := Ratio(n.SpineRatio())
	if err != nil {
		return fielderr.New("network.spine_oversubscription", `write down:up such as "7:1"`, "%v", err)
	}
	if d == u {
		return nil
	}
	if sd, _ := fabric.SplitPorts(spec.UplinkRadix(), spec.SpineW, d, u); sd == 0 {
		return fielderr.New("network.spine_oversubscription", fmt.Sprintf("use a ratio whose parts add up to at most %d", spec.UplinkRadix()),
			"%s needs %d ports per spine; %s has %d at %dG", n.SpineOversubscription, d+u, sw.Key, spec.UplinkRadix(), n.UplinkSpeed(port))
	}
	spec.SpineD, spec.SpineU = d, u
	return nil
}

// spineRatioNote says where an asked spine ratio has no tier to apply
// to: below three tiers the spines are the top tier and have no uplinks.
func spineRatioNote(n Network, tiers int) []string {
	if r := n.SpineRatio(); r == "1:1" || tiers >= 3 {
		return nil
	}
	return []string{fmt.Sprintf("spine_oversubscription %s applies above a pod's spines: this %d-tier fabric's top tier has no uplinks (set tiers = 3 for pods joined by cores)",
		n.SpineOversubscription, tiers)}
}

// TierRatiosText is the ratio built at every tier with uplinks, as
// "leaf 1:1, spine 6.86:1 (asked 7:1)"; empty when the spines are left
// non-blocking (the leaf's ratio is then the one asked, said beside the
// layout), so default plans read as they always have.
func (p *Plan) TierRatiosText() string {
	n := p.Scenario.Network
	if n.SpineRatio() == "1:1" {
		return ""
	}
	var parts []string
	for _, o := range p.BuiltOversubscription() {
		part := o.Tier + " " + textfmt.Oversub(o.Ratio)
		if o.Worst > o.Ratio*(1+1e-9) {
			part += " (worst switch " + textfmt.Oversub(o.Worst) + ")"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		parts = append(parts, "one switch, no uplinks")
	}
	return fmt.Sprintf("built %s; asked leaf %s, spine %s", strings.Join(parts, ", "), n.Oversubscription, n.SpineRatio())
}

// podServers is the nodes one full three-tier pod holds (0 below three
// tiers).
func (p *Plan) podServers() int {
	if p.Tiers < 3 || len(p.layout.Pods) == 0 || p.layout.LeavesPerUnit == 0 {
		return 0
	}
	leaves := fabric.CountSwitches(p.layout.Pods[0].Leaves)
	return leaves / p.layout.LeavesPerUnit * p.layout.ServersPerUnit
}

// setToR sizes a top-of-rack leaf for whole servers: servers_per_tor of
// them, or as many as its down ports hold; every port of those servers
// down, and the uplinks the leaf ratio asks for them, not for the down
// ports a part server would fill (issue 45: at 1:1 a QM8700 ToR of 2
// servers of 8 ports had 16 server ports under 20 uplinks, 0.80:1). A
// leaf of a pair takes half of them: setLeafPairs.
func (spec *fabricSpec) setToR(n Network, sw *Switch, port int) error {
	if spec.RailOptimized || n.LeafPairs {
		return nil
	}
	if n.ServersPerToR == 0 {
		if whole := spec.Down / spec.Rails * spec.Rails; whole > 0 && whole < spec.Down {
			spec.Down, spec.Up = whole, spec.UpFor(whole) // the ports left over stay idle
		}
		return nil
	}
	down := n.ServersPerToR * spec.Rails
	up := spec.UpFor(down)
	if !fabric.Fits(spec.Radix, spec.LeafW, down, up) {
		return fielderr.New("network.servers_per_tor", fmt.Sprintf("use at most %d servers per ToR, a larger switch or more planes", spec.Radix*spec.RatioD/(spec.RatioD+spec.RatioU)/spec.Rails),
			"%d servers of %d ports each need %d down and %d up ports at %s; %s has %d at %dG", n.ServersPerToR, spec.Rails, down, up, n.Oversubscription, sw.Key, spec.Radix, port)
	}
	spec.Down, spec.Up = down, up
	return nil
}

// setPod sets the leaves of a three-tier pod from pod_gpus: whole leaf
// groups, or whole leaves (podLeaves), no more than a spine's down ports
// serve.
func (spec *fabricSpec) setPod(n Network, gpusPerNode int) error {
	if n.PodGPUs == 0 {
		return nil
	}
	spg, lpg, err := fabric.LeafGroup(spec.Spec)
	if err != nil {
		return nil // sizing says so
	}
	groupGPUs := spg * gpusPerNode
	spineDown, _ := spec.SpinePorts()
	if leaves, ok := podLeaves(n.PodGPUs, spg, lpg, gpusPerNode, spineDown, spec.RailPods); ok {
		spec.PodLeaves = leaves
		return nil
	}
	if n.PodGPUs%groupGPUs != 0 || n.PodGPUs/groupGPUs*lpg > spineDown {
		return fielderr.New("network.pod_gpus", fmt.Sprintf("use a multiple of %d GPUs (one leaf group) up to %s (a spine's %d down ports)%s",
			groupGPUs, textfmt.Int(spineDown/lpg*groupGPUs), spineDown, podLeavesHint(spg, lpg, gpusPerNode, spineDown, spec.RailPods)), "%s GPUs per pod", textfmt.Int(n.PodGPUs))
	}
	spec.PodLeaves = n.PodGPUs / groupGPUs * lpg
	return nil
}

// shape sets what the scenario asks of the fabric's shape beyond the
// leaf's ports: the spines' ratio, a ToR size, a rail leaf's servers,
// the leaf alignment of a system's reference layout, leaf pairs, the
// storage ports the leaves keep (where place says), a pod size and a
// floor under the spines, in that order (the pod is whole leaf groups,
// which the sizes, alignment, pairs and storage decide; the floor is
// held to the leaf's uplinks).
func (spec *fabricSpec) shape(s Scenario, cat *Catalog, sw *Switch, port, servers int, place storagePlace) (UnitLayout, string, error) {
	n := s.Network
	if err := spec.setSpineRatio(n, sw, port); err != nil {
		return UnitLayout{}, "", err
	}
	if err := spec.setToR(n, sw, port); err != nil {
		return UnitLayout{}, "", err
	}
	if err := spec.setLeafServers(s, cat, sw, port); err != nil {
		return UnitLayout{}, "", err
	}
	unit, note := spec.align(s.system(cat), s.leafAlignment(s.system(cat)), servers)
	// A pod is whole servers of the system's size: a cluster of 65 GPUs
	// on 8-GPU servers still has 8 per server, not 65/9.
	perServer := s.Cluster.GPUsPerServer
	if perServer <= 0 {
		perServer = s.Cluster.GPUs / max(servers, 1)
	}
	if err := spec.setLeafPairs(n, sw, port); err != nil {
		return UnitLayout{}, "", err
	}
	if err := spec.setLeafStorage(n, unit.LeafAlignment == AlignRack, place); err != nil {
		return UnitLayout{}, "", err
	}
	if err := spec.setPod(n, perServer); err != nil {
		return UnitLayout{}, "", err
	}
	if err := spec.setMinSpines(n); err != nil {
		return UnitLayout{}, "", err
	}
	return unit, note, nil
}
