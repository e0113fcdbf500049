package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
)

// cageSets groups a walk's links by the transceiver cages they share: a
// twin-port cage holds one module or one cable end, so both of its
// links take one medium. Links joined through shared cages (union-find
// over every device's cages) form a set; a set takes the medium that
// reaches its longest run.
type cageSets struct {
	parent  []int32
	longest []float32 // per cage, then per set root: the longest run
	medium  []Medium  // per set root, once chosen
	tier    []int8    // per cage: the tier of its links
	grid    cageGrid
	// port is each tier's port speed and links per switch cage.
	port [3]tierPort
	// serverPerCage is the server ports one server-side module serves.
	serverPerCage int
}

// cageGrid numbers every cage of a fabric: each server's cages, then
// each switch's (device numbers: cableWalk's).
type cageGrid struct{ servers, serverCages, switchCages, size int }

func newCageGrid(servers, switches, serverCages, switchCages int) cageGrid {
	return cageGrid{servers, serverCages, switchCages, servers*serverCages + switches*switchCages}
}

// index is the number of cage (from 0) of device dev.
func (g cageGrid) index(dev, cage int) int {
	if dev < g.servers {
		return dev*g.serverCages + cage
	}
	return g.servers*g.serverCages + (dev-g.servers)*g.switchCages + cage
}

func newCageSets(grid cageGrid, port [3]tierPort, serverPerCage int) *cageSets {
	n := grid.size
	s := &cageSets{parent: make([]int32, n), longest: make([]float32, n), tier: make([]int8, n), grid: grid, port: port, serverPerCage: max(serverPerCage, 1)}
	for t := range s.port {
		s.port[t].cageLinks = max(s.port[t].cageLinks, 1)
		s.port[t].lowCage = max(s.port[t].lowCage, 1)
		s.port[t].highCage = max(s.port[t].highCage, 1)
	}
	for i := range s.parent {
		s.parent[i] = int32(i)
	}
	return s
}

// ends are the cage numbers of a link's two ends. A leaf's uplinks
// (from its port aUp on) run at the uplink speed, in the cages after its
// down links'; a spine's and a core's ports all run at it.
func (s *cageSets) ends(t int, c *CableRun) (a, b int32) {
	down, up := s.port[0].highCage, s.port[t].lowCage
	var ca int
	switch t {
	case 0:
		ca = c.aPort / s.serverPerCage
	case 1:
		ca = c.aUp/down + (c.aPort-c.aUp)/up
	default:
		ca = c.aPort / up
	}
	return int32(s.grid.index(c.aID, ca)), int32(s.grid.index(c.bID, c.bPort/s.port[t].highCage))
}

func (s *cageSets) find(x int32) int32 {
	for s.parent[x] != x {
		s.parent[x] = s.parent[s.parent[x]]
		x = s.parent[x]
	}
	return x
}

// join notes a link of tier t and run metres between cages a and b.
func (s *cageSets) join(t int, a, b int32, run float64) {
	r := float32(run)
	s.tier[a], s.tier[b] = int8(t), int8(t)
	s.longest[a] = max(s.longest[a], r)
	s.longest[b] = max(s.longest[b], r)
	ra, rb := s.find(a), s.find(b)
	if ra != rb {
		s.parent[rb] = ra
		s.longest[ra] = max(s.longest[ra], s.longest[rb])
	}
}

// choose gives every set the cheapest medium that reaches its longest
// run (the runs of a tier's sets repeat, so choices are cached).
func (s *cageSets) choose(p *Plan) error {
	s.medium = make([]Medium, len(s.parent))
	type key struct {
		tier int
		run  float32
	}
	memo := map[key]Medium{}
	lastKey, lastMed := key{-1, 0}, Medium("")
	for i := range s.parent {
		x := int32(i)
		if s.parent[x] != x || s.longest[x] == 0 {
			continue
		}
		t := int(s.tier[x])
		k := key{t, s.longest[x]}
		if k == lastKey {
			s.medium[x] = lastMed
			continue
		}
		med, ok := memo[k]
		if !ok {
			ch, found := p.media.choose(t, float64(k.run))
			if !found {
				return p.media.unreachable(t, float64(k.run))
			}
			med, memo[k] = ch.medium, ch.medium
		}
		s.medium[x] = med
		lastKey, lastMed = k, med
	}
	for i := range s.parent {
		s.parent[i] = s.find(int32(i))
	}
	return nil
}

// mediumOf is the medium of the set holding cage a. choose leaves
// every cage pointing at its set's root, so this only reads: walks of
// one plan may run at once.
func (s *cageSets) mediumOf(a int32) Medium { return s.medium[s.parent[a]] }

// unreachable is the error for a run of tier t beyond every medium.
func (m *mediaChooser) unreachable(t int, run float64) error {
	field := "facility.racks_per_row"
	if f := m.forced[t]; f != "" {
		field = "network.media." + linkTierNames[t]
	}
	return fielderr.New(field, fmt.Sprintf("shorten the hall (fewer racks per row, network rows in the middle) or choose media that reach; the longest reach here is %d m", m.longestReach(t)),
		"a %.1f m %s run (the longest of links sharing twin-port cages) is beyond every medium offered", run, linkTierNames[t])
}

// allMedia lists every medium a link can take (keys the choice cache).
var allMedia = []Medium{DAC, ACC, AOC, Optics, Multimode}
