package planner

import (
	"fmt"
	"slices"
)

// The BOM walk of a laid-out plan needs every link's run twice: once to
// join the links that share twin-port cages (chooseCageMedia), once to
// give each link its set's medium and count its parts. The survey
// records what the second pass needs, so that pass replays the records
// instead of walking the fabric (names, places and runs) again: a
// design search lays out a dozen 100,000-GPU designs.

// linkRecords are the links a survey walked, in walk order: each link's
// tier, run, its ends' cages (a, b) and racks (a, b).
type linkRecords struct {
	tier  []int8
	run   []float64
	cages []int32
	racks []int32
}

// linkRecordsKeep keeps released records' buffers: the designs a search
// lays out, and the plans the window builds, reuse them.
var linkRecordsKeep keep[linkRecords]

// newLinkRecords is empty records with room for links links.
func newLinkRecords(links int) *linkRecords {
	r := linkRecordsKeep.get()
	r.tier, r.run = slices.Grow(r.tier[:0], links), slices.Grow(r.run[:0], links)
	r.cages, r.racks = slices.Grow(r.cages[:0], 2*links), slices.Grow(r.racks[:0], 2*links)
	return r
}

// release gives r's buffers back for another walk; r must not be used
// after.
func (r *linkRecords) release() {
	linkRecordsKeep.put(r, cap(r.tier)+8*cap(r.run)+4*cap(r.cages)+4*cap(r.racks))
}

// add records one link of tier t.
func (r *linkRecords) add(t int, run float64, ca, cb, ra, rb int32) {
	r.tier = append(r.tier, int8(t))
	r.run = append(r.run, run)
	r.cages = append(r.cages, ca, cb)
	r.racks = append(r.racks, ra, rb)
}

// recordLinksMax is the most links a survey records for the BOM pass
// to replay (25 bytes a link: 13 MB at the cap, the links of about
// 250,000 GPUs); a larger fabric is walked again in their place
// (rewalk), so a plan's memory stays flat per GPU past that size at the
// cost of a second walk.
var recordLinksMax = 1 << 19

// countLinks counts a laid-out plan's links into a tally: the survey's
// records replayed, or the fabric walked again when the survey kept
// none (recordLinksMax; tests put the walk in the replay's place too,
// the reference the replay is checked against).
var countLinks = func(p *Plan, recs *linkRecords, t *linkTally) error {
	if recs == nil {
		return rewalk(p, t)
	}
	return recs.replay(p, t)
}

// tallyKey is a count of links by tier, medium (index into allMedia),
// part and length sold: a cableGroup without strings to hash.
type tallyKey struct {
	tier, medium int8
	cable        *Cable
	metres       float64
}

// linkCounter counts links into a tally one at a time, in walk order:
// each link given its set's medium (the cheapest that reaches the set's
// longest run, as chosen) and counted: cables by group, runs, cages
// filled, and each tier's longest link (the link of the longest run,
// the first of them in walk order, as the cable map and layout's
// --longest find it: Plan.longestRuns). A link's parts, group and cage uses follow from its
// tier, medium and length sold alone: they are found once for each
// (soldLengths), not once a link.
type linkCounter struct {
	p *Plan
	t *linkTally
	// medium is the plan's sets' medium of each cage.
	medium []int8
	// sold is each tier's lengths sold on each medium (index into
	// allMedia), made on first need.
	sold [linkTierCount][len(mediaOrder)]*soldLengths
	// groups are the tally's keys met, counts their links.
	groups  []tallyKey
	counts  []int
	groupAt map[tallyKey]int32
	// longest is each tier's longest link so far (found: one counted).
	longest [3]longLink
}

// soldChoice is what a link of one tier, medium and length sold takes:
// its parts, its group (index into linkCounter.groups) and, optical,
// the use each of its cages notes (indices into linkTally.uses; 0 none).
// ok: found.
type soldChoice struct {
	ok    bool
	group int32
	use   [2]uint32
	ch    linkChoice
}

// soldLengths is Cable.soldWithin for one medium and reach as a table,
// with each length's soldChoice.
type soldLengths struct {
	cb    *Cable
	reach float64
	// steps are the cable's lengths within reach (none: it does not
	// reach, or is sold by the metre).
	steps lengthSteps
	// byMetre: no lengths are listed, a run is sold rounded up to a
	// whole metre; linear: the lengths are not shortest first or do
	// not fit a table (stepsFit), so soldWithin reads them in order.
	byMetre, linear bool
	// choices are each length's (by its index in steps or the cable's
	// lengths; by the metre, by metres), filled on first need.
	choices []soldChoice
}

func newSoldLengths(cb *Cable, reach float64) *soldLengths {
	s := &soldLengths{cb: cb, reach: reach}
	switch {
	case cb == nil:
	case len(cb.LengthsM) == 0:
		s.byMetre = true
	case !slices.IsSorted(cb.LengthsM) || !stepsFit(withinReach(cb.LengthsM, reach)):
		s.linear = true
		s.choices = make([]soldChoice, len(cb.LengthsM))
	default:
		s.steps = newLengthSteps(withinReach(cb.LengthsM, reach))
		s.choices = make([]soldChoice, len(s.steps.lengths))
	}
	return s
}

// at is the choice of the length a run is sold in, as soldWithin finds
// it; nil when the medium does not reach.
func (s *soldLengths) at(run float64) *soldChoice {
	if !s.byMetre && !s.linear {
		if j := s.steps.first(run); j >= 0 {
			return &s.choices[j]
		}
		return nil
	}
	l, ok := s.cb.soldWithin(run, s.reach)
	if !ok {
		return nil
	}
	if s.linear {
		return &s.choices[slices.Index(s.cb.LengthsM, l)]
	}
	if j := int(l); j >= len(s.choices) {
		s.choices = append(s.choices, make([]soldChoice, j+1-len(s.choices))...)
	}
	return &s.choices[int(l)]
}

// runTieM is how much longer a run must be than the longest so far to
// replace it as its tier's longest: runs closer are one length, the
// first walked kept (the same gaps at different places on the floor
// differ in their last bits, see gapKey; a counted unit's runs are its
// first unit's).
const runTieM = 1e-9

// longLink is a counted link kept as its tier's longest: its tier, run,
// racks and choice.
type longLink struct {
	found  bool
	tier   int8
	run    float64
	ra, rb int32
	ch     linkChoice
}

func newLinkCounter(p *Plan, t *linkTally) *linkCounter {
	return &linkCounter{p: p, t: t, medium: p.media.sets.medium, groupAt: map[tallyKey]int32{}}
}

// add counts one link of tier t8 and run metres between cages ca and cb
// of racks ra and rb.
func (c *linkCounter) add(t8 int8, run float64, ca, cb, ra, rb int32) error {
	mi := c.medium[ca] // the sets' mediumIndexOf
	var sc *soldChoice
	if mi >= 0 {
		sl := c.sold[t8][mi]
		if sl == nil {
			sl = c.soldOn(t8, mi)
		}
		sc = sl.at(run)
	}
	if sc == nil || !sc.ok && !c.choose(sc, t8, mi, run) {
		h := c.p.Hall
		return fmt.Errorf("%s link from rack %s to rack %s: no medium chosen for its %.1f m run",
			linkTierNames[t8], h.Racks[ra].Name, h.Racks[rb].Name, run)
	}
	t, ti := c.t, int(t8)
	c.counts[sc.group]++
	t.links[ti]++
	t.runSum[ti] += sc.ch.metres
	if l := &c.longest[ti]; !l.found || run > l.run+runTieM {
		*l = longLink{true, t8, run, ra, rb, sc.ch}
	}
	if sc.use[0] != 0 {
		u := float32(sc.ch.metres)
		t.cageAt(ca, sc.use[0], u)
		t.cageAt(cb, sc.use[1], u)
	}
	return nil
}

// soldOn makes the lengths sold of tier t8 on medium mi.
func (c *linkCounter) soldOn(t8, mi int8) *soldLengths {
	m := c.p.media
	sl := newSoldLengths(m.cables[mi], m.reach[t8][mi])
	c.sold[t8][mi] = sl
	return sl
}

// choose fills sc, the parts of a link of tier t8 on medium mi whose run
// is sold at sc's length; false when that medium does not reach it.
func (c *linkCounter) choose(sc *soldChoice, t8, mi int8, run float64) bool {
	ch, ok := c.p.media.withIndex(int(t8), int(mi), run)
	if !ok {
		return false
	}
	k := tallyKey{t8, mi, ch.cable, ch.metres} // withIndex's medium is allMedia[mi]
	g, seen := c.groupAt[k]
	if !seen {
		g = int32(len(c.groups))
		c.groupAt[k] = g
		c.groups, c.counts = append(c.groups, k), append(c.counts, 0)
	}
	*sc = soldChoice{ok: true, group: g, ch: ch}
	if ch.medium == Optics || ch.medium == Multimode {
		u, mm := float32(ch.metres), ch.medium == Multimode
		sc.use = [2]uint32{c.t.useIndex(cageUse{u, t8, false, t8 == tierServerLeaf, mm}), c.t.useIndex(cageUse{u, t8, true, false, mm})}
	}
	return true
}

// done adds the counts to the tally, and each tier's longest link.
func (c *linkCounter) done() {
	for g, k := range c.groups {
		c.t.cables[cableGroup{int(k.tier), allMedia[k.medium], k.cable.Key, k.metres}] += c.counts[g]
	}
	for ti, l := range c.longest {
		if l.found && l.ch.metres > 0 {
			c.t.longest[ti] = l.cableRun(c.p)
		}
	}
}

// replay counts every recorded link into t (linkCounter).
func (r *linkRecords) replay(p *Plan, t *linkTally) error {
	c := newLinkCounter(p, t)
	for i, t8 := range r.tier {
		if err := c.add(t8, r.run[i], r.cages[2*i], r.cages[2*i+1], r.racks[2*i], r.racks[2*i+1]); err != nil {
			return err
		}
	}
	c.done()
	return nil
}

// rewalk counts into t the links the plan's survey walked, walking the
// fabric again (linkCounter): what replay counts, without the records.
func rewalk(p *Plan, t *linkTally) error {
	c := newLinkCounter(p, t)
	var err error
	if p.media.sets.counted {
		err = p.walkUpper(p.media.sets, c.add)
	} else {
		w := newCableWalkOn(p, p.media)
		w.visit = c.add
		err = p.walkLinks(true, w.link)
	}
	if err != nil {
		return err
	}
	c.done()
	return nil
}

// cableRun is the link as the walk's CableRun with the fields a tier's
// longest link is read for (its tier, speed, parts, length, run and
// racks).
func (l *longLink) cableRun(p *Plan) CableRun {
	h, tier, ch := p.Hall, linkTierNames[l.tier], l.ch
	ra, rb := &h.Racks[l.ra], &h.Racks[l.rb]
	c := CableRun{Tier: tier, Gbps: p.TierGbps(tier), Medium: ch.medium, Part: ch.cable.Key, Metres: ch.metres, RunM: l.run,
		ARack: ra.Name, ARow: ra.Row + 1, BRack: rb.Name, BRow: rb.Row + 1, aRack: l.ra, bRack: l.rb}
	if ch.lower != nil {
		c.AModule, c.BModule = ch.lower.Key, ch.upper.Key
	}
	return c
}
