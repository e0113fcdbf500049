package fabric

import (
	"slices"
	"testing"
)

// dealt is one link of a CageDeal: its spine (walk order), the link's
// index among the spine's, its core and its port there.
type dealt struct{ spine, u, core, port int }

// dealGroup deals one group of run r of lay as the walk does (spine index
// by spine index, pod by pod) and returns its links in walk order.
func dealGroup(lay Layout, r CoreRun) []dealt {
	d := lay.DealOf(r)
	var out []dealt
	spine := 0
	for k := range r.SpineCount() {
		for i, pr := range lay.Pods {
			ups := r.UpAt(k, i)
			if ups == 0 {
				continue
			}
			for range pr.Count {
				sd := d.Spine(ups)
				for u := range ups {
					c, p := sd.Link(u)
					out = append(out, dealt{spine, u, c, p})
				}
				spine++
			}
		}
	}
	return out
}

// TestCageDealByHand: spine j of two full pods sends 3 links, of a
// partial pod 1, to a group of 3 cores of twin-port cages. Each spine's
// whole cage (links 0 and 1) goes first, one core cage each: pod 0's to
// core 0 (ports 0, 1), pod 1's to core 1 (0, 1); then the odd links,
// two a core cage: pod 0's and pod 1's to core 2 (0, 1), the partial
// pod's to core 0 (2), as DealLinks(7, 3, 2) counts (3, 2, 2). Mutation
// caught: links dealt in walk order (positions 0 to 6 as walked): pod
// 1's cage split over cores 1 and 2, the chain of cages the falls of
// issue 45 came from.
func TestCageDealByHand(t *testing.T) {
	lay := Layout{Pods: []PodRun{{Count: 2}, {Count: 1}}}
	r := CoreRun{Groups: 1, Cores: 3, Spines: 1, SpineUp: []int{3, 1}, Deal: 2}
	want := []dealt{{0, 0, 0, 0}, {0, 1, 0, 1}, {0, 2, 2, 0}, {1, 0, 1, 0}, {1, 1, 1, 1}, {1, 2, 2, 1}, {2, 0, 0, 2}}
	if got := dealGroup(lay, r); !slices.Equal(got, want) {
		t.Errorf("dealt %v, want %v", got, want)
	}
}

// TestCageDealProperties over groups of odd shapes: every core takes
// what DealLinks counts, on its ports from 0 each once; every whole
// cage of a spine lands on one core cage; a spine's links to the cores
// it reaches differ by at most 2 x deal - 1 (its whole cages by deal,
// its odd links apart). Mutation caught: the odd links' positions
// started at the whole cages' (two links on one port).
func TestCageDealProperties(t *testing.T) {
	for _, tc := range []struct {
		counts, ups []int
		spines      int
		cores, deal int
	}{
		{[]int{10, 1}, []int{32, 27}, 9, 49, 2},
		{[]int{10, 1}, []int{32, 28}, 6, 33, 2},
		{[]int{3, 1}, []int{27, 13}, 2, 11, 2},
		{[]int{5}, []int{7}, 3, 4, 2},
		{[]int{4, 1}, []int{9, 5}, 3, 7, 4},
		{[]int{2, 1}, []int{5, 3}, 1, 3, 1},
	} {
		lay := Layout{}
		for _, c := range tc.counts {
			lay.Pods = append(lay.Pods, PodRun{Count: c})
		}
		r := CoreRun{Groups: 1, Cores: tc.cores, Spines: tc.spines, SpineUp: tc.ups, Deal: tc.deal}
		links := 0
		for i, c := range tc.counts {
			links += c * tc.spines * tc.ups[i]
		}
		got := dealGroup(lay, r)
		per := make([]int, tc.cores)
		ports := map[[2]int]bool{}
		cage := map[[2]int][2]int{} // spine and its cage -> core and core cage
		reach := map[[2]int]int{}   // spine and core -> links
		for _, l := range got {
			per[l.core]++
			if ports[[2]int{l.core, l.port}] {
				t.Fatalf("%+v: core %d port %d taken twice", tc, l.core, l.port)
			}
			ports[[2]int{l.core, l.port}] = true
			reach[[2]int{l.spine, l.core}]++
			if ups := spineUps(lay, r, l.spine); l.u >= ups-ups%tc.deal {
				continue // an odd link
			}
			k := [2]int{l.spine, l.u / tc.deal}
			at := [2]int{l.core, l.port / tc.deal}
			if c, ok := cage[k]; ok && c != at {
				t.Errorf("%+v: spine %d's cage %d on core cages %v and %v", tc, l.spine, k[1], c, at)
			}
			cage[k] = at
		}
		if len(got) != links {
			t.Fatalf("%+v: %d links dealt, want %d", tc, len(got), links)
		}
		for p := range ports {
			if p[1] >= per[p[0]] {
				t.Errorf("%+v: core %d port %d with %d links", tc, p[0], p[1], per[p[0]])
			}
		}
		var loads []int
		for _, l := range DealLinks(links, tc.cores, tc.deal) {
			for range l.Switches {
				loads = append(loads, l.Down)
			}
		}
		slices.Sort(loads)
		slices.Sort(per)
		if !slices.Equal(per, loads) {
			t.Errorf("%+v: cores take %v, DealLinks counts %v", tc, per, loads)
		}
		lo, hi := map[int]int{}, map[int]int{}
		for k, n := range reach {
			if v, ok := lo[k[0]]; !ok || n < v {
				lo[k[0]] = n
			}
			hi[k[0]] = max(hi[k[0]], n)
		}
		for s := range hi {
			if hi[s]-lo[s] > DealtSpread(tc.deal) {
				t.Errorf("%+v: spine %d's links to the cores it reaches from %d to %d", tc, s, lo[s], hi[s])
			}
		}
	}
}

// spineUps is the links the s-th spine dealGroup walks sends.
func spineUps(lay Layout, r CoreRun, s int) int {
	for k := range r.SpineCount() {
		for i, pr := range lay.Pods {
			ups := r.UpAt(k, i)
			if ups == 0 {
				continue
			}
			if s < pr.Count {
				return ups
			}
			s -= pr.Count
		}
	}
	return 0
}
