package planner

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
)

// Chassis is how a modular switch is built: a chassis (with its
// supervisors, fans and power supplies) of line-card slots, fabric
// modules joining the slots, and line cards that carry the ports. A
// catalog switch with a chassis table takes its ports, price and power
// from these parts (all slots filled); a plan buys only the cards its
// ports need (a semi-populated chassis) and lists each part in the BOM.
type Chassis struct {
	Slots int `toml:"slots" json:"slots"`
	// CardName names the line card; CardPorts are its ports by speed in
	// Gb/s, as Switch.Ports are.
	CardName       string         `toml:"card_name" json:"card_name"`
	CardPorts      map[string]int `toml:"card_ports" json:"card_ports"`
	CardUSD        float64        `toml:"card_price_usd" json:"card_price_usd"`
	CardRangeUSD   [2]float64     `toml:"card_price_range_usd" json:"card_price_range_usd"`
	CardWatts      float64        `toml:"card_watts" json:"card_watts"`
	FabricModules  int            `toml:"fabric_modules" json:"fabric_modules"`
	FabricUSD      float64        `toml:"fabric_module_price_usd" json:"fabric_module_price_usd"`
	FabricRangeUSD [2]float64     `toml:"fabric_module_price_range_usd" json:"fabric_module_price_range_usd"`
	FabricWatts    float64        `toml:"fabric_module_watts" json:"fabric_module_watts"`
	BaseUSD        float64        `toml:"base_price_usd" json:"base_price_usd"` // chassis, supervisors, fans, supplies
	BaseRangeUSD   [2]float64     `toml:"base_price_range_usd" json:"base_price_range_usd"`
	BaseWatts      float64        `toml:"base_watts" json:"base_watts"`
	// FabricLinksPerCard is the cabled links from each line card to the
	// fabric modules, in a distributed switch whose leaves and spines
	// are separate boxes (0: a backplane joins them); FabricLinkModule
	// is the transceiver at each end of such a link, joined by its
	// fibre. A plan buys them with the cards.
	FabricLinksPerCard int    `toml:"fabric_links_per_card" json:"fabric_links_per_card,omitempty"`
	FabricLinkModule   string `toml:"fabric_link_module" json:"fabric_link_module,omitempty"`
	// CardUnits and FabricUnits are a distributed switch's leaf and
	// spine boxes' heights, U, by which the hall places them (boxes in
	// racks, not one frame); 0 for a frame chassis (the switch's own
	// rack_units) or where no height is known.
	CardUnits   int           `toml:"card_rack_units" json:"card_rack_units,omitempty"`
	FabricUnits int           `toml:"fabric_module_rack_units" json:"fabric_module_rack_units,omitempty"`
	Source      ChassisSource `toml:"source" json:"source"`
}

// ChassisSource says where each chassis figure came from.
type ChassisSource struct {
	Slots    string `toml:"slots" json:"slots"`
	Card     string `toml:"card" json:"card"`
	Fabric   string `toml:"fabric" json:"fabric"`
	Base     string `toml:"base" json:"base"`
	Estimate bool   `toml:"estimate" json:"estimate"`
}

// maxChassisSlots bounds a chassis's line-card slots: a distributed
// switch of one spine stage joins as many leaves (its "cards") as a
// spine has fabric ports, 128 for the Arista 7720R4-128PE (catalog
// switches.arista-7700r4); the largest frame chassis has 20 (CS8500).
const maxChassisSlots = 128

// frameless says the chassis has no frame of its own (no base price,
// range or watts): a distributed switch whose leaves and spines are
// separate boxes, each counted as a card or a fabric module.
func (c *Chassis) frameless() bool {
	return c.BaseUSD == 0 && c.BaseRangeUSD == [2]float64{} && c.BaseWatts == 0
}

// cardPorts is a card's ports at gbps (0: none).
func (c *Chassis) cardPorts(gbps int) int { return c.CardPorts[speedKey(gbps)] }

// shaped reports whether the chassis's counts can be a switch: 1 to
// maxChassisSlots slots, card ports, no negative fabric modules or box
// heights.
func (c *Chassis) shaped() bool {
	return c.Slots >= 1 && c.Slots <= maxChassisSlots && c.FabricModules >= 0 && len(c.CardPorts) > 0 && c.CardUnits >= 0 && c.FabricUnits >= 0
}

// fill derives sw's ports, price, range and power from its chassis
// with every slot filled; it checks the parts first.
func (c *Chassis) fill(sw *Switch) error {
	if !c.shaped() {
		return fmt.Errorf("chassis: needs 1 to %d slots, card ports and no negative fabric modules or box heights", maxChassisSlots)
	}
	for _, v := range []float64{c.CardUSD, c.CardWatts, c.FabricUSD, c.FabricWatts, c.BaseUSD, c.BaseWatts} {
		if !inRange(v, 0, MaxPriceUSD) {
			return fmt.Errorf("chassis: a price or watts figure %g is out of range", v)
		}
	}
	for _, r := range []struct {
		what string
		usd  float64
		rng  [2]float64
	}{{"card", c.CardUSD, c.CardRangeUSD}, {"fabric module", c.FabricUSD, c.FabricRangeUSD}, {"base", c.BaseUSD, c.BaseRangeUSD}} {
		if r.what == "base" && c.frameless() {
			continue
		}
		if err := checkRange("chassis "+r.what, r.usd, r.rng); err != nil {
			return err
		}
	}
	if len(sw.Ports) > 0 {
		return fmt.Errorf("chassis: give card_ports, not ports (a chassis's ports are its slots' cards)")
	}
	sw.Ports = map[string]int{}
	for g, n := range c.CardPorts {
		sw.Ports[g] = c.Slots * n
	}
	fm, slots := float64(c.FabricModules), float64(c.Slots)
	sw.PriceUSD = c.BaseUSD + fm*c.FabricUSD + slots*c.CardUSD
	for i := range sw.PriceRangeUSD {
		sw.PriceRangeUSD[i] = c.BaseRangeUSD[i] + fm*c.FabricRangeUSD[i] + slots*c.CardRangeUSD[i]
	}
	sw.Watts = c.BaseWatts + fm*c.FabricWatts + slots*c.CardWatts
	return nil
}

// CardsFor is the line cards a chassis switch needs for down ports at
// down Gb/s and up ports at up Gb/s: the cards whose ports hold them
// (a card's ports may run at either speed), at least one, at most the
// slots.
func (c *Chassis) CardsFor(down, downGbps, up, upGbps int) int {
	cd, cu := c.cardPorts(downGbps), c.cardPorts(upGbps)
	if up == 0 {
		cu = max(cu, 1)
	}
	if cd == 0 || cu == 0 {
		return c.Slots
	}
	// down/cd + up/cu cards, in whole cards.
	n := ceilDiv(down*cu+up*cd, cd*cu)
	return min(max(n, 1), c.Slots)
}

// chassisCards counts a tier's line cards over planes: each switch of a
// load with the cards its ports in use need.
func chassisCards(c *Chassis, t SwitchTier, loads []fabric.Load, planes int) int {
	n := 0
	for _, l := range loads {
		n += l.Switches * c.CardsFor(l.Down, t.DownGbps, l.Up, t.UpGbps)
	}
	return n * planes
}

// chassisLines are the BOM lines of a tier of chassis switches: the
// chassis, its fabric modules and the line cards its ports need.
func (p *Plan) chassisLines(cat *Catalog, sw *Switch, t SwitchTier, loads []fabric.Load) []BOMLine {
	c, s := sw.Chassis, &p.Scenario
	est := sw.Source.Estimate || c.Source.Estimate
	part := func(key, name string, qty int, usd float64, rng [2]float64, watts float64, src string) BOMLine {
		l := BOMLine{Category: CatSwitch, Key: key, Name: name, Where: t.Name, Qty: qty, tier: t.Name,
			UnitWatts: watts, Source: src, Estimate: est}
		l.setPrice(s.partPrice(cat, key, usd, rng, &sw.Pricing), s.Quotes)
		return l
	}
	var out []BOMLine
	if !c.frameless() {
		out = append(out, part(sw.Key, "Chassis, supervisors, fans: "+sw.Name, t.Switches, c.BaseUSD, c.BaseRangeUSD, c.BaseWatts, c.Source.Base))
	}
	if c.FabricModules > 0 {
		out = append(out, part(sw.Key+chassisFabric, "Fabric module: "+sw.Name, t.Switches*c.FabricModules,
			c.FabricUSD, c.FabricRangeUSD, c.FabricWatts, c.Source.Fabric))
	}
	cards := chassisCards(c, t, loads, p.Planes)
	out = append(out, part(sw.Key+chassisCard, c.CardName, cards, c.CardUSD, c.CardRangeUSD, c.CardWatts, c.Source.Card))
	if c.FabricLinksPerCard > 0 {
		out = append(out, p.fabricLinkLines(cat, c, t.Name, cards)...)
	}
	return out
}

// fabricLinkLines are the cabled links between the cards (leaves) and
// fabric modules (spines) of a tier of distributed switches that bought
// cards cards: a transceiver at each end of each link and its fibre,
// counted among the switch-side transceivers.
//
// Laid out as its boxes (fabricLinkRuns, checked when the hall is laid
// out), each length sold is a fibre line of its own.
func (p *Plan) fabricLinkLines(cat *Catalog, c *Chassis, tier string, cards int) []BOMLine {
	links := cards * c.FabricLinksPerCard
	mod := cat.Transceivers[c.FabricLinkModule]
	fib := cat.Cables[cmp.Or(mod.Fibre, fiberKey)]
	where := "fabric links, " + tier
	p.SwitchTransceivers += 2 * links
	out := []BOMLine{p.moduleLine(cat, mod, where, tier, 2*links)}
	fibre := func(metres float64, qty int, where string) {
		l := BOMLine{Category: CatCable, Key: fib.Key, Name: fib.Name, Where: where, Qty: qty, tier: tier,
			UnitWatts: fib.Watts, Source: fib.Source.Price, Estimate: fib.Source.Estimate}
		l.setPrice(p.Scenario.cablePrice(cat, fib, metres), p.Scenario.Quotes)
		out = append(out, l)
	}
	runs, err := p.fabricLinkRuns(cat)
	if err != nil || len(runs) == 0 {
		fibre(0, links, where)
		return out
	}
	for _, m := range slices.Sorted(maps.Keys(runs)) {
		fibre(m, runs[m], where+" "+string(appendMetres(nil, m))+" m")
	}
	return out
}

// checkChassisLinks checks every chassis switch's cabled fabric links
// against the catalog's transceivers and cables (indexed first).
func (c *Catalog) checkChassisLinks() error {
	for k, s := range c.Switches {
		if s.Chassis == nil {
			continue
		}
		if err := s.Chassis.checkFabricLinks(c); err != nil {
			return fmt.Errorf("switch %s: %w", k, err)
		}
	}
	return nil
}

// checkFabricLinks says what is wrong with a chassis's cabled fabric
// links against the catalog's transceivers: a module at the links'
// speed (the cards' fastest), one link a module, and its fibre.
func (c *Chassis) checkFabricLinks(cat *Catalog) error {
	if c.FabricLinksPerCard < 0 || (c.FabricLinksPerCard > 0) != (c.FabricLinkModule != "") {
		return fmt.Errorf("chassis: fabric_links_per_card and fabric_link_module go together")
	}
	if c.FabricLinksPerCard == 0 {
		return nil
	}
	mod := cat.Transceivers[c.FabricLinkModule]
	if mod == nil || mod.Links != 1 || mod.LinkGbps != speeds(c.CardPorts)[0] || cat.Cables[cmp.Or(mod.Fibre, fiberKey)] == nil {
		return fmt.Errorf("chassis: fabric_link_module %q must be a one-link transceiver at the cards' fastest speed, with its fibre in the catalog", c.FabricLinkModule)
	}
	return nil
}

// autoSwitches are the switches "auto", the design search and the
// cheaper-design check try as the fabric's (leaf) switch: SwitchesFor
// without the modular chassis, which a design names per tier
// (network.spine_switch) rather than meeting as a leaf by chance.
func (c *Catalog) autoSwitches(f Fabric, gbps int) []*Switch {
	var out []*Switch
	for _, sw := range c.SwitchesFor(f, gbps) {
		if sw.Chassis == nil {
			out = append(out, sw)
		}
	}
	return out
}

// fillChassis derives a chassis switch's figures from its parts (k is
// its key); a fixed switch is left as it is.
func (s *Switch) fillChassis(k string) error {
	if s.Chassis == nil {
		return nil
	}
	if err := s.Chassis.fill(s); err != nil {
		return fmt.Errorf("switch %s: %w", k, err)
	}
	return nil
}

// chassisPart says whether a BOM key is a part of a chassis switch (its
// fabric modules or line cards), not a whole switch.
func chassisPart(key string) bool {
	return strings.HasSuffix(key, chassisFabric) || strings.HasSuffix(key, chassisCard)
}

// The BOM keys of a chassis's fabric modules and line cards end so.
const (
	chassisFabric = "/fabric"
	chassisCard   = "/card"
)

// portsInstalled is the switch ports switch tier i installs: every port
// of its fixed switches; only the bought line cards' ports of a chassis
// (a semi-populated chassis's empty slots hold none).
func (p *Plan) portsInstalled(i int) int {
	t := p.SwitchTiers[i]
	c := p.SwitchOf(t.Name).Chassis
	if c == nil || i >= len(p.tierLoads) {
		return t.Switches * t.Radix
	}
	return chassisCards(c, t, p.tierLoads[i], p.Planes) * t.Radix / c.Slots
}

// tierPeakKW is the peak of one switch of switch tier i (0 leaf, 1
// spine, 2 core) as the hall budgets its racks, its ports at gbps on
// lane-rate lanes: switchPeakKW for a fixed switch; for a chassis, its
// base and fabric modules with the line cards (and one module a cage of
// their ports) of the tier's fullest switch, not every slot.
func (p *Plan) tierPeakKW(cat *Catalog, i, gbps, lane int) float64 {
	sw := p.SwitchOf([]string{TierLeaf, TierSpine, TierCore}[i])
	c := sw.Chassis
	if c == nil || i >= len(p.SwitchTiers) || i >= len(p.tierLoads) {
		return switchPeakKW(cat, sw, gbps, lane)
	}
	t, cards := p.SwitchTiers[i], 0
	for _, l := range p.tierLoads[i] {
		cards = max(cards, c.CardsFor(l.Down, t.DownGbps, l.Up, t.UpGbps))
	}
	w := c.BaseWatts + float64(c.FabricModules)*c.FabricWatts + float64(cards)*c.CardWatts
	cage := sw.LinksPerCage(gbps)
	if mod, _ := cat.Module(sw.Form, gbps, cage, lane, 0); mod != nil {
		w += float64(cards*c.cardPorts(gbps)/cage) * mod.Watts
	}
	return w / 1000
}

// PortsInstalled is the switch ports switch tier i (as SwitchTiers lists
// them) installs: a fixed switch's every port, a chassis's bought cards'.
func (p *Plan) PortsInstalled(i int) int { return p.portsInstalled(i) }

// CollapsedSpines is the spines a plane of a collapsed core keeps: one
// chassis pair, every leaf on both (the enterprise designs' two-box
// core).
const CollapsedSpines = 2

// ChassisSpines are the modular chassis (a director, or a distributed
// switch's spines) a design on f whose switch-to-switch ports run at
// gbps may take as its spines: the ones the design search and the
// cheaper-design hint try.
// Exported for planner/explore.
func (c *Catalog) ChassisSpines(f Fabric, gbps int) []*Switch {
	var out []*Switch
	for _, sw := range c.SwitchesFor(f, gbps) {
		if sw.Chassis != nil {
			out = append(out, sw)
		}
	}
	return out
}

// AppendChassisShapes appends to out s with each of chassis as its
// spines (network.spine_switch) and, where s asks for no more spines
// than a pair (min_spines), as a collapsed core: two tiers, one pair of
// chassis a plane. A scenario naming its own spine switch keeps it: it
// appends none. The design search tries these above each candidate's
// leaves, the cheaper-design hint above the plan's.
// Exported for planner/explore.
func (s Scenario) AppendChassisShapes(out []Scenario, chassis []*Switch) []Scenario {
	if s.Network.SpineSwitch != "" {
		return out
	}
	for _, ch := range chassis {
		v := s
		v.Network.SpineSwitch = ch.Key
		out = append(out, v)
		if s.Network.MinSpines <= CollapsedSpines {
			v.Network.Tiers, v.Network.MinSpines = 2, CollapsedSpines
			out = append(out, v)
		}
	}
	return out
}

// collapsedCore reports whether n asks for a collapsed core: chassis
// spines, two tiers, one pair a plane (AppendChassisShapes).
func (n Network) collapsedCore() bool {
	return n.SpineSwitch != "" && n.Tiers == 2 && n.MinSpines == CollapsedSpines
}

// desBoxes is the plan's distributed switch laid out as its boxes: the
// leaves (line cards) one switch of the fabric's only tier stands as
// and each box's height and peak draw, the spines (fabric modules) and
// theirs. ok is false for any other plan (a frame chassis, a
// distributed switch below spines or without box heights), which the
// hall lays out by the switch's own rack units.
type desBoxes struct {
	leaves, spines             int
	leafUnits, spineUnits      int
	leafKW, spineKW            float64
	portsPerLeaf, linksPerLeaf int
	spineLinks                 int // fabric links on each spine, a plane
}

// distributedBoxes is p's desBoxes (see there), its draw with one
// module a cage of each box's ports in use: a leaf's host ports at the
// plan's port speed and its fabric links, a spine's fabric links.
func (p *Plan) distributedBoxes(cat *Catalog) (desBoxes, bool) {
	c := p.Switch.Chassis
	if c == nil || !c.frameless() || c.FabricLinksPerCard == 0 || c.CardUnits <= 0 || c.FabricUnits <= 0 || p.Tiers != 1 || len(p.tierLoads) == 0 || len(p.SwitchTiers) == 0 {
		return desBoxes{}, false
	}
	t, cards := p.SwitchTiers[0], 0
	for _, l := range p.tierLoads[0] {
		cards = max(cards, c.CardsFor(l.Down, t.DownGbps, l.Up, t.UpGbps))
	}
	b := desBoxes{leaves: cards, spines: c.FabricModules, leafUnits: c.CardUnits, spineUnits: c.FabricUnits,
		portsPerLeaf: c.cardPorts(p.PortGbps), linksPerLeaf: c.FabricLinksPerCard}
	b.spineLinks = ceilDiv(cards*c.FabricLinksPerCard, max(c.FabricModules, 1))
	linkW := 0.0
	if mod := cat.Transceivers[c.FabricLinkModule]; mod != nil {
		linkW = mod.Watts
	}
	hostW := 0.0
	cage := p.Switch.LinksPerCage(p.PortGbps)
	if mod, _ := cat.Module(p.Switch.Form, p.PortGbps, cage, p.LaneGbps, 0); mod != nil {
		hostW = float64(ceilDiv(b.portsPerLeaf, cage)) * mod.Watts
	}
	b.leafKW = (c.CardWatts + hostW + float64(b.linksPerLeaf)*linkW) / 1000
	b.spineKW = (c.FabricWatts + float64(b.spineLinks)*linkW) / 1000
	return b, b.portsPerLeaf > 0
}

// layDistributed lays in out with the plan's distributed switch as its
// boxes (distributedBoxes): its leaves in the unit's leaf racks, its
// spines in the spine rows; in unchanged for any other plan.
func (p *Plan) layDistributed(cat *Catalog, in *hall.Inputs) {
	b, ok := p.distributedBoxes(cat)
	if !ok {
		return
	}
	in.LeafBoxes, in.SwitchUnits, in.SwitchKW = b.leaves, b.leafUnits, b.leafKW
	in.SpinesPerPlane, in.PodSpines = b.spines, []int{b.spines}
	in.UpperUnits, in.UpperKW = [2]int{b.spineUnits, b.spineUnits}, [2]float64{b.spineKW, b.spineKW} // no cores: one tier
}

// leafBoxOf is the box of a leaf that switch port (a down link, from
// 0) of the plan's distributed switch stands in: each leaf box takes its
// host ports in turn; 0 when the hall lays no leaf out as boxes.
func (p *Plan) leafBoxOf(port int) int {
	if p.Hall == nil || p.Hall.LeafBoxes() <= 1 {
		return 0
	}
	return port / max(p.Switch.Chassis.cardPorts(p.PortGbps), 1)
}

// fabricLinkRuns is each length sold of the fabric links of a
// distributed switch laid out as its boxes (nil for any other plan):
// each leaf box's links, one to each spine box in turn, measured in the
// hall between the two and sold as the link module's fibre within the
// shorter of its and the module's reach; an error names a run neither
// reaches.
func (p *Plan) fabricLinkRuns(cat *Catalog) (map[float64]int, error) {
	h, c := p.Hall, p.Switch.Chassis
	if h == nil || h.LeafBoxes() <= 1 || c == nil {
		return nil, nil
	}
	mod := cat.Transceivers[c.FabricLinkModule]
	fib := cat.Cables[cmp.Or(mod.Fibre, fiberKey)]
	gbps := speeds(c.CardPorts)[0]
	reach := min(float64(fib.Reach(gbps)), float64(mod.ReachM))
	out := map[float64]int{}
	for plane := 1; plane <= p.Planes; plane++ {
		for box := range h.LeafBoxes() {
			for j := range c.FabricLinksPerCard {
				run := h.Run(h.LeafBoxPlace(plane, 0, box), h.SpinePlace(plane, 0, j%max(c.FabricModules, 1)))
				sold, ok := fib.soldWithin(run, reach)
				if !ok {
					return nil, fmt.Errorf("%s fabric link of leaf box %d, plane %d: %s on %s reaches %.0f m, short of its %.1f m run", p.Switch.Key, box+1, plane, mod.Key, fib.Key, reach, run)
				}
				out[sold]++
			}
		}
	}
	return out, nil
}
