package phases

import (
	"fabricplan/planner"
	"fmt"
	"math"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/resilience"
)

// finalTally counts, per phase (from 0), what of the final plan's fabric
// each phase cables first: the links, switches and switch-side optics it
// adds, and the worst leaf's down:up once it is built.
type finalTally struct {
	links [planner.LinkTierCount][]int
	// storage and peer are the links beside the tiers' (storage nodes'
	// and leaf pairs' peer links) each phase cables: a leaf's with it.
	storage, peer []int
	mods          [planner.LinkTierCount][2][]int // per tier, lower and upper end
	leaves        []int
	spines        []int
	cores         []int
	worst         []float64
}

func newFinalTally(n int) *finalTally {
	t := &finalTally{leaves: make([]int, n), spines: make([]int, n), cores: make([]int, n), worst: make([]float64, n),
		storage: make([]int, n), peer: make([]int, n)}
	for i := range planner.LinkTierCount {
		t.links[i] = make([]int, n)
		t.mods[i] = [2][]int{make([]int, n), make([]int, n)}
	}
	return t
}

// tallyFinal walks the final plan once and gives every link the first
// phase that needs it: a server link its server's phase; a leaf and its
// uplinks the phase of its unit's first server (NVIDIA: a partial unit
// gets its full leaves and leaf-spine cables); a spine-core link the
// phase its pod is populated, or the second pod is (one pod needs no
// core). Switches and switch-side cages arrive with their first link: a
// switch fills its ports in order, so its first link is its earliest.
// A storage node's link, and a leaf pair's peer link, is cabled with
// its leaf (a pair's first); leaves that serve no server (storage
// leaves of their own after the units) arrive with the last phase.
func tallyFinal(final *planner.Plan, servers []int) *finalTally {
	n := len(servers)
	t := newFinalTally(n)
	side := leafSideLinks(final)
	c := final.EndCages()
	lpu, spu := final.LeafGroup()
	podPhase := make([]int, max(1, final.Pods))
	for i := range podPhase {
		podPhase[i] = -1
	}
	cur, leafPhase, up := [2]int{-1, -1}, 0, 0 // the leaf walked (plane, leaf)
	down := make([]int, n)
	finish := func() {
		if cur[1] < 0 || up == 0 {
			return
		}
		cum := 0
		for k := range n {
			cum += down[k]
			if k >= leafPhase {
				t.worst[k] = max(t.worst[k], float64(cum)/float64(up))
			}
		}
	}
	newLeaf := func(leaf [2]int, phase int) {
		finish()
		cur, up, leafPhase = leaf, 0, phase
		clear(down)
		t.leaves[phase]++
		sl := side[leaf] // zero for a leaf with none
		t.storage[phase] += sl[0]
		t.peer[phase] += sl[1]
	}
	_ = final.WalkLinks(func(l *planner.Link) error {
		switch l.Tier {
		case planner.LinkServerLeaf:
			if leaf := [2]int{l.Plane, l.Upper.Device}; leaf != cur {
				newLeaf(leaf, phaseOf(servers, l.Upper.Device/lpu*spu))
			}
			k := phaseOf(servers, l.Lower.Device)
			down[k]++
			t.add(planner.LinkServerLeaf, k, -1, l.Upper.Port, c[planner.LinkServerLeaf])
		case planner.LinkLeafSpine:
			if leaf := [2]int{l.Plane, l.Lower.Device}; leaf != cur {
				newLeaf(leaf, n-1) // storage leaves of their own, after the units: with the last phase
			}
			k := leafPhase
			up++
			if podPhase[l.Pod] < 0 {
				podPhase[l.Pod] = k
			}
			if l.Upper.Port == 0 {
				t.spines[k]++
			}
			t.add(planner.LinkLeafSpine, k, l.Lower.Port, l.Upper.Port, c[planner.LinkLeafSpine])
		default:
			k := podPhase[l.Pod]
			if len(podPhase) > 1 {
				k = max(k, podPhase[1])
			}
			if l.Upper.Port == 0 {
				t.cores[k]++
			}
			t.add(planner.LinkSpineCore, k, l.Lower.Port, l.Upper.Port, c[planner.LinkSpineCore])
		}
		return nil
	})
	finish()
	return t
}

// leafSideLinks counts the storage and peer links (0 and 1) at each leaf
// by plane and the plane's leaf index: a peer link at its pair's first
// leaf.
func leafSideLinks(p *planner.Plan) map[[2]int][2]int {
	out := map[[2]int][2]int{}
	_ = p.WalkSideLinks(func(l *planner.LeafSideLink) error {
		k := [2]int{l.Plane, l.Leaf}
		c := out[k]
		if l.Tier == planner.CableTierStorage {
			c[0]++
		} else {
			c[1]++
		}
		out[k] = c
		return nil
	})
	return out
}

// add counts one link of tier in phase k, and a module at each switch
// end whose cage it opens (port -1: a server end); cages are the links
// a cage carries at the lower and upper end (endCages).
func (t *finalTally) add(tier, k, lowerPort, upperPort int, cages [2]int) {
	t.links[tier][k]++
	if lowerPort >= 0 && lowerPort%cages[0] == 0 {
		t.mods[tier][0][k]++
	}
	if upperPort%cages[1] == 0 {
		t.mods[tier][1][k]++
	}
}

// prebuy moves every spine and core switch, and the optics of their
// ports, to the first phase.
func (t *finalTally) prebuy() {
	first := func(v []int) {
		sum := 0
		for i := range v {
			sum += v[i]
			v[i] = 0
		}
		v[0] = sum
	}
	first(t.spines)
	first(t.cores)
	first(t.mods[planner.LinkLeafSpine][1])
	first(t.mods[planner.LinkSpineCore][0])
	first(t.mods[planner.LinkSpineCore][1])
}

// cumulate2 is cumulate of the sum of a tier's lower and upper ends.
func cumulate2(ends [2][]int) []int {
	out := cumulate(ends[0])
	for i, v := range cumulate(ends[1]) {
		out[i] += v
	}
	return out
}

// lineShares gives every line of the final plan's BOM that links or
// servers bring (cables, switch-side and server-side optics) its
// quantity after each phase. The storage and peer links' cables and
// modules follow those links (cabled with their leaves), not the tier
// whose cable they copy. A tier laid out in a hall has several such
// lines (one per medium, part and length): the tier's phases take them
// in one fixed interleaved order (apportion), so every line only grows,
// a phase's lines add up to what the tier has cabled by then, and the
// last phase has exactly the final plan's. With one line a tier the
// line is the tier.
func lineShares(final *planner.Plan, t *finalTally, servers []int) map[int][]int {
	tierIndex := map[string]int{"server_leaf": planner.LinkServerLeaf, "leaf_spine": planner.LinkLeafSpine, "spine_core": planner.LinkSpineCore}
	type group struct {
		lines []int // BOM indices
		done  []int // the tier's count after each phase
	}
	groups := map[string]*group{}
	join := func(name string, i int, done []int) {
		g := groups[name]
		if g == nil {
			g = &group{done: done}
			groups[name] = g
		}
		g.lines = append(g.lines, i)
	}
	for i, l := range final.BOM {
		switch {
		case l.Spare:
		case strings.Contains(l.Where, planner.CableTierStorage) || l.Where == "storage nodes":
			join("storage "+l.Category, i, cumulate(t.storage)) // cables and modules, one or a few a link
		case strings.Contains(l.Where, planner.CableTierPeer):
			join("peer "+l.Category, i, cumulate(t.peer))
		case l.Category == planner.CatCable:
			join("cable "+l.LineTier(), i, cumulate(t.links[tierIndex[l.LineTier()]]))
		case l.Category == planner.CatTransceiver && strings.HasPrefix(l.Where, "server side"):
			join("server optics", i, servers) // in a hall some servers' runs are copper
		case l.Category == planner.CatTransceiver:
			join("switch optics "+l.LineTier(), i, cumulate2(t.mods[tierIndex[l.LineTier()]]))
		}
	}
	out := map[int][]int{}
	for _, g := range groups {
		qty := make([]int, len(g.lines))
		for j, i := range g.lines {
			qty[j] = final.BOM[i].Qty
		}
		for j, v := range apportion(qty, g.done) {
			out[g.lines[j]] = v
		}
	}
	return out
}

// apportion splits the lines' quantities over phases whose cumulative
// counts are done (the last one all of it): the items of all lines are
// taken in one fixed order, each next item from the line furthest behind
// its share, and phase k takes the first round(total x done[k] / done[last])
// of them. Each line's count never falls from phase to phase and the
// counts of a phase add up to its share of the total exactly.
// (The planner's largest-remainder apportion is not used: as the total
// grows it can take an item back from a line, which would retire a
// cable bought a phase earlier.)
func apportion(qty, done []int) [][]int {
	out := make([][]int, len(qty))
	for i := range out {
		out[i] = make([]int, len(done))
	}
	total := 0
	for _, q := range qty {
		total += q
	}
	last := done[len(done)-1]
	if total == 0 || last == 0 {
		return out
	}
	taken := make([]int, len(qty))
	n := 0
	for k, d := range done {
		target := int(math.Round(float64(total) * float64(d) / float64(last)))
		for ; n < target; n++ {
			best, gap := -1, math.Inf(-1)
			for i, q := range qty {
				if taken[i] == q {
					continue
				}
				// How far line i is behind its share after n+1 items.
				if g := float64(q)*float64(n+1)/float64(total) - float64(taken[i]); g > gap {
					best, gap = i, g
				}
			}
			taken[best]++
		}
		for i := range qty {
			out[i][k] = taken[i]
		}
	}
	return out
}

// cumulate turns per-phase additions into totals after each phase.
func cumulate(v []int) []int {
	out := make([]int, len(v))
	sum := 0
	for i, x := range v {
		sum += x
		out[i] = sum
	}
	return out
}

// finalQty is phase k's quantity of every line of the final plan's BOM;
// shares are the link lines' quantities (lineShares).
func finalQty(final *planner.Plan, t *finalTally, servers []int, k int, shares map[int][]int, sp resilience.Spares) map[bomKey]lineQty {
	out := make(map[bomKey]lineQty, len(final.BOM))
	parent := map[string]int{}
	for i, l := range final.BOM {
		if l.Spare {
			continue
		}
		var q int
		switch l.Category {
		case planner.CatNIC:
			q = servers[k] * (final.NICs / final.Servers)
		case planner.CatSwitch:
			// A chassis tier has lines for its line cards and fabric
			// modules too, so many a switch: each in proportion.
			bought := cumulate(map[string][]int{planner.TierLeaf: t.leaves, planner.TierSpine: t.spines, planner.TierCore: t.cores}[l.LineTier()])
			if all := bought[len(bought)-1]; all > 0 {
				q = l.Qty * bought[k] / all
			}
		case planner.CatTransceiver, planner.CatCable:
			q = shares[i][k]
		}
		parent[l.Category+"|"+l.Key+"|"+l.Where] += q
		key := bomKey{l.Category, l.Key, l.Where}
		out[key] = lineQty{qty: out[key].qty + q, usd: l.UnitUSD, watts: l.UnitWatts, category: l.Category} // a tier's two ends may share a line
	}
	for _, l := range final.BOM {
		if !l.Spare {
			continue
		}
		pct := sp.OpticsPct
		if l.Category == planner.CatSwitch {
			pct = sp.SwitchesPct
		}
		base := parent[l.Category+"|"+l.Key+"|"+strings.TrimPrefix(l.Where, "spares, ")]
		q := int(math.Ceil(float64(base)*pct/100 - 1e-9))
		out[bomKey{l.Category, l.Key, l.Where}] = lineQty{qty: q, usd: l.UnitUSD, category: l.Category}
	}
	return out
}

// planFinalSize plans building for the final size: the final plan's
// fabric, each phase cabling the part its GPUs need; nothing moves.
func planFinalSize(pp *PhasedPlan, phases []planner.Phase, pinned planner.Scenario, cat *planner.Catalog, g planner.Growth) (StrategyPlan, error) {
	final := pp.Final
	sp := StrategyPlan{Key: StrategyFinal, Name: "Build for the final size"}
	servers := make([]int, len(phases))
	for i, p := range pp.plans {
		servers[i] = p.Servers // each phase's servers: its grow plan's, of the same size
	}
	t := tallyFinal(final, servers)
	if g.PrebuyPorts {
		t.prebuy()
	}
	var spares resilience.Spares
	if rel, ok := final.Scenario.ReliabilityWith(cat); ok {
		spares = rel.Spares
	}
	asked := askedRatio(final)
	shares := lineShares(final, t, servers)
	var prevQty map[bomKey]lineQty
	var prevSw SwitchCount
	cum := 0.0
	for k, ph := range phases {
		q := finalQty(final, t, servers, k, shares, spares)
		cost := compare(prevQty, q)
		cum += cost.added
		st := PhaseStep{Phase: k + 1, GPUs: ph.GPUs, Date: ph.Date, Servers: servers[k], Tiers: final.Tiers,
			Switches:           SwitchCount{Leaf: cumulate(t.leaves)[k], Spine: cumulate(t.spines)[k], Core: cumulate(t.cores)[k]},
			TransceiversBought: cost.transceivers, CablesBought: cost.cables,
			CostAddedUSD: cost.added, CostUSD: cum, RetiredUSD: cost.retired, PowerW: power(q),
			Oversub: t.worst[k]}
		st.Switches.Total = st.Switches.Leaf + st.Switches.Spine + st.Switches.Core
		st.SwitchesAdded = st.Switches.added(prevSw)
		st.Links = planner.Links{ServerLeaf: cumulate(t.links[0])[k], LeafSpine: cumulate(t.links[1])[k], SpineCore: cumulate(t.links[2])[k],
			Storage: cumulate(t.storage)[k], Peer: cumulate(t.peer)[k]}
		st.Links.Total = st.Links.Sum()
		st.LinksAdded = planner.Links{ServerLeaf: t.links[0][k], LeafSpine: t.links[1][k], SpineCore: t.links[2][k], Storage: t.storage[k], Peer: t.peer[k]}
		st.LinksAdded.Total = st.LinksAdded.Sum()
		st.RatioHolds = ratioHolds(st.Oversub, asked)
		st.JCT = finalPhaseJCT(pp, pinned, cat, k, ph.GPUs)
		sp.Steps = append(sp.Steps, st)
		pp.finalQty = append(pp.finalQty, q)
		prevQty, prevSw = q, st.Switches
	}
	sp.Findings = append(sp.Findings, driftFindings(sp, pp.Asked, asked)...)
	sp.Findings = append(sp.Findings, finalFindings(final, sp, g)...)
	if final.Hall != nil {
		sp.Findings = append(sp.Findings, "estimate: each phase buys its share of every cable and optic length of the final hall, in proportion to the links of each tier it cables (which runs come first is not modelled); the last phase buys exactly the final plan's")
	}
	return sp, nil
}

// finalFindings says what building for the final size commits to first.
func finalFindings(final *planner.Plan, sp StrategyPlan, g planner.Growth) []string {
	first := sp.Steps[0]
	var out []string
	if final.Tiers > 1 {
		how := "as their first links land"
		if g.PrebuyPorts {
			how = "all in phase 1 with the optics of every port the final size uses (ports pre-bought)"
		}
		upper := textfmt.Plural(final.Switches(planner.TierSpine), "spine")
		if c := final.Switches(planner.TierCore); c > 0 {
			upper += " and " + textfmt.Plural(c, "core")
		}
		out = append(out, fmt.Sprintf("the upper tiers are the final size's (%s), bought %s; phase 1 has %s for %s GPUs",
			upper, how, textfmt.Plural(first.Switches.Spine, "spine"), textfmt.Int(first.GPUs)))
	}
	out = append(out, "every leaf of a scalable unit is bought and cabled to the spines with the unit's first server (NVIDIA: design for the full SU); no link moves between phases")
	if final.Tiers == 3 {
		out = append(out, "the core is cabled when a second pod is populated: one pod needs none")
	}
	last := sp.Steps[len(sp.Steps)-1].Links
	for _, side := range []struct {
		n    int
		what string
		at   func(l planner.Links) int
	}{
		{last.Storage, "storage node link", func(l planner.Links) int { return l.Storage }},
		{last.Peer, "peer link", func(l planner.Links) int { return l.Peer }},
	} {
		if side.n == 0 {
			continue
		}
		for _, st := range sp.Steps {
			if side.at(st.Links) > 0 {
				out = append(out, fmt.Sprintf("the %s are cabled with the leaves that take them, from phase %d", textfmt.Plural(side.n, side.what), st.Phase))
				break
			}
		}
	}
	return out
}

// finalPhaseJCT is the job time on phase k's GPUs over a fabric of the
// final plan's tiers; the grow plan's when that does not build.
func finalPhaseJCT(pp *PhasedPlan, pinned planner.Scenario, cat *planner.Catalog, k, gpus int) *PhaseJCT {
	if k == len(pp.plans)-1 {
		return phaseJCT(pp.Final)
	}
	if g := pp.plans[k]; g != nil && g.Tiers == pp.Final.Tiers {
		// The grow plan of phase k is this scenario with its tiers left
		// as given, and they came to the final's: the planner sizes the
		// fewest tiers that fit the same way as those tiers asked, so
		// the build below would be that plan again (a full link walk,
		// 35 ms at 73,728 GPUs).
		return phaseJCT(g)
	}
	sc := pinned.Clone()
	sc.Cluster.GPUs, sc.Network.Tiers = gpus, pp.Final.Tiers
	if p, err := planner.BuildWith(sc, cat, planner.BuildOptions{}); err == nil {
		return phaseJCT(p)
	}
	return phaseJCT(pp.plans[k])
}

// power is the watts of a phase's lines (spares draw none), summed in
// key order so the figure is the same on every run.
func power(q map[bomKey]lineQty) float64 {
	w := 0.0
	for _, k := range sortedBOMKeys(q) {
		w += float64(q[k].qty) * q[k].watts
	}
	return w
}
