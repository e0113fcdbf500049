package planner

import "fabricplan/planner/fabric"

// PodRun is a run of identical pods in one plane, as the cable map wires
// them: below three tiers the whole plane is one pod.
type PodRun struct {
	Count  int // pods in the run
	Leaves int // leaves of one pod
	Spines int // spines of one pod (0 with one tier)
	// Units is the scalable units of one pod, a partial one counted.
	Units int
	// Nodes is the servers or trays one pod's leaves hold; LeafSpine
	// the links from its leaves to its spines; SpineCore the links from
	// its spines to the cores.
	Nodes, LeafSpine, SpineCore int
	// ByRail says each pod holds one rail's leaves of its units (NVIDIA's
	// GB200 SuperPOD): pod i of the plane is rail i mod the leaves of a
	// unit, a unit has one leaf in it, and Units is its leaves.
	ByRail bool

	leaves        []fabric.Load
	leavesPerUnit int
}

// UnitLeaf is the ports one leaf of the pod's unit i (from 0) uses
// toward nodes and toward spines: a unit's leaves are alike.
func (r PodRun) UnitLeaf(i int) (down, up int) {
	k := i * r.leavesPerUnit // the unit's first leaf
	for _, l := range r.leaves {
		if k < l.Switches {
			return l.Down, l.Up
		}
		k -= l.Switches
	}
	return 0, 0
}

// CoreRun is a run of identical core groups in one plane: a core group
// joins Spines spine indices of every pod (spine j alone: Spines 1).
type CoreRun struct {
	Groups, Cores int // groups in the run, cores in each
	Spines        int // spine indices each group joins
}

// Layout is one plane's pods and core groups (every plane is alike), and
// the size of a scalable unit: the leaves and nodes of one full unit.
func (p *Plan) Layout() (pods []PodRun, cores []CoreRun, leavesPerUnit, nodesPerUnit int) {
	lay := p.layout
	for i, r := range lay.Pods {
		pr := PodRun{Count: r.Count, Leaves: fabric.CountSwitches(r.Leaves), Spines: r.Spines, LeafSpine: fabric.SumLinks(r.Leaves, true),
			leaves: r.Leaves, leavesPerUnit: lay.LeavesPerUnit}
		pr.Units = ceilDiv(pr.Leaves, lay.LeavesPerUnit)
		perServer := 1
		if lay.LeavesPerUnit == 1 {
			perServer = p.RailsPerPlane
		}
		for _, l := range r.Leaves {
			if lay.LeavesPerUnit == 1 {
				pr.Nodes += l.Switches * l.Down / perServer
			}
		}
		if lay.LeavesPerUnit > 1 {
			// A rail's leaf holds one port of each node of its unit.
			pr.Nodes = fabric.SumLinks(r.Leaves, false) / lay.LeavesPerUnit
		}
		if lay.RailPods > 0 {
			// One leaf of each unit, each holding a port of its nodes.
			pr.ByRail, pr.leavesPerUnit, pr.Units, pr.Nodes = true, 1, pr.Leaves, fabric.SumLinks(r.Leaves, false)
		}
		for _, c := range lay.CoreGroups {
			pr.SpineCore += c.Groups * c.UpFrom(i)
		}
		pods = append(pods, pr)
	}
	for _, c := range lay.CoreGroups {
		cores = append(cores, CoreRun{Groups: c.Groups, Cores: c.Cores, Spines: c.SpineCount()})
	}
	return pods, cores, lay.LeavesPerUnit, lay.ServersPerUnit
}
