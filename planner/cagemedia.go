package planner

import (
	"fmt"
	"math"
	"sync"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/fabric"
)

// cageSets groups a walk's links by the transceiver cages they share: a
// twin-port cage holds one module or one cable end, so both of its
// links take one medium. Links joined through shared cages (union-find
// over every device's cages) form a set; a set takes the medium that
// reaches its longest run.
type cageSets struct {
	runSets
	// medium is each cage's set's medium once chosen (index into
	// allMedia, -1 none); the union-find (runSets) and tier, the tier
	// of each set's links at its root, are let go then.
	medium []int8
	tier   []int8
	grid   cageGrid
	// port is each tier's port speed and links per switch cage.
	port [3]tierPort
	// serverPerCage is the server ports one server-side module serves.
	serverPerCage int
	// counted: the server links were counted by unit, not joined here
	// (their cages hold no set); a walk that writes links out takes
	// every link's sets, surveyed once on first need (Plan.linkMedia).
	counted  bool
	fullOnce sync.Once
	full     *cageSets
}

// cageGrid numbers every cage of a fabric: each server's cages, then
// each leaf's, spine's and core's (device numbers: cableWalk's), each
// switch with its own tier's cages (a chassis spine's hundreds of cages
// are not given to every leaf).
type cageGrid struct {
	servers, serverCages int
	// first is each switch tier's first device number, cages its
	// cages per switch, base the number of its first cage.
	first, cages, base [3]int
	size               int
}

// newCageGrid numbers the cages of servers servers and of switches[t]
// switches of tier t (leaves, spines, cores) with switchCages[t] cages
// each.
func newCageGrid(servers, serverCages int, switches, switchCages [3]int) cageGrid {
	g := cageGrid{servers: servers, serverCages: serverCages, cages: switchCages}
	dev, at := servers, servers*serverCages
	for t := range switches {
		g.first[t], g.base[t] = dev, at
		dev += switches[t]
		at += switches[t] * switchCages[t]
	}
	g.size = at
	return g
}

// index is the number of cage (from 0) of device dev.
func (g cageGrid) index(dev, cage int) int {
	if dev < g.servers {
		return dev*g.serverCages + cage
	}
	t := 0
	for t < 2 && dev >= g.first[t+1] {
		t++
	}
	return g.base[t] + (dev-g.first[t])*g.cages[t] + cage
}

func newCageSets(grid cageGrid, port [3]tierPort, serverPerCage int) *cageSets {
	s := newCageCounts(grid, port, serverPerCage)
	u := unionKeep.get()
	s.up, s.tier = u.up, u.tier
	if cap(s.tier) < grid.size {
		s.tier = make([]int8, grid.size)
	}
	s.tier = s.tier[:grid.size] // read only at a set's root, which a join wrote
	s.reset(grid.size)
	return s
}

// unionMemory is the union-find's memory (runSets.up, cageSets.tier),
// kept in unionKeep between surveys once choose lets it go: a
// 100,000-GPU survey's is 1.7 MB, made and cleared for every plan.
type unionMemory struct {
	up   []int32
	tier []int8
}

var unionKeep keep[unionMemory]

// newCageCounts is cage sets that hold no cage: the grid and each tier's
// ports, every links-a-cage at least 1, for a bill that counts its links
// (countLinkBOM) rather than joining them.
func newCageCounts(grid cageGrid, port [3]tierPort, serverPerCage int) *cageSets {
	s := &cageSets{grid: grid, port: port, serverPerCage: max(serverPerCage, 1)}
	for t := range s.port {
		s.port[t].cageLinks = max(s.port[t].cageLinks, 1)
		s.port[t].lowCage = max(s.port[t].lowCage, 1)
		s.port[t].highCage = max(s.port[t].highCage, 1)
	}
	return s
}

// ends are the cage numbers of a link's two ends. A switch's uplinks
// run at their tier's speed, in the whole cages
// after its down links', which run at the tier below's: a leaf's down links
// at the server port speed, a spine's at the uplink speed (a core's
// ports all run at the core speed).
func (s *cageSets) ends(t int, c *CableRun) (a, b int32) {
	// A switch's port counts links (LinkEnd.Port): its uplinks start at
	// the cage after its down links', so the cage is the port over the
	// tier's links a cage.
	return s.endsAt(t, c.aID, c.aPort, c.bID, c.bPort)
}

// endsAt is ends for a link of tier t from port aPort of device aID to
// port bPort of device bID (device numbers: cableWalk's).
func (s *cageSets) endsAt(t, aID, aPort, bID, bPort int) (a, b int32) {
	ca := aPort / s.port[t].lowCage
	if t == 0 {
		ca = aPort / s.serverPerCage
	}
	return int32(s.grid.index(aID, ca)), int32(s.grid.index(bID, bPort/s.port[t].highCage))
}

// join notes a link of tier t and run metres between cages a and b.
// The tier is written at the set's root only, where choose reads it:
// every join of a set leaves its root so written, and a set's links
// are of one tier (a cage serves one).
func (s *cageSets) join(t int, a, b int32, run float64) {
	s.tier[s.runSets.join(a, b, run)] = int8(t)
}

// runSets joins cages that share links into sets (union-find), keeping
// each set's longest run at its root: a set takes the cheapest medium
// that reaches it. The fabric's cage sets and one unit's server cages
// (serverCounter) are both kept in one. A cage is one int32: its
// parent's number, or at a root the bits of the set's longest run
// (float32, positive: bits below 2^31) complemented, so negative. Four
// bytes a cage, not eight: the union-find is the largest thing a
// 1,000,000-GPU walk holds.
type runSets struct {
	up []int32
}

// reset makes n cages, each its own set, with no run yet; it reuses the
// slice's memory.
func (s *runSets) reset(n int) {
	s.up = resize32(s.up, n)
	for i := range s.up {
		s.up[i] = ^int32(0) // a root of run 0
	}
}

// size is the number of cages.
func (s *runSets) size() int { return len(s.up) }

// resize32 returns s with n elements (contents unset).
func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// find is the root of cage x's set, halving the path as it goes.
func (s *runSets) find(x int32) int32 {
	for {
		px := s.up[x]
		if px < 0 {
			return x
		}
		ppx := s.up[px]
		if ppx < 0 {
			return px
		}
		s.up[x] = ppx
		x = ppx
	}
}

// rootRun is the longest run of the set x roots, and true; false when x
// is not a root.
func (s *runSets) rootRun(x int32) (float32, bool) {
	if v := s.up[x]; v < 0 {
		return math.Float32frombits(uint32(^v)), true
	}
	return 0, false
}

// join notes a link of run metres between cages a and b: one set, whose
// longest run takes it; it returns the set's root.
func (s *runSets) join(a, b int32, run float64) int32 {
	ra, rb := s.find(a), s.find(b)
	la, _ := s.rootRun(ra)
	longest := max(la, float32(run))
	if ra != rb {
		lb, _ := s.rootRun(rb)
		longest = max(longest, lb)
		s.up[rb] = ra
	}
	s.up[ra] = ^int32(math.Float32bits(longest))
	return ra
}

// choose gives every set the cheapest medium that reaches its longest
// run (the runs of a tier's sets repeat, so choices are cached).
func (s *cageSets) choose(p *Plan) error {
	s.medium = make([]int8, s.size())
	// The memo's key is the tier and the run's bits in one word: a map
	// of a struct holding a float hashes it field by field, which at
	// 1,000,000 GPUs (millions of sets) cost a fifth of the plan.
	memo := newMediumMemo(p.media)
	lastKey, lastMed := uint64(math.MaxUint64), int8(-1)
	// Sets that counted their server links by unit joined none of the
	// servers' cages (the grid numbers them first): each is a set of no
	// run, of no medium.
	from := 0
	if s.counted {
		from = min(s.grid.base[0], len(s.up))
	}
	for i := range from {
		s.medium[i] = -1
	}
	for i := from; i < len(s.up); i++ {
		x := int32(i)
		run, root := s.rootRun(x)
		if !root || run == 0 {
			s.medium[x] = -1
			continue
		}
		t := int(s.tier[x])
		k := memoKey(t, run)
		if k == lastKey {
			s.medium[x] = lastMed
			continue
		}
		med, err := memo.of(t, run)
		if err != nil {
			return err
		}
		s.medium[x] = med
		lastKey, lastMed = k, med
	}
	// Every cage takes its set's medium, and the union-find is let go:
	// a byte a cage is what the walks read, against six while joining
	// (20 MB at 1,000,000 GPUs, held as long as the plan). A root keeps
	// its own medium, so the cages can be set in place.
	for i := from; i < len(s.up); i++ {
		s.medium[i] = s.medium[s.find(int32(i))]
	}
	unionKeep.put(&unionMemory{s.up, s.tier}, 4*cap(s.up)+cap(s.tier))
	s.runSets, s.tier = runSets{}, nil
	return nil
}

// mediumIndexOf is the medium of the set holding cage a, as its index
// into allMedia (-1: none). choose gives every cage its set's medium, so
// this only reads: walks of one plan may run at once.
func (s *cageSets) mediumIndexOf(a int32) int8 { return s.medium[a] }

// unreachable is the error for a run of tier t beyond every medium.
func (m *mediaChooser) unreachable(t int, run float64) error {
	field := "facility.racks_per_row"
	if f := m.forced[t]; f != "" {
		field = "network.media." + linkTierNames[t]
	} else if err := m.noModuleAt(t, run); err != nil {
		return err
	}
	return fielderr.New(field, fmt.Sprintf("shorten the hall (fewer racks per row, network rows in the middle) or choose media that reach; the longest reach here is %d m", m.longestReach(t)),
		"a %.1f m %s run (the longest of links sharing twin-port cages) is beyond every medium offered", run, linkTierNames[t])
}

// allMedia lists every medium a link can take (keys the choice cache).
var allMedia = mediaOrder[:]

// mediaOrder is allMedia as an array: tables with a slot a medium are
// sized by it.
var mediaOrder = [...]Medium{DAC, ACC, AOC, Optics, Multimode}

// nearNote is the plan's note on near-balanced wiring. Where core
// groups take their links a twin-port cage at a time (fabric.DealLinks:
// a core's cage filled before the next core takes any), a spine's
// counts to the cores it reaches differ by up to fabric.DealtSpread,
// and the note says so.
func nearNote(lay fabric.Layout) string {
	const (
		head = "near-balanced wiring: a switch's link counts to the upper switches it reaches differ by at most one"
		tail = ", and a full leaf reaches every spine of its group (strict balance would add the headroom listed)"
	)
	deal := 1
	for _, r := range lay.CoreGroups {
		deal = max(deal, r.Deal)
	}
	if deal == 1 {
		return head + tail
	}
	return head + fmt.Sprintf(" (a spine's to the cores by at most %d: a core group's links fill each core's %d-link cages in turn)", fabric.DealtSpread(deal), deal) + tail
}
