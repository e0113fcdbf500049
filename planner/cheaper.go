package planner

import (
	"fmt"
	"strings"

	"fabricplan/internal/textfmt"
)

// cheaperShare is the least saving, as a share of the plan's cost, for
// which FindCheaper names a design.
const cheaperShare = 0.10

// FindCheaper looks among the design search's own candidates that keep
// the plan's fabric, NIC, oversubscription and leaf alignment (so the
// same ports per GPU at the same ratio) — other planes, port splits,
// switches and the fewest tiers each needs — for one that costs at least
// 10% less. The cheapest such design goes to p.Cheaper with a note; when
// it changes the switch, the cheapest that changes only the plane count
// (one plane per rail, say, on the plan's own switch) follows with its
// own note, as published designs on older switches were built; last, the
// pods of whole leaves that fill the spines, where whole units leave
// spine ports empty (offerLeafPods), and the plan without the leaf
// shapes it asks for (offerLeafShapes). Beside the planes and switches,
// the check tries the published shapes on chassis the search tries
// above the plan's own leaves (AppendChassisShapes): director or
// distributed-switch spines and a collapsed core. It sizes a few dozen
// fabrics, so plan and the Summary call it on demand; sweeps do not.
func (p *Plan) FindCheaper(cat *Catalog) {
	defer p.offerLeafPods(cat)   // after the designs above: the shape the plan keeps, its pods filled
	defer p.offerLeafShapes(cat) // and the leaf shapes the scenario asks for, left out
	best, design := p.cheaperDesign(cat, false)
	if best == nil {
		return
	}
	usd := p.MoneyScale() // the scale of the view the note sits in
	saving := p.offerCheaper(best, design)
	p.Notes = append(p.Notes, fmt.Sprintf("cheaper with the same ports and %s: %s for %s, %s (%.0f%%) less than this plan's %s of %s at %s",
		p.Scenario.Network.Oversubscription, design, usd.Format(best.Cost.Total), usd.Format(saving), 100*saving/p.Cost.Total,
		shapeWords(p), p.Switch.Key, usd.Format(p.Cost.Total)))
	if best.Switch != p.Switch {
		if alt, design := p.cheaperDesign(cat, true); alt != nil {
			saving := p.offerCheaper(alt, design)
			p.Notes = append(p.Notes, fmt.Sprintf("cheaper on %s itself: %s for %s (%s against %d), %s (%.0f%%) less than this plan's %s",
				p.Switch.Key, design, usd.Format(alt.Cost.Total), textfmt.Plural(alt.TotalSwitches(), "switch"), p.TotalSwitches(),
				usd.Format(saving), 100*saving/p.Cost.Total, shapeWords(p)))
		}
	}
	if best.Scenario.Network.SpineSwitch == p.Scenario.Network.SpineSwitch {
		p.offerChassis(cat)
	}
}

// offerChassis notes the cheapest of the plan's chassis shapes
// (chassisOptions) that saves at least cheaperShare, where the cheapest
// design overall is not one of them: as the plane counts on the plan's
// own switch, the shapes published designs on chassis were built as.
func (p *Plan) offerChassis(cat *Catalog) {
	alt := p.cheapestBelow(cat, p.chassisOptions(cat), 1-cheaperShare)
	if alt == nil {
		return
	}
	usd := p.MoneyScale()
	design := designWords(p, alt)
	saving := p.offerCheaper(alt, design)
	p.Notes = append(p.Notes, fmt.Sprintf("cheaper on chassis above the plan's %s leaves: %s for %s (%s against %d), %s (%.0f%%) less than this plan's %s",
		p.Switch.Key, design, usd.Format(alt.Cost.Total), textfmt.Plural(alt.TotalSwitches(), "switch"), p.TotalSwitches(),
		usd.Format(saving), 100*saving/p.Cost.Total, shapeWords(p)))
}

// offerCheaper adds best, described as design, to p.Cheaper and returns
// its saving. A design at tiers = 2 where the reference layout builds
// three (refTwoTiers) keeps its tiers, with compareTwoTiers's caveat.
func (p *Plan) offerCheaper(best *Plan, design string) float64 {
	saving := p.Cost.Total - best.Cost.Total
	bn := best.Scenario.Network
	planes, split, sw, tiers := best.Planes, bn.PortsPerNIC, best.Switch.Key, bn.Tiers
	spine, minSpines := bn.SpineSwitch, bn.MinSpines
	c := Cheaper{Design: design, CostUSD: best.Cost.Total, SavingUSD: saving,
		apply: func(s *Scenario) {
			s.Network.Planes, s.Network.PortsPerNIC, s.Network.Switch, s.Network.Tiers = planes, split, sw, tiers
			s.Network.SpineSwitch, s.Network.MinSpines = spine, minSpines
		}}
	if tiers != 0 && !bn.collapsedCore() {
		c.Caveat = refTwoTiersCaveat
	}
	p.Cheaper = append(p.Cheaper, c)
	return saving
}

// refTwoTiersCaveat is what two tiers give up where the reference layout
// builds three.
const refTwoTiersCaveat = "SUs share spines, unlike the reference's spine-leaf groups"

// cheaperTiers are the tiers the cheaper-design check asks of each
// option: the fewest that fit (0), and, where the plan's three tiers are
// the reference layout's (GB200 and GB300 SuperPODs from 4 SU), two
// tiers as well: the reference would build three again, at any plane
// count (4,032 GB200 GPUs on the QM9700: one plane a rail holds each
// plane's 1,008 trays in two tiers, $30.4M against $45.6M at flat
// lengths, which tiers = 0 does not find).
func (p *Plan) cheaperTiers() []int {
	if p.Unit.refTiers == 3 && p.Scenario.Network.Tiers == 0 {
		return []int{0, 2}
	}
	return []int{0}
}

// cheaperDesign is the cheapest candidate saving at least cheaperShare,
// with its description; nil when none does. planesOnly keeps the plan's
// switch and port split: only the plane count (and so the tiers) varies;
// without it the plan's chassis shapes are priced too (chassisOptions).
func (p *Plan) cheaperDesign(cat *Catalog, planesOnly bool) (*Plan, string) {
	var options []designOption
	if !planesOnly { // the plan on each chassis its switch-to-switch ports take
		options = p.chassisOptions(cat)
	}
	best := p.cheapestBelow(cat, append(options, p.cheaperOptions(cat, planesOnly)...), 1-cheaperShare)
	if best == nil {
		return nil, ""
	}
	design := designWords(p, best)
	if n := best.Scenario.Network; n.Tiers != 0 && !n.collapsedCore() {
		design += fmt.Sprintf(" (tiers = %d: %s)", best.Scenario.Network.Tiers, refTwoTiersCaveat)
	}
	return best, design
}

// cheaperOptions are the designs cheaperDesign prices: each port split,
// plane count dividing a server's ports and auto switch (only the plan's
// switch and split with planesOnly), at each of cheaperTiers, but for
// the plan itself and its own two tiers (compareTwoTiers offers them).
func (p *Plan) cheaperOptions(cat *Catalog, planesOnly bool) []designOption {
	s := p.Scenario
	n := s.Network
	var options []designOption
	for _, split := range p.NIC.PortSplits(n.Fabric) {
		serverPorts := n.NICsPerServer * split
		for planes := 1; planes <= min(serverPorts, maxPlanes); planes++ {
			if serverPorts%planes != 0 {
				continue
			}
			for _, sw := range cat.autoSwitches(n.Fabric, n.NICGbps/split) {
				if planesOnly && (sw != p.Switch || split != n.PortsPerNIC) {
					continue
				}
				for _, tiers := range p.cheaperTiers() {
					if planes == p.Planes && split == n.PortsPerNIC && sw == p.Switch && (tiers != 0 || n.Tiers == 0 || n.Tiers == p.Tiers) {
						continue
					}
					c := s
					c.Network.PortsPerNIC, c.Network.Planes, c.Network.Tiers, c.Network.Switch = split, planes, tiers, sw.Key
					options = append(options, designOption{c, sw})
				}
			}
		}
	}
	return options
}

// chassisOptions are the plan on the chassis the design search tries
// as its spines (Catalog.ChassisSpines at the plan's switch-to-switch
// speed): the search's shapes above the plan's own leaves, planes and
// split (AppendChassisShapes), at the fewest tiers that fit; none for a
// plan of one tier (no spines to change) or naming its spine switch.
func (p *Plan) chassisOptions(cat *Catalog) []designOption {
	s := p.Scenario
	if p.Tiers < 2 {
		return nil
	}
	s.Network.Tiers = 0
	var options []designOption
	for _, v := range s.AppendChassisShapes(nil, cat.ChassisSpines(s.Network.Fabric, p.TierGbps(linkTierNames[tierLeafSpine]))) {
		options = append(options, designOption{v, p.Switch})
	}
	return options
}

// designWords says how best differs from the plan p: planes, ports per
// NIC and switch, at best's tiers; its chassis spines or collapsed core.
func designWords(p, best *Plan) string {
	var parts []string
	if bn := best.Scenario.Network; bn.SpineSwitch != p.Scenario.Network.SpineSwitch && bn.SpineSwitch != "" {
		spine, perPlane := best.SwitchOf(TierSpine), best.Switches(TierSpine)/max(best.Planes, 1)
		if best.Tiers == 2 && perPlane == CollapsedSpines {
			parts = append(parts, fmt.Sprintf("a collapsed core, one pair of %s chassis a plane (spine_switch = %q, tiers = 2, min_spines = %d)",
				spine.Key, spine.Key, CollapsedSpines))
		} else {
			parts = append(parts, fmt.Sprintf("%s chassis spines, %d a plane (spine_switch = %q)", spine.Key, perPlane, spine.Key))
		}
	}
	if best.Planes != p.Planes {
		parts = append(parts, textfmt.Plural(best.Planes, "plane"))
	}
	if best.Scenario.Network.PortsPerNIC != p.Scenario.Network.PortsPerNIC {
		parts = append(parts, fmt.Sprintf("%d ports per NIC", best.Scenario.Network.PortsPerNIC))
	}
	if best.Switch != p.Switch {
		parts = append(parts, best.Switch.Key)
	}
	design := textfmt.Plural(best.Tiers, "tier")
	if len(parts) > 0 {
		design = strings.Join(parts, ", ") + " at " + design
	}
	return design
}

// shapeWords is a plan's planes and tiers: "3 tiers" or "2 planes at 2
// tiers".
func shapeWords(p *Plan) string {
	if p.Planes > 1 {
		return textfmt.Plural(p.Planes, "plane") + " at " + textfmt.Plural(p.Tiers, "tier")
	}
	return textfmt.Plural(p.Tiers, "tier")
}
