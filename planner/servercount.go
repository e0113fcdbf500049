package planner

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"fabricplan/internal/memo"
	"fabricplan/planner/hall"
)

// The server links are most of a fabric's links, and they are counted by
// scalable unit rather than walked one by one: a unit's server links
// join only its own servers and leaves, so the cages they share (and
// the medium each set of them takes) stay within the unit, and units
// that sit alike in the hall (the same heights, the same racks shared,
// the same distances between each server rack and each leaf rack) have
// the same runs, media, parts and cage uses. Each distinct unit is
// walked once; the others are counted. The count is exact: equal to the
// walk's, link for link (TestServerCountMatchesWalk).
//
// A plan priced by counting (Scenario.CountedLinks) also shares its
// units' counts with the plans counted in the same context before it
// (unitShapesMemo): a sweep's sizes lay their units out in the same
// rows, so a 1,000-size sweep to a million GPUs walks 192 distinct
// units where its sizes alone walk 2,405. A plan priced by walking
// keeps its units to itself: its price never depends on the plans
// built before it.

// cageCount is n optical cages of one use.
type cageCount struct {
	use cageUse
	n   int
}

// unitCount is what one unit's server links add to the BOM's tally.
type unitCount struct {
	cables map[tallyKey]int
	uses   []cageCount // the unit's optical cage uses, as first met in cage order
	links  int
	runSum float64
	// longest is, per leaf of the unit ((plane-1)*leaves a unit + its
	// rail), its link of the longest run: the first of them in walk
	// order.
	longest []unitLongest
}

// unitLongest is a leaf's longest server link: its down port (-1: the
// leaf has none), parts and run.
type unitLongest struct {
	k   int
	ch  linkChoice
	run float64
}

// serverCounter counts the server links of a laid-out plan by unit.
type serverCounter struct {
	p    *Plan
	h    *hall.Hall
	sets *cageSets
	// lpu, spu and rails are a unit's leaves and servers and the server
	// ports of a plane; down is each leaf's server links (by its index
	// in the plane; -1: no such leaf), order the leaves in walk order.
	lpu, spu, rails int
	down            []int
	order           []int
	byKey           map[string]*unitCount
	// byRow is the counts by rowKey: most units stand in one row with
	// their leaf racks, and that key costs a few divisions where
	// unitKey measures every gap.
	byRow  map[string]*unitCount
	rowKey []byte
	// shapes are the units shared with plans counted in the same
	// context (nil: the plan's own alone).
	shapes *unitShapes
	key    []byte
	// racks and leafRacks are scratch for a unit's key: its server
	// racks then its leaves' other racks, and its leaves' racks.
	racks, leafRacks []int32
	leafX, leafY     []float64 // the leaf racks' centres
	// Scratch for one unit's walk: places, cages, the union-find.
	servers, leaves []hall.Place
	// chosen is the medium (index into allMedia) of a set by its
	// longest run: the sets of a unit's links repeat.
	chosen *mediumMemo
	runs   runSets
	medium []int8
	use    []cageUse
	links  []unitLink
}

// countServerLinks counts p's server links into t by unit (see above)
// and returns the cage uses they add, for countModules.
func (p *Plan) countServerLinks(t *linkTally) ([]cageCount, error) {
	c := p.newServerCounter()
	defer c.release()
	units := ceilDiv(len(c.down), c.lpu)
	of := make([]*unitCount, units)
	n := map[*unitCount]int{}
	var distinct []*unitCount
	for u := range units {
		r, err := c.unit(u)
		if err != nil {
			return nil, err
		}
		if n[r] == 0 {
			distinct = append(distinct, r)
		}
		n[r]++
		of[u] = r
	}
	var uses []cageCount
	for _, r := range distinct {
		k := n[r]
		for key, links := range r.cables {
			t.cables[cableGroup{int(key.tier), allMedia[key.medium], key.cable.Key, key.metres}] += k * links
		}
		for _, cu := range r.uses {
			uses = append(uses, cageCount{cu.use, k * cu.n})
		}
		t.links[tierServerLeaf] += k * r.links
		t.runSum[tierServerLeaf] += float64(k) * r.runSum
	}
	c.longest(t, of)
	return uses, nil
}

// newServerCounter is a counter of p's server links, its leaves'
// links listed, to release when done.
func (p *Plan) newServerCounter() *serverCounter {
	c := serverCounters.Get().(*serverCounter)
	c.p, c.h, c.sets, c.lpu, c.spu = p, p.Hall, p.media.sets, max(p.layout.LeavesPerUnit, 1), p.layout.ServersPerUnit
	c.rails, c.chosen, c.shapes = max(p.RailsPerPlane, 1), newMediumMemo(p.media), p.sharedUnits()
	c.leafDowns()
	return c
}

// serverCounters are counters released for reuse, their scratch kept:
// a sweep's plans would otherwise grow it each (a fifth of a counted
// sweep's allocations).
var serverCounters = sync.Pool{New: func() any {
	return &serverCounter{byKey: map[string]*unitCount{}, byRow: map[string]*unitCount{}}
}}

// release forgets the plan c counted and gives c, its scratch emptied,
// for reuse.
func (c *serverCounter) release() {
	clear(c.byKey)
	clear(c.byRow)
	c.p, c.h, c.sets, c.chosen, c.shapes = nil, nil, nil, nil, nil
	c.down, c.order = c.down[:0], c.order[:0]
	serverCounters.Put(c)
}

// leafDowns lists each leaf's server links and the leaves in walk order
// (a plane's; every plane walks its leaves alike).
func (c *serverCounter) leafDowns() {
	n := c.h.LeavesPerPlane()
	c.down = slices.Grow(c.down[:0], ceilDiv(n, c.lpu)*c.lpu)[:ceilDiv(n, c.lpu)*c.lpu]
	c.order = c.order[:0]
	for i := range c.down {
		c.down[i] = -1
	}
	for g, ld := range c.p.layout.Leaves() {
		c.down[g] = ld.Down
		c.order = append(c.order, g)
	}
}

// server is the server and port of leaf g's down link k in plane: as
// the link walk wires them (serverLinks), each leaf of a unit takes
// rails/leaves ports of each server in turn (a rail's leaf one, a leaf
// of whole servers every port, each leaf of a pair half).
func (c *serverCounter) server(plane, g, k int) (server, port int) {
	per := c.perLeaf()
	first, r := g/c.lpu*c.spu, g%c.lpu*per+k%per
	return first + k/per, r*c.p.Planes + plane - 1
}

// perLeaf is the ports of a server a plane on one leaf of its unit.
func (c *serverCounter) perLeaf() int { return max(c.rails/c.lpu, 1) }

// unitServers is the servers unit u's leaves reach.
func (c *serverCounter) unitServers(u int) int {
	n := 0
	for r := range c.lpu {
		n = max(n, ceilDiv(c.down[u*c.lpu+r], c.perLeaf()))
	}
	return n
}

// unit is unit u's count: the one kept for a unit that sits alike, else
// its links walked. A unit that stands in one row with its leaf racks
// is found by its rowKey first, and kept by it too.
func (c *serverCounter) unit(u int) (*unitCount, error) {
	first, ns := u*c.spu, c.unitServers(u)
	row, inRow := c.unitRowKey(u, first, ns)
	if inRow {
		if r, ok := c.byRow[string(row)]; ok {
			return r, nil
		}
		if r := c.shapes.get(row, true); r != nil {
			c.byRow[string(row)] = r
			return r, nil
		}
	}
	r, err := c.unitByKey(u, first, ns)
	if err != nil {
		return nil, err
	}
	if inRow {
		c.byRow[string(row)] = r
		c.shapes.put(row, true, r)
	}
	return r, nil
}

// unitRowKey is the key of unit u (its servers first to first+ns-1)
// by the rows it stands in: each leaf's links, the servers and the
// unit's place (hall.AppendUnitPlace), which gives each of its racks'
// centres to the bit. Units of equal rowKey have equal unitKey
// (TestUnitRowKeyImpliesKey), found by a lookup a row rather than one a
// rack and a gap measured for each server rack and leaf rack. false: no
// such key (a hall that lists its racks); the unit is found by unitKey
// alone.
func (c *serverCounter) unitRowKey(u, first, ns int) ([]byte, bool) {
	key := c.rowKey[:0]
	for r := range c.lpu {
		key = binary.AppendVarint(key, int64(c.down[u*c.lpu+r]))
	}
	key = binary.AppendVarint(key, int64(ns))
	key, ok := c.h.AppendUnitPlace(key, u, first, ns)
	c.rowKey = key
	return key, ok
}

// unitByKey is unit u's count found by its unitKey: the one kept for a
// unit that sits alike, else its links walked.
func (c *serverCounter) unitByKey(u, first, ns int) (*unitCount, error) {
	h := c.h
	c.placeLeaves(u)
	key := c.unitKey(u, first, ns)
	if r, ok := c.byKey[string(key)]; ok {
		return r, nil
	}
	if r := c.shapes.get(key, false); r != nil {
		c.byKey[string(key)] = r
		return r, nil
	}
	c.servers = c.servers[:0]
	for s := range ns {
		c.servers = append(c.servers, h.NodePlace(first+s))
	}
	r, err := c.walkUnit(u)
	if err != nil {
		return nil, err
	}
	c.byKey[string(key)] = r
	c.shapes.put(key, false, r)
	return r, nil
}

// placeLeaves sets the places of unit u's leaves (c.leaves), plane by
// plane, for its key and walk.
func (c *serverCounter) placeLeaves(u int) {
	c.leaves = c.leaves[:0]
	for plane := 1; plane <= c.p.Planes; plane++ {
		for r := range c.lpu {
			if c.down[u*c.lpu+r] < 0 {
				c.leaves = append(c.leaves, hall.Place{Rack: -1})
				continue
			}
			c.leaves = append(c.leaves, c.h.LeafPlace(plane, u*c.lpu+r))
		}
	}
}

// unitShapes are the counts of distinct units (by unitKey) shared by
// the counted plans of one context (unitContextOf). The counts are
// read-only once kept; a set stops keeping new units past
// unitShapesBytes.
type unitShapes struct {
	mu    sync.Mutex
	byKey map[string]*unitCount
	byRow map[string]*unitCount // by unitRowKey
	bytes int
}

// Bounds of the shared unit counts: unitShapesCap contexts (a sweep
// has one a switch model), each at most unitShapesBytes of keys and
// counts (a 1,000-size sweep to a million GPUs keeps 192 units, about
// 200 kB).
const (
	unitShapesCap   = 8
	unitShapesBytes = 1 << 20
)

// unitShapesMemo holds the shared unit counts of recent contexts, the
// least recently used let go past unitShapesCap.
var unitShapesMemo = memo.New[*unitShapes](unitShapesCap)

// sharedUnits is the unit counts p shares with plans counted before it
// in its context: nil for a plan priced by walking (its price never
// depends on the plans before it) or with the hall memo off (the cold
// reference).
func (p *Plan) sharedUnits() *unitShapes {
	if !p.Scenario.countedLinks || hallMemoOff.Load() {
		return nil
	}
	key := unitContextOf(p)
	if s, ok := unitShapesMemo.Get(key); ok {
		return s
	}
	s := &unitShapes{byKey: map[string]*unitCount{}, byRow: map[string]*unitCount{}}
	unitShapesMemo.Put(key, s)
	return s
}

// unitContextOf is the memo key of what a unit's count depends on
// beyond its unitKey: the scenario whole by value less its GPU count
// (each unit's servers and leaves are in its own key), the catalog,
// NIC, switch and quotes by identity (as hallKeyOf), the hall's
// facility and constants as resolved (a leaf placement falls back by
// size), the server ports and planes, the server-leaf tier's port,
// cages and server module as the media chooser holds them.
func unitContextOf(p *Plan) memo.Key {
	s, m, h := &p.Scenario, p.media, p.Hall
	in := hallInputs(s)
	in.Cluster.GPUs = 0
	mod := ""
	if m.serverMod != nil {
		mod = m.serverMod.Key
	}
	return memo.Of(memo.Same(m.cat), memo.Same(p.NIC), memo.Same(p.Switch), memo.Same(s.Quotes), in, h.Facility, h.Constants,
		p.ServerPorts, p.PortGbps, p.LaneGbps, p.Planes, p.RailsPerPlane, p.Tiers, p.layout.LeavesPerUnit,
		m.port[tierServerLeaf], m.forced[tierServerLeaf], mod, m.serverModsPerPort, m.serverPerCage, m.sets.grid.serverCages)
}

// get is the count kept for a unit of key (a unitRowKey if row, else a
// unitKey); nil when none is (or s is nil).
func (s *unitShapes) get(key []byte, row bool) *unitCount {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.of(row)[string(key)]
	if r != nil {
		unitShapeHits.Add(1)
	}
	return r
}

// unitShapeHits counts the units whose count a plan took from one kept
// before (for tests: sharing that finds contexts but no unit is none).
var unitShapeHits atomic.Int64

// of is s's counts by unitRowKey if row, else by unitKey.
func (s *unitShapes) of(row bool) map[string]*unitCount {
	if row {
		return s.byRow
	}
	return s.byKey
}

// put keeps r as the count of a unit of key (a unitRowKey if row, else
// a unitKey), while s has room. A count kept under both keys is
// reckoned at its full size twice: the bound errs on the side of less.
func (s *unitShapes) put(key []byte, row bool, r *unitCount) {
	if s == nil {
		return
	}
	n := len(key) + r.bytes()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes+n > unitShapesBytes {
		return
	}
	if m := s.of(row); m[string(key)] == nil {
		m[string(key)] = r
		s.bytes += n
	}
}

// bytes is about what r holds: itself, its cables (a map entry about
// twice its key and value), cage uses and longest links.
func (r *unitCount) bytes() int {
	return int(unsafe.Sizeof(*r)) + 2*len(r.cables)*int(unsafe.Sizeof(tallyKey{})+unsafe.Sizeof(0)) +
		cap(r.uses)*int(unsafe.Sizeof(cageCount{})) + cap(r.longest)*int(unsafe.Sizeof(unitLongest{}))
}

// unitKey is what unit u's count depends on, its leaves placed
// (placeLeaves): each leaf's links, its
// servers (ns of them from server first), each leaf's height and rack
// (numbered within the unit, so that the racks shared are the same),
// and the distances along and across the rows between each server rack
// and each leaf rack (as the hall measures them, to the nanometre:
// gapKey). The servers' racks and heights follow from how many they
// are and the first one's place in its rack (its U): a unit of servers
// starts a rack, a rack-scale system's trays fill racks in order.
func (c *serverCounter) unitKey(u, first, ns int) []byte {
	key := c.key[:0]
	for r := range c.lpu {
		key = binary.LittleEndian.AppendUint64(key, uint64(c.down[u*c.lpu+r]))
	}
	key = binary.LittleEndian.AppendUint64(key, uint64(ns))
	racks := c.h.NodeRacks(c.racks[:0], first, ns)
	if ns > 0 {
		key = binary.LittleEndian.AppendUint64(key, uint64(c.h.NodePlace(first).U))
	}
	serverRacks := len(racks)
	leafRacks := c.leafRacks[:0]
	last, lastI := int32(-1), 0 // a unit's leaves share racks in runs: most skip the search
	for _, pl := range c.leaves {
		if pl.Rack < 0 {
			key = binary.LittleEndian.AppendUint64(key, math.MaxUint64)
			continue
		}
		i := lastI
		if pl.Rack != last {
			if i = slices.Index(racks, pl.Rack); i < 0 {
				i = len(racks)
				racks = append(racks, pl.Rack)
			}
			if !slices.Contains(leafRacks, pl.Rack) {
				leafRacks = append(leafRacks, pl.Rack)
			}
			last, lastI = pl.Rack, i
		}
		key = binary.LittleEndian.AppendUint64(key, uint64(i))
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(pl.H))
	}
	c.leafX, c.leafY = c.leafX[:0], c.leafY[:0]
	for _, b := range leafRacks {
		xb, yb := c.h.RackPos(b)
		c.leafX, c.leafY = append(c.leafX, xb), append(c.leafY, yb)
	}
	for _, a := range racks[:serverRacks] {
		xa, ya := c.h.RackPos(a)
		for j, xb := range c.leafX {
			key = binary.LittleEndian.AppendUint64(key, gapKey(xa-xb))
			key = binary.LittleEndian.AppendUint64(key, gapKey(ya-c.leafY[j]))
		}
	}
	c.key, c.racks, c.leafRacks = key, racks, leafRacks
	return key
}

// gapGrainM is the grain of the distances a unit key holds, metres.
// The same rack gaps measured in blocks of rows that start at different
// places on the floor differ in their last bits (a 1M-GPU hall of 18
// blocks had 40 unit shapes by the bit, 3 by the nanometre); runs that
// differ by less than a grain take the same length and medium unless a
// length sold (to soldSlack) falls between them.
const gapGrainM = 1e-9

// gapKey is the distance between two racks' centres along or across the
// rows, d their difference, in grains for a unit key: |d| / gapGrainM
// rounded half away from zero, as math.Round does (a whole number n of
// grains and the rest; the rest is exact, n being at least half the
// quotient), without its call (a sweep keys millions of gaps).
func gapKey(d float64) uint64 {
	q := math.Abs(d) / gapGrainM
	n := uint64(q)
	if q-float64(n) >= 0.5 {
		n++
	}
	return n
}

// unitLink is one server link of a unit: its leaf (index in the
// unit's leaves), down port, run and cages (numbered within the unit).
type unitLink struct {
	leaf, k int
	run     float64
	a, b    int32
}

// unitLinks lists unit u's server links, their cages numbered within
// the unit (each server's, then each leaf's), joined into sets; size
// is the unit's cages.
func (c *serverCounter) unitLinks(u int) (links []unitLink, size int) {
	sets := c.sets
	perServer, perCage := sets.grid.serverCages, sets.port[tierServerLeaf].highCage
	leafCages := 0
	n := 0 // the unit's links in a plane
	for r := range c.lpu {
		d := max(c.down[u*c.lpu+r], 0)
		leafCages = max(leafCages, ceilDiv(d, perCage))
		n += d
	}
	links = slices.Grow(c.links[:0], n*c.p.Planes)
	size = len(c.servers)*perServer + len(c.leaves)*leafCages
	c.runs.reset(size)
	boxed := c.h.LeafBoxes() > 1
	for li, pl := range c.leaves {
		if pl.Rack < 0 {
			continue
		}
		plane, g := li/c.lpu+1, u*c.lpu+li%c.lpu
		for k := range c.down[g] {
			s, port := c.server(plane, g, k)
			s -= u * c.spu
			at := pl
			if boxed { // a distributed switch's leaf: the box of port k
				at = c.h.LeafBoxPlace(plane, g, c.p.leafBoxOf(k))
			}
			l := unitLink{leaf: li, k: k, run: c.h.Run(c.servers[s], at),
				a: int32(s*perServer + port/sets.serverPerCage), b: int32(len(c.servers)*perServer + li*leafCages + k/perCage)}
			c.runs.join(l.a, l.b, l.run)
			links = append(links, l)
		}
	}
	c.links = links
	return links, size
}

// walkUnit walks unit u's server links as the fabric's walk does: it
// joins the cages they share, gives each set the cheapest medium that
// reaches its longest run and counts the parts.
func (c *serverCounter) walkUnit(u int) (*unitCount, error) {
	h, m := c.h, c.p.media
	links, size := c.unitLinks(u)
	if err := c.chooseUnit(); err != nil {
		return nil, err
	}
	r := &unitCount{cables: map[tallyKey]int{}, longest: make([]unitLongest, len(c.leaves))}
	for i := range r.longest {
		r.longest[i].k = -1
	}
	c.use = slices.Grow(c.use[:0], size)[:size]
	clear(c.use)
	var last tallyKey // links come in runs of one part and length: most skip the map
	lastN := 0
	for _, l := range links {
		ch, ok := m.withIndex(tierServerLeaf, int(c.medium[c.runs.find(l.a)]), l.run)
		if !ok {
			plane, g := l.leaf/c.lpu+1, u*c.lpu+l.leaf%c.lpu
			s, _ := c.server(plane, g, l.k)
			a, _ := h.RackName(h.NodePlace(s).Rack)
			b, _ := h.RackName(c.leaves[l.leaf].Rack)
			return nil, fmt.Errorf("%s link from rack %s to rack %s: no medium chosen for its %.1f m run",
				linkTierNames[tierServerLeaf], a, b, l.run)
		}
		if k := (tallyKey{tierServerLeaf, int8(slices.Index(allMedia, ch.medium)), ch.cable, ch.metres}); k != last || lastN == 0 {
			if lastN > 0 {
				r.cables[last] += lastN
			}
			last, lastN = k, 0
		}
		lastN++
		r.links++
		r.runSum += ch.metres
		if lg := &r.longest[l.leaf]; lg.k < 0 || l.run > lg.run+runTieM {
			*lg = unitLongest{l.k, ch, l.run}
		}
		if ch.medium == Optics || ch.medium == Multimode {
			um, mm := float32(ch.metres), ch.medium == Multimode
			c.cage(l.a, cageUse{um, tierServerLeaf, false, true, mm})
			c.cage(l.b, cageUse{um, tierServerLeaf, true, false, mm})
		}
	}
	if lastN > 0 {
		r.cables[last] += lastN
	}
	r.uses = countUses(c.use)
	return r, nil
}

// countUses counts the optical cage uses (metres above 0) as first met.
// A unit's distinct uses are few (its lengths sold by end), so each is
// found by a scan from the last one found, not a map's hash.
func countUses(cages []cageUse) []cageCount {
	var out []cageCount
	last := -1
	for _, u := range cages {
		if u.metres == 0 {
			continue
		}
		if last < 0 || out[last].use != u {
			last = slices.IndexFunc(out, func(c cageCount) bool { return c.use == u })
			if last < 0 {
				last = len(out)
				out = append(out, cageCount{use: u})
			}
		}
		out[last].n++
	}
	return out
}

// cage notes use u of the unit's cage a: its longest link's (as
// linkTally.cage).
func (c *serverCounter) cage(a int32, u cageUse) {
	if at := &c.use[a]; at.metres < u.metres {
		*at = u
	}
}

// chooseUnit gives every set of the unit's cages the cheapest medium
// that reaches its longest run (as cageSets.choose).
func (c *serverCounter) chooseUnit() error {
	n := c.runs.size()
	c.medium = slices.Grow(c.medium[:0], n)[:n]
	for i := range n {
		x := int32(i)
		c.medium[x] = -1
		run, root := c.runs.rootRun(x)
		if !root || run == 0 {
			continue
		}
		med, err := c.chosen.of(tierServerLeaf, run)
		if err != nil {
			return err
		}
		c.medium[x] = med
	}
	return nil
}

// longest sets the tally's longest server link: the first, in walk
// order (plane by plane, each plane's leaves in order), of the longest
// run (to runTieM), as the walk's (linkCounter); of gives each unit
// its count.
func (c *serverCounter) longest(t *linkTally, of []*unitCount) {
	most, found := 0.0, false
	for _, r := range of {
		for _, l := range r.longest {
			if l.k >= 0 && l.ch.metres > 0 {
				most, found = max(most, l.run), true
			}
		}
	}
	if !found {
		return
	}
	h, p := c.h, c.p
	for plane := 1; plane <= p.Planes; plane++ {
		for _, g := range c.order {
			u := g / c.lpu
			l := of[u].longest[(plane-1)*c.lpu+g%c.lpu]
			if l.k < 0 || l.ch.metres <= 0 || l.run < most-runTieM {
				continue
			}
			s, _ := c.server(plane, g, l.k)
			a, b := h.NodePlace(s).Rack, h.LeafBoxPlace(plane, g, p.leafBoxOf(l.k)).Rack
			aName, aRow := h.RackName(a)
			bName, bRow := h.RackName(b)
			tier := linkTierNames[tierServerLeaf]
			run := CableRun{Tier: tier, Gbps: p.TierGbps(tier), Medium: l.ch.medium, Part: l.ch.cable.Key, Metres: l.ch.metres, RunM: l.run,
				ARack: aName, ARow: aRow + 1, BRack: bName, BRow: bRow + 1, aRack: a, bRack: b}
			if l.ch.lower != nil {
				run.AModule, run.BModule = l.ch.lower.Key, l.ch.upper.Key
			}
			t.longest[tierServerLeaf] = run
			return
		}
	}
}
