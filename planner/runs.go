package planner

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
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
	return c.soldWithin(run, float64(c.Reach(gbps)))
}

// soldSlackM is how far a run may pass a length sold and still take it
// (float error in the hall's sums, not a length).
const soldSlackM = 1e-9

// soldWithin is Sold for a medium that reaches reach metres.
func (c *Cable) soldWithin(run, reach float64) (float64, bool) {
	if len(c.LengthsM) == 0 {
		l := math.Max(1, math.Ceil(run-soldSlackM))
		return l, l <= reach
	}
	for _, l := range c.LengthsM {
		if l > reach {
			break
		}
		if l >= run-soldSlackM {
			return l, true
		}
	}
	return 0, false
}

// lengthSteps finds the length a run is sold in among some lengths,
// shortest first, as soldWithin does (the first at or above the run
// less soldSlackM), in a step or two: by the run's whole metres, a
// table gives the first length at or above them.
type lengthSteps struct {
	lengths []float64
	from    []int32 // by whole metres up to the longest length
}

// lengthStepsMaxM bounds the lengths a lengthSteps table takes (its
// table has a slot a whole metre): a catalog's longest is 500 m.
const lengthStepsMaxM = 1 << 16

// stepsFit reports whether lengths (shortest first) fit a lengthSteps
// table: each a number from 0 to lengthStepsMaxM.
func stepsFit(lengths []float64) bool {
	for _, l := range lengths {
		if !(l >= 0 && l <= lengthStepsMaxM) {
			return false
		}
	}
	return true
}

// newLengthSteps is the steps of lengths, shortest first (stepsFit).
func newLengthSteps(lengths []float64) lengthSteps {
	s := lengthSteps{lengths: lengths}
	if len(lengths) == 0 {
		return s
	}
	s.from = make([]int32, int(lengths[len(lengths)-1])+1)
	j := int32(0)
	for b := range s.from {
		for lengths[j] < float64(b) {
			j++
		}
		s.from[b] = j
	}
	return s
}

// first is the index of the length a run is sold in; -1 when the
// lengths fall short of it. The comparisons are soldWithin's, less
// those of lengths the table skips (each below the run's whole metres).
func (s *lengthSteps) first(run float64) int {
	x := run - soldSlackM
	if len(s.lengths) == 0 || !(x <= s.lengths[len(s.lengths)-1]) {
		return -1
	}
	j := int32(0)
	if x > 0 {
		j = s.from[int(x)]
	}
	for s.lengths[j] < x {
		j++
	}
	return int(j)
}

// withinReach is lengths (shortest first) up to reach metres: those
// soldWithin reads.
func withinReach(lengths []float64, reach float64) []float64 {
	n := 0
	for n < len(lengths) && lengths[n] <= reach {
		n++
	}
	return lengths[:n]
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
	p      *Plan
	cat    *Catalog
	forced [3]Medium
	// port is each link tier's port speed, switch cage and lane (a tier
	// of uplink_gbps runs faster than the server ports).
	port [3]tierPort
	// serverMod is the server end's transceiver (nil: none fits), its
	// price per link and the server ports one module serves.
	serverMod         *Transceiver
	serverModsPerPort float64
	serverPerCage     int
	// sets gives each link the medium of the links it shares
	// twin-port cages with.
	sets *cageSets
	memo map[withKey]linkChoice
	// lastKey and last are each tier's latest choice: runs repeat, so
	// most links skip the map.
	lastKey [3]withKey
	last    [3]linkChoice
	// cables is each of allMedia's cable (the fibre for optics), reach
	// its reach at each tier's port speed.
	cables [5]*Cable
	reach  [3][5]float64
}

// tierPort is a link tier's port speed (Gb/s), the links one switch cage
// carries at it (the most of either end), and its lane rate (0: the ends
// share none, so only optics join them); lowCage and highCage are the
// links a cage of the lower and of the upper switch carries, lowLane and
// highLane each end's lane (the tiers may run different models).
type tierPort struct{ gbps, cageLinks, lane, lowCage, highCage, lowLane, highLane int }

// withKey is a link choice's tier, medium and length sold.
type withKey struct {
	tier   int8
	medium int8 // index into allMedia
	metres float64
}

func newMediaChooser(p *Plan, cat *Catalog) *mediaChooser {
	m := &mediaChooser{p: p, cat: cat, memo: map[withKey]linkChoice{}, serverPerCage: 1}
	for t, name := range linkTierNames {
		g := p.TierGbps(name)
		lower, upper := p.linkEnds(name)
		m.port[t] = tierPort{gbps: g, cageLinks: p.cageLinks(name), lane: p.tierLane(name), lowCage: upper.LinksPerCage(g), highCage: upper.LinksPerCage(g),
			lowLane: p.tierLane(name), highLane: p.endLane(name, upper)}
		if lower != nil {
			m.port[t].lowCage, m.port[t].lowLane = lower.LinksPerCage(g), p.endLane(name, lower)
		}
	}
	for i, med := range allMedia {
		key := string(med)
		switch med {
		case Optics:
			key = fiberKey
		case Multimode:
			key = mmFiberKey
		}
		m.cables[i] = cat.Cables[key]
		for t := range m.port {
			if cb := m.cables[i]; cb != nil {
				m.reach[t][i] = float64(cb.Reach(m.port[t].gbps))
			}
		}
	}
	md := p.Scenario.Network.Media
	m.forced = [3]Medium{md.ServerLeaf, md.LeafSpine, md.SpineCore}
	// A server cage's ports share one medium, module or cable, whether
	// or not a module fits it (a cage of copper only): the cages as the
	// system or NIC is built, as the media rule counts them (cageLinks).
	m.serverPerCage = p.serverCageLinks()
	if mod, n, _, err := p.serverModules(cat, 0); err == nil && n > 0 {
		m.serverMod = mod
		m.serverModsPerPort = float64(n) / float64(max(p.NICPorts, 1))
	}
	return m
}

// choose picks the medium of one link of tier t (an index into
// linkTierNames) whose run is run metres; false when nothing reaches.
func (m *mediaChooser) choose(t int, run float64) (linkChoice, bool) {
	s, pt := &m.p.Scenario, m.port[t]
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
		if !cb.offers(s.Network.Fabric, pt.gbps, pt.cageLinks) || pt.lane == 0 {
			continue
		}
		if l, ok := cb.Sold(run, pt.gbps); ok {
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

// soldEnd is the shortest length any medium sells a run of tier t in
// (+Inf when none reaches it). A link's medium and parts depend on its
// run only through each medium's length sold, and every run with the
// same soldEnd has the same length sold in every medium: a medium's
// length steps up only at one of its lengths, which would be a shorter
// soldEnd for the runs below it.
func (m *mediaChooser) soldEnd(t int, run float64) float64 {
	end := math.Inf(1)
	for i, cb := range m.cables {
		if cb == nil {
			continue
		}
		if l, ok := cb.soldWithin(run, m.reach[t][i]); ok {
			end = min(end, l)
		}
	}
	return end
}

// mediumMemo is the medium (index into allMedia) choose picks for a
// run, kept by the run's soldEnd: a hall's runs are many distinct
// lengths, its soldEnds few. Each tier's soldEnds are the lengths every
// medium sells within reach, so a table (ends) finds a run's without a
// map; a tier without one (lengths not shortest first or past
// lengthStepsMaxM, or sold by the metre past endStepsMaxM) keeps its
// runs by their bits.
type mediumMemo struct {
	m            *mediaChooser
	byRun, byEnd map[uint64]int8
	ends         [linkTierCount]*soldEnds
	endsMade     [linkTierCount]bool
}

// soldEnds are a tier's soldEnds as steps, and the medium each takes
// (-1: not chosen yet).
type soldEnds struct {
	steps lengthSteps
	med   []int8
}

// endStepsMaxM bounds the whole metres a medium sold by the metre adds
// to a tier's soldEnds table.
const endStepsMaxM = 1 << 12

func newMediumMemo(m *mediaChooser) *mediumMemo {
	return &mediumMemo{m: m, byRun: map[uint64]int8{}, byEnd: map[uint64]int8{}}
}

// soldEndsOf is tier t's soldEnds: the lengths, within reach, of every
// medium (whole metres from 1 for one sold by the metre); nil when a
// medium's lengths are not shortest first or do not fit a table
// (stepsFit), or it is sold by the metre farther than endStepsMaxM.
func (m *mediaChooser) soldEndsOf(t int) *soldEnds {
	var all []float64
	for i, cb := range m.cables {
		if cb == nil {
			continue
		}
		reach := m.reach[t][i]
		switch {
		case len(cb.LengthsM) == 0:
			if reach > endStepsMaxM {
				return nil
			}
			for l := 1.0; l <= reach; l++ {
				all = append(all, l)
			}
		case !slices.IsSorted(cb.LengthsM):
			return nil
		default:
			all = append(all, withinReach(cb.LengthsM, reach)...)
		}
	}
	if !stepsFit(all) {
		return nil
	}
	slices.Sort(all)
	all = slices.Compact(all)
	e := &soldEnds{steps: newLengthSteps(all), med: make([]int8, len(all))}
	for i := range e.med {
		e.med[i] = -1
	}
	return e
}

// memoKey is a tier and a length in one word (lengths are positive or
// +Inf, so equal bits are equal lengths).
func memoKey(t int, metres float32) uint64 { return uint64(t)<<32 | uint64(math.Float32bits(metres)) }

// of is the medium of a set of tier t whose longest run is run.
func (c *mediumMemo) of(t int, run float32) (int8, error) {
	if !c.endsMade[t] {
		c.ends[t], c.endsMade[t] = c.m.soldEndsOf(t), true
	}
	e := c.ends[t]
	if e == nil {
		return c.byBits(t, run)
	}
	k := e.steps.first(float64(run))
	if k < 0 { // nothing reaches: choose says why
		return c.byBits(t, run)
	}
	if med := e.med[k]; med >= 0 {
		return med, nil
	}
	med, err := c.byBits(t, run)
	if err == nil {
		e.med[k] = med
	}
	return med, err
}

// byBits is of, keeping runs by their bits and soldEnds in a map.
func (c *mediumMemo) byBits(t int, run float32) (int8, error) {
	k := memoKey(t, run)
	if med, ok := c.byRun[k]; ok {
		return med, nil
	}
	ek := memoKey(t, float32(c.m.soldEnd(t, float64(run))))
	med, ok := c.byEnd[ek]
	if !ok {
		ch, found := c.m.choose(t, float64(run))
		if !found {
			return -1, c.m.unreachable(t, float64(run))
		}
		med = int8(slices.Index(allMedia, ch.medium))
		c.byEnd[ek] = med
	}
	c.byRun[k] = med
	return med, nil
}

// forcedOffered checks that each copper or AOC medium the scenario
// forces on a tier is offered at the plan's port speed and cages.
func (m *mediaChooser) forcedOffered() error {
	for t, med := range m.forced {
		if med == "" || med == Optics || med == Multimode {
			continue
		}
		cb := m.cat.Cables[string(med)]
		if cb == nil {
			continue
		}
		if err := m.p.sharedLaneMedium(linkTierNames[t], med); err != nil {
			return err
		}
		if ok, why := cb.Offered(m.p.Scenario.Network.Fabric, m.port[t].gbps, m.port[t].cageLinks); !ok {
			return fielderr.New("network.media."+linkTierNames[t], "choose another medium, or leave it out for the cheapest that reaches", "%s", why)
		}
	}
	return nil
}

// withIndex is a link of tier t on the medium allMedia[mi] (mi < 0:
// none), as the cage sets keep it, for a run that medium reaches
// (choices are cached by the length sold): the walks ask it once a
// link.
func (m *mediaChooser) withIndex(t, mi int, run float64) (linkChoice, bool) {
	if mi < 0 {
		return linkChoice{}, false
	}
	med := allMedia[mi]
	cb := m.cables[mi]
	if cb == nil {
		return linkChoice{}, false
	}
	l, ok := cb.soldWithin(run, m.reach[t][mi])
	if !ok {
		return linkChoice{}, false
	}
	k := withKey{int8(t), int8(mi), l}
	if m.lastKey[t] == k && m.last[t].cable != nil {
		return m.last[t], true
	}
	if c, ok := m.memo[k]; ok {
		m.lastKey[t], m.last[t] = k, c
		return c, true
	}
	c := linkChoice{medium: med, cable: cb, metres: l}
	if med == Optics || med == Multimode {
		if c, _, ok = m.optics(t, l, med == Multimode); !ok {
			return linkChoice{}, false
		}
	}
	if m.memo == nil { // a copied back end's chooser starts without one
		m.memo = map[withKey]linkChoice{}
	}
	m.memo[k] = c
	m.lastKey[t], m.last[t] = k, c
	return c, true
}

// optics is a link of tier t on transceivers and fibre, single-mode or
// multimode (mm), and what it costs: the fibre and each end's share of
// its module.
func (m *mediaChooser) optics(t int, run float64, mm bool) (linkChoice, float64, bool) {
	s, p, pt := &m.p.Scenario, m.p, m.port[t]
	med, key := Optics, fiberKey
	if mm {
		med, key = Multimode, mmFiberKey
	}
	fiber := m.cat.Cables[key]
	if fiber == nil {
		return linkChoice{}, 0, false
	}
	l, ok := fiber.Sold(run, pt.gbps)
	if !ok {
		return linkChoice{}, 0, false
	}
	lowSw, upSw := p.linkEnds(linkTierNames[t])
	sw := m.cat.FibreModule(mm, upSw.Form, pt.gbps, pt.highCage, pt.highLane, l)
	if sw == nil {
		return linkChoice{}, 0, false
	}
	share := m.modulePrice(sw) / float64(sw.Links)
	c := linkChoice{medium: med, cable: fiber, metres: l, lower: sw, upper: sw}
	far := share
	if t > 0 && lowSw != upSw {
		low := m.cat.FibreModule(mm, lowSw.Form, pt.gbps, pt.lowCage, pt.lowLane, l)
		if low == nil || pt.lane == 0 && !sameOptical(low, sw) {
			return linkChoice{}, 0, false
		}
		c.lower, far = low, m.modulePrice(low)/float64(low.Links)
	}
	if t == 0 {
		mod := m.serverModule(mm, l)
		if !p.serverOpticsMeet(mod, sw) {
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
	pt, f := m.port[t], m.p.Scenario.Network.Fabric
	_, upper := m.p.linkEnds(linkTierNames[t])
	_, longest := m.cat.Module(upper.Form, pt.gbps, pt.highCage, pt.highLane, 0)
	if t == 0 {
		longest = 0
		if m.serverMod != nil {
			longest = m.serverMod.ReachM
		}
	}
	for _, med := range []Medium{DAC, ACC, AOC} {
		if m.cat.Cables[string(med)].offers(f, pt.gbps, pt.cageLinks) {
			longest = max(longest, m.cat.Cables[string(med)].Reach(pt.gbps))
		}
	}
	return min(longest, max(m.cat.Cables[fiberKey].Reach(pt.gbps), m.cat.Cables[string(AOC)].Reach(pt.gbps)))
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
	// numbers: cableWalk's leafID, spineID, coreID): each its use, as
	// an index into uses. A use is eight bytes and a hall's distinct
	// uses are few (sold lengths by tier and end), so a cage takes
	// four, not eight (13 MB at 1,000,000 GPUs, not 27).
	cages []uint32
	// uses are the distinct uses met, uses[0] none (a cage without
	// optics); useAt finds one, last is the latest found for each end
	// (lower, upper: a link notes both, so one would miss every time).
	uses  []cageUse
	useAt map[cageUse]uint32
	last  [2]uint32
	grid  cageGrid
	// longest is the longest link of each tier (the longest run, the
	// first of them in walk order): its tier, speed,
	// medium, parts, length, run and racks (longLink.cableRun).
	longest [3]CableRun
	runSum  [3]float64 // sum of sold lengths per tier
	links   [3]int
}

func newLinkTally(grid cageGrid) *linkTally {
	var cages []uint32
	if kept := tallyCagesKeep.get(); cap(*kept) >= grid.size {
		cages = (*kept)[:grid.size]
		clear(cages)
	} else {
		cages = make([]uint32, grid.size)
	}
	return &linkTally{cables: map[cableGroup]int{}, cages: cages, grid: grid,
		uses: []cageUse{{}}, useAt: map[cageUse]uint32{{}: 0}}
}

// tallyCagesKeep keeps a released tally's cages (linkTally.release):
// 1.4 MB at 100,000 GPUs, made for every plan a walk bills.
var tallyCagesKeep keep[[]uint32]

// release gives t's cages back for another walk: t's cages must not be
// read after.
func (t *linkTally) release() {
	cages := t.cages
	tallyCagesKeep.put(&cages, 4*cap(cages))
	t.cages = nil
}

// cage notes use u of cage at32: a cage keeps its longest link's use.
func (t *linkTally) cage(at32 int32, u cageUse) {
	at := &t.cages[at32]
	if t.uses[*at].metres >= u.metres {
		return
	}
	last := &t.last[boolInt(u.upper)]
	if t.uses[*last] != u {
		*last = t.useIndex(u)
	}
	*at = *last
}

// useIndex is the index of use u in t.uses, added when new.
func (t *linkTally) useIndex(u cageUse) uint32 {
	i, ok := t.useAt[u]
	if !ok {
		i = uint32(len(t.uses))
		t.uses = append(t.uses, u)
		t.useAt[u] = i
	}
	return i
}

// cageAt is cage for the use t.uses[i], whose length is metres.
func (t *linkTally) cageAt(at32 int32, i uint32, metres float32) {
	if at := &t.cages[at32]; t.uses[*at].metres < metres {
		*at = i
	}
}

// use is the use of cage i.
func (t *linkTally) use(i int) cageUse { return t.uses[t.cages[i]] }

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
	if p.Scenario.countedLinks {
		return p.countLinkBOM(cat, add)
	}
	if p.replayLinks(add) {
		return nil
	}
	var lines []BOMLine
	switchBefore := p.SwitchTransceivers
	if err := p.walkLinkBOM(cat, func(l BOMLine) { lines = append(lines, l); add(l) }); err != nil {
		return err
	}
	p.keepHall(lines, p.SwitchTransceivers-switchBefore)
	return nil
}

// walkLinkBOM is fillLinkBOM without the memo: it walks every link.
func (p *Plan) walkLinkBOM(cat *Catalog, add func(BOMLine)) error {
	m, grid, err := p.startLinkBOM(cat)
	if err != nil {
		return err
	}
	tally := newLinkTally(grid)
	defer tally.release()
	counted, err := p.countUniformUpper(grid, tally)
	if err != nil {
		return err
	}
	if !counted {
		if err := p.surveyAndCount(grid, tally); err != nil {
			return err
		}
	}
	servers, err := p.countServerLinks(tally)
	if err != nil {
		return err
	}
	return p.addLinkLines(cat, m, servers, tally, tally, add)
}

// surveyAndCount gives the plan's media their cage sets (the upper
// links surveyed) and counts the upper links into tally.
func (p *Plan) surveyAndCount(grid cageGrid, tally *linkTally) error {
	recs, err := p.chooseCageMedia(grid, false)
	if err != nil {
		return err
	}
	err = countLinks(p, recs, tally)
	if recs != nil {
		recs.release()
	}
	return err
}

// startLinkBOM starts a link bill, walked or counted: the plan's media
// chooser, its forced media checked, and the numbering of every cage in
// the hall.
func (p *Plan) startLinkBOM(cat *Catalog) (*mediaChooser, cageGrid, error) {
	m := newMediaChooser(p, cat)
	p.media = m
	if err := m.forcedOffered(); err != nil {
		return nil, cageGrid{}, err
	}
	h := p.Hall
	grid := newCageGrid(p.Servers, ceilDiv(p.ServerPorts, m.serverPerCage),
		[3]int{h.LeavesPerPlane() * p.Planes, h.SpinesPerPlane() * p.Planes, h.CoresPerPlane() * p.Planes}, m.switchCages())
	return m, grid, nil
}

// addLinkLines ends a link bill, counted or walked: the modules of the
// counted cage uses and (walked, nil when none was) of every cage
// walked, the tiers' runs, then the module and cable lines and the
// cable figures from tally.
func (p *Plan) addLinkLines(cat *Catalog, m *mediaChooser, counted []cageCount, walked, tally *linkTally, add func(BOMLine)) error {
	mods, err := m.countModules(counted, walked)
	if err != nil {
		return err
	}
	p.tierRuns(tally, mods)
	p.moduleLines(cat, mods, add)
	groups := SortedGroups(tally.cables)
	for _, g := range groups {
		add(p.cableLine(cat.Cables[g.key], linkTierNames[g.tier], g.metres, tally.cables[g]))
	}
	p.cableFigures(tally, groups)
	return nil
}

// countModules counts the modules the optical cages take, by tier, end
// and part: the counted uses (the server links' cages, counted by
// unit), then every cage walked (t; nil: none walked), its uses in the
// order their first cages come. Each distinct use picks its module
// once.
func (m *mediaChooser) countModules(counted []cageCount, t *linkTally) (map[moduleCount]int, error) {
	uses := map[cageUse]int{}
	var order []cageUse // distinct uses as first met: the first error is the walk's
	note := func(u cageUse, n int) {
		if n == 0 || u.metres == 0 {
			return
		}
		if _, seen := uses[u]; !seen {
			order = append(order, u)
		}
		uses[u] += n
	}
	for _, c := range counted {
		note(c.use, c.n)
	}
	if t != nil {
		first, byUse := t.cagesByUse()
		for _, u := range first {
			note(t.uses[u], byUse[u])
		}
	}
	mods := map[moduleCount]int{}
	for _, u := range order {
		var mod *Transceiver
		if u.server {
			mod = m.serverModule(u.mm, float64(u.metres))
		} else {
			// Each end's module fits its own switch's cage and lanes.
			pt := m.port[u.tier]
			cage, lane := pt.lowCage, pt.lowLane
			lower, sw := m.p.linkEnds(linkTierNames[u.tier])
			if u.upper {
				cage, lane = pt.highCage, pt.highLane
			} else {
				sw = lower
			}
			mod = m.cat.FibreModule(u.mm, sw.Form, pt.gbps, cage, lane, float64(u.metres))
		}
		if mod == nil {
			return nil, fmt.Errorf("no %s module reaches a %g m cage's link", map[bool]string{true: "multimode", false: "single-mode"}[u.mm], u.metres)
		}
		mods[moduleCount{int(u.tier), u.upper, mod.Key}] += uses[u]
	}
	return mods, nil
}

// cagesByUse counts the cages by use (an index into t.uses), each use
// listed in first where its first cage comes. Neighbouring cages mostly
// serve alike (a switch's cages in order, one server after another), so
// runs of equal uses are counted first: no key to hash.
func (t *linkTally) cagesByUse() (first []uint32, byUse []int) {
	byUse = make([]int, len(t.uses))
	add := func(u uint32, n int) {
		if n == 0 {
			return
		}
		if byUse[u] == 0 {
			first = append(first, u)
		}
		byUse[u] += n
	}
	var run uint32
	n := 0
	for _, u := range t.cages {
		if u == run {
			n++
			continue
		}
		add(run, n)
		run, n = u, 1
	}
	add(run, n)
	return first, byUse
}

// switchCages bounds the cages of one switch of each tier (leaf, spine,
// core; all the leaf's when one model serves every tier): a leaf's cages
// at the server port speed, and at the uplink speed when that differs (a
// leaf's uplinks take cages after its down links); a spine's or core's
// at its speeds.
func (m *mediaChooser) switchCages() [3]int {
	sw, p0, p1, p2 := m.p.Switch, m.port[0], m.port[1], m.port[2]
	n := ceilDiv(sw.Radix(p0.gbps), p0.highCage)
	if p1.gbps != p0.gbps {
		n += ceilDiv(sw.Radix(p1.gbps), p1.lowCage)
	}
	spine, core := m.p.SwitchOf(TierSpine), m.p.SwitchOf(TierCore)
	if spine == sw && core == sw {
		return [3]int{n, n, n}
	}
	s := ceilDiv(spine.Radix(p1.gbps), p1.highCage)
	if p2.gbps != p1.gbps {
		s += ceilDiv(spine.Radix(p2.gbps), p2.lowCage)
	}
	return [3]int{n, s, ceilDiv(core.Radix(p2.gbps), p2.highCage)}
}

// chooseCageMedia surveys every link's run and gives each set of links
// joined by twin-port cages the cheapest medium that reaches the
// longest of them; the plan's media take the sets. With servers false
// the server links are left out (countServerLinks counts them by unit)
// and the sets say so: a walk that writes links out surveys them all
// again (linkMedia).
func (p *Plan) chooseCageMedia(grid cageGrid, servers bool) (*linkRecords, error) {
	sets, recs, err := p.surveySets(grid, servers, true)
	p.media.sets = sets
	return recs, err
}

// surveySets surveys the plan's links (the server links too with
// servers) on a copy of its media and returns the sets they form, each
// with its medium chosen, and with record the survey's records (none past
// recordLinksMax: the BOM pass then walks again).
func (p *Plan) surveySets(grid cageGrid, servers, record bool) (*cageSets, *linkRecords, error) {
	m := *p.media
	m.sets = newCageSets(grid, m.port, m.serverPerCage)
	m.sets.counted = !servers
	var rec *linkRecords
	if record {
		walked := p.Links.Fabric() // the walk's links: the server links only with servers
		if !servers {
			walked -= p.Links.ServerLeaf
		}
		if walked <= recordLinksMax {
			rec = newLinkRecords(walked)
		}
	}
	var err error
	if servers {
		w := newCableWalkOn(p, &m)
		w.survey, w.rec = true, rec
		err = p.walkLinks(true, w.link)
	} else {
		err = p.surveyUpper(m.sets, rec)
	}
	if err != nil {
		return nil, nil, err
	}
	return m.sets, rec, m.sets.choose(p)
}

// linkMedia is the media a walk that writes links out gives them: the
// plan's, or a copy with every link's cage set when the plan's counted
// its server links (their cages joined nothing): surveyed on the first
// walk and kept with the sets (plans that share a hall share them).
// Nil without media.
func (p *Plan) linkMedia() *mediaChooser {
	m := p.media
	if m == nil || m.sets == nil || !m.sets.counted {
		return m
	}
	s := m.sets
	s.fullOnce.Do(func() {
		if full, _, err := p.surveySets(s.grid, true, false); err == nil {
			s.full = full
		}
	})
	if s.full == nil {
		return m // the counted sets: measure names the link no medium reaches
	}
	full := *m
	full.sets = s.full
	return &full
}

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
		lt.Metres = 0 // the longest length sold (not the longest run's)
		for _, r := range lt.Runs {
			lt.Metres = max(lt.Metres, r.Metres)
		}
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
		lt.LowerParts, lt.UpperParts = modulesByPart(mods, ti)
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
	} else if p.volume != nil {
		l.setPrice(p.volume.volumePrice(cb.Key, unit, [2]float64{l.UnitLowUSD, l.UnitHighUSD}), nil)
	}
	return l
}

// measure fills a link's places, length, medium and parts from the hall
// (in a survey, it only notes the run).
func (w *cableWalk) measure(t int, a, b hall.Place) error {
	c, h := &w.c, w.p.Hall
	run := h.Run(a, b)
	sets := w.media.sets
	ca, cb := sets.ends(t, c)
	if w.visit != nil {
		return w.visit(int8(t), run, ca, cb, a.Rack, b.Rack)
	}
	if w.survey {
		sets.join(t, ca, cb, run)
		if w.rec != nil {
			w.rec.add(t, run, ca, cb, a.Rack, b.Rack)
		}
		return nil
	}
	ra, rb := &h.Racks[a.Rack], &h.Racks[b.Rack]
	c.ARack, c.ARow, c.AU = ra.Name, ra.Row+1, a.U
	c.BRack, c.BRow, c.BU = rb.Name, rb.Row+1, b.U
	c.RunM, c.aRack, c.bRack = run, a.Rack, b.Rack
	ch, ok := w.media.withIndex(t, int(sets.mediumIndexOf(ca)), run)
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
