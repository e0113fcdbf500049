package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// Leaf shapes published designs use beyond the leaf the planner fills
// (issue 46): a rail leaf kept to a fixed number of servers, and a
// floor under the spine count. Both default off, so a scenario without
// them sizes as before.
//
// A fixed number of servers a leaf: losslessnetwork.com's "Cluster
// Sizing & Cabling" keeps 32 servers (32 x 400G down, 16 up) on each
// 64-port Tomahawk 4 leaf at every size, so its 4,096 GPUs are 128
// leaves where a filled leaf (42 down, 21 up) gives 104. The leaf keeps
// the uplinks the leaf ratio asks for its servers and leaves the rest of
// its ports idle; the unit (one leaf a rail) is that many servers.
//
// A minimum spine count: designs built for growth start with more
// spines than the links need (Juniper's AI data center designs keep at
// least four), so a leaf's uplinks spread over them and later leaves
// plug in without recabling.

// Bounds on the leaf-shape inputs: generous, past any switch's ports, so
// a larger value is a typing mistake.
const (
	// MaxServersPerLeaf bounds servers_per_leaf: the catalog's largest
	// switch (an 800-port HDR director) has fewer ports.
	MaxServersPerLeaf = 1 << 12
	// MaxMinSpines bounds min_spines the same way: a spine tier is
	// never wider than a leaf's ports.
	MaxMinSpines = 1 << 12
)

// validateLeafShape checks servers_per_leaf and min_spines: in range,
// and servers_per_leaf only on rail leaves (a top-of-rack leaf's size
// is servers_per_tor); and the storage on the leaves
// (validateLeafStorage).
func (n Network) validateLeafShape() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	switch {
	case n.ServersPerLeaf < 0 || n.ServersPerLeaf > MaxServersPerLeaf:
		add(fielderr.New("network.servers_per_leaf", "give the servers one rail leaf takes a port of, e.g. 32, or leave it out", "%d servers per leaf", n.ServersPerLeaf))
	case n.ServersPerLeaf > 0 && n.Style() == TopoToR:
		add(fielderr.New("network.servers_per_leaf", "give a top-of-rack leaf's servers as servers_per_tor, or leave servers_per_leaf out", "servers_per_leaf is a rail leaf's size; this design is top-of-rack"))
	}
	if n.MinSpines < 0 || n.MinSpines > MaxMinSpines {
		add(fielderr.New("network.min_spines", "give the fewest spines a plane keeps, e.g. 4, or leave it out", "%d spines", n.MinSpines))
	}
	return append(errs, n.validateLeafStorage()...)
}

// setLeafServers keeps a rail leaf to servers_per_leaf servers: that
// many server ports down and the uplinks the leaf ratio asks for them.
// A leaf that cannot hold them at the ratio, or (on a rack-scale system
// whose leaves take whole racks) a count that is not whole racks, is an
// error naming the field and the largest that fits.
func (spec *fabricSpec) setLeafServers(s Scenario, cat *Catalog, sw *Switch, port int) error {
	n := s.Network
	if n.ServersPerLeaf == 0 || !spec.RailOptimized {
		return nil // validation refuses it on a top-of-rack design
	}
	down := n.ServersPerLeaf
	up := spec.UpFor(down)
	if !fabric.Fits(spec.Radix, spec.LeafW, down, up) {
		most := spec.Down
		for fabric.Fits(spec.Radix, spec.LeafW, most+1, spec.UpFor(most+1)) {
			most++
		}
		return fielderr.New("network.servers_per_leaf", fmt.Sprintf("use at most %d servers per leaf at %s, a larger switch or a lower ratio", most, n.Oversubscription),
			"%d servers need %d down and %d up ports at %s; %s has %d at %dG", down, down, up, n.Oversubscription, sw.Key, spec.Radix, port)
	}
	if sys := s.system(cat); sys != nil && sys.RackNodes > 0 && s.leafAlignment(sys) == AlignRack && down%sys.RackNodes != 0 {
		return fielderr.New("network.servers_per_leaf", fmt.Sprintf("give whole racks (a multiple of %d trays), or set leaf_alignment = %q", sys.RackNodes, AlignPacked),
			"%d trays a leaf split a %s rack of %d on one rail", down, sys.Key, sys.RackNodes)
	}
	spec.Down, spec.Up = down, up
	return nil
}

// leafServersNote says what servers_per_leaf built: each leaf's server
// ports and uplinks of its ports, or that one switch holds the plane
// (no leaves to keep to a size).
func leafServersNote(n Network, spec fabric.Spec, tiers int) []string {
	if n.ServersPerLeaf == 0 || !spec.RailOptimized {
		return nil
	}
	fullDown, fullUp := fabric.SplitPorts(spec.Radix, spec.LeafW, spec.RatioD, spec.RatioU)
	if tiers == 1 {
		return []string{fmt.Sprintf("servers_per_leaf = %d does not apply: one switch holds the plane's %s server ports (set tiers = 2 for leaves of %d servers)",
			n.ServersPerLeaf, textfmt.Int(spec.Servers*spec.Rails), n.ServersPerLeaf)}
	}
	return []string{fmt.Sprintf("servers_per_leaf = %d: each rail leaf takes %d servers' ports and %s at %s, of its %d ports; the rest stay idle (leave servers_per_leaf out to fill the leaf: %d down, %d up)",
		n.ServersPerLeaf, spec.Down, textfmt.Plural(spec.Up, "uplink"), n.Oversubscription, spec.Radix, fullDown, fullUp)}
}

// setMinSpines sets the fewest spines of a plane (of a pod, in three
// tiers) from min_spines, after the leaf is sized: a full leaf reaches
// every spine, so min_spines past its uplinks is an error naming the
// field and how many it reaches.
func (spec *fabricSpec) setMinSpines(n Network) error {
	if n.MinSpines == 0 {
		return nil
	}
	if n.MinSpines > spec.Up && spec.Servers*spec.Rails > spec.Radix {
		return fielderr.New("network.min_spines", fmt.Sprintf("give at most %d (a leaf reaches every spine), or fewer servers a leaf or a lower ratio for more uplinks", spec.Up),
			"%d spines but a full leaf has %s at %s", n.MinSpines, textfmt.Plural(spec.Up, "uplink"), n.Oversubscription)
	}
	spec.MinSpines = n.MinSpines
	return nil
}

// minSpinesNote says what min_spines built against the spines the links
// alone need (the same plane sized without it), or that the plane has
// no spines to keep.
func minSpinesNote(n Network, spec fabric.Spec, pl fabric.Plane) []string {
	if n.MinSpines == 0 {
		return nil
	}
	if pl.Tiers == 1 {
		return []string{fmt.Sprintf("min_spines = %d does not apply: one switch holds the plane (set tiers = 2 for leaves and spines)", n.MinSpines)}
	}
	spec.MinSpines = 0
	need, err := fabric.Size(spec)
	spines := fabric.CountSwitches(pl.SpineLoads)
	if err != nil || need.Tiers != pl.Tiers || fabric.CountSwitches(need.SpineLoads) >= spines {
		return []string{fmt.Sprintf("min_spines = %d: the links already need %s a plane", n.MinSpines, textfmt.Plural(spines, "spine"))}
	}
	where := "a plane"
	if pl.Tiers == 3 {
		where = "a plane, at least " + textfmt.Int(n.MinSpines) + " a pod"
	}
	return []string{fmt.Sprintf("min_spines = %d: %s %s where the links need %s; a full leaf's %s spread over them, room for leaves added later",
		n.MinSpines, textfmt.Plural(spines, "spine"), where, textfmt.Int(fabric.CountSwitches(need.SpineLoads)), textfmt.Plural(spec.Up, "uplink"))}
}

// leafShapeInput is one leaf-shape input a plan may set, for
// offerLeafShapes: whether it is set, how the design without it is
// written, what leaving it out gives up, and how to clear it.
type leafShapeInput struct {
	set            bool
	design, caveat string
	clear          func(*Scenario)
}

// offerLeafShapes prices the plan without each leaf-shape input it sets
// (servers_per_leaf: leaves filled to their ports; min_spines: the
// spines the links need) and, where that costs less, names it among the
// cheaper designs with a note saying what the shape costs. A shape is
// the design's own choice (a stripe size, room to grow), so it is
// offered, never applied.
func (p *Plan) offerLeafShapes(cat *Catalog) {
	n := p.Scenario.Network
	for _, in := range []leafShapeInput{
		{n.ServersPerLeaf > 0, "servers_per_leaf = 0", "leaves filled to their ports: more servers on each, so fewer leaves",
			func(s *Scenario) { s.Network.ServersPerLeaf = 0 }},
		{n.MinSpines > 0, "min_spines = 0", "only the spines the links need: a leaf added later may need spines added and links moved",
			func(s *Scenario) { s.Network.MinSpines = 0 }},
	} {
		if !in.set {
			continue
		}
		alt := p.Scenario
		in.clear(&alt)
		a, err := Build(alt, cat)
		if err != nil || a.Cost.Total >= p.Cost.Total {
			continue
		}
		usd := p.MoneyScale()
		saving := p.Cost.Total - a.Cost.Total
		p.Cheaper = append(p.Cheaper, Cheaper{Design: in.design, CostUSD: a.Cost.Total, SavingUSD: saving, Caveat: in.caveat, apply: in.clear})
		p.Notes = append(p.Notes, fmt.Sprintf("cheaper with %s (%s): %s leaves, %s, %s against %s for %s, %s less",
			in.design, in.caveat, textfmt.Int(a.Switches(TierLeaf)), textfmt.Plural(a.Switches(TierSpine), "spine"),
			textfmt.Plural(a.TotalSwitches(), "switch"), textfmt.Int(p.TotalSwitches()), usd.Format(a.Cost.Total), usd.Format(saving)))
	}
}

// DropOtherStyleInputs clears the leaf-shape inputs that belong to the
// other leaf style than n's: a top-of-rack size and leaf pairs beside
// rail leaves, a rail leaf's size beside top-of-rack leaves. The design
// style's field and the window's rail-optimized toggle both call it.
func (n *Network) DropOtherStyleInputs() {
	if n.RailOptimized {
		n.ServersPerToR = 0
		n.LeafPairs, n.PeerLinkPorts = false, 0 // pairs are top-of-rack
	} else {
		n.ServersPerLeaf = 0 // a rail leaf's size; a ToR's is servers_per_tor
	}
}
