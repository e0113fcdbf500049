package planner

import (
	"fmt"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// Pods of whole leaves: a three-tier pod need not be whole scalable
// units. The textbook fat tree of k-port switches (Al-Fares et al.,
// SIGCOMM 2008) puts k/2 leaves under k/2 spines in each pod whatever
// the servers' rails; with 40-port HDR switches and 8-rail servers that
// pod is 20 leaves, two and a half 8-leaf units, and it is how Meta's
// Research SuperCluster reached 16,000 A100 GPUs on 2,000 switches and
// 48,000 links (k^3/4 hosts, 5k^2/4 switches at k = 40). Whole units
// would leave each spine 4 of its 20 down ports empty and need 1,000
// spines, not 800. The reference-layout pods of a rack-scale system
// (each pod one rail of consecutive units) stay whole units.

// podLeaves is the leaves of a pod of podGPUs GPUs when the pod is
// whole leaves but not whole leaf groups (units): spg servers of
// gpusPerNode GPUs on lpg leaves per group, at most spineDown leaves
// under a spine. ok is false when podGPUs is whole groups (the units
// rule sizes it), is not whole leaves, exceeds a spine's down ports, or
// the plane's pods follow its rails (railPods).
func podLeaves(podGPUs, spg, lpg, gpusPerNode, spineDown int, railPods bool) (leaves int, ok bool) {
	groupGPUs := spg * gpusPerNode
	if railPods || lpg <= 1 || groupGPUs%lpg != 0 || podGPUs%groupGPUs == 0 {
		return 0, false
	}
	leafGPUs := groupGPUs / lpg
	if podGPUs%leafGPUs != 0 || podGPUs/leafGPUs > spineDown {
		return 0, false
	}
	return podGPUs / leafGPUs, true
}

// podLeavesHint is what pod_gpus's refusal adds when pods of whole
// leaves are allowed: ", or a multiple of N GPUs (one leaf) up to M";
// empty when they are not.
func podLeavesHint(spg, lpg, gpusPerNode, spineDown int, railPods bool) string {
	groupGPUs := spg * gpusPerNode
	if railPods || lpg <= 1 || groupGPUs%lpg != 0 {
		return ""
	}
	leafGPUs := groupGPUs / lpg
	return fmt.Sprintf(", or a multiple of %d GPUs (one leaf) up to %s", leafGPUs, textfmt.Int(spineDown*leafGPUs))
}

// offerLeafPods adds to p.Cheaper, with a note, the pods of whole leaves
// that fill a spine's down ports when pods of whole units leave some
// empty: a rail-optimized three-tier plan without pod_gpus whose spine's
// down ports are not a multiple of a unit's leaves (Meta's RSC on 40-port
// HDR switches: 8-leaf units in 16-leaf pods under 20-down spines, 1,000
// spines, where pods of 20 leaves take 800). Nothing is offered when the
// whole-leaf pods cost no less.
func (p *Plan) offerLeafPods(cat *Catalog) {
	s := p.Scenario
	lay := p.layout
	if p.Tiers != 3 || s.Network.PodGPUs != 0 || lay.RailPods != 0 || lay.LeavesPerUnit <= 1 || len(lay.Pods) == 0 {
		return
	}
	spineDown := p.spineDownPorts()
	lpg, spg := lay.LeavesPerUnit, lay.ServersPerUnit
	perServer := s.Cluster.GPUsPerServer
	if perServer <= 0 {
		perServer = s.Cluster.GPUs / max(p.Servers, 1)
	}
	leaves := fabric.CountSwitches(lay.Pods[0].Leaves)
	if spineDown%lpg == 0 || leaves >= spineDown || spg*perServer%lpg != 0 {
		return
	}
	pod := spineDown * spg * perServer / lpg
	alt := s
	alt.Network.PodGPUs = pod
	a, err := Build(alt, cat)
	if err != nil || a.Cost.Total >= p.Cost.Total {
		return
	}
	usd := p.MoneyScale()
	saving := p.Cost.Total - a.Cost.Total
	p.Cheaper = append(p.Cheaper, Cheaper{Design: fmt.Sprintf("pod_gpus = %d", pod), CostUSD: a.Cost.Total, SavingUSD: saving,
		apply: func(s *Scenario) { s.Network.PodGPUs = pod }})
	p.Notes = append(p.Notes, fmt.Sprintf("cheaper with pods of whole leaves: pod_gpus = %s (%d leaves fill a spine's %d down ports; pods of whole %d-leaf units take %d): %s against %s, %s for %s, %s less",
		textfmt.Int(pod), spineDown, spineDown, lpg, leaves, textfmt.Plural(a.Switches(TierSpine), "spine"), textfmt.Int(p.Switches(TierSpine)),
		textfmt.Plural(a.TotalSwitches(), "switch"), usd.Format(a.Cost.Total), usd.Format(saving)))
}

// spineDownPorts is a three-tier spine's ports toward its pod, as the
// fabric sizes them: the spines' switch at the uplink speed, split by the
// spine ratio (halves when non-blocking).
func (p *Plan) spineDownPorts() int {
	spec := fabric.Spec{UpRadix: orSwitch(p.SpineSwitch, p.Switch).Radix(p.UplinkGbps), SpineW: fabric.WeightsOf(p.UplinkGbps, p.CoreGbps)}
	if d, u, err := Ratio(p.Scenario.Network.SpineRatio()); err == nil && d != u {
		spec.SpineD, spec.SpineU = d, u
	}
	down, _ := spec.SpinePorts()
	return down
}
