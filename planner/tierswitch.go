package planner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
)

// SwitchOf is the switch model of a switch tier (TierLeaf, TierSpine,
// TierCore): the spine's and core's own where the scenario names them
// (network.spine_switch, core_switch), else the leaf's.
func (p *Plan) SwitchOf(tier string) *Switch {
	switch {
	case tier == TierSpine && p.SpineSwitch != nil:
		return p.SpineSwitch
	case tier == TierCore && p.CoreSwitch != nil:
		return p.CoreSwitch
	}
	return p.Switch
}

// linkEnds are the switch models at the lower and upper end of a link
// tier (server_leaf, leaf_spine, spine_core); the lower end of a
// server_leaf link is the server, given as nil.
func (p *Plan) linkEnds(linkTier string) (lower, upper *Switch) {
	switch linkTier {
	case "server_leaf":
		return nil, p.Switch
	case "leaf_spine":
		return p.Switch, p.SwitchOf(TierSpine)
	}
	return p.SwitchOf(TierSpine), p.SwitchOf(TierCore)
}

// MixedSwitches reports whether some tier runs another switch model
// than the leaves.
func (p *Plan) MixedSwitches() bool {
	for _, t := range p.SwitchTiers {
		if p.SwitchOf(t.Name) != p.Switch {
			return true
		}
	}
	return false
}

// SwitchesText names the plan's switch models: the leaf's key alone when
// every tier runs it, else each tier's ("leaf tomahawk5, spine
// arista-7808r3, core arista-7808r3").
func (p *Plan) SwitchesText() string {
	if !p.MixedSwitches() {
		return p.Switch.Key
	}
	parts := make([]string, 0, len(p.SwitchTiers))
	for _, t := range p.SwitchTiers {
		parts = append(parts, t.Name+" "+p.SwitchOf(t.Name).Key)
	}
	return strings.Join(parts, ", ")
}

// tierSwitches resolves the scenario's spine and core switches against
// the leaf's sw: nil where the tier runs the leaf's model. It assumes
// Validate passed.
func (s *Scenario) tierSwitches(cat *Catalog, sw *Switch) (spine, core *Switch) {
	n := s.Network
	pick := func(key string) *Switch {
		if key == "" || key == sw.Key {
			return nil
		}
		return cat.Switches[key]
	}
	spine = pick(n.SpineSwitch)
	if n.CoreSwitch == "" {
		return spine, spine // the cores run the spines' model unless named
	}
	return spine, pick(n.CoreSwitch)
}

// validateTierSwitches checks spine_switch and core_switch: a catalog
// switch of the scenario's fabric with ports at the tier's speeds (a
// spine's toward the leaves, and toward the cores in three tiers; a
// core's toward the spines), from port, the scenario's port speed
// (portGbps).
func (s *Scenario) validateTierSwitches(cat *Catalog, port int) []error {
	n := s.Network
	uplink := n.UplinkSpeed(port)
	core := n.CoreSpeed(uplink)
	var errs []error
	spineSpeeds := []int{uplink}
	if n.Tiers == 3 && core != uplink {
		spineSpeeds = append(spineSpeeds, core)
	}
	if err := checkTierSwitch(cat, n.Fabric, "network.spine_switch", n.SpineSwitch, spineSpeeds); err != nil {
		errs = append(errs, err)
	}
	if err := checkTierSwitch(cat, n.Fabric, "network.core_switch", n.CoreSwitch, []int{core}); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// checkTierSwitch checks one tier's switch key (blank: the leaf's) on
// fabric f with ports at every speed of speeds.
func checkTierSwitch(cat *Catalog, f Fabric, field, key string, speeds []int) error {
	if key == "" || key == Auto {
		return nil
	}
	sw := cat.Switches[key]
	if sw == nil {
		return fielderr.New(field, `leave it out for the leaf's switch, use "auto", or one of `+strings.Join(cat.SwitchKeys(), ", "), "unknown switch %q", key)
	}
	if sw.Fabric != f {
		return fielderr.New(field, "pick a "+string(f)+" switch: "+switchList(tierCandidates(cat, f, speeds)),
			"%s is an %s switch, the fabric is %s", sw.Key, sw.Fabric, f)
	}
	for _, g := range speeds {
		if g > 0 && sw.Radix(g) == 0 {
			return fielderr.New(field, "pick one with "+strconv.Itoa(g)+"G ports: "+switchList(tierCandidates(cat, f, speeds)),
				"%s has no %dG ports (it has %s)", sw.Key, g, gbpsList(sw.Speeds()))
		}
	}
	return nil
}

// tierCandidates are the switches of fabric f with ports at every speed
// of speeds.
func tierCandidates(cat *Catalog, f Fabric, speeds []int) []*Switch {
	var out []*Switch
	for _, k := range cat.SwitchKeys() {
		sw := cat.Switches[k]
		if sw.Fabric == f && !slices.ContainsFunc(speeds, func(g int) bool { return g > 0 && sw.Radix(g) == 0 }) {
			out = append(out, sw)
		}
	}
	return out
}

// switchLane is the lane rate links at g Gb/s run between switches a and
// b: prefer (the NIC's joined lane, 0: none) where both run it; else the fastest
// lane both run that divides g; 0 when they share none.
func switchLane(a, b *Switch, g, prefer int) int {
	if prefer > 0 && g%prefer == 0 && slices.Contains(a.LaneGbps, prefer) && slices.Contains(b.LaneGbps, prefer) {
		return prefer
	}
	best := 0
	for _, l := range a.LaneGbps {
		if l > 0 && g%l == 0 && slices.Contains(b.LaneGbps, l) {
			best = max(best, l)
		}
	}
	return best
}

// endLane is the lane rate sw's end of a link tier runs: the lane both
// ends share where they share one, else sw's fastest lane that divides
// the tier's speed (optics join ends of different lanes: a QSFP-DD DR4 on
// 8 x 50G lanes and an OSFP DR4 on 4 x 100G meet on one 400GBASE-DR4
// fibre); 0 when sw runs none.
func (p *Plan) endLane(linkTier string, sw *Switch) int {
	if l := p.tierLane(linkTier); l > 0 || sw == nil {
		return l
	}
	g, best := p.TierGbps(linkTier), 0
	for _, l := range sw.LaneGbps {
		if l > 0 && g%l == 0 {
			best = max(best, l)
		}
	}
	return best
}

// sharedLaneMedium refuses a copper or AOC medium on a link tier whose
// ends share no lane rate: a cable's two ends run one lane rate, so only
// transceivers (each end its own) join them.
func (p *Plan) sharedLaneMedium(linkTier string, m Medium) error {
	if m == Optics || m == Multimode || m == "" || p.tierLane(linkTier) > 0 {
		return nil
	}
	lower, upper := p.linkEnds(linkTier)
	return fielderr.New("network.media."+linkTier, "use optics (or leave the medium out), or switches that share a lane rate",
		"%s (%s lanes) and %s (%s lanes) share no lane rate: a %s cable cannot join them", lower.Key, laneList(lower.LaneGbps), upper.Key, laneList(upper.LaneGbps), m)
}

// checkTierLanes says whether both ends of every switch-to-switch link
// tier run some lane rate at the tier's speed; the error names the upper
// tier's switch field.
func (p *Plan) checkTierLanes(cat *Catalog) error {
	for _, t := range p.LinkTiers[1:] {
		lower, upper := p.linkEnds(t.Name)
		if lower == upper {
			continue
		}
		g := p.TierGbps(t.Name)
		low, _ := cat.Module(lower.Form, g, lower.LinksPerCage(g), p.endLane(t.Name, lower), 0)
		high, _ := cat.Module(upper.Form, g, upper.LinksPerCage(g), p.endLane(t.Name, upper), 0)
		if p.endLane(t.Name, lower) == 0 || p.endLane(t.Name, upper) == 0 || p.tierLane(t.Name) == 0 && !sameOptical(low, high) {
			field := "network.spine_switch"
			if t.Name == "spine_core" {
				field = "network.core_switch"
			}
			return fielderr.New(field, fmt.Sprintf("pick a switch that runs %s lanes at %dG", laneList(lower.LaneGbps), g),
				"%s (%s lanes) and %s (%s lanes) cannot share a lane rate at %dG (%s)", lower.Key, laneList(lower.LaneGbps), upper.Key, laneList(upper.LaneGbps), g, t.Name)
		}
	}
	return nil
}

// sameOptical says whether modules a and b exist and meet on one named
// optical interface.
func sameOptical(a, b *Transceiver) bool {
	return a != nil && b != nil && a.Optical != "" && a.Optical == b.Optical
}

// orSwitch is sw, or the leaf's model when sw is nil.
func orSwitch(sw, leaf *Switch) *Switch {
	if sw != nil {
		return sw
	}
	return leaf
}

// cageLinks is the most links one cage carries at either end of a link
// tier, at the tier's speed, the server's cages counting on the
// server-leaf tier: what decides whether a medium that is not offered on
// twin-port cages may be used. The walk, the counted bill and the
// tier-level bill all ask it, so a cable a cage cannot take is chosen by
// none.
func (p *Plan) cageLinks(linkTier string) int {
	g := p.TierGbps(linkTier)
	lower, upper := p.linkEnds(linkTier)
	c := upper.LinksPerCage(g)
	if lower != nil {
		c = max(c, lower.LinksPerCage(g))
	} else {
		c = max(c, p.serverCageLinks())
	}
	return c
}

// switchField is the scenario field that chose sw in plan p: the spine's
// or core's switch where sw is theirs alone, else network.switch.
func switchField(p *Plan, sw *Switch) string {
	switch {
	case sw == p.Switch:
		return "network.switch"
	case sw == p.SpineSwitch:
		return "network.spine_switch"
	}
	return "network.core_switch"
}

// rackTier is the switch tier whose switches a rack of kind holds (the
// leaf's for leaf and compute racks).
func rackTier(kind string) string {
	switch kind {
	case hall.RackSpine:
		return TierSpine
	case hall.RackCore:
		return TierCore
	}
	return TierLeaf
}

// TierSwitchKey is the model of tier where the plan has that tier and it
// runs another model than the leaves; "" otherwise.
func (p *Plan) TierSwitchKey(tier string) string {
	if sw := p.SwitchOf(tier); sw != p.Switch && p.Switches(tier) > 0 {
		return sw.Key
	}
	return ""
}

// UpperSwitchesText names the spines' and cores' models where they differ
// from the leaves', each with its ports at its down speed ("spines
// arista-7808r3 (288 x 400G), cores arista-7808r3 (288 x 400G)"); ""
// when every tier runs the leaves' model.
func (p *Plan) UpperSwitchesText() string {
	var parts []string
	for _, t := range p.SwitchTiers[1:] {
		if sw := p.SwitchOf(t.Name); sw != p.Switch {
			parts = append(parts, fmt.Sprintf("%ss %s (%d x %dG)", t.Name, sw.Key, sw.Radix(t.DownGbps), t.DownGbps))
		}
	}
	return strings.Join(parts, ", ")
}

// switchRate is the failure rate per switch-year of tier's model: its
// own where the catalog gives one, else base (the reliability data's).
func (p *Plan) switchRate(tier string, base float64) float64 {
	if r := p.SwitchOf(tier).FailuresPerYear; r > 0 {
		return r
	}
	return base
}

// switchTierLines are the BOM lines of switch tier i: one line of its
// model, or a chassis's parts.
func (p *Plan) switchTierLines(cat *Catalog, i int) []BOMLine {
	sw := p.SwitchOf(p.SwitchTiers[i].Name)
	if sw.Chassis != nil {
		return p.chassisLines(cat, sw, p.SwitchTiers[i], p.tierLoads[i])
	}
	return []BOMLine{p.switchTierLine(cat, i, sw)}
}

// switchTierLine is the one BOM line of switch tier i of fixed switches
// sw.
func (p *Plan) switchTierLine(cat *Catalog, i int, sw *Switch) BOMLine {
	t, s := &p.SwitchTiers[i], &p.Scenario
	l := BOMLine{Category: CatSwitch, Key: sw.Key, Name: sw.Name, Where: t.Name, Qty: t.Switches, tier: t.Name,
		UnitWatts: sw.Watts, Source: sw.Source.Price, Estimate: sw.Source.Estimate}
	l.setPrice(s.partPrice(cat, sw.Key, sw.PriceUSD, sw.PriceRangeUSD, &sw.Pricing), s.Quotes)
	return l
}

// addSwitchModules adds the switch-end transceivers of optical link tier
// i, e[0] at the lower ends and e[1] at the upper: one line where both
// ends take one module, one per end where their models take different
// ones (which must meet on one optical interface where the ends share no
// lane rate).
func (p *Plan) addSwitchModules(cat *Catalog, i int, e [2]int, add func(BOMLine)) error {
	t := p.LinkTiers[i]
	lower, upper := p.linkEnds(t.Name)
	mod, err := p.switchModule(cat, t, upper)
	if err != nil {
		return err
	}
	lt := &p.LinkTiers[i]
	lt.UpperModule, lt.UpperModules = mod.Key, e[1]
	p.SwitchTransceivers += e[0] + e[1]
	if lower == nil {
		add(p.moduleLine(cat, mod, switchSideWhere(t.Name), t.Name, e[1]))
		return nil
	}
	low, err := p.switchModule(cat, t, lower)
	if err != nil {
		return err
	}
	if p.tierLane(t.Name) == 0 && !sameOptical(low, mod) {
		return fielderr.New(switchField(p, upper), "use switches that share a lane rate, or add a module of one optical interface to the catalog",
			"%s and %s share no lane rate and no transceivers of one optical interface (%s, %s)", lower.Key, upper.Key, low.Key, mod.Key)
	}
	lt.LowerModule, lt.LowerModules = low.Key, e[0]
	if low == mod {
		add(p.moduleLine(cat, mod, switchSideWhere(t.Name), t.Name, e[0]+e[1]))
		return nil
	}
	add(p.moduleLine(cat, low, "lower end ("+lower.Key+"), "+t.Name, t.Name, e[0]))
	add(p.moduleLine(cat, mod, "upper end ("+upper.Key+"), "+t.Name, t.Name, e[1]))
	return nil
}

// switchSideWhere is "switch side, " and the link tier, a constant for
// the three tiers (no string made per line).
func switchSideWhere(tier string) string {
	switch tier {
	case "server_leaf":
		return "switch side, server_leaf"
	case "leaf_spine":
		return "switch side, leaf_spine"
	case "spine_core":
		return "switch side, spine_core"
	}
	return "switch side, " + tier
}

// cableOffered checks a link tier's copper or AOC medium cb: offered at
// the tier's speed and cages, between ends that share a lane rate.
// Optics pass (each end takes its own module).
func (p *Plan) cableOffered(cb *Cable, t *LinkTier) error {
	if t.Medium == Optics {
		return nil
	}
	if err := p.sharedLaneMedium(t.Name, t.Medium); err != nil {
		return err
	}
	if ok, why := cb.Offered(p.Scenario.Network.Fabric, p.TierGbps(t.Name), p.cageLinks(t.Name)); !ok {
		return fielderr.New("network.media."+t.Name, "choose another medium, or leave it out for the cheapest that reaches", "%s", why)
	}
	return nil
}

// endCages are the links one cage carries at each end of each link tier
// (server_leaf, leaf_spine, spine_core), at the tier's speed on that
// end's model: [tier][0] the lower end's (0 at a server), [tier][1] the
// upper's. A leaf's down and up ports may differ (400G down two a cage,
// 800G up one a cage), as may a spine's.
func (p *Plan) endCages() [linkTierCount][2]int {
	var out [linkTierCount][2]int
	for i, name := range linkTierNames {
		lower, upper := p.linkEnds(name)
		g := p.TierGbps(name)
		if lower != nil {
			out[i][0] = lower.LinksPerCage(g)
		}
		out[i][1] = upper.LinksPerCage(g)
	}
	return out
}

// upPort is the port index of uplink k (from 0) of a switch with down
// links in cages of downCage links each: its uplinks start at the next
// whole cage and count in links of upCage a cage, so index/upCage is the
// uplink's cage and index%upCage its place in the cage.
func upPort(down, k, downCage, upCage int) int { return ceilDiv(down, downCage)*upCage + k }

// SwitchModelsText names the plan's switch models once each, the leaf's
// first ("tomahawk5 + arista-7808r3"): SwitchesText's short form, for a
// chart's label.
func (p *Plan) SwitchModelsText() string {
	keys := []string{p.Switch.Key}
	for _, t := range p.SwitchTiers {
		if k := p.SwitchOf(t.Name).Key; !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, " + ")
}

// switchSpares are what a failed switch of tier draws on: the spare
// switches of its model (a spare Tomahawk leaf does not stand in for a
// chassis spine, while spines and cores of one model share theirs), the
// switches of that model in every tier, and the tier's failures per
// switch-year (base where the catalog gives the model none). spareLines
// are the plan's spare switch lines (spareSwitchLines).
func (p *Plan) switchSpares(tier string, base float64, spareLines []int) (spares, parts int, perYear float64) {
	sw := p.SwitchOf(tier)
	for _, i := range spareLines {
		if l := &p.BOM[i]; l.Key == sw.Key {
			spares += l.Qty
		}
	}
	for _, t := range p.SwitchTiers {
		if p.SwitchOf(t.Name) == sw {
			parts += t.Switches
		}
	}
	return spares, parts, p.switchRate(tier, base)
}

// spareSwitchLines appends to buf the index of each spare switch line of
// the bill (one a model at most), read once for every tier's switchSpares.
func (p *Plan) spareSwitchLines(buf []int) []int {
	for i := range p.BOM { // by index: a line is over 200 bytes to copy
		if l := &p.BOM[i]; l.Spare && l.Category == CatSwitch {
			buf = append(buf, i)
		}
	}
	return buf
}

// noModuleAt is the error for link tier t (index) whose switch ends have
// no transceiver at the tier's speed in the catalog, so only cables join
// them, and a run of run metres outreaches those: the speed, not the
// hall, is what to change. nil where every switch end has a module.
func (m *mediaChooser) noModuleAt(t int, run float64) error {
	if err := m.p.serverEndOffered(m.cat, linkTierNames[t]); err != nil {
		return err
	}
	name, pt := linkTierNames[t], m.port[t]
	lower, upper := m.p.linkEnds(name)
	for _, sw := range []*Switch{upper, lower} {
		if sw == nil {
			continue
		}
		if mod, _ := m.cat.Module(sw.Form, pt.gbps, sw.LinksPerCage(pt.gbps), m.p.endLane(name, sw), 0); mod == nil {
			return fielderr.New(tierSpeedField(name), "choose a speed the catalog has transceivers for, or add the module to the catalog",
				"no %s transceiver in the catalog carries %dG on %s (%s), and the cables offered reach %d m, short of a %.1f m run",
				sw.Form, pt.gbps, sw.Key, name, m.longestReach(t), run)
		}
	}
	return nil
}

// buildTierAuto resolves network.spine_switch and core_switch "auto" by
// the leaf's rule: every switch of the fabric with ports at the tier's
// speeds (chassis included) is planned and the cheapest plan wins. The
// spines are chosen first, the cores running theirs; then the cores,
// with the spines fixed.
func buildTierAuto(rs Scenario, cat *Catalog, nic *NIC, bands bool) (*Plan, bool, error) {
	n := &rs.Network
	coreAuto := n.CoreSwitch == Auto
	if coreAuto {
		n.CoreSwitch = ""
	}
	var notes []string
	var best *Plan
	if n.SpineSwitch == Auto {
		var err error
		best, notes, err = cheapestTier(rs, cat, nic, bands, "spine", func(s *Scenario, k string) { s.Network.SpineSwitch = k })
		if best == nil {
			return nil, false, err
		}
		n.SpineSwitch = best.SwitchOf(TierSpine).Key
	}
	if coreAuto {
		p, more, err := cheapestTier(rs, cat, nic, bands, "core", func(s *Scenario, k string) { s.Network.CoreSwitch = k })
		if p == nil {
			return nil, false, err
		}
		best, notes = p, append(notes, more...)
	}
	best.Notes = append(best.Notes, notes...)
	return best, true, nil
}

// cheapestTier plans rs with each candidate of a switch tier (set puts
// the key in), and returns the cheapest plan with a note saying so, or
// the candidates' errors when none fits.
func cheapestTier(rs Scenario, cat *Catalog, nic *NIC, bands bool, tier string, set func(*Scenario, string)) (*Plan, []string, error) {
	n := rs.Network
	uplink := n.UplinkSpeed(rs.portGbps(cat))
	speeds := []int{n.CoreSpeed(uplink)}
	if tier == TierSpine {
		speeds = []int{uplink, n.CoreSpeed(uplink)}
	}
	var best *Plan
	var errs []error
	cands := tierCandidates(cat, n.Fabric, speeds)
	for _, sw := range cands {
		try := rs
		set(&try, sw.Key)
		p, ok, err := buildOn(try, cat, nic, bands)
		switch {
		case !ok || err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", sw.Key, err))
		case best == nil || p.Cost.Total < best.Cost.Total:
			best = p
		}
	}
	if best == nil {
		field := "network." + tier + "_switch"
		if len(cands) == 0 {
			return nil, nil, fielderr.New(field, "name a switch, or leave it out for the leaf's", "no %s switch in the catalog has ports at %s", n.Fabric, gbpsList(speeds))
		}
		return nil, nil, fmt.Errorf("%s auto: no %s switch fits: %w", field, n.Fabric, errors.Join(errs...))
	}
	if best.Switches(tier) == 0 {
		return best, nil, nil // no such tier at this size: nothing was chosen
	}
	note := fmt.Sprintf("%s switch auto: %s is the cheapest of %d that fit", tier, best.SwitchOf(tier).Key, len(cands)-len(errs))
	return best, []string{note}, nil
}
