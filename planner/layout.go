package planner

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// UnitLayout is the scalable unit a plan reports and how its nodes map
// to leaves: the vendor's reference unit where the system publishes one
// (an NVL72 SuperPOD SU is 8 racks, 144 trays, 576 GPUs), else the nodes
// one group of leaves holds.
type UnitLayout struct {
	Servers       int    `json:"unit_servers"` // nodes (servers or trays) of one SU, per plane
	GPUs          int    `json:"unit_gpus"`
	LeafAlignment string `json:"leaf_alignment"` // AlignRack or AlignPacked
	// Reference names the published layout followed ("" when none).
	Reference string `json:"reference,omitempty"`
	// refNodes is the reference unit asked for, kept until the leaf
	// group is known.
	refNodes int
	// refTiers is the tiers the reference layout set where the scenario
	// left them to the planner (0: none set).
	refTiers int
}

// UnitCount is the scalable units of the plan (reference units where
// the system has one), a partial one counted.
func (p *Plan) UnitCount() int { return ceilDiv(p.Servers, max(p.Unit.Servers, 1)) }

// UnitWords describes one unit: "of 144 nodes (576 GPUs), leaves
// rack-aligned (gb200-nvl72 reference unit)".
func (p *Plan) UnitWords() string {
	s := fmt.Sprintf("of %s (%s) per plane", textfmt.Plural(p.Unit.Servers, "node"), textfmt.Plural(p.Unit.GPUs, "GPU"))
	if p.Unit.LeafAlignment == AlignRack {
		s += ", leaves rack-aligned"
	}
	if p.Unit.Reference != "" && p.Unit.Servers != p.ServersPerUnit {
		s += " (" + p.Unit.Reference + ")"
	}
	return s
}

// withGroup settles the unit once the leaf group is sized: the reference
// unit when it is whole leaf groups, else one leaf group.
func (u UnitLayout) withGroup(groupNodes, gpusPerNode int) UnitLayout {
	u.Servers = groupNodes
	if u.refNodes > 0 && groupNodes > 0 && u.refNodes%groupNodes == 0 {
		u.Servers = u.refNodes
	}
	u.GPUs = u.Servers * gpusPerNode
	return u
}

// align applies the leaf alignment to a rail-optimized fabric of a
// rack-scale system: with AlignRack a leaf takes the trays of as many
// whole racks on its rail as its down ports hold, and the uplinks those
// need at the ratio; its other ports stay empty (NVIDIA's GB200
// SuperPOD: 18 down, 18 up of a QM9700's 64). It returns the unit to
// report and a note saying what was followed.
func (spec *fabricSpec) align(sys *System, alignment string, servers int) (UnitLayout, string) {
	u := UnitLayout{LeafAlignment: AlignPacked}
	if sys == nil {
		return u, ""
	}
	u.refNodes = sys.UnitNodes
	if sys.UnitNodes > 0 {
		u.Reference = "the " + sys.Key + " SuperPOD unit"
	}
	if sys.RackNodes == 0 || !spec.RailOptimized || servers*spec.Rails <= spec.Radix {
		return u, ""
	}
	if alignment != AlignRack {
		return u, fmt.Sprintf("leaves packed (leaf_alignment = %q): a rack's %d trays of one rail may straddle two leaves, unlike the %s reference layout", AlignPacked, sys.RackNodes, sys.Key)
	}
	racks := spec.Down / sys.RackNodes
	if racks == 0 {
		return u, fmt.Sprintf("leaves packed: a leaf's %d server ports cannot take one rack's %d trays of a rail", spec.Down, sys.RackNodes)
	}
	u.LeafAlignment = AlignRack
	tiersNote := ""
	if racks == 1 {
		// The published three-tier pod is for one rack per leaf (GB200
		// on QM9700: an SU rail's 8 leaves under 6 spines), built from
		// ThreeTierUnits SUs on.
		spec.PodLeaves, spec.RailPods = sys.PodLeaves, sys.PodLeaves > 0
		if units := ceilDiv(servers, max(sys.UnitNodes, 1)); spec.Tiers == 0 && sys.ThreeTierUnits > 0 && units >= sys.ThreeTierUnits {
			spec.Tiers, u.refTiers = 3, 3
			tiersNote = fmt.Sprintf("; three tiers from %d SU as the reference: each SU's %d leaves of one rail under their own spines (a spine-leaf group), the groups joined by core groups (the scenario's tiers overrides it)",
				sys.ThreeTierUnits, sys.PodLeaves)
		}
	}
	if racks*sys.RackNodes == spec.Down {
		// Racks fill the leaf: rack-aligned and packed are the same.
		return u, fmt.Sprintf("rack-aligned leaves (the %s reference layout): %s' %d trays of one rail fill each leaf's %d server ports%s",
			sys.Key, textfmt.Plural(racks, "rack"), spec.Down, spec.Down, tiersNote)
	}
	spec.Down = racks * sys.RackNodes
	spec.Up = spec.UpFor(spec.Down)
	return u, fmt.Sprintf("rack-aligned leaves (the %s reference layout): each leaf takes the %d trays of %s on one rail, %d down and %d up of its %d ports (leaf_alignment = %q packs them)%s",
		sys.Key, spec.Down, textfmt.Plural(racks, "rack"), spec.Down, spec.Up, spec.Radix, AlignPacked, tiersNote)
}

// comparePacked prices the packed alternative of a rack-aligned plan and
// says what it would save; the saving is offered as a cheaper design.
// Where the reference layout chose three tiers, two tiers are priced
// too.
func (p *Plan) comparePacked(s Scenario, cat *Catalog) {
	if p.Unit.LeafAlignment != AlignRack {
		return
	}
	p.compareTwoTiers(s, cat)
	s.Network.LeafAlignment = AlignPacked
	alt := p.cheapestBelow(cat, []designOption{{s, p.Switch}}, 1)
	if alt == nil {
		return
	}
	saving := p.Cost.Total - alt.Cost.Total
	p.Notes = append(p.Notes, fmt.Sprintf("packed leaves (leaf_alignment = %q) would take %s instead of %s: %s less (%.0f%%), with racks straddling leaves",
		AlignPacked, textfmt.Plural(alt.TotalSwitches(), "switch"), textfmt.Plural(p.TotalSwitches(), "switch"), p.MoneyScale().Format(saving), 100*saving/p.Cost.Total))
	p.Cheaper = append(p.Cheaper, Cheaper{Design: fmt.Sprintf("leaf_alignment = %q", AlignPacked), CostUSD: alt.Cost.Total, SavingUSD: saving,
		Caveat: "racks straddle leaves, unlike the reference layout",
		apply:  func(s *Scenario) { s.Network.LeafAlignment = AlignPacked }})
}

// compareTwoTiers prices two tiers where the reference layout built
// three although two hold the nodes (GB200 SuperPOD, 2 SU: 64 leaves
// under 18 shared spines against NVIDIA's 48 spines and 18 cores), and
// offers the saving as a cheaper design.
func (p *Plan) compareTwoTiers(s Scenario, cat *Catalog) {
	if p.Unit.refTiers != 3 {
		return
	}
	s.Network.Tiers = 2
	alt := p.cheapestBelow(cat, []designOption{{s, p.Switch}}, 1)
	if alt == nil {
		return
	}
	saving := p.Cost.Total - alt.Cost.Total
	p.Notes = append(p.Notes, fmt.Sprintf("two tiers (tiers = 2) would take %s instead of %s: %s less (%.0f%%), every SU sharing the spines instead of the reference's spine-leaf groups and cores",
		textfmt.Plural(alt.TotalSwitches(), "switch"), textfmt.Plural(p.TotalSwitches(), "switch"), p.MoneyScale().Format(saving), 100*saving/p.Cost.Total))
	p.Cheaper = append(p.Cheaper, Cheaper{Design: "tiers = 2", CostUSD: alt.Cost.Total, SavingUSD: saving,
		Caveat: "SUs share spines, unlike the reference's spine-leaf groups",
		apply:  func(s *Scenario) { s.Network.Tiers = 2 }})
}

// Cheaper is a design that gives the same ports and ratio for less.
type Cheaper struct {
	Design    string  `json:"design"` // what to change, as the scenario writes it
	CostUSD   float64 `json:"cost_usd"`
	SavingUSD float64 `json:"saving"`
	// Caveat is what the design gives up ("" when nothing but the
	// cost changes), e.g. racks straddling leaves.
	Caveat string `json:"caveat,omitempty"`
	apply  func(s *Scenario)
}

// Apply writes the cheaper design's changes over s.
func (c Cheaper) Apply(s *Scenario) {
	if c.apply != nil {
		c.apply(s)
	}
}

// GPUsBought is the GPUs the plan buys: whole systems (a rack-scale
// system by the rack) or whole servers; at least the GPUs asked.
func (p *Plan) GPUsBought() int {
	if p.System != nil {
		return p.Systems * p.System.GPUs
	}
	return max(p.Servers*p.Scenario.Cluster.GPUsPerServer, p.GPUs)
}

// BoughtText says which GPUs cost per GPU divides by: "per GPU bought"
// or "per GPU bought (1,008; 1,000 asked)".
func (p *Plan) BoughtText() string {
	if b := p.GPUsBought(); b != p.GPUs {
		return fmt.Sprintf("per GPU bought (%s; %s asked)", textfmt.Int(b), textfmt.Int(p.GPUs))
	}
	return "per GPU bought"
}

// PerGPUText is the cost per GPU with what it divides by: "$6,026 per
// GPU bought (1,008; 1,000 asked)".
func (p *Plan) PerGPUText() string {
	return textfmt.USDExact(p.Cost.PerGPU) + " " + p.BoughtText()
}

// BuiltOversubscription is the ratio each tier with uplinks is built
// at: down links over up links for the tier, and for its most
// oversubscribed switch (a partial leaf keeps the asked ratio or better).
func (p *Plan) BuiltOversubscription() []TierOversub {
	var out []TierOversub
	for i, t := range p.SwitchTiers {
		if t.UpLinks == 0 {
			continue
		}
		bw := speedRatio(t) // down ports and uplinks may run at different speeds: the ratio is in bandwidth
		o := TierOversub{Tier: t.Name, Ratio: float64(t.DownLinks) / float64(t.UpLinks) * bw}
		if i < len(p.tierLoads) {
			for _, l := range p.tierLoads[i] {
				if l.Up > 0 {
					o.Worst = max(o.Worst, float64(l.Down)/float64(l.Up)*bw)
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// rackScaleHint names the catalog systems a custom server with as many
// GPUs as a rack-scale system matches: planned as one server it has one
// rail per GPU (72 leaves per unit for an NVL72-like 72), where the
// system plans its trays' NICs.
func rackScaleHint(s Scenario, cat *Catalog) []string {
	if s.system(cat) != nil {
		return nil
	}
	var keys []string
	for k, c := range cat.Systems { // only the matches are sorted: every plan asks
		if c.RackScale() && c.GPUs == s.Cluster.GPUsPerServer {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	sys := cat.Systems[keys[len(keys)-1]]
	for i, k := range keys {
		keys[i] = "--system " + k
	}
	return []string{fmt.Sprintf("%d GPUs per server is a rack-scale system's NVLink domain: %s plans it as %d trays of %d NICs each (%d rails), not one server of %d rails",
		s.Cluster.GPUsPerServer, textfmt.JoinOr(keys), sys.Nodes, sys.NICsPerNode, sys.NICsPerNode, s.Network.NICsPerServer)}
}

// joinLanes is the lane rate a link between the NIC and the switch runs
// at port Gb/s: the fastest both run that divides the port speed. None
// is an error naming both parts and what would join.
func joinLanes(cat *Catalog, nic *NIC, sw *Switch, port int) (int, error) {
	var usable []int
	for _, l := range nic.LaneGbps {
		if port%l == 0 {
			usable = append(usable, l)
		}
	}
	if lane := SharedLane(usable, sw.LaneGbps); lane > 0 {
		return lane, nil
	}
	fix := "choose a switch and NIC that run a common lane rate"
	var joins []string
	for _, alt := range cat.SwitchesFor(sw.Fabric, port) {
		if SharedLane(usable, alt.LaneGbps) > 0 {
			joins = append(joins, alt.Key)
		}
	}
	if len(joins) > 0 {
		fix = "use " + textfmt.JoinOr(joins) + " with this NIC, or a NIC with " + laneList(sw.LaneGbps) + " lanes"
	}
	return 0, fielderr.New("network.switch", fix,
		"%s (%s lanes) and %s (%s lanes) cannot share a lane rate at %dG", nic.Key, laneList(nic.LaneGbps), sw.Key, laneList(sw.LaneGbps), port)
}

// laneList writes lane rates as "100G" or "100G/50G".
func laneList(lanes []int) string {
	var s []string
	for _, l := range lanes {
		s = append(s, fmt.Sprintf("%dG", l))
	}
	return strings.Join(s, "/")
}
