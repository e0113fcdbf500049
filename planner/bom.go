package planner

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// Component categories of a bill of materials.
const (
	CatNIC         = "NIC"
	CatSwitch      = "switch"
	CatTransceiver = "transceiver"
	CatCable       = "cable"
)

// BOMLine is one item of the bill of materials.
type BOMLine struct {
	Category   string  // CatNIC, CatSwitch, CatTransceiver or CatCable
	Key        string  // catalog key
	Name       string  // catalog name
	Where      string  // e.g. "server side", "leaf", "leaf_spine 50 m"
	Qty        int     // units
	UnitUSD    float64 // price of one unit, scenario overrides applied
	TotalUSD   float64
	UnitWatts  float64
	TotalWatts float64
	Source     string // where the price came from
	Estimate   bool   // the price or watts is an estimate
}

// fillBOM counts transceivers and cables and prices everything.
func (p *Plan) fillBOM(cat *Catalog, pl plane) error {
	s := &p.Scenario
	P := p.Planes
	add := func(l BOMLine) {
		if l.Qty == 0 {
			return
		}
		l.TotalUSD = float64(l.Qty) * l.UnitUSD
		l.TotalWatts = float64(l.Qty) * l.UnitWatts
		p.BOM = append(p.BOM, l)
		switch l.Category {
		case CatNIC:
			p.Cost.NICs += l.TotalUSD
			p.Power.NICs += l.TotalWatts
		case CatSwitch:
			p.Cost.Switches += l.TotalUSD
			p.Power.Switches += l.TotalWatts
		case CatTransceiver:
			p.Cost.Transceivers += l.TotalUSD
			p.Power.Transceivers += l.TotalWatts
		case CatCable:
			p.Cost.Cables += l.TotalUSD
			p.Power.Cables += l.TotalWatts
		}
	}
	nic, sw := p.NIC, p.Switch
	add(BOMLine{Category: CatNIC, Key: nic.Key, Name: nic.Name, Where: "servers", Qty: p.NICs,
		UnitUSD: s.price(nic.Key, nic.PriceUSD), UnitWatts: nic.Watts, Source: nic.Source.Price, Estimate: nic.Source.Estimate})
	for _, t := range p.SwitchTiers {
		add(BOMLine{Category: CatSwitch, Key: sw.Key, Name: sw.Name, Where: t.Name, Qty: t.Switches,
			UnitUSD: s.price(sw.Key, sw.PriceUSD), UnitWatts: sw.Watts, Source: sw.Source.Price, Estimate: sw.Source.Estimate})
	}

	media := s.Network.Media
	// Server-side optics: the system's back-end modules, or one module
	// per NIC cage in use.
	if sys := p.System; media.ServerLeaf == Optics && s.Network.PortsPerNIC == 1 && cat.Transceivers[sys.moduleKey()] != nil &&
		cat.Transceivers[sys.moduleKey()].LinkGbps == p.PortGbps {
		mod := cat.Transceivers[sys.ServerModule]
		n := p.Servers * sys.ModulesPerNode
		p.ServerTransceivers = n
		add(p.moduleLine(mod, "server side ("+sys.Key+" cages)", n))
	} else if media.ServerLeaf == Optics {
		ppn := s.Network.PortsPerNIC
		cages := min(nic.Cages, ppn)
		if ppn%cages != 0 {
			return fieldErr("network.ports_per_nic", fmt.Sprintf("use a multiple of %d", cages), "%d ports do not spread over %s's %d cages", ppn, nic.Key, cages)
		}
		mod := cat.Module(nic.Form, p.PortGbps, ppn/cages)
		if mod == nil {
			return fieldErr("network.media.server_leaf", "use aoc, or add the module to the catalog",
				"no %s transceiver carries %d x %dG for %s", nic.Form, ppn/cages, p.PortGbps, nic.Key)
		}
		n := p.NICs * cages
		p.ServerTransceivers = n
		add(p.moduleLine(mod, "server side", n))
	}
	// Switch-side optics: ports in use, grouped by cage; a twin-port cage
	// takes one module for up to two links.
	c := sw.LinksPerCage(p.PortGbps)
	mods := func(loads []switchLoad, down, up bool) int {
		n := 0
		for _, l := range loads {
			if down {
				n += l.switches * ceilDiv(l.down, c)
			}
			if up {
				n += l.switches * ceilDiv(l.up, c)
			}
		}
		return n * P
	}
	switchMods := mods(pl.leafLoads, media.ServerLeaf == Optics, media.LeafSpine == Optics) +
		mods(pl.spineLoads, media.LeafSpine == Optics, media.SpineCore == Optics) +
		mods(pl.coreLoads, media.SpineCore == Optics, false)
	if switchMods > 0 {
		mod := cat.Module(sw.Form, p.PortGbps, c)
		if mod == nil {
			return fieldErr("network.switch", "use copper or AOC media, or add the module to the catalog",
				"no %s transceiver carries %d x %dG for %s cages", sw.Form, c, p.PortGbps, sw.Key)
		}
		p.SwitchTransceivers = switchMods
		add(p.moduleLine(mod, "switch side", switchMods))
	}
	// Cables: one per link.
	for _, t := range p.LinkTiers {
		key := string(t.Medium)
		if t.Medium == Optics {
			key = fiberKey
		}
		cb := cat.Cables[key]
		reach := cb.Reach(p.PortGbps)
		field := "network.media." + t.Name
		if reach == 0 {
			return fieldErr(field, "choose another medium (transceiver works at every speed)", "%s is not offered at %dG", t.Medium, p.PortGbps)
		}
		if t.Metres > float64(reach) {
			return fieldErr(field+"_m", fmt.Sprintf("use %g m or less, or another medium", float64(reach)),
				"%g m is beyond %s reach at %dG (%d m)", t.Metres, t.Medium, p.PortGbps, reach)
		}
		unit := cb.PriceUSD(t.Metres)
		if o, ok := s.Prices[cb.Key]; ok {
			unit = o
		}
		add(BOMLine{Category: CatCable, Key: cb.Key, Name: cb.Name, Where: fmt.Sprintf("%s %g m", t.Name, t.Metres), Qty: t.Links,
			UnitUSD: unit, UnitWatts: cb.Watts, Source: cb.Source.Price, Estimate: cb.Source.Estimate})
	}

	p.Cost.Total = p.Cost.NICs + p.Cost.Switches + p.Cost.Transceivers + p.Cost.Cables
	p.Cost.PerGPU = p.Cost.Total / float64(p.GPUs)
	p.fabricShare()
	p.Power.Total = p.Power.NICs + p.Power.Switches + p.Power.Transceivers + p.Power.Cables
	return nil
}

// fabricShare sets the fabric's share of cluster capex: fabric cost over
// fabric plus compute. Compute is servers (custom) or systems at their
// price; NICs a system's price includes are counted once, in the fabric.
func (p *Plan) fabricShare() {
	s := &p.Scenario
	compute, units := s.Cluster.ServerPriceUSD, p.Servers
	if sys := p.System; sys != nil {
		units = p.Systems
		if compute == 0 {
			compute = s.price(sys.Key, sys.PriceUSD)
		}
		if sys.NICsIncluded {
			compute -= float64(sys.NICsPerNode*sys.Nodes) * s.price(p.NIC.Key, p.NIC.PriceUSD)
		}
	}
	if compute <= 0 {
		return
	}
	p.Cost.ComputeUSD = compute * float64(units)
	p.Cost.FabricShare = p.Cost.Total / (p.Cost.Total + p.Cost.ComputeUSD)
}

func (p *Plan) moduleLine(mod *Transceiver, where string, n int) BOMLine {
	return BOMLine{Category: CatTransceiver, Key: mod.Key, Name: mod.Name, Where: where, Qty: n,
		UnitUSD: p.Scenario.price(mod.Key, mod.PriceUSD), UnitWatts: mod.Watts, Source: mod.Source.Price, Estimate: mod.Source.Estimate}
}

// WriteBOMCSV writes the bill of materials as CSV with plain numbers, one
// line per item, for a spreadsheet.
func WriteBOMCSV(w io.Writer, p *Plan) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"category", "key", "name", "where", "qty", "unit_usd", "total_usd", "watts", "estimate", "source"})
	for _, l := range p.BOM {
		cw.Write([]string{l.Category, CSVText(l.Key), CSVText(l.Name), CSVText(l.Where), strconv.Itoa(l.Qty), strconv.FormatFloat(l.UnitUSD, 'f', 2, 64),
			strconv.FormatFloat(l.TotalUSD, 'f', 2, 64), strconv.FormatFloat(l.TotalWatts, 'f', 1, 64), strconv.FormatBool(l.Estimate), CSVText(l.Source)})
	}
	cw.Flush()
	return cw.Error()
}
