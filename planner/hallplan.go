package planner

import (
	"errors"
	"fmt"
	"slices"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
)

// layoutInputs is what laying p out in a hall needs (see hall.Inputs):
// its nodes and units, each tier's switches per plane, and the height
// and peak draw of a node and of each tier's switch with its optics.
func (p *Plan) layoutInputs(f hall.Facility, cat *Catalog) hall.Inputs {
	lay := p.layout
	in := hall.Inputs{Servers: p.Servers, Units: p.Units + p.storageUnits(), ServersPerUnit: lay.ServersPerUnit, LeavesPerUnit: lay.LeavesPerUnit,
		Planes: p.Planes, NodeKW: f.ServerKW, NodeUnits: f.ServerUnits, NodesPerSystem: 1, Cooling: "air",
		SwitchUnits: max(p.Switch.RackUnits, 1)}
	if sys := p.System; sys != nil {
		in.NodeKW = sys.Watts / 1000 / float64(sys.Nodes)
		in.NodeUnits = max(sys.RackUnits, 1)
		in.NodesPerSystem = sys.Nodes
		in.SwitchTrays = sys.SwitchTrays
		if sys.Cooling != "" {
			in.Cooling = sys.Cooling
		}
	}
	for _, run := range lay.Pods {
		for range run.Count {
			in.PodSpines = append(in.PodSpines, run.Spines)
			in.SpinesPerPlane += run.Spines
			for _, l := range run.Leaves {
				in.LeavesPerPlane += l.Switches
			}
		}
	}
	for _, cr := range lay.CoreGroups {
		in.CoresPerPlane += cr.Groups * cr.Cores
	}
	in.SwitchKW = p.tierPeakKW(cat, 0, p.PortGbps, p.LaneGbps)
	for i, tier := range []string{TierSpine, TierCore} {
		sw, link := p.SwitchOf(tier), MediaTiers[i+1]
		in.UpperUnits[i] = max(sw.RackUnits, 1)
		in.UpperKW[i] = p.tierPeakKW(cat, i+1, p.TierGbps(link), p.endLane(link, sw))
	}
	p.layDistributed(cat, &in)
	return in
}

// switchPeakKW is a switch's peak: the chassis and one module per cage
// of its ports at gbps.
func switchPeakKW(cat *Catalog, sw *Switch, gbps, lane int) float64 {
	kw := sw.Watts / 1000
	c := sw.LinksPerCage(gbps)
	if mod, _ := cat.Module(sw.Form, gbps, c, lane, 0); mod != nil {
		kw += float64(sw.Radix(gbps)/c) * mod.Watts / 1000
	}
	return kw
}

// layOut lays the plan out in a hall, with the data's defaults for what
// the scenario's [facility] table leaves out (all of it without one).
// No hall is laid out (each tier's links keep one length) with layout =
// "flat", for a scenario that gives its link lengths in network.media
// without a [facility] table, for a plan that asks for totals only
// (flatLinks: sweeps and searches) or without facility data in the
// catalog.
func (p *Plan) layOut(cat *Catalog) error {
	s := &p.Scenario
	if !s.laysHall(cat) || !s.countedLinks && p.recallHall(cat) {
		return nil
	}
	notes := len(p.Notes)
	f := s.Facility.Resolve(s.hallDefaults(cat), leafInRack(s))
	newHall := hall.New
	if p.countsUpper() {
		newHall = hall.NewCounting // its links are counted: no rack list
	}
	h, err := newHall(p.layoutInputs(f, cat), f, cat.Facility.Constants)
	var fe *fielderr.FieldError
	if err != nil && f.LeafPlacement == hall.PlaceToR && (s.Facility == nil || s.Facility.LeafPlacement == "") && errors.As(err, &fe) && fe.Field == "facility.leaf_placement" {
		// Top of rack was the default, not asked: leaves that do not
		// fit in the compute racks go to leaf racks in the row.
		f.LeafPlacement = cat.Facility.Defaults.LeafPlacement
		if h, err = newHall(p.layoutInputs(f, cat), f, cat.Facility.Constants); err == nil {
			p.Notes = append(p.Notes, fmt.Sprintf("leaves in leaf racks at the %s of each row: %s", f.LeafPlacement, fe.Problem))
		}
	}
	if err != nil {
		return err
	}
	p.Hall = h
	if _, err := p.fabricLinkRuns(cat); err != nil {
		return err
	}
	p.Notes = append(p.Notes, h.Notes()...)
	if p.hallRun != nil {
		p.hallRun.notes = slices.Clone(p.Notes[notes:])
	}
	return nil
}

// leafInRack reports whether the design puts each leaf in the rack of
// the servers it serves (top of rack), so that a blank leaf_placement
// lays the leaves out in the compute racks: a fabric that is not
// rail-optimized, whose leaf takes whole servers. Design styles that
// place the leaf in the rack extend this rule.
func leafInRack(s *Scenario) bool {
	return s.Network.Style() == TopoToR // a named style over rail_optimized
}

// laysHall reports whether a plan of s is laid out in the hall (see
// layOut).
func (s *Scenario) laysHall(cat *Catalog) bool {
	return cat.Facility != nil && !s.flatLinks && !s.givesLengths() && (s.Facility == nil || s.Facility.Layout != hall.LayoutFlat)
}

// NoHallReason says why a plan of s is not laid out in a hall, naming
// the input that decides it; "" when it is.
func (s *Scenario) NoHallReason(cat *Catalog) string {
	switch {
	case s.laysHall(cat):
		return ""
	case cat.Facility == nil:
		return "the catalog has no facility data"
	case s.flatLinks || s.Facility != nil && s.Facility.Layout == hall.LayoutFlat:
		return "the links are priced at flat lengths (facility.layout = \"flat\" or --link-layout flat): remove it to lay the hall out"
	default:
		return "the scenario fixes its link lengths (network.media): remove them, or add a [facility] table, to lay the hall out"
	}
}

// givesLengths reports whether the scenario fixes its link lengths in
// network.media without a [facility] table: those lengths are kept
// (no hall is laid out).
func (s *Scenario) givesLengths() bool {
	m := s.Network.Media
	return s.Facility == nil && (m.ServerLeafM != 0 || m.LeafSpineM != 0 || m.SpineCoreM != 0)
}

// Elevation lists what rack i of the plan's hall holds, bottom up, with
// the units reserved at the top: nodes under the system's name,
// switches under their tier's model.
func (p *Plan) Elevation(i int) []hall.RackSlot {
	node := "server"
	if p.System != nil {
		node = p.System.Name
	}
	return p.Hall.Elevation(i, node, func(kind string) string { return p.SwitchOf(rackTier(kind)).Key })
}
