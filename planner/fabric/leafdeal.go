package fabric

// LeafDeal is where the uplinks of one pod's leaves go as the walk takes
// them, leaf by leaf: each link's spine and its port there. Each leaf
// sends its links to the pod's spines from base on, base being the
// links of the leaves before it mod the spines, so a spine takes what
// SpreadLinks counts (Layout); the links between each leaf and each
// spine are that many however they are dealt. Dealt one link at a time
// (deal 1), leaf link k goes to spine base+k and a spine's ports fill
// in arrival order.
//
// Dealt a cage at a time (deal links a twin-port cage, as CageDeal deals
// a core group), a cabling engineer keeps each cage's links between the
// same switches, so that a cage's module is set by its own runs, not by
// a chain of cages across the pod:
//
//   - whole cages: a leaf sending a spine deal links or more sends them
//     a cage at a time, each onto one spine cage;
//   - blocks: the spines are taken deal at a time (spines 0 and 1, 2 and
//     3, ...); a leaf sending one more link to every spine of a block
//     sends those in one cage, and each spine of the block takes such
//     links from the same leaves in the same order, so its cages pair
//     the same leaves: deal leaves by deal spines, closed;
//   - edge links, the rest (where a leaf's odd links start or end inside
//     a block, and spines past the last whole block), after them.
//
// A spine's ports take every leaf's whole cages first, in leaf order,
// then the blocks' links, then the edge links. Dealt one at a time
// instead, a leaf cage held links to two spines and a spine cage links
// from two leaves, every cage chained to its neighbours (one module type
// for the chain, set by its longest run): which links chained changed
// with every server added, and a bigger design could buy fewer
// single-mode modules (issue 45, tomahawk6-100g: 39,208 GPUs $9,652
// cheaper than 39,200, 260 leaf-spine links of the partial pod within
// the 50 m multimode reach chained onto single-mode by the runs past
// it). Where every leaf sends every spine one link (reference designs'
// full pods, an even count of spines), the blocks are the walk's order
// dealt one at a time, port for port.
type LeafDeal struct {
	n, deal int
	blocks  int // whole blocks of deal spines
	base    int // links of the pod's leaves so far, mod n
	// whole, block and edge are each spine's next port for a whole
	// cage's link, a block's and an edge link.
	whole, block, edge []int
	buf                []int
}

// Start begins the dealing of one pod of run pr, deal links to a cage
// (0 or 1: one at a time); it reuses d's memory.
func (d *LeafDeal) Start(pr PodRun, deal int) {
	n := pr.Spines
	d.n, d.deal, d.base = n, max(deal, 1), 0
	d.blocks = 0
	if n > 0 {
		d.blocks = n / d.deal
	}
	if cap(d.buf) < 5*n+2 {
		d.buf = make([]int, 5*n+2)
	}
	d.buf = d.buf[:5*n+2]
	clear(d.buf)
	d.whole, d.block, d.edge = d.buf[:n], d.buf[n:2*n], d.buf[2*n:3*n]
	if d.deal == 1 || n == 0 {
		return
	}
	wdiff, bdiff := d.buf[3*n:4*n+1], d.buf[4*n+1:]
	all := d.countLeaves(pr, wdiff, bdiff)
	w, b := 0, 0
	for x := range n {
		w += wdiff[x]
		d.whole[x] = all + w // the whole cages' total, until set below
	}
	for x := range n {
		if x%d.deal == 0 && x/d.deal < d.blocks {
			b += bdiff[x/d.deal]
		}
		if x/d.deal >= d.blocks {
			b = 0
		}
		d.block[x] = d.whole[x]
		d.edge[x] = d.whole[x] + b
		d.whole[x] = 0
	}
}

// countLeaves counts each spine's whole-cage links and each block's
// links from the leaves of pod run pr as differences (diff[x] -
// diff[x-1]) in wdiff (n+1 entries) and bdiff (a block an entry, and
// one): every spine takes wB whole-cage links of each leaf, the r
// spines from its base wA; a block takes one link of each leaf that
// covers it. It returns the whole-cage links every spine takes.
func (d *LeafDeal) countLeaves(pr PodRun, wdiff, bdiff []int) (all int) {
	base := 0
	for _, ld := range pr.Leaves {
		sh := d.shapeOf(ld.Up)
		all += sh.counts[0][1] * ld.Switches
		for range ld.Switches {
			if step := sh.counts[0][0] - sh.counts[0][1]; sh.r > 0 && step != 0 {
				addCyclic(wdiff, base, sh.r, step, d.n)
			}
			runs := d.blocksOf(sh, base)
			for _, br := range runs.at[:runs.n] {
				bdiff[br[0]]++
				bdiff[br[1]]--
			}
			base = (base + ld.Up) % d.n
		}
	}
	return all
}

// addCyclic adds v to diff's r entries from at on, cyclically over n
// (diff has n+1 entries).
func addCyclic(diff []int, at, r, v, n int) {
	end := at + r
	diff[at] += v
	if end <= n {
		diff[end] -= v
		return
	}
	diff[n] -= v
	diff[0] += v
	diff[end-n] -= v
}

// leafShape is how a leaf sending up links spreads them over the pod's
// spines from its base: the r spines from base take one more.
type leafShape struct {
	r int
	// counts are the links a spine takes in whole cages ([0]) and
	// beyond them ([1]): the r spines from base [.][0], the others
	// [.][1].
	counts [2][2]int
	// many spines from first (counted from base) take one link each
	// beyond whole cages, the others none; ok is false where some take
	// more (deal > 2): those links are all edge links.
	first, many int
	ok          bool
}

// shapeOf is the shape of a leaf of the pod sending up links.
func (d *LeafDeal) shapeOf(up int) leafShape {
	q, r := up/d.n, up%d.n
	sh := leafShape{r: r, ok: true}
	floor := func(c int) int { return c - c%d.deal }
	sh.counts = [2][2]int{{floor(q + 1), floor(q)}, {(q + 1) % d.deal, q % d.deal}}
	switch o := sh.counts[1]; {
	case o[0] == 0 && o[1] == 0:
	case o[0] == 1 && o[1] == 0:
		sh.first, sh.many = 0, r
	case o[0] == 0 && o[1] == 1:
		sh.first, sh.many = r, d.n-r
	default:
		sh.ok = false
	}
	return sh
}

// blockRuns is at most two runs of blocks [from, to): a leaf's odd links
// run once around the spines, so cover at most two runs of blocks.
type blockRuns struct {
	at [2][2]int
	n  int
}

// blocksOf is the runs of blocks every spine of which takes one link
// beyond whole cages from a leaf of shape sh at base.
func (d *LeafDeal) blocksOf(sh leafShape, base int) blockRuns {
	var out blockRuns
	if !sh.ok || sh.many == 0 || d.blocks == 0 {
		return out
	}
	add := func(lo, hi int) {
		from, to := ceilDivInt(lo, d.deal), min(hi/d.deal, d.blocks)
		if from < to {
			out.at[out.n] = [2]int{from, to}
			out.n++
		}
	}
	if sh.many == d.n {
		add(0, d.n)
		return out
	}
	lo := (base + sh.first) % d.n
	hi := lo + sh.many
	add(lo, min(hi, d.n))
	if hi > d.n {
		add(0, hi-d.n)
	}
	return out
}

// ceilDivInt is a/b rounded up for a >= 0, b > 0.
func ceilDivInt(a, b int) int { return (a + b - 1) / b }

// Leaf takes the pod's next leaf (walk order), sending up links to the
// pod's spines: its links' ends, taken in order with Next.
func (d *LeafDeal) Leaf(up int) LeafLinks {
	l := LeafLinks{d: d, base: d.base, phase: -1, up: up}
	if d.n > 0 {
		sh := d.shapeOf(up)
		l.shape = sh
		if d.deal > 1 {
			l.covered = d.blocksOf(sh, d.base)
			blocks := 0
			for _, br := range l.covered.at[:l.covered.n] {
				blocks += br[1] - br[0]
			}
			whole := sh.r*sh.counts[0][0] + (d.n-sh.r)*sh.counts[0][1]
			l.todo = [3]int{whole, blocks * d.deal, up - whole - blocks*d.deal}
		}
		d.base = (d.base + up) % d.n
	}
	return l
}

// LeafLinks is where one leaf's uplinks go (LeafDeal), link by link.
type LeafLinks struct {
	d       *LeafDeal
	base    int
	shape   leafShape
	covered blockRuns // the blocks the leaf sends one link a spine (blocksOf)
	// todo is the links left in each phase (0 whole cages, 1 blocks, 2
	// edge links; the blocks' counted off a run at a time); phase the
	// current one (-1: not started), i the spines from base done in it,
	// x the current spine, left its links left in the phase, ports the
	// spines' next ports for the phase. The blocks are taken run by run
	// of covered, each from its first spine, so that a block's spines
	// come together whatever the base (a leaf sending every spine one
	// link from a base inside a block would split it): runAt is the
	// run, run its spines left. Dealt one at a time, up is the leaf's
	// links and k those given to runs.
	todo              [3]int
	phase, i, x, left int
	runAt, run        int
	ports             []int
	up, k             int
}

// Next is the spine (from 0, of the pod's) and its port (from 0,
// counting its links from the pod's leaves) of the leaf's next uplink:
// called once for each of its links, in order. A run of spines taking
// one link each (the blocks', or every link dealt one at a time) is
// taken here, small enough to inline in the walks; the rest in next.
func (l *LeafLinks) Next() (spine, port int) {
	if l.run == 0 {
		return l.next()
	}
	x := l.x
	l.run--
	l.x++
	port = l.ports[x]
	l.ports[x]++
	return x, port
}

// next is Next outside a run: it starts the next run, or takes the
// link of a spine taking several (whole cages) or an edge link.
func (l *LeafLinks) next() (spine, port int) {
	d := l.d
	if d.deal == 1 { // from base on, one link a spine, to the last spine and around
		l.x = (l.base + l.k) % d.n
		l.run = min(l.up-l.k, d.n-l.x)
		l.k += l.run
		l.ports = d.whole
		return l.Next()
	}
	for l.left == 0 && l.run == 0 {
		l.step()
	}
	if l.run > 0 {
		return l.Next()
	}
	x := l.x
	l.left--
	l.todo[l.phase]--
	port = l.ports[x]
	l.ports[x]++
	return x, port
}

// step moves to the phase's next spine (the blocks: their next run),
// or, where the phase has no link left, to the next phase that has.
func (l *LeafLinks) step() {
	d := l.d
	switch {
	case l.phase == 1 && l.todo[1] > 0:
		l.runAt++
		l.startRun()
		return
	case l.phase >= 0 && l.phase != 1 && l.todo[l.phase] > 0:
		l.i++
		if l.x++; l.x == d.n {
			l.x = 0
		}
		l.left = l.count()
		return
	}
	l.phase++
	for l.phase < 3 && l.todo[l.phase] == 0 {
		l.phase++
	}
	switch l.phase {
	case 0, 2:
		l.i, l.x, l.ports = 0, l.base, d.whole
		if l.phase == 2 {
			l.ports = d.edge
		}
		l.left = l.count()
	case 1:
		l.runAt, l.ports = 0, d.block
		l.startRun()
	default:
		panic("fabric: LeafLinks.Next past the leaf's uplinks")
	}
}

// startRun starts the blocks' run runAt: its first spine and its
// spines, taken from the blocks' links left.
func (l *LeafLinks) startRun() {
	br := l.covered.at[l.runAt]
	l.x, l.run = br[0]*l.d.deal, (br[1]-br[0])*l.d.deal
	l.todo[1] -= l.run
}

// count is the links the current spine takes in the current phase (0
// whole cages, 2 edge links).
func (l *LeafLinks) count() int {
	sh, c := &l.shape, 1
	if l.i < sh.r {
		c = 0
	}
	if l.phase == 0 {
		return sh.counts[0][c]
	}
	if l.inCovered(l.x) {
		return sh.counts[1][c] - 1
	}
	return sh.counts[1][c]
}

// inCovered reports whether spine x is in a block the leaf covers.
func (l *LeafLinks) inCovered(x int) bool {
	m := x / l.d.deal
	for _, br := range l.covered.at[:l.covered.n] {
		if m >= br[0] && m < br[1] {
			return true
		}
	}
	return false
}
