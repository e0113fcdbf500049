package planner

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
)

// The counted link pricing (Scenario.CountedLinks) prices a laid-out
// plan's links without walking them: the server links are counted by
// unit, exactly (countServerLinks); the leaf-spine and spine-core links
// by class. A class is the links between two racks at one distance
// along and across the rows, with the ends' port heights taken as
// spread like the tier's, independently of the distance: a tier's run
// is (tray - lower height) + (tray - upper height) + distance + slack,
// so its runs are the distances' histogram convolved with the heights'.
// The distances come from the hall's racks and the fabric's wiring
// (each lower switch's uplinks spread evenly over its group's upper
// switches) by rack pair, not by link, to the nanometre (gapKey: the
// same gaps in blocks of rows at different places on the floor differ
// in their last bits, and a million-GPU hall's 33,000 rack pairs would
// otherwise be as many distances). Each link takes the cheapest
// medium that reaches its own run and each cage holds links of one
// class: the walk's twin-port cage sets, which give every link joined
// through shared cages the medium of the longest, are left out. The
// cages of each end are as many as its switches fill, each switch's
// last cage part full (wholeCages), shared among the classes. The
// cost is an approximation, tested to stay within 0.5% of the walk's
// (TestCountedLinksNearWalk); the switch and link counts are exact.
// Such a plan's hall is laid out without its rack list
// (hall.NewCounting): the count reads places, rack centres and names.

// classHist is a histogram of lengths (metres) weighted by links, each
// length keyed by its bits: a map hashes a uint64 several times faster
// than a float64 (a million-GPU hall notes 33,000 rack pairs).
type classHist map[uint64]float64

// add adds links at length m.
func (h classHist) add(m, links float64) { h[math.Float64bits(m)] += links }

// at is the links at length m.
func (h classHist) at(m float64) float64 { return h[math.Float64bits(m)] }

// gapHist is a histogram of rack-to-rack distances in grains (gapKey)
// weighted by links: an open-addressed table, as a million-GPU hall
// notes 33,000 rack pairs at a few hundred distances and a map hashes
// each several times slower (a 1,000-size sweep to a million GPUs
// notes 2.8 million). The tables are reused (gapHists): a sweep's
// plans would otherwise grow a table each, tier by tier.
type gapHist struct {
	slots []gapSlot
	used  []int32 // the slots filled, as filled (their count, the entries)
	// packed and spare are sorted's buffers, dist and links what it
	// returns (valid to the table's release), kept with the table.
	packed, spare []uint64
	dist, links   []float64
}

// gapSlot is a slot of a gapHist: a distance and the links at it, side
// by side (a slot read is one cache line, not one in each of two
// arrays: the table of a million-GPU hall's tier outgrows the caches
// nearest the core, and most of an add's time was the slot's lookup).
type gapSlot struct {
	key uint64 // grains + 1; 0 is an empty slot
	w   float64
}

// gapHists are tables emptied for reuse (release).
var gapHists = sync.Pool{New: func() any { return new(gapHist) }}

// release empties h and gives it for reuse.
func (h *gapHist) release() {
	h.reset()
	gapHists.Put(h)
}

// reset empties h, slot by slot filled (a table of the sweep's largest
// plan is emptied as fast as a small plan fills it).
func (h *gapHist) reset() {
	for _, i := range h.used {
		h.slots[i] = gapSlot{}
	}
	h.used = h.used[:0]
}

// gapHistMin is the slots a gapHist starts with (a power of two).
const gapHistMin = 256

// add adds links at distance g grains.
func (h *gapHist) add(g uint64, links float64) {
	if 2*(len(h.used)+1) > len(h.slots) {
		h.grow()
	}
	i := h.slot(g)
	sl := &h.slots[i]
	if sl.key == 0 {
		sl.key = g + 1
		h.used = append(h.used, int32(i))
	}
	sl.w += links
}

// grow doubles h's slots, keeping what it holds.
func (h *gapHist) grow() {
	slots, used := h.slots, slices.Clone(h.used)
	h.slots, h.used = make([]gapSlot, max(gapHistMin, 2*len(slots))), h.used[:0]
	for _, i := range used {
		h.add(slots[i].key-1, slots[i].w)
	}
}

// slot is the slot of distance g grains in h: where it is, or the
// empty slot where it would go.
func (h *gapHist) slot(g uint64) int {
	k, mask := g+1, uint64(len(h.slots)-1)
	i := (k * 0x9E3779B97F4A7C15 >> 32) & mask
	for h.slots[i].key != k && h.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	return int(i)
}

// slotBits is the bits of a gapHist slot's index packed below its
// grains for sorting (sorted): a million slots, and distances up to
// 2^44 grains (17 km).
const slotBits = 20

// sorted is h's distances (metres), shortest first, and the links at
// each, valid until h is released. Each distance is sorted with its slot packed below it, as one
// integer (a sweep sorts millions, and integers sort faster than
// pairs by a function).
func (h *gapHist) sorted() (dist, links []float64) {
	packed := h.packed[:0]
	for _, i := range h.used {
		k := h.slots[i].key
		if k-1 >= 1<<(64-slotBits) || i >= 1<<slotBits {
			return h.sortedPairs()
		}
		packed = append(packed, (k-1)<<slotBits|uint64(i))
	}
	if len(packed) < radixMin {
		slices.Sort(packed)
	} else {
		h.spare = radixSort(packed, h.spare)
	}
	h.packed = packed
	h.dist, h.links = slices.Grow(h.dist[:0], len(packed))[:len(packed)], slices.Grow(h.links[:0], len(packed))[:len(packed)]
	dist, links = h.dist, h.links
	for i, p := range packed {
		dist[i], links[i] = float64(p>>slotBits)*gapGrainM, h.slots[p&(1<<slotBits-1)].w
	}
	return dist, links
}

// radixMin is the distances from which sorted sorts by radix: below
// it a comparison sort is as fast.
const radixMin = 64

// radixDigit is the bits radixSort sorts by a pass.
const radixDigit = 8

// radixSort sorts packed (a gapHist's distances, grains above slotBits
// of slot, each distance once) by its grains, least significant digit
// first, and returns the buffer it used (spare, grown to fit, for the
// next call). Only the digits in which the grains differ are passed
// over: a tier's distances span a few hundred metres, 40 bits of
// grains, and a sort by comparison took a tenth of a counted sweep's
// CPU. The grains are distinct, so the order is slices.Sort's.
func radixSort(packed, spare []uint64) []uint64 {
	lo, hi := packed[0]>>slotBits, packed[0]>>slotBits
	for _, p := range packed {
		lo, hi = min(lo, p>>slotBits), max(hi, p>>slotBits)
	}
	if cap(spare) < len(packed) {
		spare = make([]uint64, len(packed))
	}
	src, dst := packed, spare[:len(packed)]
	var count [1 << radixDigit]int
	for shift := 0; shift < 64 && (hi-lo)>>shift > 0; shift += radixDigit {
		count = [1 << radixDigit]int{}
		for _, p := range src {
			count[((p>>slotBits)-lo)>>shift&(1<<radixDigit-1)]++
		}
		at := 0
		for d, n := range count {
			count[d], at = at, at+n
		}
		for _, p := range src {
			d := ((p >> slotBits) - lo) >> shift & (1<<radixDigit - 1)
			dst[count[d]] = p
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &packed[0] {
		copy(packed, src)
		return src
	}
	return dst
}

// sortedPairs is sorted for a table too large to pack.
func (h *gapHist) sortedPairs() (dist, links []float64) {
	type entry struct {
		grains uint64
		links  float64
	}
	all := make([]entry, 0, len(h.used))
	for _, i := range h.used {
		all = append(all, entry{h.slots[i].key - 1, h.slots[i].w})
	}
	slices.SortFunc(all, func(a, b entry) int { return cmp.Compare(a.grains, b.grains) })
	dist, links = make([]float64, len(all)), make([]float64, len(all))
	for i, e := range all {
		dist[i], links[i] = float64(e.grains)*gapGrainM, e.links
	}
	return dist, links
}

// upperCount is the counted classes of one upper link tier.
type upperCount struct {
	dist    *gapHist // rack-to-rack distances (along + across)
	lowH    dropHist // the lower ends' tray-to-port drops
	highH   dropHist // the upper ends' tray-to-port drops, slack added
	longest uint64   // the longest distance, grains
	a, b    int32    // the racks it joins
	// lowPer and highPer count the lower and the upper switches by
	// their links of the tier: each switch fills whole cages, the last
	// one part full (switchCages).
	lowPer, highPer fewHist[int, int]
}

func newUpperCount() *upperCount {
	return &upperCount{dist: gapHists.Get().(*gapHist)}
}

// dropHist is one end's tray-to-port drops of a tier weighted by links,
// by the lowest U of the switch they drop to: the switches of an end
// are of one height, so their U gives their drop (Hall.SwitchPlace's
// H), and a tier notes one a switch (an array by U, not a search).
type dropHist struct {
	at []dropAt // by U
}

// dropAt is a dropHist's drop at one U, side by side with its links
// (one slice to grow and check, not three: a tier notes every switch).
type dropAt struct {
	drop, w float64
	has     bool // a drop noted (perhaps of no links)
}

// add adds links at the drop (metres) of a switch whose lowest U is u.
func (d *dropHist) add(u int, drop, links float64) {
	if u >= len(d.at) {
		d.at = slices.Grow(d.at, u+1-len(d.at))[:u+1]
	}
	a := &d.at[u]
	a.drop, a.has = drop, true
	a.w += links
}

// fewHist is a histogram of few distinct keys (a tier's switches by
// their links), weighted: a list, in the order first met,
// searched from the key met last (keys come in runs, once a switch,
// and a map hashes each several times slower).
type fewHist[K comparable, W int | float64] struct {
	keys []K
	w    []W
	last int
}

// add adds w at key k.
func (h *fewHist[K, W]) add(k K, w W) {
	if h.last < len(h.keys) && h.keys[h.last] == k {
		h.w[h.last] += w
		return
	}
	if i := slices.Index(h.keys, k); i >= 0 {
		h.last = i
		h.w[i] += w
		return
	}
	h.last = len(h.keys)
	h.keys, h.w = append(h.keys, k), append(h.w, w)
}

// switchCages is the cages switches counted by their links (per) take
// at perCage links a cage, each switch's last cage part full.
func switchCages(per *fewHist[int, int], perCage int) int {
	n := 0
	for i, links := range per.keys {
		n += per.w[i] * ceilDiv(links, perCage)
	}
	return n
}

// rackLinks is links from (or to) each rack, in the order first met,
// and each rack's centre (Hall.RackPos). They are reused (newRackLinks,
// release): a sweep's plans would otherwise grow their lists anew.
type rackLinks struct {
	racks []int32
	links []float64
	x, y  []float64
	// at is each rack's index in racks plus one, by rack (0: not met):
	// a core group's spines are met pod by pod for each spine of the
	// group, so most of its racks come again, and a search of the
	// racks met was quadratic in the pods.
	at []int32
}

// rackLinksPool is rackLinks emptied for reuse.
var rackLinksPool = sync.Pool{New: func() any { return new(rackLinks) }}

// newRackLinks is an empty rackLinks, to release when done.
func newRackLinks() *rackLinks { return rackLinksPool.Get().(*rackLinks) }

// release empties r and gives it for reuse.
func (r *rackLinks) release() {
	r.reset()
	rackLinksPool.Put(r)
}

// reset empties r, its index entry by entry noted.
func (r *rackLinks) reset() {
	for _, k := range r.racks {
		r.at[k] = 0
	}
	r.racks, r.links, r.x, r.y = r.racks[:0], r.links[:0], r.x[:0], r.y[:0]
}

// add adds links to rack of hall h.
func (r *rackLinks) add(h *hall.Hall, rack int32, links float64) {
	at := r.at
	if int(rack) < len(at) {
		if i := at[rack]; i > 0 {
			r.links[i-1] += links
			return
		}
	} else {
		at = slices.Grow(at, int(rack)+1-len(at))[:rack+1] // zeroed: entries past the length were never set
		r.at = at
	}
	x, y := h.RackPos(rack)
	r.racks, r.links, r.x, r.y = append(r.racks, rack), append(r.links, links), append(r.x, x), append(r.y, y)
	at[rack] = int32(len(r.racks))
}

// countLeafSpine counts the leaf-spine classes: in each plane and pod,
// every leaf's uplinks spread over the pod's spines.
func (p *Plan) countLeafSpine() *upperCount {
	h, lay, f := p.Hall, p.layout, p.Hall.Facility
	u := newUpperCount()
	leaves, spines := newRackLinks(), newRackLinks()
	defer leaves.release()
	defer spines.release()
	for plane := 1; plane <= p.Planes; plane++ {
		next, pod := 0, 0
		for _, run := range lay.Pods {
			for range run.Count {
				leaves.reset()
				spines.reset()
				k, up := 0, 0
				for _, ld := range run.Leaves {
					for range ld.Switches {
						g := lay.LeafOf(pod, k, next)
						if ld.Up > 0 && run.Spines > 0 {
							pl := h.LeafPlace(plane, g)
							leaves.add(h, pl.Rack, float64(ld.Up))
							u.lowH.add(pl.U, f.TrayHeightM-pl.H, float64(ld.Up))
							u.lowPer.add(ld.Up, 1)
							up += ld.Up
						}
						next++
						k++
					}
				}
				for j := range run.Spines {
					pl := h.SpinePlace(plane, pod, j)
					share := float64(up) / float64(run.Spines)
					spines.add(h, pl.Rack, share)
					u.highH.add(pl.U, f.TrayHeightM-pl.H+f.SlackM, share)
				}
				for _, l := range fabric.SpreadLinks(up, run.Spines) { // the walk's round robin
					u.highPer.add(l.Down, l.Switches)
				}
				u.addPairs(leaves, spines, float64(up))
				pod++
			}
		}
	}
	return u
}

// addPairs notes the links between every lower rack and every upper
// rack of a group of total links: each lower rack's spread over the
// upper racks as their shares of total.
// The distance is kept to the grain (gapKey: the same gaps in blocks
// of rows at different places on the floor differ in their last bits).
func (u *upperCount) addPairs(lower, upper *rackLinks, total float64) {
	if total == 0 {
		return
	}
	for i, xa := range lower.x {
		ya := lower.y[i]
		for j, xb := range upper.x {
			links := lower.links[i] * upper.links[j] / total
			if links == 0 {
				continue
			}
			g := gapKey(math.Abs(xa-xb) + math.Abs(ya-upper.y[j]))
			if g > u.longest || len(u.dist.used) == 0 {
				u.longest, u.a, u.b = g, lower.racks[i], upper.racks[j]
			}
			u.dist.add(g, links)
		}
	}
}

// countSpineCore counts the spine-core classes: in each plane and core
// group, every spine's uplinks spread over the group's cores.
func (p *Plan) countSpineCore() *upperCount {
	h, lay, f := p.Hall, p.layout, p.Hall.Facility
	u := newUpperCount()
	spines, cores := newRackLinks(), newRackLinks()
	defer spines.release()
	defer cores.release()
	for plane := 1; plane <= p.Planes; plane++ {
		j, firstCore := 0, 0
		for _, run := range lay.CoreGroups {
			n := run.Cores
			for range run.Groups {
				spines.reset()
				cores.reset()
				up := 0
				for k := range run.SpineCount() {
					jj, pod := j+k, 0
					for i, pr := range lay.Pods {
						for range pr.Count {
							if s := run.UpAt(k, i); s > 0 {
								pl := h.SpinePlace(plane, pod, jj)
								spines.add(h, pl.Rack, float64(s))
								u.lowH.add(pl.U, f.TrayHeightM-pl.H, float64(s))
								u.lowPer.add(s, 1)
								up += s
							}
							pod++
						}
					}
				}
				for x := range n {
					pl := h.CorePlace(plane, firstCore+x)
					share := float64(up) / float64(n)
					cores.add(h, pl.Rack, share)
					u.highH.add(pl.U, f.TrayHeightM-pl.H+f.SlackM, share)
				}
				for _, l := range run.CoreLoads(up) { // the walk's dealing
					u.highPer.add(l.Down, l.Switches)
				}
				u.addPairs(spines, cores, float64(up))
				j += run.SpineCount()
				firstCore += n
			}
		}
	}
	return u
}

// heights is the convolution of the two ends' drops, as shares of the
// tier's links, in increasing order of length.
func (u *upperCount) heights() (drop, share []float64) {
	var low, high float64
	for _, a := range u.lowH.at {
		low += a.w
	}
	for _, b := range u.highH.at {
		high += b.w
	}
	sum := classHist{}
	for _, a := range u.lowH.at {
		if !a.has {
			continue
		}
		for _, b := range u.highH.at {
			if b.has {
				sum.add(a.drop+b.drop, a.w/low*b.w/high)
			}
		}
	}
	drop = sortedKeys(sum)
	share = make([]float64, len(drop))
	for i, d := range drop {
		share[i] = sum.at(d)
	}
	return drop, share
}

// sortedKeys is h's lengths, shortest first.
// The lengths are sorted by their bits: a non-negative float's bits
// order as it does, and integers sort faster.
func sortedKeys(h classHist) []float64 {
	bits := make([]uint64, 0, len(h))
	for k := range h {
		bits = append(bits, k)
	}
	slices.Sort(bits)
	out := make([]float64, len(bits))
	for i, k := range bits {
		out[i] = math.Float64frombits(k)
	}
	return out
}

// countedTier is one upper tier's links priced by class: cables by
// group and cage uses by kind, as fractions of links until rounded.
type countedTier struct {
	cables map[tallyKey]float64
	cages  map[cageUse]float64
}

// runBucket is the runs of a tier that take one medium and length sold:
// those up to end metres (and above the bucket before), and the links
// counted in it.
type runBucket struct {
	end   float64
	mi    int8
	ch    linkChoice
	links float64
	run   float64 // the longest run counted in it
}

// runBuckets finds each run's bucket: the runs of one soldEnd, which
// take the same medium and parts.
type runBuckets struct {
	m     *mediaChooser
	t     int
	at    map[float64]*runBucket
	order []*runBucket
	// last is the bucket of (every run from lo to) the run before.
	last *runBucket
	lo   float64
	// lastAt and loAt are last and lo for each drop (ofAt): a
	// distance's first runs fall below the distance before's last, so
	// last missed at every distance, but each drop's runs rise with the
	// distances and most stay in the bucket of the distance before.
	lastAt []*runBucket
	loAt   []float64
}

// ofAt is of for a run at drop i (fill's drops, from 0): the bucket of
// the drop's run before, if run is in it.
func (b *runBuckets) ofAt(i int, run float64) (*runBucket, error) {
	if i >= len(b.lastAt) {
		b.lastAt, b.loAt = slices.Grow(b.lastAt, i+1-len(b.lastAt))[:i+1], slices.Grow(b.loAt, i+1-len(b.loAt))[:i+1]
	}
	if r := b.lastAt[i]; r != nil && run >= b.loAt[i] && run <= r.end {
		return r, nil
	}
	r, err := b.of(run)
	if err != nil {
		return nil, err
	}
	b.lastAt[i], b.loAt[i] = r, run
	return r, nil
}

// of is run's bucket for tier t. A run from the last one's up to its
// bucket's end is in that bucket: soldEnd never falls as the run grows
// (each part's length sold does not), so such a run's is the end (runs
// come shortest first from each distance, the distances shortest
// first, and most stay in the bucket before).
func (b *runBuckets) of(run float64) (*runBucket, error) {
	if r := b.last; r != nil && run >= b.lo && run <= r.end {
		return r, nil
	}
	m, end := b.m, b.m.soldEnd(b.t, run)
	if r, ok := b.at[end]; ok {
		b.last, b.lo = r, run
		return r, nil
	}
	ch, found := m.choose(b.t, run)
	if !found || math.IsInf(end, 1) {
		return nil, m.unreachable(b.t, run)
	}
	mi := slices.Index(allMedia, ch.medium)
	if ch, found = m.withIndex(b.t, mi, run); !found {
		return nil, m.unreachable(b.t, run)
	}
	r := &runBucket{end: end, mi: int8(mi), ch: ch}
	b.at[end] = r
	b.order = append(b.order, r)
	b.last, b.lo = r, run
	return r, nil
}

// soldSlack is the tolerance of Cable.soldWithin: a run this much over
// a length is sold at it.
const soldSlack = 1e-9

// priceUpper prices tier t's counted classes into the tally: each
// class's links at the cheapest medium reaching its run. It returns
// the cage uses they add, for countModules.
func (p *Plan) priceUpper(t int, u *upperCount, tally *linkTally) ([]cageCount, error) {
	m := p.media
	if len(u.dist.used) == 0 {
		return nil, nil
	}
	drop, share := u.heights()
	cum := make([]float64, len(drop)+1)
	for i, s := range share {
		cum[i+1] = cum[i] + s
	}
	b := runBuckets{m: m, t: t, at: map[float64]*runBucket{}}
	dist, links := u.dist.sorted()
	for i, d := range dist {
		if err := b.fill(d, links[i], drop, cum); err != nil {
			return nil, err
		}
	}
	c := countedTier{cables: map[tallyKey]float64{}, cages: map[cageUse]float64{}}
	pt := m.sets.port[t]
	var longest *runBucket
	for _, r := range b.order {
		if r.links == 0 {
			continue
		}
		ch := r.ch
		c.cables[tallyKey{int8(t), r.mi, ch.cable, ch.metres}] += r.links
		tally.runSum[t] += r.links * ch.metres
		if longest == nil || ch.metres > longest.ch.metres {
			longest = r
		}
		if ch.medium == Optics || ch.medium == Multimode {
			um, mm := float32(ch.metres), ch.medium == Multimode
			c.cages[cageUse{um, int8(t), false, false, mm}] += r.links / float64(pt.lowCage)
			c.cages[cageUse{um, int8(t), true, false, mm}] += r.links / float64(pt.highCage)
		}
	}
	tally.links[t] = c.round(t, tally)
	if longest != nil {
		tally.longest[t] = p.countedLongest(t, u, longest)
	}
	c.wholeCages(tally.links[t], [2]int{switchCages(&u.lowPer, pt.lowCage), switchCages(&u.highPer, pt.highCage)}, [2]int{pt.lowCage, pt.highCage})
	return c.uses(), nil
}

// wholeCages scales the tier's cage uses at each end (lower, upper) to
// the cages its switches fill: links links take links / perCage cages
// if every cage were full, but each switch's last cage is part full
// (100,000 GPUs on 8 planes of 200G QM9700: 13,400 cages, not 12,500).
func (c *countedTier) wholeCages(links int, cages, perCage [2]int) {
	if links == 0 {
		return
	}
	for u, n := range c.cages {
		end := boolInt(u.upper)
		c.cages[u] = n * float64(cages[end]*perCage[end]) / float64(links)
	}
}

// fill counts links links at distance d into their runs' buckets, the
// drops (shortest first, cum their cumulative shares) spread over them.
func (b *runBuckets) fill(d, links float64, drop, cum []float64) error {
	for i := 0; i < len(drop); {
		r, err := b.ofAt(i, d+drop[i])
		if err != nil {
			return err
		}
		// The drops whose runs fall in the bucket: up to its end.
		j := i + 1 + firstAtLeast(drop[i+1:], r.end+soldSlack-d+1e-12)
		for j < len(drop) && d+drop[j] <= r.end+soldSlack {
			j++
		}
		r.links += links * (cum[j] - cum[i])
		r.run = max(r.run, d+drop[j-1])
		i = j
	}
	return nil
}

// firstAtLeast is the index of the first of a (shortest first) at least
// x, len(a) if none: sort.SearchFloat64s without its closure's call at
// every step (fill searches a tier's drops for every distance).
func firstAtLeast(a []float64, x float64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// countedLongest is tier t's longest link as counted: the longest
// length sold (bucket r) between the racks farthest apart.
func (p *Plan) countedLongest(t int, u *upperCount, r *runBucket) CableRun {
	h, ch := p.Hall, r.ch
	aName, aRow := h.RackName(u.a)
	bName, bRow := h.RackName(u.b)
	tier := linkTierNames[t]
	run := CableRun{Tier: tier, Gbps: p.TierGbps(tier), Medium: ch.medium, Part: ch.cable.Key, Metres: ch.metres, RunM: r.run,
		ARack: aName, ARow: aRow + 1, BRack: bName, BRow: bRow + 1, aRack: u.a, bRack: u.b}
	if ch.lower != nil {
		run.AModule, run.BModule = ch.lower.Key, ch.upper.Key
	}
	return run
}

// round adds the tier's cables to the tally in whole links, rounded so
// that they sum to the tier's links (largest remainders first), and
// returns that sum.
func (c *countedTier) round(t int, tally *linkTally) int {
	total := 0.0
	keys := make([]tallyKey, 0, len(c.cables))
	for k, w := range c.cables {
		total += w
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b tallyKey) int {
		ra, rb := c.cables[a]-math.Floor(c.cables[a]), c.cables[b]-math.Floor(c.cables[b])
		return cmp.Or(cmp.Compare(rb, ra), cmp.Compare(a.medium, b.medium), cmp.Compare(a.metres, b.metres), cmp.Compare(a.cable.Key, b.cable.Key))
	})
	want := int(math.Round(total))
	n := make([]int, len(keys))
	have := 0
	for i, k := range keys {
		n[i] = int(math.Floor(c.cables[k] + 1e-6))
		have += n[i]
	}
	for i := 0; have < want && i < len(keys); i++ {
		if float64(n[i]) < c.cables[keys[i]] {
			n[i]++
			have++
		}
	}
	for i, k := range keys {
		if n[i] > 0 {
			tally.cables[cableGroup{t, allMedia[k.medium], k.cable.Key, k.metres}] += n[i]
		}
	}
	return have
}

// uses is the tier's optical cage uses, each rounded up to whole cages,
// in a fixed order (countModules names the first it cannot fill).
func (c *countedTier) uses() []cageCount {
	out := make([]cageCount, 0, len(c.cages))
	for u, n := range c.cages {
		out = append(out, cageCount{u, int(math.Ceil(n - 1e-6))})
	}
	slices.SortFunc(out, func(a, b cageCount) int {
		return cmp.Or(cmp.Compare(a.use.metres, b.use.metres), cmp.Compare(boolInt(a.use.upper), boolInt(b.use.upper)), cmp.Compare(boolInt(a.use.mm), boolInt(b.use.mm)))
	})
	return out
}

// countLinkBOM is walkLinkBOM by counting (see above): the server links
// by unit, the upper tiers by class.
func (p *Plan) countLinkBOM(cat *Catalog, add func(BOMLine)) error {
	if !p.countsUpper() {
		return p.walkLinkBOM(cat, add)
	}
	p.linksCounted = true
	m, grid, err := p.startLinkBOM(cat)
	if err != nil {
		return err
	}
	// The sets hold no cage: the server links are counted by unit and
	// the upper tiers by class.
	m.sets = newCageCounts(grid, m.port, m.serverPerCage)
	m.sets.counted = true
	tally := &linkTally{cables: map[cableGroup]int{}, grid: grid}
	uses, err := p.countServerLinks(tally)
	if err != nil {
		return err
	}
	upper := []*upperCount{p.countLeafSpine(), p.countSpineCore()}
	defer func() {
		for _, u := range upper {
			u.dist.release()
		}
	}()
	for t, u := range upper {
		more, err := p.priceUpper(t+1, u, tally)
		if err != nil {
			return err
		}
		uses = append(uses, more...)
	}
	return p.addLinkLines(cat, m, uses, nil, tally, add)
}

// countsUpper reports whether p's links are counted (Scenario.
// CountedLinks) and its leaf-spine and spine-core links too many to walk
// (walkUpperLinks): such a plan is laid out without a rack list
// (hall.NewCounting), which only counting reads.
func (p *Plan) countsUpper() bool {
	return p.Scenario.countedLinks && p.Links.LeafSpine+p.Links.SpineCore > walkUpperLinks
}

// walkUpperLinks is how many leaf-spine and spine-core links a counted
// plan walks rather than counts: a small fabric's twin-port cage sets
// (which the count leaves out) weigh most in its price (a 411-GPU
// GB200 NVL72 fabric counted is 0.78% under its walk), and walking it
// costs little (about 4 ms of CPU at 8,192 links).
const walkUpperLinks = 8192

// LinksCounted reports whether the plan's leaf-spine and spine-core
// links were priced by counting them by class (Scenario.CountedLinks),
// an approximation of the walk's price (within 0.5%), rather than
// walked one by one.
func (p *Plan) LinksCounted() bool { return p.linksCounted }
