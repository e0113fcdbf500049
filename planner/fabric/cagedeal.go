package fabric

// CageDeal is where the links of one core group go as the walk takes
// them, spine index by spine index and, for each, pod by pod (a link's
// core and its port there). A cabling engineer fills a core's cage from
// one spine's cage: each spine's whole cages of deal links come first,
// in turn, each onto one core cage, so a spine cage and the core cage it
// feeds hold the same two links (one medium, chosen by that run alone);
// then the spines' odd links, deal to a core cage. Dealt in walk order
// instead, a spine sending an odd count left the next spine's links a
// port out of step with the cores' cages, and every cage after it was
// chained to its neighbours (one module type for the chain, set by its
// longest run): which links chained changed with every server added,
// and a bigger design could buy fewer modules (issue 45, QM9700: 2,240
// GPUs $4,589 cheaper than 2,232). The links take the positions 0 to
// links-1 of DealLinks' dealing, so every core takes what CoreLoads
// counts; dealt one at a time (deal 1), the positions are the walk's
// order, as before.
type CageDeal struct {
	cores, deal int
	whole, odd  int // the next position of a spine's whole cages, of its odd links
}

// DealOf starts the dealing of one group of run r: its whole cages take
// the positions from 0, its spines' odd links the positions after them.
func (lay Layout) DealOf(r CoreRun) CageDeal {
	d := CageDeal{cores: max(r.Cores, 1), deal: max(r.Deal, 1)}
	for k := range r.SpineCount() {
		for i, pr := range lay.Pods {
			up := r.UpAt(k, i)
			d.odd += pr.Count * (up - up%d.deal)
		}
	}
	return d
}

// Spine takes the next spine (walk order), sending ups links to the
// group: where its links go.
func (d *CageDeal) Spine(ups int) SpineDeal {
	s := SpineDeal{cores: d.cores, deal: d.deal, whole: d.whole, odd: d.odd, full: ups - ups%d.deal}
	d.whole += s.full
	d.odd += ups - s.full
	return s
}

// SpineDeal is where one spine's links to a core group go (CageDeal).
type SpineDeal struct {
	cores, deal int
	// whole and odd are the positions of the spine's first link in a
	// whole cage and of its first odd link; full its links in whole
	// cages.
	whole, odd, full int
}

// Link is the core (from 0, of the group's cores) and the core's port
// (from 0, counting its links from the group) of the spine's link u
// (from 0): positions are dealt deal at a time in turn (CoreRun.CoreAt),
// and a core's ports fill in the order of its positions, so a core cage
// holds one deal of positions.
func (s SpineDeal) Link(u int) (core, port int) {
	v := s.whole + u
	if u >= s.full {
		v = s.odd + u - s.full
	}
	c := v / s.deal
	return c % s.cores, c/s.cores*s.deal + v%s.deal
}

// DealtSpread is how far a spine's links to the cores it reaches may
// differ where a core group deals deal links at a time (CageDeal): its
// whole cages by deal, and its odd links (fewer than deal) dealt apart.
func DealtSpread(deal int) int { return 2*max(deal, 1) - 1 }
