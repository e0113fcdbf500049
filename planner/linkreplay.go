package planner

import (
	"fmt"
	"slices"
	"sync"
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

// linkRecordsPool keeps released records' buffers: the designs a search
// lays out, and the plans the window builds, reuse them.
var linkRecordsPool = sync.Pool{New: func() any { return new(linkRecords) }}

// newLinkRecords is empty records with room for links links.
func newLinkRecords(links int) *linkRecords {
	r := linkRecordsPool.Get().(*linkRecords)
	r.tier, r.run = slices.Grow(r.tier[:0], links), slices.Grow(r.run[:0], links)
	r.cages, r.racks = slices.Grow(r.cages[:0], 2*links), slices.Grow(r.racks[:0], 2*links)
	return r
}

// release gives r's buffers back for another walk; r must not be used
// after.
func (r *linkRecords) release() { linkRecordsPool.Put(r) }

// add records one link of tier t.
func (r *linkRecords) add(t int, run float64, ca, cb, ra, rb int32) {
	r.tier = append(r.tier, int8(t))
	r.run = append(r.run, run)
	r.cages = append(r.cages, ca, cb)
	r.racks = append(r.racks, ra, rb)
}

// countLinks counts a laid-out plan's links into a tally: the survey's
// records replayed (tests put the fabric walked again in its place, the
// reference the replay is checked against).
var countLinks = func(p *Plan, recs *linkRecords, t *linkTally) error { return recs.replay(p, t) }

// tallyKey is a count of links by tier, medium (index into allMedia),
// part and length sold: a cableGroup without strings to hash.
type tallyKey struct {
	tier, medium int8
	cable        *Cable
	metres       float64
}

// replay gives every recorded link its set's medium (the cheapest that
// reaches the set's longest run, as chosen) and counts it into t:
// cables by group, runs, cages filled, and each tier's longest link
// (the first of the longest, in walk order).
func (r *linkRecords) replay(p *Plan, t *linkTally) error {
	m, h := p.media, p.Hall
	counts := map[tallyKey]int{}
	var last tallyKey
	lastN, longest := 0, [3]int{-1, -1, -1}
	var longestCh [3]linkChoice
	for i, t8 := range r.tier {
		ti, ca, cb := int(t8), r.cages[2*i], r.cages[2*i+1]
		mi := m.sets.mediumIndexOf(ca)
		ch, ok := m.withIndex(ti, int(mi), r.run[i])
		if !ok {
			return fmt.Errorf("%s link from rack %s to rack %s: no medium chosen for its %.1f m run",
				linkTierNames[ti], h.Racks[r.racks[2*i]].Name, h.Racks[r.racks[2*i+1]].Name, r.run[i])
		}
		k := tallyKey{t8, mi, ch.cable, ch.metres} // withIndex's medium is allMedia[mi]
		if k != last || lastN == 0 {
			if lastN > 0 {
				counts[last] += lastN
			}
			last, lastN = k, 0
		}
		lastN++
		t.links[ti]++
		t.runSum[ti] += ch.metres
		if longest[ti] < 0 || ch.metres > longestCh[ti].metres {
			longest[ti], longestCh[ti] = i, ch
		}
		if ch.medium == Optics || ch.medium == Multimode {
			u, mm := float32(ch.metres), ch.medium == Multimode
			t.cage(ca, cageUse{u, t8, false, ti == 0, mm})
			t.cage(cb, cageUse{u, t8, true, false, mm})
		}
	}
	if lastN > 0 {
		counts[last] += lastN
	}
	for k, n := range counts {
		t.cables[cableGroup{int(k.tier), allMedia[k.medium], k.cable.Key, k.metres}] += n
	}
	for ti, i := range longest {
		if i >= 0 && longestCh[ti].metres > 0 {
			t.longest[ti] = r.longestRun(p, i, longestCh[ti])
		}
	}
	return nil
}

// longestRun is recorded link i, of choice ch, as the walk's CableRun
// with the fields a tier's longest link is read for (its tier, speed,
// parts, length, run and racks).
func (r *linkRecords) longestRun(p *Plan, i int, ch linkChoice) CableRun {
	h, tier := p.Hall, linkTierNames[r.tier[i]]
	ra, rb := &h.Racks[r.racks[2*i]], &h.Racks[r.racks[2*i+1]]
	c := CableRun{Tier: tier, Gbps: p.TierGbps(tier), Medium: ch.medium, Part: ch.cable.Key, Metres: ch.metres, RunM: r.run[i],
		ARack: ra.Name, ARow: ra.Row + 1, BRack: rb.Name, BRow: rb.Row + 1, aRack: r.racks[2*i], bRack: r.racks[2*i+1]}
	if ch.lower != nil {
		c.AModule, c.BModule = ch.lower.Key, ch.upper.Key
	}
	return c
}
