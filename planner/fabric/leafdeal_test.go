package fabric

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// leafLink is one uplink of a LeafDeal: its leaf (walk order), its
// index among the leaf's, its spine and port, and whether it is an edge
// link (neither in a whole cage nor in a block).
type leafLink struct {
	leaf, k, spine, port int
	edge                 bool
}

// dealPod deals the leaves of one pod of run pr as the walk does.
func dealPod(pr PodRun, deal int) []leafLink {
	var d LeafDeal
	d.Start(pr, deal)
	var out []leafLink
	leaf := 0
	for _, ld := range pr.Leaves {
		for range ld.Switches {
			l := d.Leaf(ld.Up)
			for k := range ld.Up {
				x, p := l.Next()
				out = append(out, leafLink{leaf, k, x, p, deal > 1 && l.phase == 2})
			}
			leaf++
		}
	}
	return out
}

// TestLeafDealByHand: a pod of 4 spines, twin-port cages, leaves A, E
// and C sending 2, 3 and 4 links from bases 0, 2 and 1 (A spines 0-1, E
// 2, 3 and 0, C all four, as dealt one at a time). A covers block 0
// (spines 0-1), E block 1 and spine 0 as an edge link, C both blocks. A
// spine's block links come before its edge links: spine 0 takes A (port
// 0), C (1), then E (2); spines 0 and 1 each pair A with C, 2 and 3 E
// with C, and C's cages hold spines 0-1 and 2-3: closed sets of four.
// Mutations caught: the edge links not kept after the blocks' (spine 0
// takes A, E, C in arrival order: C's link on port 2, its cage chained
// to E's); a run of blocks started at the leaf's base or a spine late
// (C's from spine 1: spines 1-2 in a cage, a block split, and past the
// pod's last spine).
func TestLeafDealByHand(t *testing.T) {
	pr := PodRun{Count: 1, Spines: 4, Leaves: []Load{{1, 0, 2}, {1, 0, 3}, {1, 0, 4}}}
	want := []leafLink{
		{0, 0, 0, 0, false}, {0, 1, 1, 0, false},
		{1, 0, 2, 0, false}, {1, 1, 3, 0, false}, {1, 2, 0, 2, true},
		{2, 0, 0, 1, false}, {2, 1, 1, 1, false}, {2, 2, 2, 1, false}, {2, 3, 3, 1, false},
	}
	if got := dealPod(pr, 2); !slices.Equal(got, want) {
		t.Errorf("dealt %v\nwant %v", got, want)
	}
	// Two leaves sending 6 links each, one 3, to 4 spines: whole cages
	// (two links to one spine) first, spine by spine from the base.
	pr = PodRun{Count: 1, Spines: 4, Leaves: []Load{{2, 0, 6}, {1, 0, 3}}}
	want = []leafLink{
		{0, 0, 0, 0, false}, {0, 1, 0, 1, false}, {0, 2, 1, 0, false}, {0, 3, 1, 1, false}, {0, 4, 2, 2, false}, {0, 5, 3, 2, false},
		{1, 0, 2, 0, false}, {1, 1, 2, 1, false}, {1, 2, 3, 0, false}, {1, 3, 3, 1, false}, {1, 4, 0, 2, false}, {1, 5, 1, 2, false},
		{2, 0, 0, 3, false}, {2, 1, 1, 3, false}, {2, 2, 2, 3, true},
	}
	if got := dealPod(pr, 2); !slices.Equal(got, want) {
		t.Errorf("dealt %v\nwant %v", got, want)
	}
}

// roundRobin is the pod's links dealt one at a time: leaf link k to
// spine base+k, a spine's ports in arrival order.
func roundRobin(pr PodRun) []leafLink {
	n, base, leaf := pr.Spines, 0, 0
	next := make([]int, n)
	var out []leafLink
	for _, ld := range pr.Leaves {
		for range ld.Switches {
			for k := range ld.Up {
				x := (base + k) % n
				out = append(out, leafLink{leaf, k, x, next[x], false})
				next[x]++
			}
			base = (base + ld.Up) % n
			leaf++
		}
	}
	return out
}

// cageSets joins the links' cages (a leaf's deal uplinks a cage, a
// spine's deal ports a cage) into sets and returns, for each link, its
// set's size and whether the set holds an edge link.
func cageSets(links []leafLink, deal int) (size []int, edged []bool) {
	up := map[[3]int][3]int{}
	var find func(x [3]int) [3]int
	find = func(x [3]int) [3]int {
		p, ok := up[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		up[x] = r
		return r
	}
	cages := func(l leafLink) (a, b [3]int) {
		return [3]int{0, l.leaf, l.k / deal}, [3]int{1, l.spine, l.port / deal}
	}
	for _, l := range links {
		a, b := cages(l)
		ra, rb := find(a), find(b)
		up[ra], up[rb] = ra, ra
	}
	n, e := map[[3]int]int{}, map[[3]int]bool{}
	for _, l := range links {
		a, _ := cages(l)
		r := find(a)
		n[r]++
		e[r] = e[r] || l.edge
	}
	size, edged = make([]int, len(links)), make([]bool, len(links))
	for i, l := range links {
		a, _ := cages(l)
		size[i], edged[i] = n[find(a)], e[find(a)]
	}
	return size, edged
}

// TestLeafDealProperties over pods of odd shapes (odd and even spines,
// leaves sending fewer links than spines, as many, and up to three
// rounds and more): each leaf sends each spine what dealing one at a
// time sends; each spine's ports are 0 to its links-1, each once; dealt
// one at a time (deal 1), the walk's round robin port for port, and so
// with twin-port cages where every leaf sends every spine one link over
// an even count of spines (reference designs' full pods); and every cage
// set holding no edge link is one whole cage (deal links) or one block's
// cages (at most deal leaves by its deal spines). Mutations caught: the
// block links' ports started at the whole cages' (two links on one
// port); a run of blocks started at the leaf's base.
func TestLeafDealProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 3))
	for trial := range 400 {
		n := 1 + rng.IntN(13)
		deal := []int{1, 2, 2, 2, 4}[rng.IntN(5)]
		pr := PodRun{Count: 1, Spines: n}
		for range 1 + rng.IntN(5) {
			pr.Leaves = append(pr.Leaves, Load{Switches: 1 + rng.IntN(4), Up: 1 + rng.IntN(3*n+2)})
		}
		got, rr := dealPod(pr, deal), roundRobin(pr)
		if len(got) != len(rr) {
			t.Fatalf("trial %d %+v deal %d: %d links, want %d", trial, pr, deal, len(got), len(rr))
		}
		pairs := func(ls []leafLink) map[[2]int]int {
			m := map[[2]int]int{}
			for _, l := range ls {
				m[[2]int{l.leaf, l.spine}]++
			}
			return m
		}
		pg, pw := pairs(got), pairs(rr)
		for k, v := range pw {
			if pg[k] != v {
				t.Errorf("trial %d %+v deal %d: leaf %d sends spine %d %d links, one at a time %d", trial, pr, deal, k[0], k[1], pg[k], v)
			}
		}
		ports := make([][]int, n)
		for _, l := range got {
			ports[l.spine] = append(ports[l.spine], l.port)
		}
		for x, ps := range ports {
			slices.Sort(ps)
			for i, p := range ps {
				if p != i {
					t.Fatalf("trial %d %+v deal %d: spine %d ports %v, want 0 to %d", trial, pr, deal, x, ps, len(ps)-1)
				}
			}
		}
		if deal == 1 && !slices.Equal(got, rr) {
			t.Errorf("trial %d %+v: dealt one at a time %v, round robin %v", trial, pr, got, rr)
		}
		if deal == 1 {
			continue
		}
		sizes, edged := cageSets(got, deal)
		for i, l := range got {
			if !edged[i] && (sizes[i]%deal != 0 || sizes[i] > deal*deal) {
				t.Errorf("trial %d %+v deal %d: link %+v in a set of %d links with no edge link", trial, pr, deal, l, sizes[i])
			}
		}
	}
	// Reference full pods: every leaf sends every spine one link.
	for _, tc := range []struct{ leaves, spines int }{{32, 32}, {8, 16}, {128, 128}, {5, 6}} {
		pr := PodRun{Count: 1, Spines: tc.spines, Leaves: []Load{{tc.leaves, tc.spines, tc.spines}}}
		if got, rr := dealPod(pr, 2), roundRobin(pr); !slices.Equal(stripEdge(got), rr) {
			t.Errorf("%d leaves, %d spines: dealt by cages unlike one at a time", tc.leaves, tc.spines)
		}
	}
}

// stripEdge is links with no edge marks.
func stripEdge(ls []leafLink) []leafLink {
	out := slices.Clone(ls)
	for i := range out {
		out[i].edge = false
	}
	return out
}
