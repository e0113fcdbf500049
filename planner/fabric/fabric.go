package fabric

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
)

// Spec is what sizing one plane needs.
type Spec struct {
	Servers       int // nodes (servers or compute trays) in the cluster
	Rails         int // node ports in this plane
	Radix         int // switch ports at the plane's port speed
	Down, Up      int // a full leaf's ports toward nodes and toward spines
	RatioD        int // asked oversubscription D:U
	RatioU        int
	RailOptimized bool
	Tiers         int // 0: fewest that fit
	// PodLeaves is the leaves of a three-tier pod: the system's reference
	// layout's (whole units when RailPods), or the scenario's, which may
	// cut across units (the textbook fat tree's k/2 leaves); at most a
	// spine's down ports (0: as many whole units as half a spine's ports
	// serve).
	PodLeaves int
	// RailPods says a three-tier pod of podLeaves takes one rail's
	// leaves of podLeaves consecutive units (leaf groups), as NVIDIA's
	// GB200 SuperPOD: each pod is an SU's leaves of one rail.
	RailPods bool
	// SpineD:SpineU is a three-tier spine's down:up (0:0: non-blocking).
	SpineD, SpineU int
	// UpRadix is the switch's ports at the uplink speed (0: radix) and
	// CoreRadixAt at the core speed (0: UpRadix); LeafW weighs a leaf's
	// server port against its uplink, SpineW a spine's down port against
	// its core uplink (zero: equal speeds). Spines run their down ports
	// at the uplink speed, cores every port at the core speed.
	UpRadix, CoreRadixAt int
	LeafW, SpineW        Weights
	// ReservedSlots is the node slots of the last scalable unit held for
	// management hosts cabled to its leaves (NVIDIA's SuperPODs leave
	// one DGX slot for UFM connectivity): a partial unit's leaves get
	// the uplinks of those ports too, as if nodes stood there.
	ReservedSlots int
	// PartialPorts is the ports each leaf of the partial scalable unit
	// cables beside its nodes and reserved slots (storage nodes' ports on
	// its idle server ports): its uplinks cover them at the ratio.
	PartialPorts int
	// StorageLeaves is the leaves of a leaf group of storage ports alone
	// after the units (serving no nodes), each cabling StoragePorts
	// ports with the uplinks for them at the ratio; 0: no such group.
	StorageLeaves, StoragePorts int
	// StrictSpines keeps every full leaf's uplinks split evenly over its
	// spines whatever it adds (the system's reference design does);
	// false: strict balance may add at most a unit's worth of spines.
	StrictSpines bool
	// CoreCage is the links one of a core's cages carries at the core
	// speed (two: a twin-port OSFP cage); 0 or 1: one. A core group's
	// links are dealt to its cores a cage at a time (CoreRun.Deal).
	CoreCage int
	// MinSpines is the fewest spines of a two-tier plane, or of each
	// three-tier pod (0: as many as the links need); at most a full
	// leaf's uplinks, which reach every spine.
	MinSpines int
}

// Load is a run of switches of one tier with the same ports in use.
type Load struct {
	Switches int
	Down, Up int // ports cabled per switch toward the tier below and above
}

// Wiring rules a tier's uplinks follow.
const (
	// WiringBalanced: every lower switch has the same number of links to
	// every upper switch of its group.
	WiringBalanced = "balanced"
	// WiringNear: every lower switch reaches every upper switch, with
	// link counts differing by at most one.
	WiringNear = "near-balanced"
)

// Strict balance may add at most one scalable unit's worth of spines
// (the switches one more unit's uplinks would need); past that,
// near-balanced wiring is used and the difference is reported as
// headroom. NVIDIA's reference designs add just that much: DGX H100
// SuperPOD, 3 SU: 16 spines where 12 carry the links (one SU's 4 more);
// DGX B300 XDR, 4 SU: 18 where 16 do. The bound keeps growth smooth: one
// more server never adds more than a unit of switches to a tier. A
// system whose reference design balances at any count (Spec.StrictSpines:
// the Quantum-X800 SuperPODs, 8 SU on 36 spines where 32 carry the
// links) lifts the bound on its spines. The core tier keeps strict
// balance only where it costs no more (sizeCores).

// Headroom is what a reference design provisions beyond the minimal
// plan, reported beside the counts and never in them.
type Headroom struct {
	Tier     string `json:"tier"`
	Switches int    `json:"switches"` // extra switches, all planes
	Ports    int    `json:"ports"`    // extra cabled or reserved ports, all planes
	Reason   string `json:"reason"`
}

// Plane is one sized plane of the fabric. Counts are per plane.
type Plane struct {
	Tiers                int
	ServerLeaf           int // links
	LeafSpine, SpineCore int // links
	LeafLoads            []Load
	SpineLoads           []Load
	CoreLoads            []Load
	Pods                 int
	SpinesPerPod         int
	ServersPerGroup      int    // servers a full leaf group serves (an SU when rail-optimized)
	SpineWiring          string // WiringBalanced or WiringNear (leaf to spine)
	CoreWiring           string // spine to core
	Headroom             []Headroom
	// StrictAdded is the spines (all pods) that strict balance adds
	// over the fewest carrying the links where the reference design
	// keeps it at any count (Spec.StrictSpines); 0 elsewhere.
	StrictAdded int
	Layout      Layout // pod by pod, for the cable map and diagram
}

// Layout is how a plane's switches are wired, compactly: runs of
// identical pods (one pod below three tiers) and, with three tiers, runs
// of identical core groups. A leaf sends its pod's n spines the links
// that dealing link k to spine (b + k) mod n gives, b being the links of
// the leaves before it mod n: that spreads links as SpreadLinks counts
// them, and a leaf's links to the spines differ by one at most; which of
// its ports goes to which spine is LeafDeal's (a twin-port cage at a
// time), a core group's CageDeal's.
type Layout struct {
	Pods       []PodRun
	CoreGroups []CoreRun
	// LeavesPerUnit and ServersPerUnit describe a scalable unit: one
	// leaf per rail when rail-optimized, else one leaf.
	LeavesPerUnit, ServersPerUnit int
	// RailPods is the units (leaf groups) whose leaves of one rail make
	// a pod; 0: pods take consecutive leaves, whole units each. Pod i
	// is then rail i mod leavesPerUnit of units from (i / leavesPerUnit)
	// * RailPods on.
	RailPods int
}

// LeafOf is the plane's index of leaf k (from 0) of pod pod (from 0):
// leaves are numbered unit by unit and, in a unit, rail by rail. next
// is the count of leaves walked before, which is the index when pods
// take consecutive leaves.
func (lay Layout) LeafOf(pod, k, next int) int {
	if lay.RailPods == 0 {
		return next
	}
	lpu := lay.LeavesPerUnit
	return ((pod/lpu)*lay.RailPods+k)*lpu + pod%lpu
}

// Leaves yields each leaf of a plane, pod by pod in wiring order, with
// its index in the plane (LeafOf) and its load.
func (lay Layout) Leaves() iter.Seq2[int, Load] {
	return func(yield func(int, Load) bool) {
		next, pod := 0, 0
		for _, run := range lay.Pods {
			for range run.Count {
				k := 0
				for _, ld := range run.Leaves {
					for range ld.Switches {
						if !yield(lay.LeafOf(pod, k, next), ld) {
							return
						}
						next++
						k++
					}
				}
				pod++
			}
		}
	}
}

// PartialUnitPrefix opens a partial scalable unit's leaf headroom
// reason, which planner rewords for leaf pairs and rack-scale units.
const PartialUnitPrefix = "the partial scalable unit has "

// PodRun is count identical pods: their leaves in order (full units,
// then a partial one) with the uplinks as wired, and their spines.
type PodRun struct {
	Count  int
	Leaves []Load
	Spines int
}

// CoreRun is groups consecutive core groups with cores switches each;
// a core group takes the next `spines` spine indices of every pod run
// with spineUp[i] > 0, that many links from each such spine. Reference
// designs join spine j of every pod to its own core group (spines = 1);
// where that rounds cores up per group past the fewest, groups join
// several spine indices (and Then, spine indices of other kinds) so
// that fewer cores carry their links.
type CoreRun struct {
	Groups, Cores int
	Spines        int   // spine indices a group joins (j, j+1, ...), at least 1
	SpineUp       []int // per pod run, from each spine
	// Then is further spine indices each group joins after its first
	// Spines, whose spines send other uplinks: a near-balanced core tier
	// sized across kinds of spine (a partial pod's spines sending fewer
	// links than a full pod's, or none) has groups that join both. Empty
	// where every group joins spines of one kind, as reference designs.
	Then []CoreStretch
	// Deal is the links each core of a group takes at a time (DealLinks):
	// its cage's links; 0 or 1, one at a time (round robin).
	Deal int
}

// CoreStretch is Spines consecutive spine indices a core group joins
// after those before it, spine j of each pod of pod run i sending
// SpineUp[i] links to the group (0: the run has no spine j).
type CoreStretch struct {
	Spines  int
	SpineUp []int
}

// SpineCount is the spine indices one group of the run joins.
func (r CoreRun) SpineCount() int {
	n := max(r.Spines, 1)
	for _, st := range r.Then {
		n += st.Spines
	}
	return n
}

// UpAt is the links spine k (from 0) of the group's spine indices sends
// to the group from each pod of pod run i; 0 when the run has none.
func (r CoreRun) UpAt(k, i int) int {
	if k < max(r.Spines, 1) {
		return r.SpineUp[i]
	}
	k -= max(r.Spines, 1)
	for _, st := range r.Then {
		if k < st.Spines {
			return st.SpineUp[i]
		}
		k -= st.Spines
	}
	return 0
}

// UpFrom is the links one pod of pod run i sends to one group of the
// run: every spine index the group joins.
func (r CoreRun) UpFrom(i int) int {
	n := max(r.Spines, 1) * r.SpineUp[i]
	for _, st := range r.Then {
		n += st.Spines * st.SpineUp[i]
	}
	return n
}

// CoreAt is the core (from 0, of the group's Cores) that takes the
// link at position v (from 0) of a group's dealing (CageDeal): the
// cores are dealt Deal links at a time in turn (DealLinks).
func (r CoreRun) CoreAt(v int) int { return v / max(r.Deal, 1) % r.Cores }

// CoreLoads is the group's cores by the links they take when the group
// has links links in all (DealLinks).
func (r CoreRun) CoreLoads(links int) []Load { return DealLinks(links, r.Cores, r.Deal) }

// NoFitError says a fabric of the given tiers cannot hold the plane.
type NoFitError struct{ Tiers int }

func (e NoFitError) Error() string { return fmt.Sprintf("does not fit in %d tiers", e.Tiers) }

// size builds the fewest-tier fabric that holds spec (or exactly
// spec.Tiers tiers), following DESIGN.md: full scalable units and one
// partial one whose leaves get the uplinks their servers need at the
// asked ratio; every leaf reaches every spine of its group (and every
// pod spine every core of its group) with balanced wiring, or
// near-balanced where balance would cost more than half a tier again;
// spines as oversubscribed as spec.SpineD:SpineU (non-blocking when
// unset) and the leaves as spec.RatioD:RatioU.
func size(spec Spec) (Plane, error) {
	endpoints := spec.Servers * spec.Rails
	if spec.Tiers == 0 || spec.Tiers == 1 {
		if endpoints <= spec.Radix {
			return onePlane(spec, endpoints), nil
		}
		if spec.Tiers == 1 {
			return Plane{}, NoFitError{1}
		}
	}
	spg, lpg, err := LeafGroup(spec)
	if err != nil {
		return Plane{}, err
	}
	leaves := spec.leafLoads(spg, lpg)
	if spec.Tiers == 0 || spec.Tiers == 2 {
		if p, ok := twoTier(spec, leaves); ok {
			p.ServersPerGroup = spg
			p.Layout.LeavesPerUnit, p.Layout.ServersPerUnit = lpg, spg
			p.Headroom = spec.withPartialHeadroom(spg, lpg, p.Headroom)
			return p, nil
		}
		if spec.Tiers == 2 {
			return Plane{}, NoFitError{2}
		}
	}
	if p, ok := threeTier(spec, spg, lpg, leaves); ok {
		p.ServersPerGroup = spg
		p.Layout.LeavesPerUnit, p.Layout.ServersPerUnit = lpg, spg
		p.Headroom = spec.withPartialHeadroom(spg, lpg, p.Headroom)
		return p, nil
	}
	return Plane{}, NoFitError{3}
}

// onePlane is a single switch holding every server port of the plane.
func onePlane(spec Spec, endpoints int) Plane {
	return Plane{
		Tiers: 1, ServerLeaf: endpoints,
		LeafLoads:       []Load{{1, endpoints, 0}},
		ServersPerGroup: spec.Servers,
		Layout:          Layout{Pods: []PodRun{{1, []Load{{1, endpoints, 0}}, 0}}, LeavesPerUnit: 1, ServersPerUnit: spec.Servers},
	}
}

// LeafGroup returns how many servers one full group of leaves serves and
// how many leaves the group has. Rail-optimized: one leaf per rail, each
// serving one port of `down` servers. Top-of-rack: one leaf serving every
// port of down/rails servers.
func LeafGroup(spec Spec) (serversPerGroup, leavesPerGroup int, err error) {
	if spec.RailOptimized {
		return spec.Down, spec.Rails, nil
	}
	if spec.Rails > spec.Down {
		return 0, 0, fmt.Errorf("a leaf has %d server ports but a server has %d ports in each plane: use rail_optimized = true or more planes", spec.Down, spec.Rails)
	}
	return spec.Down / spec.Rails, 1, nil
}

// lpg is the leaves of one full group (scalable unit).
func (spec Spec) lpg() int {
	if spec.RailOptimized {
		return spec.Rails
	}
	return 1
}

// SpinePorts is a three-tier spine's ports toward its pod's leaves and
// toward the cores: half each when non-blocking, else split by the
// spine ratio exactly as LeafPorts splits a leaf.
func (spec Spec) SpinePorts() (down, up int) {
	if spec.SpineD == 0 {
		return SplitPorts(spec.UplinkRadix(), spec.SpineW, 1, 1)
	}
	return SplitPorts(spec.UplinkRadix(), spec.SpineW, spec.SpineD, spec.SpineU)
}

// spineUpFor is the core links a spine taking down links from its leaves
// sends up: as many when non-blocking, else no more oversubscribed than
// the spine ratio.
func (spec Spec) spineUpFor(down int) int {
	if spec.SpineD == 0 {
		return UpLinksFor(down, spec.SpineW, 1, 1)
	}
	return UpLinksFor(down, spec.SpineW, spec.SpineD, spec.SpineU)
}

// UpFor is the uplinks a leaf with down server links needs so that it is
// no more oversubscribed than asked.
func (spec Spec) UpFor(down int) int {
	return UpLinksFor(down, spec.LeafW, spec.RatioD, spec.RatioU)
}

// leafLoads lists leaves by ports used: full groups, then the partial
// one, with the uplinks its servers need (at least one), then the
// storage leaves (no server ports, the uplinks for their storage ports).
func (spec Spec) leafLoads(spg, lpg int) []Load {
	perServer := 1
	if !spec.RailOptimized {
		perServer = spec.Rails
	}
	full := spec.Servers / spg
	rem := spec.Servers - full*spg
	if full == 0 && rem == 0 {
		return nil
	}
	out := make([]Load, 0, 3) // full units, a partial one and storage leaves: one allocation
	if full > 0 {
		out = append(out, Load{full * lpg, spg * perServer, spec.Up})
	}
	if rem > 0 {
		d := rem * perServer
		out = append(out, Load{lpg, d, max(spec.UpFor(spec.reservedFor(rem, spg)*perServer+spec.PartialPorts), 1)})
	}
	if spec.StorageLeaves > 0 {
		out = append(out, Load{spec.StorageLeaves, 0, max(spec.UpFor(spec.StoragePorts), 1)})
	}
	return out
}

// reservedFor is the node slots whose leaf ports a partial unit of rem
// nodes (of spg a full unit) cables: its nodes and the reserved slots
// that fit beside them.
func (spec Spec) reservedFor(rem, spg int) int {
	return min(rem+spec.ReservedSlots, spg)
}

// withPartialHeadroom is hs after what a reference design adds to a
// partial scalable unit: its leaves' empty server ports, and the uplinks
// of a full unit. hs is returned as it is when there is none.
func (spec Spec) withPartialHeadroom(spg, lpg int, hs []Headroom) []Headroom {
	perServer := 1
	if !spec.RailOptimized {
		perServer = spec.Rails
	}
	rem := spec.Servers % spg
	if rem == 0 || spec.Servers < spg && spec.Servers*spec.Rails <= spec.Radix {
		return hs
	}
	held := spec.reservedFor(rem, spg)
	if held == spg {
		return hs // the reserved slots fill the unit
	}
	b := make([]byte, 0, 160)
	b = append(b, PartialUnitPrefix...)
	b = strconv.AppendInt(b, int64(rem), 10)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(spg), 10)
	b = append(b, " servers"...)
	if held > rem {
		b = append(b, " and "...)
		b = strconv.AppendInt(b, int64(held-rem), 10)
		b = append(b, " node slot"...)
		if held-rem > 1 {
			b = append(b, 's')
		}
		b = append(b, " reserved for management hosts"...)
	}
	b = append(b, ": its leaves' empty server ports, for growth"...)
	out := make([]Headroom, 0, 1+len(hs))
	out = append(out, Headroom{Tier: TierLeaf, Ports: lpg * (spg - held) * perServer, Reason: string(b)})
	return append(out, hs...)
}

// upperChoice is how one upper tier serves a set of lower switches.
type upperChoice struct {
	n      int    // upper switches
	lower  []Load // the lower switches with their uplinks as wired
	upper  spread // the upper switches by links taken from below
	wiring string // WiringBalanced or WiringNear
	strict int    // upper switches strict balance would need (0: impossible)
	fewest int    // upper switches that carry the links (near-balanced)
}

// chooseUpper sizes the upper tier over lower switches whose uplink
// needs are lower[i].up, with at most avail uplink ports each and
// capacity ports per upper switch toward them. Only a full lower switch
// (up == full; full 0: none) may take more uplinks than it needs, to
// balance them: a partial leaf keeps the uplinks its servers need at the
// ratio, and a spine never sends up more than it takes from below. A
// switch with fewer uplinks than there are upper switches reaches that
// many, one link each; a full one reaches every upper switch. Strict
// balance is kept when it needs at most maxExtra more upper switches
// than near-balanced wiring. There are at least least upper switches.
func chooseUpper(lower []Load, full, avail, capacity, maxExtra, least int) (upperChoice, bool) {
	near, strict, ok := upperOptionsFrom(lower, full, true, avail, capacity, least)
	if !ok {
		return upperChoice{}, false
	}
	if strict.n > 0 && strict.n-near.n <= maxExtra {
		strict.fewest = near.n
		return strict, true
	}
	return near, true
}

// upperOptions returns the near-balanced sizing of an upper tier and the
// strictly balanced one (n = 0 when none fits); near.strict records the
// strict count. When near is already balanced both are the same.
//
// raise says full switches may take more uplinks than they need (leaves;
// a spine never sends up more than it takes from below).
func upperOptions(lower []Load, full int, raise bool, avail, capacity int) (near, strict upperChoice, ok bool) {
	return upperOptionsFrom(lower, full, raise, avail, capacity, 1)
}

// upperOptionsFrom is upperOptions with at least least upper switches
// (Spec.MinSpines).
func upperOptionsFrom(lower []Load, full int, raise bool, avail, capacity, least int) (near, strict upperChoice, ok bool) {
	total := SumLinks(lower, true)
	n := max(CeilDiv(total, capacity), least, 1)
	if n > avail {
		return upperChoice{}, upperChoice{}, false
	}
	near = upperChoice{n: n, wiring: WiringNear, lower: lower, upper: spreadOf(total, n)}
	if balanced(lower, full, n) {
		near.wiring, near.strict = WiringBalanced, n
		return near, near, true
	}
	// Strict balance: the same number of links from each full lower
	// switch to each upper switch, its uplinks rounded up to a multiple
	// of s; the others keep theirs.
	if !raise {
		strict = strictAsIs(near, lower, full, total, avail, capacity)
		near.strict = strict.n
		return near, strict, true
	}
	raised := make([]Load, 0, len(lower)) // reused: only the count that fits is kept
	hasFull := hasUp(lower, full)
	for s := n; s <= avail; s++ {
		if hasFull && RoundUp(full, s) > avail {
			continue // a full switch's raised uplinks would not fit: the loop below finds the same
		}
		fits := true
		t := 0
		raised = raised[:0]
		for _, l := range lower {
			up := l.Up
			if l.Up == full && raise {
				up = RoundUp(l.Up, s)
			}
			fits = fits && up <= avail
			t += l.Switches * up
			raised = append(raised, Load{l.Switches, l.Down, up})
		}
		if !fits || t > s*capacity || !balanced(raised, full, s) {
			continue
		}
		near.strict = s
		strict = upperChoice{n: s, wiring: WiringBalanced, strict: s, upper: spreadOf(t, s), lower: raised}
		return near, strict, true
	}
	return near, upperChoice{}, true
}

// hasUp reports whether some switch of the loads has up uplinks.
func hasUp(loads []Load, up int) bool {
	for _, l := range loads {
		if l.Up == up {
			return true
		}
	}
	return false
}

// strictAsIs is upperOptions' strict sizing where no lower switch may
// raise its uplinks: the lower switches as they are (shared, not
// copied), on the fewest upper switches from near's count on that
// balance them; n = 0 when none fits.
func strictAsIs(near upperChoice, lower []Load, full, total, avail, capacity int) upperChoice {
	if maxUp(lower) > avail {
		return upperChoice{}
	}
	for s := near.n; s <= avail; s++ {
		if total <= s*capacity && balanced(lower, full, s) {
			return upperChoice{n: s, wiring: WiringBalanced, strict: s, upper: spreadOf(total, s), lower: lower}
		}
	}
	return upperChoice{}
}

// balanced reports whether every lower switch's uplinks split evenly
// over n upper switches: every full one (up == full; with full 0, every
// one) takes a multiple of n or fewer than n links (one to each it
// reaches). Partial leaves (up < full) are not counted: they keep the
// uplinks their servers need, spread as evenly as they go.
func balanced(lower []Load, full, n int) bool {
	for _, l := range lower {
		if full > 0 && l.Up < full {
			continue // a partial leaf keeps what its servers need
		}
		if l.Up >= n && l.Up%n != 0 {
			return false
		}
	}
	return true
}

// SpreadLinks spreads links over n switches as evenly as possible: runs
// of switches taking ceil and floor of links/n.
func SpreadLinks(links, n int) []Load {
	sp := spreadOf(links, n)
	return append(make([]Load, 0, 2), sp.loads()...)
}

// DealLinks is how links spread over n upper switches dealt deal links
// at a time in turn (0 or 1: one at a time, SpreadLinks): runs of
// switches by the links they take, the most loaded first. It is how a
// cabling engineer wires a core group's twin-port cages: the links
// coming up from the spines fill each core's cage, both of its ports,
// before the next core takes any, so every cage but the group's last
// holds a full module. Dealt one at a time, every core of a group of
// odd share (63 links on 64 ports) leaves a cage half used, and which
// cores do changes with every regrouping: the modules of a larger
// cluster could fall (QM9700, 11,128 to 11,136 GPUs: 72 odd cores to
// 16, 24 fewer modules). Dealt by cages, the group's cores take
// ceil(links/deal) modules, at most one of them half used, and a core
// takes at most deal-1 links more than one at a time gives it: where
// deal divides the radix, CeilDiv(links, radix) cores still hold the
// links (deal*ceil(links/(deal*n)) <= radix when links <= n*radix).
func DealLinks(links, n, deal int) []Load {
	deal = max(deal, 1)
	chunks, part := CeilDiv(links, deal), links%deal // the last chunk holds part links (0: a full one)
	q, r := chunks/n, chunks%n
	out := make([]Load, 0, 3)
	add := func(switches, down int) {
		if switches > 0 {
			out = append(out, Load{switches, down, 0})
		}
	}
	switch {
	case part == 0:
		add(r, (q+1)*deal)
		add(n-r, q*deal)
	case r > 0: // the last chunk, part full, goes to core r-1, the last of those taking q+1
		add(r-1, (q+1)*deal)
		add(1, q*deal+part)
		add(n-r, q*deal)
	default: // to core n-1, one of q chunks
		add(n-1, q*deal)
		add(1, (q-1)*deal+part)
	}
	return out
}

// spread is SpreadLinks' runs held in place: sizing a tier tries several
// counts of upper switches, and a slice each was six allocations a
// point of a sweep.
type spread struct {
	runs [2]Load
	n    int
}

// spreadOf is SpreadLinks(links, n) as a spread.
func spreadOf(links, n int) spread {
	var sp spread
	hi, lo := links%n, n-links%n
	if hi > 0 {
		sp.runs[sp.n] = Load{hi, links/n + 1, 0}
		sp.n++
	}
	if lo > 0 {
		sp.runs[sp.n] = Load{lo, links / n, 0}
		sp.n++
	}
	return sp
}

// loads is the runs, the most loaded first.
func (sp *spread) loads() []Load { return sp.runs[:sp.n] }

// SumLinks is the links the loads cable up (up) or down (!up).
func SumLinks(loads []Load, up bool) int {
	t := 0
	for _, l := range loads {
		if up {
			t += l.Switches * l.Up
		} else {
			t += l.Switches * l.Down
		}
	}
	return t
}

// CountSwitches is the switches of the loads.
func CountSwitches(loads []Load) int {
	n := 0
	for _, l := range loads {
		n += l.Switches
	}
	return n
}

// appendStrictHeadroom appends to hs the switches strict balance would
// add to a tier that uses near-balanced wiring.
func appendStrictHeadroom(hs []Headroom, tier string, c upperChoice, groups int) []Headroom {
	if c.wiring != WiringNear || c.strict == 0 {
		return hs
	}
	b := make([]byte, 0, 128)
	b = append(b, "strictly balanced wiring (as NVIDIA's reference designs) needs "...)
	b = strconv.AppendInt(b, int64(c.strict), 10)
	b = append(b, ' ')
	b = append(b, tier...)
	b = append(b, " switches per group where "...)
	b = strconv.AppendInt(b, int64(c.n), 10)
	b = append(b, " carry the links"...)
	return append(hs, Headroom{Tier: tier, Switches: groups * (c.strict - c.n), Reason: string(b)})
}

// unitUppers is how many upper switches one scalable unit's uplinks need:
// what strict balance may add to a tier.
func unitUppers(lpg, up, capacity int) int { return max(CeilDiv(lpg*up, capacity), 1) }

// strictAdded is the spines strict balance adds to groups alike spine
// tiers c over the fewest that carry the links where only the
// reference's rule (StrictSpines) keeps it: more than the unit's worth
// (unitUppers of lpg leaves) the usual bound allows; 0 elsewhere.
func (spec Spec) strictAdded(c upperChoice, groups, lpg, capacity int) int {
	extra := c.n - c.fewest
	if !spec.StrictSpines || c.fewest == 0 || extra <= unitUppers(lpg, spec.Up, capacity) {
		return 0
	}
	return groups * extra
}

// spineExtra is how many spines strict balance may add over the fewest
// that carry the links: unbounded where the reference design keeps it
// (StrictSpines), else one unit's worth (unitUppers of lpg leaves).
func (spec Spec) spineExtra(lpg, capacity int) int {
	if spec.StrictSpines {
		return math.MaxInt
	}
	return unitUppers(lpg, spec.Up, capacity)
}

func twoTier(spec Spec, leaves []Load) (Plane, bool) {
	c, ok := chooseUpper(leaves, spec.Up, spec.Up, spec.UplinkRadix(), spec.spineExtra(spec.unitLeaves(), spec.UplinkRadix()), spec.MinSpines)
	if !ok {
		return Plane{}, false
	}
	spines := slices.Clone(c.upper.loads())
	return Plane{
		Tiers:      2,
		ServerLeaf: spec.Servers * spec.Rails,
		LeafSpine:  SumLinks(c.lower, true),
		LeafLoads:  c.lower,
		SpineLoads: spines,
		Pods:       1, SpinesPerPod: c.n,
		SpineWiring: c.wiring,
		Headroom:    appendStrictHeadroom(nil, TierSpine, c, 1),
		StrictAdded: spec.strictAdded(c, 1, spec.unitLeaves(), spec.UplinkRadix()),
		Layout:      Layout{Pods: []PodRun{{1, c.lower, c.n}}},
	}, true
}

// podLeaves is the leaves of one three-tier pod whose spines have
// spineDown ports toward it, of a fabric of lpg leaves a unit.
func (spec Spec) podLeaves(lpg, spineDown int) int {
	switch {
	case spec.PodLeaves > 0 && spec.PodLeaves <= spineDown && (spec.PodLeaves%lpg == 0 || !spec.RailPods):
		return spec.PodLeaves // the reference layout's pod, or the scenario's whole leaves
	case lpg <= spineDown:
		return spineDown / lpg * lpg // whole scalable units per pod
	default:
		return largestDivisorAtMost(lpg, spineDown) // a pod takes a subset of the rails
	}
}

// threeTier groups leaves into pods of whole scalable units, each with its
// own non-blocking spines, and joins spine j of every pod to core group j.
// The last pod may be partial; it gets the spines its leaves need. all
// is the plane's leaves (leafLoads), read and never written.
func threeTier(spec Spec, spg, lpg int, all []Load) (Plane, bool) {
	spineDown, spineUp := spec.SpinePorts() // a spine's ports toward its pod and toward the cores
	leavesPerPod := spec.podLeaves(lpg, spineDown)
	byRail := spec.RailPods && leavesPerPod == spec.PodLeaves && lpg > 1
	var pods []leafPod
	if byRail {
		pods = railPodsOf(all, lpg, leavesPerPod)
	} else {
		pods = consecutivePods(all, leavesPerPod)
	}
	leafLoads := make([]Load, 0, 2*len(pods))  // a pod's leaves: full and partial ones, at most
	spineLoads := make([]Load, 0, 2*len(pods)) // and its spines: SpreadLinks gives at most two runs
	var spineWiring string
	var headroom []Headroom
	strictAdded := 0
	// Each kind of pod, how many of it, and how its spines are sized.
	type podSpines struct {
		count int
		c     upperChoice
	}
	var psBuf [3]podSpines // full pods, a partial one: on the stack
	ps := psBuf[:0]
	for _, p := range pods {
		c, ok := chooseUpper(p.leaves, spec.Up, spec.Up, spineDown, spec.spineExtra(min(spec.unitLeaves(), leavesPerPod), spineDown), spec.MinSpines)
		if !ok {
			return Plane{}, false
		}
		ps = append(ps, podSpines{p.count, c})
		spineLoads = spec.appendSpines(spineLoads, p.count, c)
		for _, l := range c.lower {
			leafLoads = append(leafLoads, Load{l.Switches * p.count, l.Down, l.Up})
		}
		if spineWiring != WiringNear {
			spineWiring = c.wiring
		}
		headroom = appendStrictHeadroom(headroom, TierSpine, c, p.count)
		strictAdded += spec.strictAdded(c, p.count, min(spec.unitLeaves(), leavesPerPod), spineDown)
	}
	// Core group j takes the uplinks of spine j of every pod; spines send
	// up as many links as they take from below (non-blocking).
	maxSpines := 0
	for _, p := range ps {
		maxSpines = max(maxSpines, p.c.n)
	}
	coreWiring := ""
	spineCore := 0
	// Core groups see only a few kinds of spines (a full pod's, a partial
	// pod's): count the groups of each kind, then size each kind once.
	// Spine j's links change only where a pod's runs of spines end, so
	// each stretch of alike indices is looked at once, not index by index
	// (a pod has up to half a radix of spines: 128 on a 256-port switch;
	// index by index was 14% of a 1,000-point sweep's instructions).
	// A kind's spines and pods are kept in two shared buffers (slices
	// of them stay valid when a buffer grows), spine j's at their ends.
	// A pod's spines come in at most two runs (SpreadLinks), so there are
	// at most two kinds a pod, each holding at most every pod.
	kinds := make([]groupKind, 0, 2*len(ps))
	lowers, ins := make([]Load, 0, 2*len(ps)*len(ps)), make([]int, 0, 2*len(ps)*len(ps))
	for j := 0; j < maxSpines; {
		at := len(lowers)
		next := maxSpines // the first index past j where a pod's spines change
		for i, p := range ps {
			if j < p.c.n {
				d, end := spineRunAt(p.c.upper.loads(), j)
				lowers = append(lowers, Load{p.count, d, spec.spineUpFor(d)})
				ins = append(ins, i)
				next = min(next, end)
			}
		}
		m := next - j
		j = next
		lower, in := lowers[at:len(lowers):len(lowers)], ins[at:len(ins):len(ins)]
		if n := len(kinds); n > 0 && sameUplinks(kinds[n-1].lower, lower) && slices.Equal(kinds[n-1].present, in) {
			kinds[n-1].groups += m // spines of one kind are consecutive: runs of SpreadLinks
			lowers, ins = lowers[:at], ins[:at]
			continue
		}
		kinds = append(kinds, groupKind{lower: lower, present: in, groups: m})
	}
	var lay Layout
	if byRail {
		lay.RailPods = leavesPerPod
	}
	lay.Pods = make([]PodRun, 0, len(ps))
	for _, p := range ps {
		lay.Pods = append(lay.Pods, PodRun{p.count, p.c.lower, p.c.n})
	}
	sized, extra, ok := sizeCores(kinds, spec, spineUp)
	if !ok {
		return Plane{}, false
	}
	lay.CoreGroups = make([]CoreRun, 0, len(sized))
	deal := spec.coreDeal()
	spineUps := make([]int, len(sized)*len(ps)) // every run's SpineUp, in one allocation
	coreLoads := make([]Load, 0, 2*len(sized))  // SpreadLinks gives at most two runs
	for gi, g := range sized {
		k, c, m := g.kind, g.c, g.groups
		run := CoreRun{Groups: m, Cores: c.n, Spines: g.spines, SpineUp: spineUps[gi*len(ps) : (gi+1)*len(ps) : (gi+1)*len(ps)], Deal: groupDeal(g, deal)}
		li := 0 // c.lower lists each part's spines in turn, a kind's pods in order
		for _, i := range k.present {
			run.SpineUp[i] = c.lower[li].Up
			li++
		}
		for _, part := range g.more {
			st := CoreStretch{Spines: part.spines, SpineUp: make([]int, len(ps))}
			for _, i := range part.kind.present {
				st.SpineUp[i] = c.lower[li].Up
				li++
			}
			run.Then = append(run.Then, st)
		}
		lay.CoreGroups = append(lay.CoreGroups, run)
		links := SumLinks(c.lower, true)
		for _, u := range run.CoreLoads(links) {
			coreLoads = append(coreLoads, Load{u.Switches * m, u.Down, u.Up})
		}
		spineCore += m * links
		if coreWiring != WiringNear {
			coreWiring = dealtWiring(c, run.Deal)
		}
	}
	if extra > 0 {
		b := make([]byte, 0, 192)
		b = append(b, "strictly balanced wiring (as NVIDIA's reference designs: spine j of every pod to its own core group) needs "...)
		b = append(b, groupDigits(extra)...)
		b = append(b, " more cores than near-balanced groups"...)
		headroom = append(headroom, Headroom{Tier: TierCore, Switches: extra, Reason: string(b)})
	}
	countPods := 0
	for _, p := range pods {
		countPods += p.count
	}
	return Plane{
		Tiers:      3,
		ServerLeaf: spec.Servers * spec.Rails,
		LeafSpine:  SumLinks(leafLoads, true),
		SpineCore:  spineCore,
		LeafLoads:  leafLoads, SpineLoads: mergeLoads(spineLoads), CoreLoads: mergeLoads(coreLoads),
		Pods: countPods, SpinesPerPod: ps[0].c.n,
		SpineWiring: spineWiring, CoreWiring: coreWiring,
		Headroom: mergeHeadroom(headroom), StrictAdded: strictAdded,
		Layout: lay,
	}, true
}

// coreDeal is the links a core group deals its cores at a time: a
// core's cage's links (CoreCage) where they divide its ports at the
// core speed, so that a core dealt whole cages stays within its ports;
// else one.
func (spec Spec) coreDeal() int {
	if c := spec.CoreCage; c > 1 && spec.CoreRadix()%c == 0 {
		return c
	}
	return 1
}

// groupDeal is the links a core group g deals its cores at a time: one
// where g is strictly balanced (as NVIDIA's reference designs: every
// core takes the same links from each spine, whatever its cages), else
// deal (DealLinks).
func groupDeal(g sizedGroups, deal int) int {
	if g.strict {
		return 1
	}
	return deal
}

// dealtWiring is the wiring of a core group sized as c whose links are
// dealt deal at a time: c's, unless dealing by cages leaves a spine's
// counts to its cores apart (its uplinks not whole rounds of deal links
// to each core), which is near-balanced.
func dealtWiring(c upperChoice, deal int) string {
	if deal <= 1 || c.n == 1 { // one core takes every link: nothing to balance
		return c.wiring
	}
	for _, l := range c.lower {
		if l.Up%(deal*c.n) != 0 {
			return WiringNear
		}
	}
	return c.wiring
}

// appendSpines appends to loads the spines of count alike pods whose
// spine tier is c: each run of them with the links it takes from the
// leaves and sends up (the core tier never changes a spine's uplinks).
func (spec Spec) appendSpines(loads []Load, count int, c upperChoice) []Load {
	for _, u := range c.upper.loads() {
		loads = append(loads, Load{u.Switches * count, u.Down, spec.spineUpFor(u.Down)})
	}
	return loads
}

// leafPod is count identical pods holding leaves.
type leafPod struct {
	count  int
	leaves []Load
}

// addPod appends a pod, joining it to the run before when alike.
func addPod(pods []leafPod, leaves []Load, count int) []leafPod {
	if n := len(pods); n > 0 && sameLoads(pods[n-1].leaves, leaves) {
		pods[n-1].count += count
		return pods
	}
	return append(pods, leafPod{count, leaves})
}

// consecutivePods cuts the leaves, in order, into pods of per leaves;
// identical pods (all but the last, usually) are sized once.
func consecutivePods(all []Load, per int) []leafPod { return chunkPods(all, per, 1) }

// railPodsOf makes pods by rail: every per units (leaf groups of lpg
// leaves, one per rail) give lpg pods, pod r holding rail r's leaf of
// each of those units. all lists leaves unit by unit (full units, then
// a partial one), so a unit's leaves are alike.
func railPodsOf(all []Load, lpg, per int) []leafPod {
	units := make([]Load, 0, len(all)) // one entry per run of alike units, a leaf each
	for _, r := range all {
		units = append(units, Load{r.Switches / lpg, r.Down, r.Up})
	}
	return chunkPods(units, per, lpg)
}

// chunkPods cuts runs of alike leaves, in order, into pods of per
// leaves, each pod counted times (a pod of units counts once per rail).
//
// The pods' leaves are cut from one buffer, each pod's capped at its
// end: leaves joined to the pod before are taken back, and a pod's stay
// valid when the buffer grows. The pods and each new pod's leaves grew
// from nil by appends instead (with leafLoads in threeTier, about five
// allocations more a three-tier sizing).
func chunkPods(runs []Load, per, times int) []leafPod {
	pods := make([]leafPod, 0, 2)       // full pods, then a partial one
	buf := make([]Load, 0, len(runs)+2) // every run once, and a run cut by a pod's end
	at, curN := 0, 0                    // where the current pod's leaves start; its leaves
	for _, r := range runs {
		for n := r.Switches; n > 0; {
			take := min(n, per-curN)
			buf = append(buf, Load{take, r.Down, r.Up})
			curN += take
			n -= take
			if curN == per {
				n := len(pods)
				if pods, curN = addPod(pods, buf[at:len(buf):len(buf)], times), 0; len(pods) == n {
					buf = buf[:at] // joined to the pod before: its leaves are free again (a pod each cost a sweep 2%)
				} else {
					at = len(buf) // held by the new pod
				}
			}
		}
	}
	if curN > 0 {
		pods = addPod(pods, buf[at:len(buf):len(buf)], times)
	}
	return pods
}

// sameLoads reports whether two pods hold the same leaves.
func sameLoads(a, b []Load) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sameUplinks reports whether two lists of spines send the same uplinks:
// what sizing a core group sees of them (the links a spine takes from
// below do not matter to the cores).
func sameUplinks(a, b []Load) bool {
	return slices.EqualFunc(a, b, func(x, y Load) bool { return x.Switches == y.Switches && x.Up == y.Up })
}

// SpineDownAt is the links the j-th upper switch of spread runs takes.
func SpineDownAt(runs []Load, j int) int {
	for _, r := range runs {
		if j < r.Switches {
			return r.Down
		}
		j -= r.Switches
	}
	return 0
}

// spineRunAt is SpineDownAt with the index just past the run of upper
// switches j belongs to (every switch of that run takes the same links).
func spineRunAt(runs []Load, j int) (down, end int) {
	start := 0
	for _, r := range runs {
		if j < start+r.Switches {
			return r.Down, start + r.Switches
		}
		start += r.Switches
	}
	return 0, j + 1
}

// mergeLoads joins runs with the same ports in use. It merges in place:
// loads is the caller's own (threeTier's spines by pod and core loads,
// each made for it), and a run is written at or before the place it is
// read from, after it is read. A copy cost a three-tier sizing two
// allocations.
func mergeLoads(loads []Load) []Load {
	if len(loads) == 0 {
		return nil
	}
	out := loads[:0]
	for _, l := range loads {
		merged := false
		for i := range out {
			if out[i].Down == l.Down && out[i].Up == l.Up {
				out[i].Switches += l.Switches
				merged = true
				break
			}
		}
		if !merged && l.Switches > 0 {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil // as before: no switches, no runs
	}
	return out
}

// mergeHeadroom adds up headroom lines of the same tier and reason kind.
// It merges in place: hs is the caller's own.
func mergeHeadroom(hs []Headroom) []Headroom {
	out := hs[:0]
	for _, h := range hs {
		if n := len(out); n > 0 && out[n-1].Tier == h.Tier {
			out[n-1].Switches += h.Switches
			out[n-1].Ports += h.Ports
			continue
		}
		out = append(out, h)
	}
	return out
}

// largestDivisorAtMost returns the largest divisor of n that is <= max (>= 1).
func largestDivisorAtMost(n, max int) int {
	for d := max; d > 1; d-- {
		if n%d == 0 {
			return d
		}
	}
	return 1
}

// CeilDiv is a/b rounded up, for a >= 0 and b > 0.
func CeilDiv(a, b int) int { return (a + b - 1) / b }

// RoundUp is a rounded up to a multiple of m > 0.
func RoundUp(a, m int) int { return CeilDiv(a, m) * m }

// LeafPorts splits a leaf's radix by the oversubscription down:up exactly:
// the largest k with k·(D+U) <= radix gives k·D down and k·U up ports, so
// the ratio built is the ratio asked; ports left over stay idle. k = 0
// means the ratio does not fit the switch.
func LeafPorts(radix, down, up int) (d, u int) {
	k := radix / (down + up)
	return k * down, k * up
}

// groupKind is the spines a core group joins: spine j of each pod that
// has one; groups is how many consecutive spine indices look alike.
type groupKind struct {
	lower   []Load // spine j of each pod that has one (the first index's down links: cores see only the uplinks)
	present []int  // those pods (indexes of the pod kinds)
	groups  int
	nearM   int // spine indices per core group with near-balanced wiring (mergedCount)
	links   int // the uplinks of one spine index: SumLinks(lower, true)
}

// groupPart is spines consecutive spine indices of one kind that a core
// group joins.
type groupPart struct {
	kind   *groupKind
	spines int
}

// sizedGroups is a run of core groups as sized: groups of them, each
// joining spines spine indices of a kind and then the parts of more (a
// group across kinds; nil otherwise).
type sizedGroups struct {
	kind           *groupKind
	groups, spines int
	c              upperChoice
	more           []groupPart
	// strict: spine j of every pod to its own group, each spine's
	// uplinks split evenly over the group's cores (reference designs),
	// whose links go to the cores one at a time (groupDeal).
	strict bool
}

// sizeCores sizes the core tier over the spine kinds (in spine index
// order) by cost: the fewest cores that carry the links, strictly
// balanced (spine j of every pod to its own group, the same links from
// each spine to each core, as NVIDIA's reference designs; avail is a
// spine's ports toward the cores) when that costs no more, else
// near-balanced. Near-balanced groups join consecutive spine indices:
// within each kind (mergedGroups), or, where that rounds each kind's
// cores up on its own past the fewest the links need, across kinds:
// blocks of kinds cut into groups of one length each (joinKinds), or
// where those still round up, groups each as long as suits it
// (cutIndices). extra is the cores strict balance would add.
//
// The links do not depend on the grouping (a spine sends up what it
// takes from below), so the fewest cores is the cheapest core tier. A
// core tier kept strict for up to a unit's worth of cores more fell by
// as much where one more server tipped it past that (DGX H100 on
// QM9700, 2,304 to 2,312 GPUs: 40 cores to 37).
func sizeCores(kinds []groupKind, spec Spec, avail int) (sized []sizedGroups, extra int, ok bool) {
	radix := spec.CoreRadix()
	strict := make([]sizedGroups, 0, len(kinds))
	strictN, nearN, links := 0, 0, 0
	for i := range kinds {
		k := &kinds[i]
		n, s, ok := upperOptions(k.lower, maxUp(k.lower), false, avail, radix)
		if !ok {
			return nil, 0, false
		}
		if s.n == 0 {
			s = n
		}
		strict = append(strict, sizedGroups{k, k.groups, 1, s, nil, s.wiring == WiringBalanced})
		strictN += k.groups * s.n
		k.links = SumLinks(k.lower, true)
		links += k.groups * k.links
		m, cores := fewestCores(k.groups, k.links, radix, spec.coreDeal())
		if m == 0 {
			return nil, 0, false
		}
		k.nearM = m
		nearN += cores
	}
	var blocks []kindBlock
	var cuts []int
	floor := max(CeilDiv(links, radix), 1)
	if nearN > floor {
		if bs, n := joinKinds(kinds, radix); n < nearN {
			blocks, nearN = bs, n
		}
	}
	if nearN > floor {
		if cs, n := cutIndices(kinds, radix); n < nearN {
			blocks, cuts, nearN = nil, cs, n
		}
	}
	if strictN <= nearN {
		return strict, 0, true
	}
	// Near-balanced groups are sized only when used.
	near := make([]sizedGroups, 0, 2*len(kinds))
	if cuts != nil {
		return cutGroups(near, kinds, cuts, radix), strictN - nearN, true
	}
	for _, b := range blocks {
		near = jointGroups(near, kinds[b.from:b.to], b.m, radix)
	}
	if blocks != nil {
		return near, strictN - nearN, true
	}
	for i := range kinds {
		near = mergedGroups(near, &kinds[i], radix)
	}
	return near, strictN - nearN, true
}

// kindBlock is consecutive kinds, from up to to, whose spine indices
// core groups of m join across kinds (acrossKinds).
type kindBlock struct{ from, to, m int }

// joinKinds cuts the kinds, in order, into blocks whose groups join
// across kinds, for the fewest cores in all (the first cut found on
// ties), and returns the blocks with those cores. One m over every
// kind suits neither a kind whose spine indices pair up well nor one
// that wants them in fives: 13,584 DGX H100 GPUs on QM9700 have two
// kinds of 8 indices of 434 and 433 links, best in groups of five,
// and 16 of 416, best in pairs; fives across the first two and pairs
// in the third make 213 cores, the fewest that carry the links, where
// each kind alone made 214 and one m for all more.
func joinKinds(kinds []groupKind, radix int) ([]kindBlock, int) {
	const none = -1
	n := len(kinds)
	best := make([]int, n+1) // the fewest cores of kinds[:i]
	from := make([]int, n+1) // where the last block of that best starts
	ms := make([]int, n+1)   // and its m
	for i := 1; i <= n; i++ {
		best[i] = none
		for a := range i {
			if best[a] == none {
				continue
			}
			m, c := acrossKinds(kinds[a:i], radix)
			if m > 0 && (best[i] == none || best[a]+c < best[i]) {
				best[i], from[i], ms[i] = best[a]+c, a, m
			}
		}
	}
	if best[n] == none {
		return nil, math.MaxInt
	}
	var out []kindBlock
	for i := n; i > 0; i = from[i] {
		out = append(out, kindBlock{from[i], i, ms[i]})
	}
	slices.Reverse(out)
	return out, best[n]
}

// fewestCores is how many consecutive spine indices of a kind (groups
// of them, links each) a core group joins for the fewest cores, and
// those cores: what mergedGroups sizes. m = 0 when no group fits. On
// ties it keeps the m whose groups leave the fewest cages half used (a
// group of an odd count of links, dealt deal links a cage: DealLinks),
// then the smallest: the same cores with fewer modules. 228,448 GPUs of
// 100G-lane Tomahawk 6 (400G, rail) have 96 spine indices of 1,785
// links, 7 cores each alone or 14 a pair; alone, each group left a cage
// half used, 48 modules more than pairs, which 8 GPUs more then saved.
//
// No count of groups needs fewer cores than all the links over the radix
// (nor fewer than one), nor leaves fewer cages half used than none (one
// where all the links are odd), so the search stops at the first m that
// reaches both: no later m could do better, and ties keep the smallest.
// A spine index's links of half a radix reach it at m = 2, where every m
// up to the 128 spines of a pod was tried.
func fewestCores(groups, links, radix, deal int) (bestM, bestN int) {
	deal = max(deal, 1)
	cores := func(m int) int { return max(CeilDiv(m*links, radix), 1) }
	half := func(m int) int { return min(m*links%deal, 1) }
	floor := max(CeilDiv(groups*links, radix), 1)
	least := half(groups) // every link in one group
	bestHalf := 0
	for m := 1; m <= groups && cores(m) <= radix; m++ {
		total, halves := groups/m*cores(m), groups/m*half(m)
		if r := groups % m; r > 0 {
			total += cores(r)
			halves += half(r)
		}
		if bestM == 0 || total < bestN || total == bestN && halves < bestHalf {
			bestM, bestN, bestHalf = m, total, halves
		}
		if bestN == floor && bestHalf == least {
			break
		}
	}
	return bestM, bestN
}

// acrossKinds is fewestCores over every kind's spine indices in order:
// the m for core groups of m consecutive indices whatever their kind
// (the last group taking what is left), with the cores they make; m = 0
// when no group fits. Kinds rounded up each on their own take up to one
// core a kind more than the links need, and that excess comes and goes
// as a partial pod's spines change: 2,328 to 2,336 GPUs on QM9700
// (8-GPU servers) took 38 cores, then 37.
func acrossKinds(kinds []groupKind, radix int) (bestM, bestN int) {
	indices, links := 0, 0
	for _, k := range kinds {
		indices += k.groups
		links += k.groups * k.links
	}
	floor := max(CeilDiv(links, radix), 1)
	for m := 1; m <= indices; m++ {
		total := 0
		fits := eachGroup(kinds, m, func(groups int, _ []groupPart, links int) bool {
			n := max(CeilDiv(links, radix), 1)
			total += groups * n
			return n <= radix
		})
		if !fits {
			break // larger groups take more links still
		}
		if bestM == 0 || total < bestN {
			bestM, bestN = m, total
		}
		if bestN == floor {
			break
		}
	}
	return bestM, bestN
}

// cutIndices is the fewest cores of core groups of consecutive spine
// indices, each group as long as suits it, for where joinKinds' blocks
// (one group length each) still round up past the fewest the links
// need. 18,000 GPUs on QM9700 in two planes: a plane's 8 spine indices
// of 282 links and 24 of 281 carry 9,000 links, 141 cores at least;
// seven of 282, then one of 282 with four of 281, then fives of 281
// make 141, where one length for all makes 142. It returns where each
// group ends, in order, and the cores (math.MaxInt when no cut fits).
// A group's cores fit in the radix, so each end looks back over at
// most radix² links' worth of indices (14 of 282 links on 64 ports).
func cutIndices(kinds []groupKind, radix int) ([]int, int) {
	at := make([]int, 1, 64) // at[i]: links of the spine indices before index i
	for _, k := range kinds {
		for range k.groups {
			at = append(at, at[len(at)-1]+k.links)
		}
	}
	n := len(at) - 1
	best := make([]int, n+1) // the fewest cores of indices [0, e)
	from := make([]int, n+1) // where the last group of that best starts
	for e := 1; e <= n; e++ {
		best[e] = math.MaxInt
		for st := e - 1; st >= 0; st-- {
			c := max(CeilDiv(at[e]-at[st], radix), 1)
			if c > radix {
				break // a longer group takes more links still
			}
			if best[st] != math.MaxInt && best[st]+c < best[e] {
				best[e], from[e] = best[st]+c, st
			}
		}
	}
	if best[n] == math.MaxInt {
		return nil, math.MaxInt
	}
	var ends []int
	for e := n; e > 0; e = from[e] {
		ends = append(ends, e)
	}
	slices.Reverse(ends)
	return ends, best[n]
}

// cutGroups appends to runs the near-balanced core groups that end at
// ends (cutIndices' cuts), alike groups in a row joined into one run.
func cutGroups(runs []sizedGroups, kinds []groupKind, ends []int, radix int) []sizedGroups {
	var buf [8]groupPart
	ki, off, st := 0, 0, 0 // the kind and its index where the next group starts
	for _, e := range ends {
		parts := buf[:0]
		for need := e - st; need > 0; {
			k := &kinds[ki]
			take := min(need, k.groups-off)
			parts = append(parts, groupPart{k, take})
			need -= take
			if off += take; off == k.groups {
				ki, off = ki+1, 0
			}
		}
		st = e
		if n := len(runs); n > 0 && sameParts(runs[n-1], parts) {
			runs[n-1].groups++
			continue
		}
		runs = append(runs, sizeGroup(parts, 1, radix))
	}
	return runs
}

// sameParts reports whether a group of run g joins the same spine
// indices of the same kinds as parts.
func sameParts(g sizedGroups, parts []groupPart) bool {
	if g.kind != parts[0].kind || g.spines != parts[0].spines || len(g.more) != len(parts)-1 {
		return false
	}
	return slices.Equal(g.more, parts[1:])
}

// sizeGroup is groups core groups each joining parts, near-balanced.
func sizeGroup(parts []groupPart, groups, radix int) sizedGroups {
	var lower []Load
	for _, p := range parts {
		for _, l := range p.kind.lower {
			lower = append(lower, Load{l.Switches * p.spines, l.Down, l.Up})
		}
	}
	c, _, _ := upperOptions(lower, maxUp(lower), false, radix, radix)
	g := sizedGroups{parts[0].kind, groups, parts[0].spines, c, nil, false}
	if len(parts) > 1 {
		g.more = slices.Clone(parts[1:])
	}
	return g
}

// eachGroup cuts the spine indices of kinds, in order, into groups of m
// (the last taking what is left) and calls fn with each run of alike
// groups: how many, the parts of each (valid during the call), and one
// group's links. It returns false as soon as fn does.
func eachGroup(kinds []groupKind, m int, fn func(groups int, parts []groupPart, links int) bool) bool {
	var buf [8]groupPart // a group across kinds: a few kinds a plane
	ki, off := 0, 0      // the kind and its index where the next group starts
	next := func(take int) {
		if off += take; off == kinds[ki].groups {
			ki, off = ki+1, 0
		}
	}
	for ki < len(kinds) {
		k := &kinds[ki]
		if q := (k.groups - off) / m; q > 0 {
			buf[0] = groupPart{k, m}
			if !fn(q, buf[:1], m*k.links) {
				return false
			}
			next(q * m)
			continue
		}
		parts, links := buf[:0], 0
		for need := m; need > 0 && ki < len(kinds); {
			k := &kinds[ki]
			take := min(need, k.groups-off)
			parts = append(parts, groupPart{k, take})
			links += take * k.links
			need -= take
			next(take)
		}
		if !fn(1, parts, links) {
			return false
		}
	}
	return true
}

// jointGroups appends to runs the core groups of m consecutive spine
// indices across kinds (acrossKinds' m), near-balanced.
func jointGroups(runs []sizedGroups, kinds []groupKind, m, radix int) []sizedGroups {
	eachGroup(kinds, m, func(groups int, parts []groupPart, _ int) bool {
		runs = append(runs, sizeGroup(parts, groups, radix))
		return true
	})
	return runs
}

// mergedGroups appends to runs the core groups of kind k joining k.nearM
// (fewestCores' m, at least 1) consecutive spine indices each, with
// near-balanced wiring. Where a group has more cores than a spine has
// uplinks, each spine reaches as many cores as it has uplinks, one link
// each, spread so that every pod reaches every core. Sizing cannot fail
// there: a group of m spine indices, or of fewer, fits its cores in the
// radix (fewestCores counted them so).
func mergedGroups(runs []sizedGroups, k *groupKind, radix int) []sizedGroups {
	top, bestM := maxUp(k.lower), k.nearM
	size := func(m int) upperChoice {
		lower := make([]Load, len(k.lower))
		for i, l := range k.lower {
			lower[i] = Load{l.Switches * m, l.Down, l.Up}
		}
		c, _, _ := upperOptions(lower, top, false, radix, radix)
		return c
	}
	runs = append(runs, sizedGroups{k, k.groups / bestM, bestM, size(bestM), nil, false})
	if r := k.groups % bestM; r > 0 {
		runs = append(runs, sizedGroups{k, 1, r, size(r), nil, false})
	}
	return runs
}

// unitLeaves is the leaves of one scalable unit as the balance rule
// counts it: a unit's leaves, and never fewer than refUnitLeaves, so
// that the same fabric (ports, radix, unit in servers) gets the same
// wiring whatever system fills it.
func (spec Spec) unitLeaves() int { return max(spec.lpg(), refUnitLeaves) }

// refUnitLeaves is the leaves per plane of every NVIDIA SuperPOD scalable
// unit we hold (DGX H100/B200: 32 nodes x 8 rails on 8 leaves; DGX B300
// XDR: 72 x 8 on 8; GB300 NVL72: 8 racks x 72 ports on 8 Q3400 leaves).
const refUnitLeaves = 8

// maxUp is the most uplinks any of the switches has.
func maxUp(loads []Load) int {
	m := 0
	for _, l := range loads {
		m = max(m, l.Up)
	}
	return m
}

// PartialLeafNote says what the partial unit's leaves were given: the
// uplinks their servers need at the ratio, not a full leaf's.
func PartialLeafNote(pl Plane, fullUp int, ratio string) []string {
	if pl.Tiers < 2 {
		return nil
	}
	for _, l := range pl.LeafLoads {
		if l.Up < fullUp && l.Down > 0 { // storage leaves (Down 0) are said with the storage
			b := make([]byte, 0, 192)
			b = append(b, "the partial scalable unit's leaves have "...)
			b = strconv.AppendInt(b, int64(l.Down), 10)
			b = append(b, " server ports and the "...)
			b = strconv.AppendInt(b, int64(l.Up), 10)
			b = append(b, " uplinks they need at "...)
			b = append(b, ratio...)
			if per := pl.SpinesPerPod; l.Up < per {
				b = append(b, ", one link to each of "...)
				b = strconv.AppendInt(b, int64(l.Up), 10)
				b = append(b, " of the "...)
				b = strconv.AppendInt(b, int64(per), 10)
				b = append(b, " spines"...)
			}
			b = append(b, " (a full leaf has "...)
			b = strconv.AppendInt(b, int64(fullUp), 10)
			b = append(b, ')')
			return []string{string(b)}
		}
	}
	return nil
}
