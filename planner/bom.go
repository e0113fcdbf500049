package planner

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
	"fabricplan/planner/resilience"
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
	// Quote is the vendor quote the line is priced at (nil: none);
	// QuoteExpired says its validity ended before the plan's date.
	Quote        *Quote
	QuoteExpired bool
	// Premium says the list basis's branded premium is in the price.
	Premium bool
	// VolumeRule says the volume basis's discount rule, an estimate, is
	// in the price (the part has no volume price of its own).
	VolumeRule bool `json:",omitempty"`
	// Spare lines are parts on the shelf (they draw no power).
	Spare bool
	tier  string // the switch or link tier the line serves
}

// Part is the part's catalog name (its key when it has none).
func (l BOMLine) Part() string {
	if l.Name != "" {
		return l.Name
	}
	return l.Key
}

// Place is Where as people read it: "leaf-spine 50 m", not the tier keys.
func (l BOMLine) Place() string { return strings.ReplaceAll(l.Where, "_", "-") }

// fillBOM counts transceivers and cables and prices everything.
func (p *Plan) fillBOM(cat *Catalog, pl fabric.Plane) error {
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
	nic := p.NIC
	// NIC, switches, server and switch modules and cables, each maybe spared.
	p.BOM = make([]BOMLine, 0, 2*(2+len(p.SwitchTiers)+2*len(p.LinkTiers)))
	p.setBasis(cat)
	nicLine := BOMLine{Category: CatNIC, Key: nic.Key, Name: nic.Name, Where: "servers", Qty: p.NICs,
		UnitWatts: nic.Watts, Source: nic.Source.Price, Estimate: nic.Source.Estimate}
	nicLine.setPrice(s.partPrice(cat, nic.Key, nic.PriceUSD, nic.PriceRangeUSD, &nic.Pricing), s.Quotes)
	add(nicLine)
	for i := range p.SwitchTiers {
		if sw := p.SwitchOf(p.SwitchTiers[i].Name); sw.Chassis == nil {
			add(p.switchTierLine(cat, i, sw)) // a fixed switch: one line, no slice
			continue
		}
		for _, l := range p.switchTierLines(cat, i) {
			add(l)
		}
	}

	if p.Hall != nil {
		if err := p.fillLinkBOM(cat, add); err != nil {
			return err
		}
		return p.finishBOM(cat, add)
	}
	if err := p.chooseMedia(cat); err != nil {
		return err
	}
	if s.Network.Media.ServerLeaf == Optics {
		mod, n, where, err := p.serverModules(cat, s.Network.Media.ServerLeafM)
		if err != nil {
			return err
		}
		p.ServerTransceivers = n
		p.LinkTiers[0].LowerModule, p.LinkTiers[0].LowerModules = mod.Key, n
		add(p.moduleLine(cat, mod, where, "server_leaf", n))
	}
	// Switch-side optics: ports in use, grouped by cage; a twin-port cage
	// takes one module for up to two links. Each tier's links take the
	// cheapest module that reaches their length.
	ends := p.switchEndModules(pl, P)
	for i := range p.LinkTiers {
		if e := ends[i]; p.LinkTiers[i].Medium == Optics && e[0]+e[1] > 0 {
			if err := p.addSwitchModules(cat, i, e, add); err != nil {
				return err
			}
		}
	}
	// Cables: one per link.
	for i := range p.LinkTiers {
		t := &p.LinkTiers[i] // in place: a tier is 150 bytes
		key := string(t.Medium)
		if t.Medium == Optics {
			key = fiberKey
		}
		cb := cat.Cables[key]
		g := p.TierGbps(t.Name)
		if err := p.cableOffered(cb, t); err != nil {
			return err
		}
		if reach := cb.Reach(g); t.Metres > float64(reach) {
			return fielderr.New("network.media."+t.Name+"_m", fmt.Sprintf("use %d m or less, or another medium", reach),
				"%g m is beyond the reach of %s at %dG (%d m)", t.Metres, cb.Key, g, reach)
		}
		t.Cable = cb.Key
		l := BOMLine{Category: CatCable, Key: cb.Key, Name: cb.Name, Where: cableWhere(t), Qty: t.Links, tier: t.Name,
			UnitWatts: cb.Watts, Source: cb.Source.Price, Estimate: cb.Source.Estimate}
		l.setPrice(s.cablePrice(cat, cb, t.Metres), s.Quotes)
		add(l)
	}
	return p.finishBOM(cat, add)
}

// cableWhere is where a tier's cables go: "leaf_spine 50 m", written
// into one string.
func cableWhere(t *LinkTier) string {
	b := make([]byte, 0, 48)
	b = append(b, t.Name...)
	b = append(b, ' ')
	b = appendMetres(b, t.Metres)
	b = append(b, " m"...)
	return string(b)
}

// appendMetres appends m as strconv.FormatFloat(m, 'g', -1, 64) writes
// it. A whole number of metres under a million (every default length)
// is written as the integer it is, which is what 'g' gives there (it
// turns to an exponent from 1e6 on), without the shortest-digits search
// that was 2% of a sweep; negative zero, fractions and the rest go to
// strconv.
func appendMetres(b []byte, m float64) []byte {
	if m > -1e6 && m < 1e6 && m == math.Trunc(m) && !(m == 0 && math.Signbit(m)) {
		return strconv.AppendInt(b, int64(m), 10)
	}
	return strconv.AppendFloat(b, m, 'g', -1, 64)
}

// switchEndModules counts the switch-end modules per link tier
// (server_leaf, leaf_spine, spine_core, as LinkTiers lists them): at the
// lower end, at the upper, over planes planes. Leaves' down ports run at
// the server speed; their uplinks and the spines' down ports at the
// uplink speed; the spines' up ports and the cores at the core speed.
//
// A tier the plan does not have gets no count (fillBOM reads none): a
// cage's links are a map's, by the speed written out, and a sweep's
// plans of one or two tiers looked up those of the tiers above.
func (p *Plan) switchEndModules(pl fabric.Plane, planes int) [3][2]int {
	var out [3][2]int
	leaf, spine := p.Switch, p.SwitchOf(TierSpine)
	c := leaf.LinksPerCage(p.PortGbps)
	out[0][1] = cageModules(pl.LeafLoads, true, c, planes)
	if len(p.LinkTiers) < 2 {
		return out
	}
	gu := p.TierGbps("leaf_spine")
	lu, su := leaf.LinksPerCage(gu), spine.LinksPerCage(gu)
	out[1] = [2]int{cageModules(pl.LeafLoads, false, lu, planes), cageModules(pl.SpineLoads, true, su, planes)}
	if len(p.LinkTiers) < 3 {
		return out
	}
	gc := p.TierGbps("spine_core")
	sc, cc := spine.LinksPerCage(gc), p.SwitchOf(TierCore).LinksPerCage(gc)
	out[2] = [2]int{cageModules(pl.SpineLoads, false, sc, planes), cageModules(pl.CoreLoads, true, cc, planes)}
	return out
}

// cageModules is the modules the switches of loads take at their down
// (or up) ports, perCage links to a module, over planes planes.
func cageModules(loads []fabric.Load, down bool, perCage, planes int) int {
	n := 0
	for _, l := range loads {
		if down {
			n += l.Switches * ceilDiv(l.Down, perCage)
		} else {
			n += l.Switches * ceilDiv(l.Up, perCage)
		}
	}
	return n * planes
}

// finishBOM adds the spares and sums the cost and power: what a choice
// between candidate fabrics compares (see priceFindings for the rest).
func (p *Plan) finishBOM(cat *Catalog, add func(BOMLine)) error {
	if err := p.addLeafStorageLines(cat, add); err != nil {
		return err
	}
	if err := p.addLeafPairLines(cat, add); err != nil {
		return err
	}
	if rel := cat.Reliability; rel != nil {
		p.addSpares(p.Scenario.Reliability.apply(*rel).Spares, add)
	}

	p.Cost.Total = p.Cost.NICs + p.Cost.Switches + p.Cost.Transceivers + p.Cost.Cables
	p.Cost.PerGPU = p.Cost.Total / float64(p.GPUsBought())
	p.Power.Total = p.Power.NICs + p.Power.Switches + p.Power.Transceivers + p.Power.Cables
	return nil
}

// priceFindings works out what the chosen plan's cost says: the fabric's
// share of cluster capex, expired quotes and, with bands, the analysts'
// bands and the prices that move the total most. Candidates a choice
// drops (switch auto, the packed alternative, the cheaper-design check)
// skip it.
func (p *Plan) priceFindings(cat *Catalog, bands bool) {
	p.fabricShare(cat)
	p.quoteNotes()
	if !bands {
		return
	}
	p.SanityBands = p.Sanity(cat)
	drivers := p.CostSensitivity()
	p.Cost.Drivers = drivers[:min(3, len(drivers))]
}

// fabricShare sets the fabric's share of cluster capex: fabric cost over
// fabric plus compute. Compute is servers (custom) or systems at their
// price; NICs a system's price includes are counted once, in the fabric.
func (p *Plan) fabricShare(cat *Catalog) {
	compute, units := p.ComputeUnitUSD()
	if sys := p.System; sys != nil && sys.NICsIncluded {
		nic := p.Scenario.partPrice(cat, p.NIC.Key, p.NIC.PriceUSD, p.NIC.PriceRangeUSD, &p.NIC.Pricing)
		compute -= float64(sys.NICsPerNode*sys.Nodes) * nic.USD
	}
	if compute <= 0 {
		return
	}
	p.Cost.ComputeUSD = compute * float64(units)
	p.Cost.FabricShare = p.Cost.Total / (p.Cost.Total + p.Cost.ComputeUSD)
}

// setBasis records the price basis the plan is priced on and, on the
// volume basis, the price data its systems and cables are priced by.
func (p *Plan) setBasis(cat *Catalog) {
	p.Cost.Basis, p.volume = p.Scenario.PriceBasis(cat), nil
	if p.Cost.Basis == BasisVolume {
		p.volume = cat.Prices
	}
}

// ComputeUnitUSD is the price of one server (custom) or one system, as
// the scenario gives it or the catalog lists it (on the volume basis, the
// system's volume price or the discount rule), and how many the plan
// has; 0 when no price is known.
func (p *Plan) ComputeUnitUSD() (price float64, units int) {
	s := &p.Scenario
	price, units = s.Cluster.ServerPriceUSD, p.Servers
	if sys := p.System; sys != nil {
		units = p.Systems
		if price == 0 {
			pp := s.pointPrice(sys.Key, sys.PriceUSD, sys.PriceRangeUSD)
			if !pp.Override && pp.Quote == nil && p.volume != nil {
				pp = p.volume.volumePrice(sys.Key, sys.PriceUSD, sys.PriceRangeUSD)
			}
			price = pp.USD
		}
	}
	return price, units
}

// serverModules is the server end's transceiver for links of metres:
// the system's back-end modules, or one module per NIC cage in use.
func (p *Plan) serverModules(cat *Catalog, metres float64) (mod *Transceiver, n int, where string, err error) {
	s, nic := &p.Scenario, p.NIC
	if sys := p.System; sys != nil && s.Network.PortsPerNIC == 1 && p.systemModuleFits(cat.Transceivers[sys.ServerModule]) {
		mod = cat.Transceivers[sys.ServerModule]
		if float64(mod.ReachM) < metres {
			return nil, 0, "", fielderr.New("network.media.server_leaf_m", fmt.Sprintf("use %d m or less, or another medium", mod.ReachM),
				"%g m is beyond the reach of %s, the module %s takes (%d m)", metres, mod.Key, sys.Key, mod.ReachM)
		}
		return mod, p.Servers * sys.ModulesPerNode, "server side (" + sys.Key + " cages)", nil
	}
	ppn := s.Network.PortsPerNIC
	cages := min(nic.Cages, ppn)
	if ppn%cages != 0 {
		return nil, 0, "", fielderr.New("network.ports_per_nic", fmt.Sprintf("use a multiple of %d", cages), "%d ports do not spread over %s's %d cages", ppn, nic.Key, cages)
	}
	mod, longest := cat.Module(nic.Form, p.PortGbps, ppn/cages, p.LaneGbps, metres)
	switch {
	case longest == 0:
		return nil, 0, "", fielderr.New("network.ports_per_nic", "choose another port split, or add the module to the catalog",
			"no %s transceiver carries %d x %dG for %s", nic.Form, ppn/cages, p.PortGbps, nic.Key)
	case mod == nil:
		return nil, 0, "", fielderr.New("network.media.server_leaf_m", fmt.Sprintf("use %d m or less", longest),
			"%g m is beyond every %s %d x %dG transceiver (the longest reaches %d m)", metres, nic.Form, ppn/cages, p.PortGbps, longest)
	}
	return mod, p.NICs * cages, "server side", nil
}

// systemModuleFits reports whether mod, the module a catalog system's
// cages take, carries the plan's server ports: at the port speed, and on
// the plan's lane rate or, where the module's optics meet other lane
// rates (Optical: a DR4 link is four 100G optical lanes whatever the
// host side), on another lane rate the NIC runs. A DGX H100's twin-port
// OSFP DR4 modules (100G host lanes) so face a 50G-lane Spectrum-4's
// QSFP-DD DR4 modules; serverOpticsMeet checks the far module.
func (p *Plan) systemModuleFits(mod *Transceiver) bool {
	if mod == nil || mod.LinkGbps != p.PortGbps {
		return false
	}
	if slices.Contains(mod.LaneGbps, p.LaneGbps) {
		return true
	}
	return mod.Optical != "" && p.NIC != nil && SharedLane(mod.LaneGbps, p.NIC.LaneGbps) > 0
}

// serverOpticsMeet reports whether a server-side module srv and the
// leaf's module sw join over fibre: on the plan's lane rate, or on
// another the server module runs when both carry one optical interface.
func (p *Plan) serverOpticsMeet(srv, sw *Transceiver) bool {
	return srv != nil && sw != nil && (slices.Contains(srv.LaneGbps, p.LaneGbps) || sameOptical(srv, sw))
}

// serverCageLinks is the links one server-side cage carries: a catalog
// system's back-end ports over the cages its entry gives
// (modules_per_node: a DGX H100's 8 NICs on 4 twin-port OSFP cages, 2),
// else the ports of a NIC over its cages. A cable not offered on
// twin-port cages (an AOC) is kept from a server cage of more than one.
func (p *Plan) serverCageLinks() int {
	if n := p.systemCagePorts(); n > 0 {
		return n
	}
	ppn := max(p.Scenario.Network.PortsPerNIC, 1)
	if p.NIC == nil {
		return 1
	}
	return max(1, ppn/max(min(p.NIC.Cages, ppn), 1))
}

// systemCagePorts is the back-end ports one of a catalog system's cages
// carries, as its entry builds it (nics_per_node over modules_per_node,
// one port a NIC); 0 where the plan has no system or splits its NICs.
func (p *Plan) systemCagePorts() int {
	sys := p.System
	if sys == nil || sys.ModulesPerNode <= 0 || p.Scenario.Network.PortsPerNIC > 1 {
		return 0
	}
	return max(1, ceilDiv(sys.NICsPerNode, sys.ModulesPerNode))
}

// serverEndOffered is, for the server-leaf tier, the error when no
// transceiver in the catalog fits the servers' cages at their port speed
// and split (an 800G ConnectX-8 split 2 x 400G on 200G lanes): that is
// what stops the links, not the length of the run. nil for other tiers
// or where a module exists.
func (p *Plan) serverEndOffered(cat *Catalog, tier string) error {
	if tier != MediaTiers[0] {
		return nil
	}
	_, _, _, err := p.serverModules(cat, 0)
	return err
}

// switchModule is the transceiver of switch sw's end (the tier's
// lower or upper switch) for one tier's links.
func (p *Plan) switchModule(cat *Catalog, t LinkTier, sw *Switch) (*Transceiver, error) {
	g := p.TierGbps(t.Name)
	c := sw.LinksPerCage(g)
	mod, longest := cat.Module(sw.Form, g, c, p.endLane(t.Name, sw), t.Metres)
	switch {
	case longest == 0:
		return nil, fielderr.New(switchField(p, sw), "use copper media, or add the module to the catalog",
			"no %s transceiver carries %d x %dG for %s cages", sw.Form, c, g, sw.Key)
	case mod == nil:
		return nil, fielderr.New("network.media."+t.Name+"_m", fmt.Sprintf("use %d m or less", longest),
			"%g m is beyond every %s %d x %dG transceiver (the longest reaches %d m)", t.Metres, sw.Form, c, g, longest)
	}
	return mod, nil
}

// chooseMedia gives every link tier without a medium the cheapest one
// that is offered at the port speed on this fabric and switch and reaches
// the tier's length: per link, the cable, plus for transceivers the fibre
// and each end's share of its module.
func (p *Plan) chooseMedia(cat *Catalog) error {
	n := &p.Scenario.Network
	for i := range p.LinkTiers {
		t := &p.LinkTiers[i]
		if t.Medium != "" {
			continue
		}
		best, err := p.mediumFor(cat, t)
		if err != nil {
			return err
		}
		t.Medium = best
		*mediumOf(&n.Media, t.Name) = best
	}
	return nil
}

// mediumFor is the cheapest medium for tier t (see chooseMedia), or why
// there is none.
func (p *Plan) mediumFor(cat *Catalog, t *LinkTier) (Medium, error) {
	return p.pickMedium(cat, t, p.tierPricesOf(cat, t))
}

// tierPrices is what a link of tier t costs by medium, as far as it
// holds at every size: the cheapest cable (cheapestCable) and, when
// transceivers reach (optics), the fibre with the upper end's module
// share (head) and the lower end's share (far; the server end's is the
// plan's, see opticsUSD).
type tierPrices struct {
	cable     Medium
	cableUSD  float64
	optics    bool
	head, far float64
}

// tierPricesOf works out tier t's prices.
func (p *Plan) tierPricesOf(cat *Catalog, t *LinkTier) tierPrices {
	var tp tierPrices
	tp.cable, tp.cableUSD = p.cheapestCable(cat, t, p.TierGbps(t.Name))
	tp.head, tp.far, tp.optics = p.opticsShares(cat, t)
	return tp
}

// pickMedium is the cheapest medium for tier t priced at tp, or why
// there is none.
func (p *Plan) pickMedium(cat *Catalog, t *LinkTier, tp tierPrices) (Medium, error) {
	g := p.TierGbps(t.Name)
	_, upper := p.linkEnds(t.Name)
	best, bestUSD := tp.cable, tp.cableUSD
	if usd, ok := p.opticsUSD(cat, t, tp); ok && (best == "" || usd < bestUSD) {
		best = Optics
	}
	if best != "" {
		return best, nil
	}
	if err := p.serverEndOffered(cat, t.Name); err != nil {
		return "", err
	}
	_, longest := cat.Module(upper.Form, g, upper.LinksPerCage(g), p.endLane(t.Name, upper), 0)
	longest = min(longest, cat.Cables[fiberKey].Reach(g))
	if longest == 0 {
		return "", fielderr.New(tierSpeedField(t.Name), "choose a speed the catalog has transceivers for, or add the module to the catalog",
			"no cable or %s transceiver in the catalog carries %dG on %s for %g m (%s)", upper.Form, g, upper.Key, t.Metres, t.Name)
	}
	return "", fielderr.New("network.media."+t.Name+"_m", fmt.Sprintf("use %d m or less, or another switch", longest),
		"no medium reaches %g m at %dG: transceivers for %s reach %d m at most", t.Metres, g, upper.Key, longest)
}

// cheapestCable is the cheapest copper or AOC medium offered for tier
// t's links at g Gb/s that reaches their length, with its price ("":
// none).
func (p *Plan) cheapestCable(cat *Catalog, t *LinkTier, g int) (best Medium, bestUSD float64) {
	// A cable's two ends run one lane rate: none is a candidate where the
	// ends share none (asked once, not per medium).
	if p.tierLane(t.Name) == 0 {
		return "", 0
	}
	f, c := p.Scenario.Network.Fabric, p.cageLinks(t.Name)
	for _, m := range []Medium{DAC, ACC, AOC} {
		cb := cat.Cables[string(m)]
		// cb.offers, with the reach looked up once
		if reach := cb.Reach(g); reach == 0 || cb.unavailable(f, g, c) != nil || float64(reach) < t.Metres {
			continue
		}
		if usd := p.Scenario.cablePrice(cat, cb, t.Metres).USD; best == "" || usd < bestUSD {
			best, bestUSD = m, usd
		}
	}
	return best, bestUSD
}

// opticsUSD is what one link of tier t costs with transceivers, from
// the tier's prices tp: the fibre and each end's module share (the head,
// then the lower end's: on the server-leaf tier the server end's modules
// over the plan's NIC ports, else tp's far); false when no module
// reaches.
func (p *Plan) opticsUSD(cat *Catalog, t *LinkTier, tp tierPrices) (float64, bool) {
	if !tp.optics {
		return 0, false
	}
	far := tp.far
	if t.Name == "server_leaf" {
		mod, n, _, err := p.serverModules(cat, t.Metres)
		if err != nil || !p.serverOpticsMeet(mod, p.leafModule(cat, t)) {
			return 0, false
		}
		far = p.Scenario.partPrice(cat, mod.Key, mod.PriceUSD, mod.PriceRangeUSD, &mod.Pricing).USD * float64(n) / float64(max(p.NICPorts, 1))
	}
	return tp.head + far, true
}

// leafModule is the module at the upper (switch) end of tier t's links
// at their length (nil: none reaches).
func (p *Plan) leafModule(cat *Catalog, t *LinkTier) *Transceiver {
	g := p.TierGbps(t.Name)
	_, upper := p.linkEnds(t.Name)
	sw, _ := cat.Module(upper.Form, g, upper.LinksPerCage(g), p.endLane(t.Name, upper), t.Metres)
	return sw
}

// opticsShares is what one link of tier t costs with transceivers, as
// opticsUSD sums it: head the fibre and the upper end's module share,
// far the lower end's (a switch's; the server end's is opticsUSD's);
// false when no module reaches.
func (p *Plan) opticsShares(cat *Catalog, t *LinkTier) (head, far float64, ok bool) {
	s := &p.Scenario
	fiber := cat.Cables[fiberKey]
	g := p.TierGbps(t.Name)
	if float64(fiber.Reach(g)) < t.Metres {
		return 0, 0, false
	}
	lower, upper := p.linkEnds(t.Name)
	sw, _ := cat.Module(upper.Form, g, upper.LinksPerCage(g), p.endLane(t.Name, upper), t.Metres)
	if sw == nil {
		return 0, 0, false
	}
	perLink := s.partPrice(cat, sw.Key, sw.PriceUSD, sw.PriceRangeUSD, &sw.Pricing).USD / float64(sw.Links)
	far = perLink // the other end: another switch
	if lower != nil && lower != upper {
		low, _ := cat.Module(lower.Form, g, lower.LinksPerCage(g), p.endLane(t.Name, lower), t.Metres)
		if low == nil || p.tierLane(t.Name) == 0 && !sameOptical(low, sw) {
			return 0, 0, false
		}
		far = s.partPrice(cat, low.Key, low.PriceUSD, low.PriceRangeUSD, &low.Pricing).USD / float64(low.Links)
	}
	return s.cablePrice(cat, fiber, t.Metres).USD + perLink, far, true
}

// mediumOf points at the medium field of a link tier.
func mediumOf(m *Media, tier string) *Medium {
	switch tier {
	case "server_leaf":
		return &m.ServerLeaf
	case "leaf_spine":
		return &m.LeafSpine
	}
	return &m.SpineCore
}

func (p *Plan) moduleLine(cat *Catalog, mod *Transceiver, where, tier string, n int) BOMLine {
	l := BOMLine{Category: CatTransceiver, Key: mod.Key, Name: mod.Name, Where: where, Qty: n, tier: tier,
		UnitWatts: mod.Watts, Source: mod.Source.Price, Estimate: mod.Source.Estimate}
	l.setPrice(p.Scenario.partPrice(cat, mod.Key, mod.PriceUSD, mod.PriceRangeUSD, &mod.Pricing), p.Scenario.Quotes)
	return l
}

// setPrice prices the line at pp; a quoted line names its vendor and
// date as its source, and is flagged when the quote has expired.
func (l *BOMLine) setPrice(pp PartPrice, qs *Quotes) {
	l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD, l.Premium = pp.USD, pp.LowUSD, pp.HighUSD, pp.Premium
	switch {
	case pp.Quote != nil:
		l.Quote, l.QuoteExpired = pp.Quote, pp.Quote.Expired(qs.Today)
		l.Source, l.Estimate = pp.Quote.Words(qs.Today), false
	case pp.Override:
		l.Source, l.Estimate = "the scenario's [prices] table", false
	case pp.Premium:
		l.Source += "; list basis: branded premium applied"
	case pp.Volume != nil:
		l.Source = fmt.Sprintf("volume basis: %s (%s, %s)", pp.Volume.Source, pp.Volume.Grade, pp.Volume.Date)
	case pp.VolumeRule:
		l.VolumeRule, l.Estimate = true, true
		l.Source += "; volume basis: street price less the volume discount rule (estimate)"
	}
}

// quoteNotes adds a note for every expired quote the plan is priced at,
// and one when the scenario names a quotes file nobody read.
func (p *Plan) quoteNotes() {
	if s := &p.Scenario; s.Pricing.Quotes != "" && s.Quotes == nil {
		p.Notes = append(p.Notes, fmt.Sprintf("the quotes file %q was not read: catalog prices are used", s.Pricing.Quotes))
	}
	seen := map[*Quote]bool{}
	for i := range p.BOM {
		if l := &p.BOM[i]; l.Quote != nil && l.QuoteExpired && !seen[l.Quote] { // in place: a line is 200 bytes
			q := l.Quote
			seen[q] = true
			p.Notes = append(p.Notes, fmt.Sprintf("the quote for %s from %s expired on %s (today %s): ask %s for a fresh one",
				q.Part, q.Vendor, q.ValidUntil, p.Scenario.Quotes.Today.Format(dateLayout), q.Vendor))
		}
	}
}

// SpareParts counts the spares a plan buys: switches, and optics
// (transceivers and active optical cables) by the link tier they serve.
type SpareParts struct {
	Switches int     `json:"switches"`
	Optics   Links   `json:"optics"`
	USD      float64 `json:"usd"`
}

// spareLines are the spare switches and optics of sp for the BOM so far:
// per line, pct per cent of its quantity rounded up, priced alike and
// drawing no power. It records the counts in p.Spares.
func (p *Plan) spareLines(sp resilience.Spares) []BOMLine {
	var out []BOMLine
	p.addSpares(sp, func(l BOMLine) { out = append(out, l) })
	return out
}

// addSpares is spareLines handing each line to add as it is made, which
// may append it to p.BOM: the lines looked at are those before the
// first spare.
func (p *Plan) addSpares(sp resilience.Spares, add func(BOMLine)) {
	for i, lines := 0, len(p.BOM); i < lines; i++ {
		src := &p.BOM[i] // read in place (a line is 200 bytes), copied only for a spare
		pct := 0.0
		switch {
		case src.Category == CatSwitch:
			pct = sp.SwitchesPct
		case src.Category == CatTransceiver, src.Category == CatCable && src.Key == string(AOC):
			pct = sp.OpticsPct
		}
		// The epsilon keeps 10% of 40 at 4, not 5, after float rounding.
		n := int(math.Ceil(float64(src.Qty)*pct/100 - 1e-9))
		if n <= 0 {
			continue
		}
		l := *src
		l.Qty, l.Spare, l.UnitWatts = n, true, 0
		l.Where = "spares, " + l.Where
		p.Spares.USD += float64(n) * l.UnitUSD
		if l.Category == CatSwitch {
			if !chassisPart(l.Key) { // a chassis's spare cards are parts, not switches
				p.Spares.Switches += n
			}
		} else {
			*p.Spares.Optics.of(l.tier) += n
			p.Spares.Optics.Total += n
		}
		add(l)
	}
}

// PriceDriver is one catalog item whose price range moves the plan's
// cost: the plan's total with that item at its low and at its high price,
// every other price at its base, all units.
type PriceDriver struct {
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Qty      int     `json:"qty"`
	SwingUSD float64 `json:"swing_usd"` // HighUSD - LowUSD
	LowUSD   float64 `json:"low_total_usd"`
	HighUSD  float64 `json:"high_total_usd"`
}

// CostSensitivity lists the BOM's priced items by how far their price
// range moves the plan's total cost, largest swing first (a tornado
// chart's bars). An item used in several places (a transceiver at the
// leaf and at the spine) is one entry: its price moves everywhere at
// once. Items without a range (a price the scenario overrides) are left
// out.
func (p *Plan) CostSensitivity() []PriceDriver {
	// A BOM has a few dozen lines at most: a linear search beats a map.
	all := make([]PriceDriver, 0, len(p.BOM))
	for _, l := range p.BOM {
		i := slices.IndexFunc(all, func(d PriceDriver) bool { return d.Key == l.Key })
		if i < 0 {
			i = len(all)
			all = append(all, PriceDriver{Key: l.Key, Name: l.Part(), Category: l.Category, LowUSD: p.Cost.Total, HighUSD: p.Cost.Total})
		}
		d := &all[i]
		d.Qty += l.Qty
		d.LowUSD -= float64(l.Qty) * (l.UnitUSD - l.UnitLowUSD)
		d.HighUSD += float64(l.Qty) * (l.UnitHighUSD - l.UnitUSD)
		d.SwingUSD = d.HighUSD - d.LowUSD
	}
	out := slices.DeleteFunc(all, func(d PriceDriver) bool { return d.SwingUSD <= 0 })
	slices.SortStableFunc(out, func(a, b PriceDriver) int { return cmpFloat(b.SwingUSD, a.SwingUSD) })
	return out
}

// WriteBOMCSV writes the bill of materials as CSV with plain numbers, one
// line per item, for a spreadsheet.
func WriteBOMCSV(w io.Writer, p *Plan) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"category", "key", "name", "where", "qty", "unit_usd", "total_usd", "watts", "estimate", "source"})
	for _, l := range p.BOM {
		cw.Write([]string{l.Category, textfmt.CSVText(l.Key), textfmt.CSVText(l.Name), textfmt.CSVText(l.Where), strconv.Itoa(l.Qty), strconv.FormatFloat(l.UnitUSD, 'f', 2, 64),
			strconv.FormatFloat(l.TotalUSD, 'f', 2, 64), strconv.FormatFloat(l.TotalWatts, 'f', 1, 64), strconv.FormatBool(l.Estimate), textfmt.CSVText(l.Source)})
	}
	cw.Flush()
	return cw.Error()
}
