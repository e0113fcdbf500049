package planner

import (
	"encoding/json"
	"fmt"
	"testing"

	"fabricplan/planner/hall"
)

// walkedTally is the BOM pass as it was before the survey recorded its
// links: the fabric walked again, each measured link counted as it
// comes. The replay is checked against it.
func walkedTally(t *testing.T, p *Plan) *linkTally {
	t.Helper()
	tally := newLinkTally(p.media.sets.grid)
	if err := walkLinks(p, tally, true); err != nil {
		t.Fatal(err)
	}
	return tally
}

// walkLinks counts p's links into tally as they are walked (the server
// links too with servers).
func walkLinks(p *Plan, tally *linkTally, servers bool) error {
	sets := p.media.sets
	return p.walkCables(false, func(c *CableRun) error {
		i := tierIndex(c.Tier)
		if i == tierServerLeaf && !servers {
			return nil
		}
		tally.cables[cableGroup{i, c.Medium, c.Part, c.Metres}]++
		tally.links[i]++
		tally.runSum[i] += c.Metres
		if c.RunM > tally.longest[i].RunM+runTieM { // the first of the longest run
			tally.longest[i] = *c
		}
		if c.Medium == Optics || c.Medium == Multimode {
			m, mm := float32(c.Metres), c.Medium == Multimode
			a, b := sets.ends(i, c)
			tally.cage(a, cageUse{m, int8(i), false, i == 0, mm})
			tally.cage(b, cageUse{m, int8(i), true, false, mm})
		}
		return nil
	})
}

// replayCases are laid-out plans of every shipped scenario and of
// off-grid sizes, ratios, planes and styles in the default hall.
func replayCases(t *testing.T) map[string]Scenario {
	out := map[string]Scenario{}
	for _, name := range []string{"ib-ndr-1k", "gb300-nvl72-4k", "meta-roce-24k", "alibaba-hpn-pod", "rail-only-512", "dgx-h100-superpod-4su", "eth-800g-16k"} {
		out[name] = scenarioFile(t, name)
	}
	add := func(name string, gpus int, edit func(n *Network)) {
		s := ibScenario(gpus)
		s.Facility = &hall.Facility{}
		edit(&s.Network)
		out[name] = s
	}
	add("ndr-1000", 1000, func(*Network) {})
	add("ndr-3000-2to1", 3000, func(n *Network) { n.Oversubscription = "2:1" })
	add("ndr-10369-3tiers", 10369, func(n *Network) { n.Tiers = 3 })
	add("ndr-4104-2planes", 4104, func(n *Network) { n.Planes = 2 })
	add("ndr-1000-tor", 1000, func(n *Network) { n.RailOptimized = false })
	add("roce-2056", 2056, func(n *Network) { n.Fabric, n.Switch, n.NIC = Ethernet, Auto, Auto })
	return out
}

// The BOM pass replays the survey's records instead of walking the
// fabric again; every figure it counts must be the walk's: cables by
// tier, medium, part and length; links and the sum of lengths per tier
// (added in walk order, so equal to the last bit); every cage's use
// (its longest link, tier, end, medium); each tier's longest link (the
// first of the longest in walk order, with its parts, run and racks).
// Mutations caught: a cage's ends swapped (upper and lower modules
// counted at the wrong end), the last group's count not added, the last
// of the longest links kept instead of the first, the survey's order
// not kept, a link counted before its set's medium is chosen, the run
// replayed as the length sold.
func TestLinkReplayMatchesWalk(t *testing.T) {
	cat := testCatalog(t)
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	for name, s := range replayCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Hall == nil || p.media == nil || p.media.sets == nil {
				t.Fatal("not laid out in a hall")
			}
			want := walkedTally(t, p)
			recs, err := p.chooseCageMedia(p.media.sets.grid, true)
			if err != nil {
				t.Fatal(err)
			}
			got := newLinkTally(p.media.sets.grid)
			if err := recs.replay(p, got); err != nil {
				t.Fatal(err)
			}
			compareTallies(t, got, want)
		})
	}
}

func compareTallies(t *testing.T, got, want *linkTally) {
	t.Helper()
	if len(got.cables) != len(want.cables) {
		t.Errorf("%d cable groups, the walk has %d", len(got.cables), len(want.cables))
	}
	for g, n := range want.cables {
		if got.cables[g] != n {
			t.Errorf("group %+v: %d links, the walk has %d", g, got.cables[g], n)
		}
	}
	if got.links != want.links || got.runSum != want.runSum {
		t.Errorf("links %v, lengths %v; the walk has %v, %v", got.links, got.runSum, want.links, want.runSum)
	}
	if len(got.cages) != len(want.cages) {
		t.Fatalf("%d cages, the walk has %d", len(got.cages), len(want.cages))
	}
	for i := range want.cages {
		if got.use(i) != want.use(i) {
			t.Fatalf("cage %d: %+v, the walk has %+v", i, got.use(i), want.use(i))
		}
	}
	for i, w := range want.longest {
		g := got.longest[i]
		key := func(c CableRun) string {
			return fmt.Sprintf("%s %dG %s %s %s/%s %gm run %.6f %s(row %d)>%s(row %d) racks %d>%d",
				c.Tier, c.Gbps, c.Medium, c.Part, c.AModule, c.BModule, c.Metres, c.RunM, c.ARack, c.ARow, c.BRack, c.BRow, c.aRack, c.bRack)
		}
		if key(g) != key(w) {
			t.Errorf("tier %d longest link %s, the walk's %s", i, key(g), key(w))
		}
	}
}

// Designs a search lays out in the hall, built one after another with
// the BOM pass replayed, answer as when every laid-out design walks its
// fabric twice: the same pricing, cost, low cost, power, links and JCT,
// over the styles and planes a search tries, on off-grid sizes (1,000,
// 3,000 at 2:1, 24,577 GPUs, GB300 NVL72 at 4,032) priced in the hall.
// (The search itself stands above the facade, in planner/explore.)
// Mutations caught: a replayed count that differs from the walk's (the
// last group's links not added: fewer cables, a lower cost), and
// records kept across walks in the pool (a released buffer's links
// replayed again by the next design).
func TestLaidOutDesignsReplayMatchPlainWalk(t *testing.T) {
	cat := testCatalog(t)
	gpus := func(n int) Scenario {
		s := NewScenario()
		s.Cluster.GPUs = n
		return s
	}
	gb300 := scenarioFile(t, "gb300-nvl72-4k")
	gb300.Cluster.GPUs = 4032
	ratio := gpus(3000)
	ratio.Network.Oversubscription = "2:1"
	for name, s := range map[string]Scenario{"1000": gpus(1000), "3000-2to1": ratio, "24577": gpus(24577), "gb300-4032": gb300} {
		t.Run(name, func(t *testing.T) {
			var designs []Scenario
			for _, style := range []string{TopoRailOptimized, TopoToR, TopoRailOnly} {
				for _, planes := range []int{1, 2} {
					v := s.Clone()
					v.Network.Topology, v.Network.Planes = style, planes
					designs = append(designs, v)
				}
			}
			laid := 0
			figures := func() []string {
				forgetHalls()
				laid = 0
				var out []string
				for _, d := range designs {
					p, err := Build(d, cat)
					if err != nil {
						out = append(out, "error: "+err.Error())
						continue
					}
					days := 0.0
					if p.JCT != nil {
						days = p.JCT.Planned.Days
					}
					if p.Hall != nil {
						laid++
					}
					out = append(out, fmt.Sprintf("%s/%d: hall %v $%.2f low $%.2f %.3f W %d links %.9g days",
						d.Network.Topology, d.Network.Planes, p.Hall != nil, p.Cost.Total, p.Cost.LowUSD, p.Power.Total, p.Links.Total, days))
				}
				return out
			}
			fast := figures()
			replay := countLinks
			countLinks = func(p *Plan, _ *linkRecords, tally *linkTally) error {
				return walkLinks(p, tally, !p.media.sets.counted)
			}
			plain := figures()
			countLinks = replay
			if laid < 2 {
				t.Fatalf("only %d designs laid out in the hall", laid)
			}
			for i := range fast {
				if fast[i] != plain[i] {
					t.Errorf("%s; the plain walk %s", fast[i], plain[i])
				}
			}
		})
	}
}

// Each switch tier's cages are numbered after the tier before's, each
// switch with its own tier's count: by hand, 3 servers of 2 cages, 4
// leaves of 5, 2 spines of 40 (a chassis), 1 core of 9: 6 + 20 + 80 +
// 9 = 115 cages; leaf 2 (device 5) starts at 6 + 2*5 = 16, spine 1
// (device 8) at 26 + 40 = 66, the core (device 9) at 106. Mutations
// caught: every switch given the largest tier's cages (the grid 6 +
// 7*40), a tier's first device taken as the next tier's, the base of a
// tier not moved past the tier before.
func TestCageGridPerTier(t *testing.T) {
	g := newCageGrid(3, 2, [3]int{4, 2, 1}, [3]int{5, 40, 9})
	if g.size != 115 {
		t.Errorf("%d cages, want 115", g.size)
	}
	for _, c := range []struct{ dev, cage, want int }{
		{0, 0, 0}, {2, 1, 5}, {3, 0, 6}, {5, 0, 16}, {6, 4, 25}, {7, 0, 26}, {8, 0, 66}, {8, 39, 105}, {9, 0, 106}, {9, 8, 114},
	} {
		if got := g.index(c.dev, c.cage); got != c.want {
			t.Errorf("device %d cage %d: %d, want %d", c.dev, c.cage, got, c.want)
		}
	}
}

// Past recordLinksMax the survey keeps no records and the BOM pass walks
// the fabric again (rewalk): it must count what the replay counts, the
// server links counted by unit or walked, and a plan built either way
// must answer the same to the last digit (cost, power, the hall's
// figures: cable kilometres, length bins, longest links). Mutations
// caught: the walk again taking the server links when the sets counted
// them (more links), a link's cages swapped (modules at the wrong end),
// the last of the longest links kept instead of the first, the last
// group's count not added.
func TestRewalkMatchesReplay(t *testing.T) {
	cat := testCatalog(t)
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	figures := func(t *testing.T, s Scenario) string {
		t.Helper()
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Hall == nil {
			t.Fatal("not laid out in a hall")
		}
		js, err := json.Marshal(p.Hall.Figures)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("$%.6f low $%.6f %.6f W %d links %v\n%s", p.Cost.Total, p.Cost.LowUSD, p.Power.Total, p.Links.Total, p.LinkTiers, js)
	}
	for name, s := range replayCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			for _, servers := range []bool{false, true} {
				recs, err := p.chooseCageMedia(p.media.sets.grid, servers)
				if err != nil {
					t.Fatal(err)
				}
				want := newLinkTally(p.media.sets.grid)
				if err := recs.replay(p, want); err != nil {
					t.Fatal(err)
				}
				got := newLinkTally(p.media.sets.grid)
				if err := rewalk(p, got); err != nil {
					t.Fatal(err)
				}
				compareTallies(t, got, want)
			}
			replayed := figures(t, s)
			defer func(n int) { recordLinksMax = n }(recordLinksMax)
			recordLinksMax = 0
			if walked := figures(t, s); walked != replayed {
				t.Errorf("walked again:\n%s\nreplayed:\n%s", walked, replayed)
			}
		})
	}
}

// A tally keeps each cage's longest link's use, as an index into its
// distinct uses: by hand, cage 0 gets a 5 m lower-end use then a 5 m
// upper-end one (equal lengths: the first stays), cage 1 the upper 5 m,
// a 30 m multimode and a 5 m lower (the 30 m stays), cage 2 the upper
// 5 m only; three distinct uses besides none. Mutations caught: an
// equal length replacing the use kept, the latest use found reused for
// a different one, a use added twice to the table.
func TestLinkTallyKeepsLongestUse(t *testing.T) {
	tl := newLinkTally(newCageGrid(0, 0, [3]int{4, 0, 0}, [3]int{1, 0, 0}))
	lower := cageUse{metres: 5, tier: tierLeafSpine}
	upper := cageUse{metres: 5, tier: tierLeafSpine, upper: true}
	long := cageUse{metres: 30, tier: tierLeafSpine, mm: true}
	tl.cage(0, lower)
	tl.cage(0, upper)
	tl.cage(1, upper)
	tl.cage(1, long)
	tl.cage(1, lower)
	tl.cage(2, upper)
	for i, want := range []cageUse{lower, long, upper, {}} {
		if got := tl.use(i); got != want {
			t.Errorf("cage %d: %+v, want %+v", i, got, want)
		}
	}
	if len(tl.uses) != 4 {
		t.Errorf("%d uses in the table, want 4 (none and three)", len(tl.uses))
	}
}
