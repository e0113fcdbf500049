package planner

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/fielderr"
)

func tierIndex(name string) int {
	for i, n := range linkTierNames {
		if n == name {
			return i
		}
	}
	return 0
}

// LinkRun is one group of a tier's links in a laid-out hall: the links
// of one medium and part sold at one length.
type LinkRun struct {
	Medium Medium  `json:"medium"`
	Part   string  `json:"part"`
	Metres float64 `json:"length_m"`
	Links  int     `json:"links"`
}

// Sold is the length a cable of this medium is sold in for a run of
// metres at gbps: the shortest listed length that covers it, or the run
// rounded up to a whole metre when no lengths are listed; false when
// the medium does not reach.
func (c *Cable) Sold(run float64, gbps int) (float64, bool) {
	reach := float64(c.Reach(gbps))
	if len(c.LengthsM) == 0 {
		l := math.Max(1, math.Ceil(run-1e-9))
		return l, l <= reach
	}
	for _, l := range c.LengthsM {
		if l > reach {
			break
		}
		if l >= run-1e-9 {
			return l, true
		}
	}
	return 0, false
}

// linkChoice is the medium and parts of one link.
type linkChoice struct {
	medium       Medium
	cable        *Cable
	metres       float64 // the length sold
	lower, upper *Transceiver
}

// mediaChooser picks each link's medium: the cheapest offered part that
// reaches the link's run, or the tier's medium when the scenario fixes
// it.
type mediaChooser struct {
	p         *Plan
	cat       *Catalog
	forced    [3]Medium
	cageLinks int
	// serverMod is the server end's transceiver (nil: none fits), its
	// price per link and the server ports one module serves.
	serverMod         *Transceiver
	serverModsPerPort float64
	serverPerCage     int
	// pairs is the medium of each tier's links between two racks,
	// chosen for the longest of them: links that share a cable bundle
	// (and a twin-port cage) share a medium.
	pairs map[rackPair]Medium
}

// rackPair is one tier's links from one rack to another.
type rackPair struct {
	tier int8
	a, b int32
}

func newMediaChooser(p *Plan, cat *Catalog) *mediaChooser {
	m := &mediaChooser{p: p, cat: cat, cageLinks: p.Switch.LinksPerCage(p.PortGbps), pairs: map[rackPair]Medium{}, serverPerCage: 1}
	md := p.Scenario.Network.Media
	m.forced = [3]Medium{md.ServerLeaf, md.LeafSpine, md.SpineCore}
	if mod, n, _, err := p.serverModules(cat, 0); err == nil && n > 0 {
		m.serverMod = mod
		m.serverModsPerPort = float64(n) / float64(max(p.NICPorts, 1))
		m.serverPerCage = max(1, p.NICPorts/n)
	}
	return m
}

// choose picks the medium of one link of tier t (an index into
// linkTierNames) whose run is run metres; false when nothing reaches.
func (m *mediaChooser) choose(t int, run float64) (linkChoice, bool) {
	s, p := &m.p.Scenario, m.p
	var best linkChoice
	bestUSD, found := 0.0, false
	try := func(c linkChoice, usd float64) {
		if !found || usd < bestUSD {
			best, bestUSD, found = c, usd, true
		}
	}
	for _, med := range []Medium{DAC, ACC, AOC} {
		if m.forced[t] != "" && m.forced[t] != med {
			continue
		}
		cb := m.cat.Cables[string(med)]
		if ok, _ := cb.Offered(s.Network.Fabric, p.PortGbps, m.cageLinks); !ok {
			continue
		}
		if l, ok := cb.Sold(run, p.PortGbps); ok {
			try(linkChoice{medium: med, cable: cb, metres: l}, s.cablePrice(m.cat, cb, l).USD)
		}
	}
	if m.forced[t] == "" || m.forced[t] == Optics {
		if c, usd, ok := m.optics(t, run, false); ok {
			try(c, usd)
		}
	}
	if m.forced[t] == "" {
		if c, usd, ok := m.optics(t, run, true); ok {
			try(c, usd)
		}
	}
	return best, found
}

// with is a link of tier t on medium med, for a run that med reaches.
func (m *mediaChooser) with(t int, med Medium, run float64) (linkChoice, bool) {
	if med == Optics || med == Multimode {
		c, _, ok := m.optics(t, run, med == Multimode)
		return c, ok
	}
	cb := m.cat.Cables[string(med)]
	l, ok := cb.Sold(run, m.p.PortGbps)
	return linkChoice{medium: med, cable: cb, metres: l}, ok
}

// optics is a link of tier t on transceivers and fibre, single-mode or
// multimode (mm), and what it costs: the fibre and each end's share of
// its module.
func (m *mediaChooser) optics(t int, run float64, mm bool) (linkChoice, float64, bool) {
	s, p := &m.p.Scenario, m.p
	med, key := Optics, fiberKey
	if mm {
		med, key = Multimode, mmFiberKey
	}
	fiber := m.cat.Cables[key]
	if fiber == nil {
		return linkChoice{}, 0, false
	}
	l, ok := fiber.Sold(run, p.PortGbps)
	if !ok {
		return linkChoice{}, 0, false
	}
	sw := m.cat.FibreModule(mm, p.Switch.Form, p.PortGbps, m.cageLinks, p.LaneGbps, l)
	if sw == nil {
		return linkChoice{}, 0, false
	}
	share := m.modulePrice(sw) / float64(sw.Links)
	c := linkChoice{medium: med, cable: fiber, metres: l, lower: sw, upper: sw}
	far := share
	if t == 0 {
		mod := m.serverModule(mm, l)
		if mod == nil {
			return linkChoice{}, 0, false
		}
		c.lower, far = mod, m.modulePrice(mod)*m.serverModsPerPort
	}
	return c, s.cablePrice(m.cat, fiber, l).USD + share + far, true
}

// modulePrice is one module's unit price as the plan buys it (override,
// quote or catalog, on the scenario's price basis).
func (m *mediaChooser) modulePrice(t *Transceiver) float64 {
	return m.p.Scenario.partPrice(m.cat, t.Key, t.PriceUSD, t.PriceRangeUSD, &t.Pricing).USD
}

// serverModule is the server end's module for a link of metres: the
// system's (or the NIC's) single-mode module, or its multimode
// counterpart (same form, speed and links); nil when none reaches.
func (m *mediaChooser) serverModule(mm bool, metres float64) *Transceiver {
	sm := m.serverMod
	if sm == nil {
		return nil
	}
	if !mm {
		if float64(sm.ReachM) < metres {
			return nil
		}
		return sm
	}
	return m.cat.FibreModule(true, sm.Form, sm.LinkGbps, sm.Links, m.p.LaneGbps, metres)
}

// longestReach is the farthest any medium reaches for tier t, for the
// error when a run is too long.
func (m *mediaChooser) longestReach(t int) int {
	_, longest := m.cat.Module(m.p.Switch.Form, m.p.PortGbps, m.cageLinks, m.p.LaneGbps, 0)
	if t == 0 {
		longest = 0
		if m.serverMod != nil {
			longest = m.serverMod.ReachM
		}
	}
	for _, med := range []Medium{DAC, ACC, AOC} {
		if ok, _ := m.cat.Cables[string(med)].Offered(m.p.Scenario.Network.Fabric, m.p.PortGbps, m.cageLinks); ok {
			longest = max(longest, m.cat.Cables[string(med)].Reach(m.p.PortGbps))
		}
	}
	return min(longest, max(m.cat.Cables[fiberKey].Reach(m.p.PortGbps), m.cat.Cables[string(AOC)].Reach(m.p.PortGbps)))
}

// cableGroup keys the cable tally: a tier's links of one part and
// length.
type cableGroup struct {
	tier   int
	medium Medium
	key    string
	metres float64
}

// cageUse is what one optical cage serves: its longest link (sold
// length; 0: the cage holds no optics), the tier and which end.
type cageUse struct {
	metres float32
	tier   int8
	upper  bool
	server bool
	mm     bool // multimode
}

// linkTally counts a walk's links by tier, medium and length, and the
// optical cages each end fills.
type linkTally struct {
	cables map[cableGroup]int
	// cages holds every device's cages, stride a device (device
	// numbers: cableWalk's leafID, spineID, coreID).
	cages   []cageUse
	stride  int
	longest [3]CableRun // the longest link of each tier
	runSum  [3]float64  // sum of sold lengths per tier
	links   [3]int
}

func newLinkTally(devices, stride int) *linkTally {
	return &linkTally{cables: map[cableGroup]int{}, cages: make([]cageUse, devices*stride), stride: stride}
}

// add counts one measured link.
func (t *linkTally) add(c *CableRun, perCage, serverPerCage int) {
	i := tierIndex(c.Tier)
	t.cables[cableGroup{i, c.Medium, c.Part, c.Metres}]++
	t.links[i]++
	t.runSum[i] += c.Metres
	if c.Metres > t.longest[i].Metres {
		t.longest[i] = *c
	}
	if c.Medium != Optics && c.Medium != Multimode {
		return
	}
	lowerPerCage := perCage
	if i == 0 {
		lowerPerCage = serverPerCage
	}
	m, mm := float32(c.Metres), c.Medium == Multimode
	t.cage(c.aID, c.aPort/lowerPerCage, cageUse{m, int8(i), false, i == 0, mm})
	t.cage(c.bID, c.bPort/perCage, cageUse{m, int8(i), true, false, mm})
}

func (t *linkTally) cage(dev, cage int, u cageUse) {
	at := &t.cages[dev*t.stride+cage]
	if at.metres < u.metres {
		*at = u
	}
}

// moduleCount keys the module tally: tier, end and module.
type moduleCount struct {
	tier  int
	upper bool
	key   string
}

// fillLinkBOM walks every link of a laid-out plan, measures it, picks
// its medium and adds the cables and transceivers to the BOM, grouped by
// medium and length; it sets each link tier's runs, module counts and
// the hall's cable figures.
func (p *Plan) fillLinkBOM(cat *Catalog, add func(BOMLine)) error {
	m := newMediaChooser(p, cat)
	p.media = m
	if err := p.chooseRackMedia(); err != nil {
		return err
	}
	perCage := p.Switch.LinksPerCage(p.PortGbps)
	devices := p.Servers + p.TotalSwitches()
	stride := max(ceilDiv(p.Switch.Radix(p.PortGbps), perCage), ceilDiv(p.ServerPorts, m.serverPerCage))
	tally := newLinkTally(devices, stride)
	err := p.walkCables(false, func(c *CableRun) error {
		tally.add(c, perCage, m.serverPerCage)
		return nil
	})
	if err != nil {
		return err
	}
	mods := map[moduleCount]int{}
	for _, u := range tally.cages {
		if u.metres == 0 {
			continue
		}
		var key *Transceiver
		if u.server {
			key = m.serverModule(u.mm, float64(u.metres))
		} else {
			key = cat.FibreModule(u.mm, p.Switch.Form, p.PortGbps, perCage, p.LaneGbps, float64(u.metres))
		}
		if key == nil {
			return fmt.Errorf("no %s module reaches a %g m cage's link", map[bool]string{true: "multimode", false: "single-mode"}[u.mm], u.metres)
		}
		mods[moduleCount{int(u.tier), u.upper, key.Key}]++
	}
	p.tierRuns(tally, mods)
	p.moduleLines(cat, mods, add)
	groups := SortedGroups(tally.cables)
	for _, g := range groups {
		add(p.cableLine(cat.Cables[g.key], linkTierNames[g.tier], g.metres, tally.cables[g]))
	}
	p.Hall.cableFigures(p, tally, groups)
	return nil
}

// chooseRackMedia surveys every link's run and gives each tier's links
// between two racks the cheapest medium that reaches the longest of
// them.
func (p *Plan) chooseRackMedia() error {
	w := newCableWalk(p)
	w.survey = map[rackPair]surveyed{}
	for plane := 1; plane <= p.Planes; plane++ {
		if err := w.plane(plane, func(*CableRun) error { return nil }); err != nil {
			return err
		}
	}
	m := p.media
	for k, v := range w.survey {
		ch, ok := m.choose(int(k.tier), v.run)
		if !ok {
			h := p.Hall
			field := "facility.racks_per_row"
			if f := m.forced[k.tier]; f != "" {
				field = "network.media." + linkTierNames[k.tier]
			}
			return fielderr.New(field, fmt.Sprintf("shorten the hall (fewer racks per row, network rows in the middle) or choose media that reach; the longest reach here is %d m", m.longestReach(int(k.tier))),
				"the %.1f m run from rack %s to rack %s is beyond every medium offered for %s links", v.run, h.Racks[k.a].Name, h.Racks[k.b].Name, linkTierNames[k.tier])
		}
		m.pairs[k] = ch.medium
	}
	return nil
}

// surveyed is the longest run between a pair of racks.
type surveyed struct{ run float64 }

// SortedGroups orders the cable groups by tier, medium, part and length.
func SortedGroups(m map[cableGroup]int) []cableGroup {
	out := make([]cableGroup, 0, len(m))
	for g := range m {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b cableGroup) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.medium, b.medium), cmp.Compare(a.key, b.key), cmp.Compare(a.metres, b.metres))
	})
	return out
}

// tierRuns sets each link tier's runs, its commonest medium and part,
// its longest link and its modules.
func (p *Plan) tierRuns(t *linkTally, mods map[moduleCount]int) {
	for i := range p.LinkTiers {
		lt := &p.LinkTiers[i]
		ti := tierIndex(lt.Name)
		lt.Runs = lt.Runs[:0]
		byMedium := map[Medium]int{}
		for g, n := range t.cables {
			if g.tier == ti {
				lt.Runs = append(lt.Runs, LinkRun{Medium: g.medium, Part: g.key, Metres: g.metres, Links: n})
				byMedium[g.medium] += n
			}
		}
		slices.SortFunc(lt.Runs, func(a, b LinkRun) int {
			return cmp.Or(cmp.Compare(a.Medium, b.Medium), cmp.Compare(a.Metres, b.Metres))
		})
		lt.Medium, lt.Cable = "", ""
		for _, r := range lt.Runs {
			if lt.Medium == "" || byMedium[r.Medium] > byMedium[lt.Medium] {
				lt.Medium, lt.Cable = r.Medium, r.Part
			}
		}
		lt.Metres = t.longest[ti].Metres
		lt.LowerModules, lt.UpperModules, lt.LowerModule, lt.UpperModule = 0, 0, "", ""
		best := [2]int{}
		for k, n := range mods {
			if k.tier != ti {
				continue
			}
			if k.upper {
				lt.UpperModules += n
				if n > best[1] {
					best[1], lt.UpperModule = n, k.key
				}
			} else {
				lt.LowerModules += n
				if n > best[0] {
					best[0], lt.LowerModule = n, k.key
				}
			}
		}
		if ti == 0 {
			p.ServerTransceivers = lt.LowerModules
			p.SwitchTransceivers += lt.UpperModules
		} else {
			p.SwitchTransceivers += lt.LowerModules + lt.UpperModules
		}
	}
}

// moduleLines adds the transceivers: the server side's, then each
// tier's switch side, one line per module part.
func (p *Plan) moduleLines(cat *Catalog, mods map[moduleCount]int, add func(BOMLine)) {
	type line struct {
		tier int
		key  string
	}
	server := map[string]int{}
	sw := map[line]int{}
	for k, n := range mods {
		if k.tier == 0 && !k.upper {
			server[k.key] += n
			continue
		}
		sw[line{k.tier, k.key}] += n
	}
	for _, k := range SortedKeys(server) {
		where := "server side"
		if sys := p.System; sys != nil && sys.ServerModule == k {
			where = "server side (" + sys.Key + " cages)"
		}
		add(p.moduleLine(cat, cat.Transceivers[k], where, "server_leaf", server[k]))
	}
	keys := make([]line, 0, len(sw))
	for k := range sw {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b line) int { return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.key, b.key)) })
	for _, k := range keys {
		name := linkTierNames[k.tier]
		add(p.moduleLine(cat, cat.Transceivers[k.key], "switch side, "+name, name, sw[k]))
	}
}

// cableLine is the BOM line of qty cables of cb sold at metres for tier.
func (p *Plan) cableLine(cb *Cable, tier string, metres float64, qty int) BOMLine {
	unit := cb.PriceUSD(metres)
	f := cb.PriceRangeFactor
	l := BOMLine{Category: CatCable, Key: cb.Key, Name: cb.Name, Where: fmt.Sprintf("%s %g m", tier, metres), Qty: qty, tier: tier,
		UnitUSD: unit, UnitLowUSD: unit * f[0], UnitHighUSD: unit * f[1], UnitWatts: cb.Watts, Source: cb.Source.Price, Estimate: cb.Source.Estimate}
	if o, ok := p.Scenario.Prices[cb.Key]; ok {
		l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD = o, o, o
	}
	return l
}

// measure fills a link's places, length, medium and parts from the hall
// (in a survey, it only notes the run).
func (w *cableWalk) measure(t int, a, b place) error {
	c, h := &w.c, w.p.Hall
	run := h.run(a, b)
	key := rackPair{int8(t), a.rack, b.rack}
	if w.survey != nil {
		if v, ok := w.survey[key]; !ok || run > v.run {
			w.survey[key] = surveyed{run}
		}
		return nil
	}
	ra, rb := &h.Racks[a.rack], &h.Racks[b.rack]
	c.ARack, c.ARow, c.AU = ra.Name, ra.Row+1, a.u
	c.BRack, c.BRow, c.BU = rb.Name, rb.Row+1, b.u
	c.RunM = run
	ch, ok := w.p.media.with(t, w.p.media.pairs[key], run)
	if !ok {
		return fmt.Errorf("%s link from rack %s to rack %s: no medium chosen for its %.1f m run", linkTierNames[t], ra.Name, rb.Name, run)
	}
	c.Medium, c.Part, c.Metres = ch.medium, ch.cable.Key, ch.metres
	c.AModule, c.BModule = "", ""
	if ch.lower != nil {
		c.AModule, c.BModule = ch.lower.Key, ch.upper.Key
	}
	return nil
}

// optical reports whether any of the tier's links is optical
// (transceivers or AOC): only those have spare optics to swap in.
func (t *LinkTier) optical() bool {
	if len(t.Runs) == 0 {
		return t.Medium == Optics || t.Medium == AOC
	}
	for _, r := range t.Runs {
		if r.Medium == Optics || r.Medium == Multimode || r.Medium == AOC {
			return true
		}
	}
	return false
}
