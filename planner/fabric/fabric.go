package fabric

import (
	"fmt"
	"slices"
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
	// PodLeaves is the leaves of a three-tier pod in the system's
	// reference layout (0: as many whole units as half a spine's ports
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

// Strict balance may add at most one scalable unit's worth of switches
// to an upper tier (the switches one more unit's uplinks would need);
// past that, near-balanced wiring is used and the difference is reported
// as headroom. NVIDIA's reference designs add just that much: DGX H100
// SuperPOD, 3 SU: 16 spines where 12 carry the links (one SU's 4 more);
// DGX B300 XDR, 4 SU: 18 where 16 do. The bound keeps growth smooth: one
// more server never adds more than a unit of switches to a tier.

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
	Layout               Layout // pod by pod, for the cable map and diagram
}

// Layout is how a plane's switches are wired, compactly: runs of
// identical pods (one pod below three tiers) and, with three tiers, runs
// of identical core groups. Link k of a lower switch goes to upper
// switch (b + k) mod n of its group, b being the links of the lower
// switches before it mod n: that spreads links as SpreadLinks counts
// them and reaches every upper switch from every lower one.
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
// where that rounds cores up per group past one unit's worth, groups
// join several spine indices so that the cores carry their links.
type CoreRun struct {
	Groups, Cores int
	Spines        int   // spine indices a group joins (j, j+1, ...), at least 1
	SpineUp       []int // per pod run, from each spine
}

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
			p.Headroom = append(spec.partialHeadroom(spg, lpg), p.Headroom...)
			return p, nil
		}
		if spec.Tiers == 2 {
			return Plane{}, NoFitError{2}
		}
	}
	if p, ok := threeTier(spec, spg, lpg); ok {
		p.ServersPerGroup = spg
		p.Layout.LeavesPerUnit, p.Layout.ServersPerUnit = lpg, spg
		p.Headroom = append(spec.partialHeadroom(spg, lpg), p.Headroom...)
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
// one, with the uplinks its servers need (at least one).
func (spec Spec) leafLoads(spg, lpg int) []Load {
	perServer := 1
	if !spec.RailOptimized {
		perServer = spec.Rails
	}
	full := spec.Servers / spg
	rem := spec.Servers - full*spg
	var out []Load
	if full > 0 {
		out = append(out, Load{full * lpg, spg * perServer, spec.Up})
	}
	if rem > 0 {
		d := rem * perServer
		out = append(out, Load{lpg, d, max(spec.UpFor(d), 1)})
	}
	return out
}

// partialHeadroom is what a reference design adds to a partial scalable
// unit: its leaves' empty server ports, and the uplinks of a full unit.
func (spec Spec) partialHeadroom(spg, lpg int) []Headroom {
	perServer := 1
	if !spec.RailOptimized {
		perServer = spec.Rails
	}
	rem := spec.Servers % spg
	if rem == 0 || spec.Servers < spg && spec.Servers*spec.Rails <= spec.Radix {
		return nil
	}
	d := rem * perServer
	return []Headroom{{Tier: TierLeaf, Ports: lpg * (spg*perServer - d),
		Reason: fmt.Sprintf("the partial scalable unit has %d of %d servers: its leaves' empty server ports, for growth", rem, spg)}}
}

// upperChoice is how one upper tier serves a set of lower switches.
type upperChoice struct {
	n      int    // upper switches
	lower  []Load // the lower switches with their uplinks as wired
	upper  []Load // the upper switches by links taken from below
	wiring string // WiringBalanced or WiringNear
	strict int    // upper switches strict balance would need (0: impossible)
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
// than near-balanced wiring.
func chooseUpper(lower []Load, full, avail, capacity, maxExtra int) (upperChoice, bool) {
	near, strict, ok := upperOptions(lower, full, true, avail, capacity)
	if !ok {
		return upperChoice{}, false
	}
	if strict.n > 0 && strict.n-near.n <= maxExtra {
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
	total := SumLinks(lower, true)
	n := max(CeilDiv(total, capacity), 1)
	if n > avail {
		return upperChoice{}, upperChoice{}, false
	}
	near = upperChoice{n: n, wiring: WiringNear, lower: lower, upper: SpreadLinks(total, n)}
	if balanced(lower, full, n) {
		near.wiring, near.strict = WiringBalanced, n
		return near, near, true
	}
	// Strict balance: the same number of links from each full lower
	// switch to each upper switch, its uplinks rounded up to a multiple
	// of s; the others keep theirs.
	raised := make([]Load, 0, len(lower)) // reused: only the count that fits is kept
	for s := n; s <= avail; s++ {
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
		strict = upperChoice{n: s, wiring: WiringBalanced, strict: s, upper: SpreadLinks(t, s), lower: raised}
		return near, strict, true
	}
	return near, upperChoice{}, true
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
	hi, lo := links%n, n-links%n
	var out []Load
	if hi > 0 {
		out = append(out, Load{hi, links/n + 1, 0})
	}
	if lo > 0 && links/n > 0 {
		out = append(out, Load{lo, links / n, 0})
	} else if lo > 0 {
		out = append(out, Load{lo, 0, 0})
	}
	return out
}

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

// strictHeadroom reports the switches strict balance would add to a tier
// that uses near-balanced wiring.
func strictHeadroom(tier string, c upperChoice, groups int) []Headroom {
	if c.wiring != WiringNear || c.strict == 0 {
		return nil
	}
	return []Headroom{{Tier: tier, Switches: groups * (c.strict - c.n),
		Reason: fmt.Sprintf("strictly balanced wiring (as NVIDIA's reference designs) needs %d %s switches per group where %d carry the links", c.strict, tier, c.n)}}
}

// unitUppers is how many upper switches one scalable unit's uplinks need:
// what strict balance may add to a tier.
func unitUppers(lpg, up, capacity int) int { return max(CeilDiv(lpg*up, capacity), 1) }

func twoTier(spec Spec, leaves []Load) (Plane, bool) {
	c, ok := chooseUpper(leaves, spec.Up, spec.Up, spec.UplinkRadix(), unitUppers(spec.unitLeaves(), spec.Up, spec.UplinkRadix()))
	if !ok {
		return Plane{}, false
	}
	spines := make([]Load, len(c.upper))
	copy(spines, c.upper)
	return Plane{
		Tiers:      2,
		ServerLeaf: spec.Servers * spec.Rails,
		LeafSpine:  SumLinks(c.lower, true),
		LeafLoads:  c.lower,
		SpineLoads: spines,
		Pods:       1, SpinesPerPod: c.n,
		SpineWiring: c.wiring,
		Headroom:    strictHeadroom(TierSpine, c, 1),
		Layout:      Layout{Pods: []PodRun{{1, c.lower, c.n}}},
	}, true
}

// threeTier groups leaves into pods of whole scalable units, each with its
// own non-blocking spines, and joins spine j of every pod to core group j.
// The last pod may be partial; it gets the spines its leaves need.
func threeTier(spec Spec, spg, lpg int) (Plane, bool) {
	spineDown, spineUp := spec.SpinePorts() // a spine's ports toward its pod and toward the cores
	var leavesPerPod int
	switch {
	case spec.PodLeaves > 0 && spec.PodLeaves <= spineDown && spec.PodLeaves%lpg == 0:
		leavesPerPod = spec.PodLeaves // the reference layout's pod
	case lpg <= spineDown:
		leavesPerPod = spineDown / lpg * lpg // whole scalable units per pod
	default:
		leavesPerPod = largestDivisorAtMost(lpg, spineDown) // a pod takes a subset of the rails
	}
	all := spec.leafLoads(spg, lpg)
	byRail := spec.RailPods && leavesPerPod == spec.PodLeaves && lpg > 1
	var pods []leafPod
	if byRail {
		pods = railPodsOf(all, lpg, leavesPerPod)
	} else {
		pods = consecutivePods(all, leavesPerPod)
	}
	var leafLoads, spineLoads []Load
	var spineWiring string
	var headroom []Headroom
	// Each kind of pod, how many of it, and how its spines are sized.
	type podSpines struct {
		count int
		c     upperChoice
	}
	ps := make([]podSpines, 0, len(pods))
	for _, p := range pods {
		c, ok := chooseUpper(p.leaves, spec.Up, spec.Up, spineDown, unitUppers(min(spec.unitLeaves(), leavesPerPod), spec.Up, spineDown))
		if !ok {
			return Plane{}, false
		}
		ps = append(ps, podSpines{p.count, c})
		for _, l := range c.lower {
			leafLoads = append(leafLoads, Load{l.Switches * p.count, l.Down, l.Up})
		}
		if spineWiring != WiringNear {
			spineWiring = c.wiring
		}
		headroom = append(headroom, strictHeadroom(TierSpine, c, p.count)...)
	}
	// Core group j takes the uplinks of spine j of every pod; spines send
	// up as many links as they take from below (non-blocking).
	maxSpines := 0
	for _, p := range ps {
		maxSpines = max(maxSpines, p.c.n)
	}
	var coreLoads []Load
	coreWiring := ""
	spineCore := 0
	spineUps := make([][]Load, len(ps)) // per pod, spine runs with their uplinks
	// Core groups see only a few kinds of spines (a full pod's, a partial
	// pod's): count the groups of each kind, then size each kind once.
	// Spine j's links change only where a pod's runs of spines end, so
	// each stretch of alike indices is looked at once, not index by index
	// (a pod has up to half a radix of spines: 128 on a 256-port switch;
	// index by index was 14% of a 1,000-point sweep's instructions).
	var kinds []*groupKind
	lower, in := make([]Load, 0, len(ps)), make([]int, 0, len(ps)) // spine j's, reused
	for j := 0; j < maxSpines; {
		lower, in = lower[:0], in[:0]
		next := maxSpines // the first index past j where a pod's spines change
		for i, p := range ps {
			if j < p.c.n {
				d, end := spineRunAt(p.c.upper, j)
				lower = append(lower, Load{p.count, d, spec.spineUpFor(d)})
				in = append(in, i)
				next = min(next, end)
			}
		}
		m := next - j
		j = next
		if n := len(kinds); n > 0 && sameLoads(kinds[n-1].lower, lower) && slices.Equal(kinds[n-1].present, in) {
			kinds[n-1].groups += m // spines of one kind are consecutive: runs of SpreadLinks
			continue
		}
		kinds = append(kinds, &groupKind{slices.Clone(lower), slices.Clone(in), m})
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
	for _, g := range sized {
		k, c, m := g.kind, g.c, g.groups
		run := CoreRun{Groups: m, Cores: c.n, Spines: g.spines, SpineUp: make([]int, len(ps))}
		for li, i := range k.present {
			run.SpineUp[i] = c.lower[li].Up
		}
		lay.CoreGroups = append(lay.CoreGroups, run)
		for li, i := range k.present {
			spineUps[i] = append(spineUps[i], Load{c.lower[li].Switches * m, c.lower[li].Down, c.lower[li].Up})
		}
		for _, u := range c.upper {
			coreLoads = append(coreLoads, Load{u.Switches * m, u.Down, u.Up})
		}
		spineCore += m * SumLinks(c.lower, true)
		if coreWiring != WiringNear {
			coreWiring = c.wiring
		}
	}
	if extra > 0 {
		headroom = append(headroom, Headroom{Tier: TierCore, Switches: extra,
			Reason: fmt.Sprintf("strictly balanced wiring (as NVIDIA's reference designs: spine j of every pod to its own core group) needs %s more cores, more than one scalable unit's worth (%d)",
				groupDigits(extra), unitUppers(spec.unitLeaves(), spec.Up, spec.CoreRadix()))})
	}
	countPods := 0
	for _, p := range pods {
		countPods += p.count
	}
	for _, runs := range spineUps {
		spineLoads = append(spineLoads, runs...)
	}
	spineLoads = mergeLoads(spineLoads)
	return Plane{
		Tiers:      3,
		ServerLeaf: spec.Servers * spec.Rails,
		LeafSpine:  SumLinks(leafLoads, true),
		SpineCore:  spineCore,
		LeafLoads:  leafLoads, SpineLoads: mergeLoads(spineLoads), CoreLoads: mergeLoads(coreLoads),
		Pods: countPods, SpinesPerPod: ps[0].c.n,
		SpineWiring: spineWiring, CoreWiring: coreWiring,
		Headroom: mergeHeadroom(headroom),
		Layout:   lay,
	}, true
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
func chunkPods(runs []Load, per, times int) []leafPod {
	var pods []leafPod
	var cur []Load
	curN := 0
	for _, r := range runs {
		for n := r.Switches; n > 0; {
			take := min(n, per-curN)
			cur = append(cur, Load{take, r.Down, r.Up})
			curN += take
			n -= take
			if curN == per {
				n := len(pods)
				if pods, curN = addPod(pods, cur, times), 0; len(pods) == n {
					cur = cur[:0] // joined to the pod before: its leaves are free again (a pod each cost a sweep 2%)
				} else {
					cur = nil // held by the new pod
				}
			}
		}
	}
	if curN > 0 {
		pods = addPod(pods, cur, times)
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

// mergeLoads joins runs with the same ports in use.
func mergeLoads(loads []Load) []Load {
	var out []Load
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
	return out
}

// mergeHeadroom adds up headroom lines of the same tier and reason kind.
func mergeHeadroom(hs []Headroom) []Headroom {
	var out []Headroom
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
	lower   []Load // spine j of each pod that has one
	present []int  // those pods (indexes of the pod kinds)
	groups  int
}

// sizedGroups is a run of core groups as sized: groups of them, each
// joining spines spine indices of a kind.
type sizedGroups struct {
	kind           *groupKind
	groups, spines int
	c              upperChoice
}

// sizeCores sizes the core tier over the spine kinds. Strict balance
// (spine j of every pod to its own group, the same links from each spine
// to each core; avail is a spine's ports toward the cores) is kept when it costs at most one scalable unit's worth
// of cores more than the fewest that carry the links; otherwise groups
// join as many spine indices as makes the fewest cores, and extra is
// the cores strict balance would add.
func sizeCores(kinds []*groupKind, spec Spec, avail int) (sized []sizedGroups, extra int, ok bool) {
	var strict, near []sizedGroups
	strictN, nearN := 0, 0
	for _, k := range kinds {
		n, s, ok := upperOptions(k.lower, maxUp(k.lower), false, avail, spec.CoreRadix())
		if !ok {
			return nil, 0, false
		}
		if s.n == 0 {
			s = n
		}
		strict = append(strict, sizedGroups{k, k.groups, 1, s})
		strictN += k.groups * s.n
		runs, cores, ok := mergedGroups(k, spec.CoreRadix())
		if !ok {
			return nil, 0, false
		}
		near = append(near, runs...)
		nearN += cores
	}
	if strictN-nearN <= unitUppers(spec.unitLeaves(), spec.Up, spec.CoreRadix()) {
		return strict, 0, true
	}
	return near, strictN - nearN, true
}

// mergedGroups joins m consecutive spine indices of a kind per core
// group, m chosen for the fewest cores (the smallest m on ties), with
// near-balanced wiring. Where a group has more cores than a spine has
// uplinks, each spine reaches as many cores as it has uplinks, one link
// each, spread so that every pod reaches every core.
func mergedGroups(k *groupKind, radix int) ([]sizedGroups, int, bool) {
	top := maxUp(k.lower)
	links := SumLinks(k.lower, true) // of one spine number
	cores := func(m int) int { return max(CeilDiv(m*links, radix), 1) }
	// Count first (cheap), then size the chosen groups once.
	bestM, bestN := 0, 0
	for m := 1; m <= k.groups && cores(m) <= radix; m++ {
		total := k.groups / m * cores(m)
		if r := k.groups % m; r > 0 {
			total += cores(r)
		}
		if bestM == 0 || total < bestN {
			bestM, bestN = m, total
		}
	}
	if bestM == 0 {
		return nil, 0, false
	}
	size := func(m int) (upperChoice, bool) {
		lower := make([]Load, len(k.lower))
		for i, l := range k.lower {
			lower[i] = Load{l.Switches * m, l.Down, l.Up}
		}
		c, _, ok := upperOptions(lower, top, false, radix, radix)
		return c, ok
	}
	c, ok := size(bestM)
	runs := []sizedGroups{{k, k.groups / bestM, bestM, c}}
	if r := k.groups % bestM; r > 0 && ok {
		var cr upperChoice
		cr, ok = size(r)
		runs = append(runs, sizedGroups{k, 1, r, cr})
	}
	return runs, bestN, ok
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
		if l.Up < fullUp {
			reach := ""
			if per := pl.SpinesPerPod; l.Up < per {
				reach = fmt.Sprintf(", one link to each of %d of the %d spines", l.Up, per)
			}
			return []string{fmt.Sprintf("the partial scalable unit's leaves have %d server ports and the %d uplinks they need at %s%s (a full leaf has %d)",
				l.Down, l.Up, ratio, reach, fullUp)}
		}
	}
	return nil
}
