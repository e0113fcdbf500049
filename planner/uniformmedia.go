package planner

import "math"

// A set of links joined by twin-port cages takes the medium that
// reaches its longest run, so the bill surveys every link (the
// union-find) before it counts any. Where a tier's medium does not
// depend on the run (every length a run of the tier can have takes
// the same medium: single-mode optics at 800G, say), the sets cannot
// change a link's medium: the links are counted as they are walked,
// without the union-find, its records or their replay, and the cages
// take the medium choose would give them. The counts are the survey's
// and replay's to the bit: the same links, in the same order, on the
// same medium.

// runSpanSlack widens a tier's bounds on its runs past the float
// error of summing them in another order, and past a run's rounding to
// float32 (the sets keep runs so).
const runSpanSlack = 1e-6

// countUniformUpper counts p's leaf-spine and spine-core links into
// tally as they are walked, when each tier's medium does not depend on
// its runs (uniformMedium), and gives the plan's media the sets' cage
// media; false, having counted nothing, when a tier's might.
func (p *Plan) countUniformUpper(grid cageGrid, tally *linkTally) (bool, error) {
	m := p.media
	sets := newCageCounts(grid, m.port, m.serverPerCage)
	sets.counted = true
	u := p.newUpperWalk(sets, nil)
	var med [linkTierCount]int8
	for t := tierLeafSpine; t < linkTierCount; t++ {
		if len(u.ends[t-1]) == 0 || len(u.ends[t]) == 0 {
			continue // no switch at one end: the tier has no links
		}
		lo, hi := u.runBounds(t)
		mi, ok := m.uniformMedium(t, lo, hi)
		if !ok {
			return false, nil
		}
		med[t] = mi
	}
	sets.medium = make([]int8, grid.size)
	for i := range sets.medium {
		sets.medium[i] = -1 // a cage no link reaches: choose's set of no run
	}
	m.sets = sets
	c := newLinkCounter(p, tally)
	u.visit = func(t int8, run float64, ca, cb, ra, rb int32) error {
		sets.medium[ca], sets.medium[cb] = med[t], med[t]
		return c.add(t, run, ca, cb, ra, rb)
	}
	if err := u.walk(p); err != nil {
		return false, err
	}
	c.done()
	return true, nil
}

// runBounds bound the runs of tier t's links (leaf-spine or
// spine-core) from below and above: every run between any of the
// tier's lower switches and any of its upper ones, in one rack or
// between two (upperWalk.run), widened by runSpanSlack.
func (u *upperWalk) runBounds(t int) (lo, hi float64) {
	type span struct{ lo, hi float64 }
	widen := func(s *span, v float64) { s.lo, s.hi = min(s.lo, v), max(s.hi, v) }
	var x, y, h, drop span
	for _, s := range []*span{&x, &y, &h, &drop} {
		*s = span{math.Inf(1), math.Inf(-1)}
	}
	var dropLo, dropHi [2]float64
	for i, ends := range [2][]runEnd{u.ends[t-1], u.ends[t]} {
		d := span{math.Inf(1), math.Inf(-1)}
		for _, e := range ends {
			widen(&x, e.x)
			widen(&y, e.y)
			widen(&h, e.h)
			widen(&d, e.drop)
		}
		dropLo[i], dropHi[i] = d.lo, d.hi
	}
	lo = dropLo[0] + dropLo[1] + u.slack
	hi = dropHi[0] + dropHi[1] + (x.hi - x.lo) + (y.hi - y.lo) + u.slack
	if shareRack(u.ends[t-1], u.ends[t]) {
		lo, hi = min(lo, u.rackSlack), max(hi, h.hi-h.lo+u.rackSlack)
	}
	return lo - runSpanSlack*(1+math.Abs(lo)), hi + runSpanSlack*(1+math.Abs(hi))
}

// shareRack reports whether a switch of lower stands in a rack with one
// of upper (a run inside one rack).
func shareRack(lower, upper []runEnd) bool {
	racks := map[int32]bool{}
	for _, e := range lower {
		racks[e.rack] = true
	}
	for _, e := range upper {
		if racks[e.rack] {
			return true
		}
	}
	return false
}

// uniformMedium is the medium (index into allMedia) every set of tier t
// takes when its runs lie from lo to hi metres, and true; false when
// the medium may depend on the run, or a run may reach no medium, or
// a run may be nothing (a set of no run takes none). A medium depends
// on a run only through its soldEnd (mediumMemo), so each soldEnd from
// lo's to hi's is asked once, as the sets' choice would ask it.
func (m *mediaChooser) uniformMedium(t int, lo, hi float64) (int8, bool) {
	if !(lo > 0) || float32(lo) <= 0 {
		return -1, false
	}
	memo := newMediumMemo(m)
	e := m.soldEndsOf(t)
	if e == nil {
		return -1, false
	}
	memo.ends[t], memo.endsMade[t] = e, true
	first, last := e.steps.first(lo), e.steps.first(hi)
	if first < 0 || last < 0 {
		return -1, false
	}
	med := int8(-1)
	for k := first; k <= last; k++ {
		// A run of the soldEnd's very length (as float32, as the sets
		// keep it) stands for the runs that share it.
		run := float32(e.steps.lengths[k])
		if e.steps.first(float64(run)) != k {
			return -1, false
		}
		mi, err := memo.of(t, run)
		if err != nil || mi < 0 || k > first && mi != med {
			return -1, false
		}
		med = mi
	}
	return med, med >= 0
}
