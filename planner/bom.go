package planner

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
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
	Category string  // CatNIC, CatSwitch, CatTransceiver or CatCable
	Key      string  // catalog key
	Name     string  // catalog name
	Where    string  // e.g. "server side", "leaf", "leaf_spine 50 m"
	Qty      int     // units
	UnitUSD  float64 // price of one unit, scenario overrides applied
	// UnitLowUSD and UnitHighUSD bound the unit price (the catalog's
	// range; both equal UnitUSD when the scenario overrides the price).
	UnitLowUSD, UnitHighUSD float64
	TotalUSD                float64
	UnitWatts               float64
	TotalWatts              float64
	Source                  string // where the price came from
	Estimate                bool   // the price or watts is an estimate
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
		p.Cost.LowUSD += float64(l.Qty) * l.UnitLowUSD
		p.Cost.HighUSD += float64(l.Qty) * l.UnitHighUSD
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
	nicLine := BOMLine{Category: CatNIC, Key: nic.Key, Name: nic.Name, Where: "servers", Qty: p.NICs,
		UnitWatts: nic.Watts, Source: nic.Source.Price, Estimate: nic.Source.Estimate}
	nicLine.UnitUSD, nicLine.UnitLowUSD, nicLine.UnitHighUSD = s.priceRange(nic.Key, nic.PriceUSD, nic.PriceRangeUSD)
	add(nicLine)
	for _, t := range p.SwitchTiers {
		l := BOMLine{Category: CatSwitch, Key: sw.Key, Name: sw.Name, Where: t.Name, Qty: t.Switches,
			UnitWatts: sw.Watts, Source: sw.Source.Price, Estimate: sw.Source.Estimate}
		l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD = s.priceRange(sw.Key, sw.PriceUSD, sw.PriceRangeUSD)
		add(l)
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
		f := cb.PriceRangeFactor
		l := BOMLine{Category: CatCable, Key: cb.Key, Name: cb.Name, Where: fmt.Sprintf("%s %g m", t.Name, t.Metres), Qty: t.Links,
			UnitUSD: unit, UnitLowUSD: unit * f[0], UnitHighUSD: unit * f[1], UnitWatts: cb.Watts, Source: cb.Source.Price, Estimate: cb.Source.Estimate}
		if o, ok := s.Prices[cb.Key]; ok {
			l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD = o, o, o
		}
		add(l)
	}

	p.Cost.Total = p.Cost.NICs + p.Cost.Switches + p.Cost.Transceivers + p.Cost.Cables
	p.Cost.PerGPU = p.Cost.Total / float64(p.GPUs)
	p.fabricShare()
	p.Cost.Drivers = p.priceDrivers(3)
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
	l := BOMLine{Category: CatTransceiver, Key: mod.Key, Name: mod.Name, Where: where, Qty: n,
		UnitWatts: mod.Watts, Source: mod.Source.Price, Estimate: mod.Source.Estimate}
	l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD = p.Scenario.priceRange(mod.Key, mod.PriceUSD, mod.PriceRangeUSD)
	return l
}

// PriceDriver is one catalog item whose price range moves the plan's
// cost: the swing from its low to its high price, all units.
type PriceDriver struct {
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	SwingUSD float64 `json:"swing_usd"`
}

// priceDrivers lists the BOM's items by the swing of their price range,
// largest first, at most n.
func (p *Plan) priceDrivers(n int) []PriceDriver {
	swing := map[string]*PriceDriver{}
	var order []string
	for _, l := range p.BOM {
		d := swing[l.Key]
		if d == nil {
			d = &PriceDriver{Key: l.Key, Name: l.Name}
			swing[l.Key] = d
			order = append(order, l.Key)
		}
		d.SwingUSD += float64(l.Qty) * (l.UnitHighUSD - l.UnitLowUSD)
	}
	out := make([]PriceDriver, 0, len(order))
	for _, k := range order {
		if swing[k].SwingUSD > 0 {
			out = append(out, *swing[k])
		}
	}
	slices.SortStableFunc(out, func(a, b PriceDriver) int { return cmpFloat(b.SwingUSD, a.SwingUSD) })
	return out[:min(n, len(out))]
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
