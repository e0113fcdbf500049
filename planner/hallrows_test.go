package planner

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// hallFall is one cost fall of a hall-laid design as GPUs grow by a
// server: the two plans and the BOM lines whose totals moved.
type hallFall struct {
	prev, next *Plan
	lines      []string // "category key where: $a -> $b"
	cause      string   // fallCause's, "" when none explains it
}

// String names the fall: sizes, costs, rows and the moved lines.
func (f hallFall) String() string {
	a, b := f.prev, f.next
	return fmt.Sprintf("%d -> %d GPUs: $%.0f -> $%.0f (%.0f); cause %q; rows %d -> %d; %s", a.GPUs, b.GPUs, a.Cost.Total, b.Cost.Total,
		b.Cost.Total-a.Cost.Total, f.cause, len(a.Hall.Rows), len(b.Hall.Rows), strings.Join(f.lines, "; "))
}

// bomMoves lists the BOM lines (by category, key and place) whose
// totals differ between a and b, the largest change first.
func bomMoves(a, b *Plan) []string {
	type line struct {
		qa, qb int
		ua, ub float64
	}
	m := map[string]*line{}
	get := func(l BOMLine) *line {
		k := l.Category + " " + l.Key + " " + l.Where
		if m[k] == nil {
			m[k] = &line{}
		}
		return m[k]
	}
	for _, l := range a.BOM {
		x := get(l)
		x.qa += l.Qty
		x.ua += l.TotalUSD
	}
	for _, l := range b.BOM {
		x := get(l)
		x.qb += l.Qty
		x.ub += l.TotalUSD
	}
	keys := make([]string, 0, len(m))
	for k, x := range m {
		if x.ua != x.ub {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		di, dj := m[keys[i]].ub-m[keys[i]].ua, m[keys[j]].ub-m[keys[j]].ua
		if di != dj {
			return di < dj
		}
		return keys[i] < keys[j]
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		x := m[k]
		out[i] = fmt.Sprintf("%s: %d -> %d ($%.0f)", k, x.qa, x.qb, x.ub-x.ua)
	}
	return out
}

// scanHallFalls builds design cfg with the hall's own lengths one server
// at a time up to maxGPUs and returns every step where cost or
// switch-side transceivers fell.
func scanHallFalls(t testing.TB, cat *Catalog, cfg func(s *Scenario), maxGPUs int) []hallFall {
	t.Helper()
	s := NewScenario()
	cfg(&s)
	var prev *Plan
	var falls []hallFall
	for servers := 1; servers*s.Cluster.GPUsPerServer <= maxGPUs; servers++ {
		s.Cluster.GPUs = servers * s.Cluster.GPUsPerServer
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", s.Cluster.GPUs, err)
		}
		if prev != nil && prev.Hall != nil && p.Hall != nil &&
			(p.Cost.Total < prev.Cost.Total-1e-6 || p.SwitchTransceivers < prev.SwitchTransceivers) {
			falls = append(falls, hallFall{prev, p, bomMoves(prev, p), fallCause(prev, p)})
		}
		prev = p
	}
	return falls
}

// TestHallScan prints the hall-laid falls of every design of
// propertyConfigs (those whose name holds FABRICPLAN_HALLSCAN_DESIGN,
// when set) up to FABRICPLAN_HALLSCAN GPUs with their causes and the
// BOM lines that moved: a diagnosis for TestHallCostEveryServer's
// causes, run only when the variable is set (40,000 GPUs take five
// minutes).
func TestHallScan(t *testing.T) {
	maxGPUs, _ := strconv.Atoi(os.Getenv("FABRICPLAN_HALLSCAN"))
	if maxGPUs == 0 {
		t.Skip("set FABRICPLAN_HALLSCAN to the largest GPU count to scan")
	}
	cat := testCatalog(t)
	for name, cfg := range propertyConfigs() {
		if f := os.Getenv("FABRICPLAN_HALLSCAN_DESIGN"); f != "" && !strings.Contains(name, f) {
			continue
		}
		falls := scanHallFalls(t, cat, cfg, maxGPUs)
		t.Logf("%s: %d falls", name, len(falls))
		for _, f := range falls {
			t.Logf("  %s", f)
		}
	}
}

// Causes of a fall the hall's row rule does not reach (fallCause).
const (
	// causeRedealt: every server and switch of the smaller plan stands
	// where it stood, and the fabric dealt the links among them anew
	// (core groups cut anew with every server, a partial pod's uplinks
	// spread again), so a link moved under a medium's reach: a copper
	// cable for a fibre and its two modules, or multimode within 50 m
	// for single-mode. Since core groups deal a spine's whole cages
	// each onto one core cage (fabric.CageDeal), a spine-core link is
	// on fibre within copper's reach only as an odd link sharing its
	// core cage with a longer run (chainedLinks, oddLinks): what moves
	// is which core a cage pair lands on.
	causeRedealt = "links re-dealt among switches and servers that stand where they stood"
	// causeCopper: a switch or server moved, and more of the bigger
	// plan's links on some tier stand within copper reach.
	causeCopper = "more links within copper reach"
)

// fallCause names what explains b, one server larger than a, costing
// less or holding fewer switch-side modules: causeRedealt, causeCopper,
// or "" when neither does.
func fallCause(a, b *Plan) string {
	if !placesMoved(a, b) {
		return causeRedealt
	}
	ca, cb := copperLinks(a), copperLinks(b)
	for tier, n := range cb {
		if n > ca[tier] {
			return causeCopper
		}
	}
	return ""
}

// placesMoved reports whether a node, leaf, spine or core of a stands
// elsewhere (another rack centre or height) in b's hall.
func placesMoved(a, b *Plan) bool {
	ha, hb := a.Hall, b.Hall
	if ha.LeavesPerPlane() > hb.LeavesPerPlane() || ha.SpinesPerPlane() > hb.SpinesPerPlane() || ha.CoresPerPlane() > hb.CoresPerPlane() || a.Planes != b.Planes {
		return true
	}
	same := func(pa, pb hall.Place) bool {
		xa, ya := ha.RackPos(pa.Rack)
		xb, yb := hb.RackPos(pb.Rack)
		return xa == xb && ya == yb && pa.H == pb.H
	}
	for n := range a.Servers {
		if !same(ha.NodePlace(n), hb.NodePlace(n)) {
			return true
		}
	}
	for plane := 1; plane <= a.Planes; plane++ {
		for g := range ha.LeavesPerPlane() {
			if !same(ha.LeafPlace(plane, g), hb.LeafPlace(plane, g)) {
				return true
			}
		}
		for j := range ha.SpinesPerPlane() {
			if !same(ha.SpinePlace(plane, 0, j), hb.SpinePlace(plane, 0, j)) {
				return true
			}
		}
		for i := range ha.CoresPerPlane() {
			if !same(ha.CorePlace(plane, i), hb.CorePlace(plane, i)) {
				return true
			}
		}
	}
	return false
}

// copperLinks counts the links of p on copper (a cable line whose
// medium is not fibre) by tier (the first word of the line's place).
func copperLinks(p *Plan) map[string]int {
	n := map[string]int{}
	for _, l := range p.BOM {
		if l.Category == CatCable && !l.Spare && !strings.HasPrefix(l.Key, "fiber") {
			n[strings.Fields(l.Where)[0]] += l.Qty
		}
	}
	return n
}

// chainedLinks counts p's spine-core links bought on fibre at a length
// no longer than its longest spine-core copper: links whose medium was
// set by a longer run sharing their cages.
func chainedLinks(p *Plan) int {
	copper := 0.0
	for _, l := range p.BOM {
		var m float64
		if l.Category == CatCable && !l.Spare && strings.HasPrefix(l.Where, TierSpine+"_"+TierCore) && !strings.HasPrefix(l.Key, "fiber") {
			if _, err := fmtSscan(l.Where, &m); err == nil {
				copper = max(copper, m)
			}
		}
	}
	n := 0
	for _, l := range p.BOM {
		var m float64
		if l.Category == CatCable && !l.Spare && strings.HasPrefix(l.Where, TierSpine+"_"+TierCore) && strings.HasPrefix(l.Key, "fiber") {
			if _, err := fmtSscan(l.Where, &m); err == nil && m <= copper {
				n += l.Qty
			}
		}
	}
	return n
}

// oddLinks counts p's spine-core links outside their spine's whole
// cages where core groups deal cages (fabric.CageDeal): the only links
// that share a core cage with another spine's link, and so the only
// ones a longer run can put on fibre.
func oddLinks(p *Plan) int {
	n := 0
	for _, run := range p.layout.CoreGroups {
		if run.Deal <= 1 {
			continue
		}
		for k := range run.SpineCount() {
			for i, pr := range p.layout.Pods {
				n += run.Groups * pr.Count * (run.UpAt(k, i) % run.Deal)
			}
		}
	}
	return n * p.Planes
}

// hallEveryServerGPUs is how far TestHallCostEveryServer adds servers
// one at a time: past two blocks of rows on the NDR rail design (14
// rows at 6,500 GPUs).
const hallEveryServerGPUs = 8192

// TestHallCostEveryServer: with the hall's own lengths (the default
// facility), cost never falls and switch-side transceivers never fall
// as a design grows by a server, over the designs of propertyConfigs to
// hallEveryServerGPUs (issue 45: a buyer could build the smaller
// cluster as the bigger one less a server). Two causes the hall's row
// rule does not reach are let through, each counted in the log:
// causeRedealt for cost and modules (no server or switch moved: the
// fabric dealt its links anew, out of the hall's hands), and
// causeCopper for modules alone (a switch moved and more links stand
// within copper reach, each trading two modules for a copper cable,
// while the cost rose). causeRedealt no longer covers chained cages:
// in both plans of every fall, the spine-core links on fibre within
// copper's reach are at most the odd links (fabric.CageDeal). Mutations
// caught (each checked to fail here): a partial last unit packed by its
// own size (NDR rail: 2,256 GPUs $14,653 cheaper than 2,248, the
// partial unit's racks moved from the last row's far end to a row of
// their own); its leaf rack set by its own racks (2,432 GPUs $11,999
// cheaper than 2,424); a core group's links dealt in walk order
// (CageDeal's whole cages not kept apart from the odd links: NDR rail
// 2,232 GPUs with 74 spine-core links on fibre at 5 m, 4 odd links,
// $4,589 dearer than 2,240). TestHallScan (FABRICPLAN_HALLSCAN=40000)
// runs the scan further: to 40,000 GPUs every cost fall left is
// causeRedealt's, and module-only falls are causeRedealt's or
// causeCopper's. Cost falls to 40,000 GPUs dealt in walk order, then
// with CageDeal: NDR rail 69 (-$731,556 in all, largest -$38,415) then
// 3 (-$11,461, largest -$8,744); tomahawk6-100g spine-core falls from
// 33,072 GPUs 36 (-$2.87M) then 8 from 36,056 (-$0.55M), and 35 from
// 39,200 GPUs (leaf-spine links across the 50 m multimode reach, not
// the cores' dealing) both times; sn5600 ToR 32 (-$281,077) then 12
// (-$105,327); two planes 2 both times. What is left is which core a
// spine's cage pair lands on as the positions shift.
func TestHallCostEveryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 plans")
	}
	cat := testCatalog(t)
	for name, cfg := range propertyConfigs() {
		t.Run(name, func(t *testing.T) {
			causes := map[string]int{}
			for _, f := range scanHallFalls(t, cat, cfg, hallEveryServerGPUs) {
				cheaper := f.next.Cost.Total < f.prev.Cost.Total-1e-6
				if f.cause == "" || cheaper && f.cause != causeRedealt {
					t.Errorf("%s", f)
					continue
				}
				for _, p := range []*Plan{f.prev, f.next} {
					if c, odd := chainedLinks(p), oddLinks(p); c > odd {
						t.Errorf("%d GPUs: %d spine-core links on fibre within copper's reach, %d odd links (fabric.CageDeal): cages chained; %s", p.GPUs, c, odd, f)
					}
				}
				causes[f.cause]++
			}
			for c, n := range causes {
				t.Logf("%d falls: %s", n, c)
			}
		})
	}
}

// TestHallNetworkRowsTogether: the QM9700 rail design at 36,928 GPUs.
// Its 1,154 spines and 577 cores stand 40 to a rack (1U each in 40 free
// U), 29 + 15 = 44 racks in 3 network rows of at most 20; kept together
// in one block, a spine-core run is at most 2 x 2.4 m up and down to
// the tray, 19 x 0.6 m along a row, two row pitches (1.1 + 1.2 and 1.1
// + 0.91 m) across and 2 m slack: 22.51 m, sold at 30 m or less, on
// multimode or copper. And a server more never costs less (a buyer
// builds the smaller cluster as the bigger one less a server) at
// issue 45's cases: 39,624 GPUs were $3.6M dearer than 39,632 (a core
// rack row spilled to the next block's far end: 13,727 spine-core runs
// of 70 m on single-mode), 18,632 GPUs $376,000 dearer than 18,640
// (leaf-spine runs across the hall on single-mode, the network rows at
// a block's end). Mutation caught: the network rows set after half the
// compute rows with a block free to start on one (36,928 GPUs: the
// last network row in the next block, spine-core runs of 50 and 70 m).
func TestHallNetworkRowsTogether(t *testing.T) {
	for _, g := range []int{18_632, 36_928, 39_624} {
		var plans [2]*Plan
		for i := range plans {
			s := NewScenario()
			propertyConfigs()["qm9700 NDR rail"](&s)
			s.Cluster.GPUs = g + 8*i
			plans[i] = buildHall(t, s)
		}
		a, b := plans[0], plans[1]
		if b.Cost.Total < a.Cost.Total {
			t.Errorf("%d GPUs cost $%.0f, %d GPUs $%.0f: %v", a.GPUs, a.Cost.Total, b.GPUs, b.Cost.Total, bomMoves(a, b))
		}
		if g != 36_928 {
			continue
		}
		if a.Switches(TierSpine) != 1154 || a.Switches(TierCore) != 577 {
			t.Fatalf("%d spines, %d cores; the case is for 1,154 and 577", a.Switches(TierSpine), a.Switches(TierCore))
		}
		for _, l := range a.BOM {
			var m float64
			if l.Category != CatCable || !strings.HasPrefix(l.Where, TierSpine+"_"+TierCore) {
				continue
			}
			if _, err := fmtSscan(l.Where, &m); err != nil {
				t.Fatal(err)
			}
			if m > 30 || l.Key == "fiber" {
				t.Errorf("%d spine-core links on %s at %g m; the network rows' block bounds them at 30 m, multimode or copper", l.Qty, l.Key, m)
			}
		}
	}
}
