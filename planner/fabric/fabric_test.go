package fabric

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestSizeHandCounts sizes planes worked by hand, off the power-of-two
// grid (100 and 9 servers, a 40-port switch), one case per tier count.
//
//   - one switch: 8 servers x 8 rails = 64 ports fit one 64-port switch.
//   - two tiers, 100 servers x 8 rails, 64 ports, 32 down and 32 up (1:1),
//     rail-optimized: a unit is 32 servers on 8 leaves; 3 full units (24
//     leaves of 32 down, 32 up) and a partial one of 4 servers (8 leaves
//     of 4 down, 4 up at 1:1). Uplinks 24x32 + 8x4 = 800; 800/64 -> 13
//     spines carry them but 32 uplinks do not split evenly over 13; the
//     first count that divides 32 is 16 (3 more, within one unit's 8x32/64
//     = 4), so 16 spines, balanced, 800 leaf-spine links. The partial
//     unit's headroom is its 8 leaves' 28 empty server ports: 224.
//   - top-of-rack, 9 servers x 2 rails on a 40-port switch split 20:20:
//     the 18 server ports fit one 40-port switch, so one tier (the leaf
//     split applies only when a second tier is needed).
//   - three tiers forced, 64 servers x 1 rail, 8 ports 4:4, not
//     rail-optimized: a leaf serves 4 servers (16 leaves, 4 up each); a
//     spine has 4 down and 4 up, so a pod is 4 leaves (16 uplinks) on 4
//     spines of 4 links; 4 pods, 16 spines; core group j joins spine j of
//     the 4 pods, 16 links on 8-port cores: 2 per group, 8 cores; 64
//     leaf-spine and 64 spine-core links.
//
// Mutations caught: a partial unit given a full leaf's uplinks (896
// links), strict balance dropped (13 spines), the unit bound off by a
// unit (spines past 16 or near wiring), a ToR leaf counted per rail, a
// pod sized on the whole radix (8 leaves per pod) or cores on the spines'
// down ports.
func TestSizeHandCounts(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		// tiers, leaves, spines, cores, leaf-spine, spine-core links, server links
		want     string
		wiring   string
		headroom int // ports
	}{
		{"one switch", Spec{Servers: 8, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true},
			"1 1 0 0 0 0 64", "", 0},
		{"two tiers, partial unit", Spec{Servers: 100, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true},
			"2 32 16 0 800 0 800", WiringBalanced, 224},
		{"top of rack, one switch", Spec{Servers: 9, Rails: 2, Radix: 40, Down: 20, Up: 20, RatioD: 1, RatioU: 1},
			"1 1 0 0 0 0 18", "", 0},
		{"three tiers forced", Spec{Servers: 64, Rails: 1, Radix: 8, Down: 4, Up: 4, RatioD: 1, RatioU: 1, Tiers: 3},
			"3 16 16 8 64 64 64", WiringBalanced, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pl, err := Size(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(pl.Tiers, CountSwitches(pl.LeafLoads), CountSwitches(pl.SpineLoads), CountSwitches(pl.CoreLoads),
				pl.LeafSpine, pl.SpineCore, pl.ServerLeaf)
			if got != tc.want {
				t.Errorf("tiers leaves spines cores leaf-spine spine-core server = %s, want %s", got, tc.want)
			}
			if pl.SpineWiring != tc.wiring {
				t.Errorf("spine wiring %q, want %q", pl.SpineWiring, tc.wiring)
			}
			ports := 0
			for _, h := range pl.Headroom {
				ports += h.Ports
			}
			if ports != tc.headroom {
				t.Errorf("headroom ports %d, want %d (%+v)", ports, tc.headroom, pl.Headroom)
			}
		})
	}
}

// TestSizeRefusals: a plane that does not fit the tiers asked says how
// many, and a top-of-rack leaf with fewer server ports than a server has
// ports in the plane is refused. Mutations caught: NoFitError carrying
// the wrong tier count, one tier accepted past the radix, the ToR check
// dropped (a leaf serving zero servers, a division by zero).
func TestSizeRefusals(t *testing.T) {
	cases := []struct {
		name  string
		spec  Spec
		tiers int // 0: not a NoFitError
	}{
		{"65 ports on one 64-port switch", Spec{Servers: 65, Rails: 1, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, Tiers: 1}, 1},
		{"two tiers of 8 ports hold 32, not 33", Spec{Servers: 33, Rails: 1, Radix: 8, Down: 4, Up: 4, RatioD: 1, RatioU: 1, Tiers: 2}, 2},
		{"ToR leaf narrower than a server", Spec{Servers: 40, Rails: 8, Radix: 8, Down: 4, Up: 4, RatioD: 1, RatioU: 1}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Size(tc.spec)
			if err == nil {
				t.Fatal("sized; want an error")
			}
			var nf NoFitError
			if got := errors.As(err, &nf); got != (tc.tiers > 0) || nf.Tiers != tc.tiers {
				t.Errorf("error %v (no-fit %v, tiers %d); want no-fit in %d tiers", err, got, nf.Tiers, tc.tiers)
			}
		})
	}
}

// TestGroupDigits holds the headroom text's counts to the app's
// grouping (internal/textfmt.Int): commas every three digits from the
// right, sign kept. Mutations caught: grouping from the left ("163,84"),
// a leading comma at a multiple of three digits (",100"), the sign
// counted as a digit.
func TestGroupDigits(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {16384, "16,384"}, {100000, "100,000"},
		{1234567, "1,234,567"}, {-1234, "-1,234"}, {-100, "-100"},
	}
	for _, tc := range cases {
		if got := groupDigits(tc.n); got != tc.want {
			t.Errorf("groupDigits(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// chunkPods cuts runs of leaves into pods, joining alike pods, and reuses
// the leaves of a pod it joined for the next one: a pod it kept keeps its
// leaves. Hand-cut, 2 leaves a pod: 4 leaves of 32+32 and one of 16+16
// are two pods of 2x(32+32) and one of 1x(16+16); 2 of 32+32, then 1
// of 16+16 and 1 of 8+8 are two pods. Mutation caught: the leaves of a
// kept pod reused for the next (its runs overwritten).
func TestChunkPods(t *testing.T) {
	a, b, c := Load{Down: 32, Up: 32}, Load{Down: 16, Up: 16}, Load{Down: 8, Up: 8}
	with := func(l Load, n int) Load { l.Switches = n; return l }
	for _, tc := range []struct {
		name string
		runs []Load
		want []leafPod
	}{
		{"joined, then kept", []Load{with(a, 4), with(b, 1)},
			[]leafPod{{2, []Load{with(a, 2)}}, {1, []Load{with(b, 1)}}}},
		{"kept, then kept", []Load{with(a, 2), with(b, 1), with(c, 1)},
			[]leafPod{{1, []Load{with(a, 2)}}, {1, []Load{with(b, 1), with(c, 1)}}}},
		{"joined twice, then kept", []Load{with(a, 6), with(b, 2)},
			[]leafPod{{3, []Load{with(a, 2)}}, {1, []Load{with(b, 2)}}}},
	} {
		if got := chunkPods(tc.runs, 2, 1); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSpineRunAt walks spread runs of 3 spines of 5 links and 2 of 4
// (SpreadLinks(23, 5)) by hand: indices 0-2 take 5 links and their run
// ends at 3, 3-4 take 4 and end at 5; past the runs, no links. Mutations
// caught: the end of the run before (start, not start + switches: the
// core-group walk would not advance), the next run's links at a run's
// last index (j <= start + switches), and an index past the runs given
// the last run's links.
func TestSpineRunAt(t *testing.T) {
	runs := []Load{{3, 5, 0}, {2, 4, 0}}
	for _, tc := range []struct{ j, down, end int }{
		{0, 5, 3}, {2, 5, 3}, {3, 4, 5}, {4, 4, 5}, {5, 0, 6},
	} {
		if d, e := spineRunAt(runs, tc.j); d != tc.down || e != tc.end {
			t.Errorf("spineRunAt(j=%d) = %d links, run ends %d; want %d, %d", tc.j, d, e, tc.down, tc.end)
		}
	}
}

// TestPartialUnitText writes the partial unit's headroom and note for
// TestSizeHandCounts' two-tier plane worked by hand: 100 servers on units
// of 32 leave 4 in the partial unit, whose 8 leaves have 4 server ports
// and 4 uplinks at 1:1 (a full leaf 32) over 16 spines, so each reaches
// 4 of them; the headroom is 8 x 28 = 224 empty ports. Mutations caught:
// the numbers swapped or dropped as the text is built without fmt (the
// units' servers for the partial's, the full leaf's uplinks for the
// partial's), the reach clause left out or written when a partial leaf
// reaches every spine.
func TestPartialUnitText(t *testing.T) {
	spec := Spec{Servers: 100, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true}
	pl, err := Size(spec)
	if err != nil {
		t.Fatal(err)
	}
	wantHead := Headroom{Tier: TierLeaf, Ports: 224, Reason: "the partial scalable unit has 4 of 32 servers: its leaves' empty server ports, for growth"}
	if len(pl.Headroom) != 1 || pl.Headroom[0] != wantHead {
		t.Errorf("headroom %+v, want [%+v]", pl.Headroom, wantHead)
	}
	note := PartialLeafNote(pl, spec.Up, "1:1")
	want := "the partial scalable unit's leaves have 4 server ports and the 4 uplinks they need at 1:1, one link to each of 4 of the 16 spines (a full leaf has 32)"
	if len(note) != 1 || note[0] != want {
		t.Errorf("note %q, want %q", note, want)
	}
	pl.SpinesPerPod = 4 // a partial leaf with as many uplinks as spines reaches each
	want = "the partial scalable unit's leaves have 4 server ports and the 4 uplinks they need at 1:1 (a full leaf has 32)"
	if note := PartialLeafNote(pl, spec.Up, "1:1"); len(note) != 1 || note[0] != want {
		t.Errorf("with 4 spines: note %q, want %q", note, want)
	}
}

// TestFewestCores joins spine indices into core groups by hand (links per
// spine index, 128-port cores): 5 indices of 64 links in pairs are 2
// groups of 128 links and one of 64, 3 cores, the floor of 320/128, at
// m = 2; 3 indices of 80 links need 3 cores alone or in a pair and a
// single (2 + 1), but 2 when all three join (240 links); 4 of 64 reach
// the floor of 2 at m = 2 and again at m = 4, the smaller kept.
//
// Ties are broken by half-used cages, twin-port cages (deal 2), on
// 256-port cores: 96 indices of 1,785 links (6.97 cores each) take 7
// cores an index whatever m (up to 36, past which a group needs 258
// cores), 672; alone each group's 1,785 links leave a cage half used,
// in pairs (3,570) none: m = 2. Dealt one at a time no cage is half
// used and the smallest m, 1, is kept. 3 indices of 85 links on 128
// ports: a core each alone (3), a pair and a single (2 + 1), all three
// together on 2 (255 links), the floor, one cage half used, which no m
// avoids (255 is odd).
//
// Mutations caught: the search stopped at the first m that does not
// improve (3 cores for the 80-link case), the floor taken without
// rounding up, a tie won by the larger m, ties not broken by half-used
// cages (m = 1 for 1,785 links), the search run on past the floor when
// every m leaves a cage half used (no harm) or stopped at the floor
// with cages half used that a larger m avoids.
func TestFewestCores(t *testing.T) {
	for _, tc := range []struct{ groups, links, radix, deal, m, cores int }{
		{5, 64, 128, 2, 2, 3},
		{3, 80, 128, 2, 3, 2},
		{4, 64, 128, 2, 2, 2},
		{1, 200, 128, 2, 1, 2},
		{96, 1785, 256, 2, 2, 672},
		{96, 1785, 256, 1, 1, 672},
		{3, 85, 128, 2, 3, 2},
	} {
		if m, n := fewestCores(tc.groups, tc.links, tc.radix, tc.deal); m != tc.m || n != tc.cores {
			t.Errorf("fewestCores(%d groups of %d links on %d ports, deal %d) = m %d, %d cores; want %d, %d", tc.groups, tc.links, tc.radix, tc.deal, m, n, tc.m, tc.cores)
		}
	}
}

// TestCoresAcrossKinds sizes near-balanced core groups over kinds of
// spine index by hand, on 64-port cores, each spine with 32 ports up:
//
//   - 13,584 DGX H100 on QM9700: 13 full pods of 32 spines sending 32
//     links each, and a partial pod whose 16 spines send 18 (the first
//     8) or 17: spine indices of 434 links (8), 433 (8) and 416 (16),
//     13,592 links, 213 cores at least (212.4). Kind by kind: 434 x 5 =
//     2,170 links on 34 cores and 434 x 3 = 1,302 on 21, the same for
//     433, and 416 x 2 = 832 on 13 (8 pairs, 104): 214. Fives across
//     the first two kinds: 5 x 434 = 2,170 on 34, 3 x 434 + 2 x 433 =
//     2,168 on 34, 5 x 433 = 2,165 on 34 and 433 on 7, 109; pairs in
//     the third: 213. Strict balance needs 8 cores an index (the
//     fewest from 7 that divide 32): 256, 43 more.
//
//   - 18,000 GPUs in two planes on QM9700: 8 full pods of 32 spines of
//     32 links, a partial pod's 32 spines sending 26 (8) or 25: indices
//     of 282 (8) and 281 (24), 9,000 links, 141 cores at least (140.6).
//     Kind by kind: pairs of 282 (564 on 9) x 4, fives of 281 (1,405
//     on 22) x 4 and a four (1,124 on 18): 142. Groups of one length
//     across both kinds make 142 too (twelves: 3,380 on 53, 3,372 on
//     53, 2,248 on 36). Cut each as suits it: 7 x 282 = 1,974 on 31,
//     282 + 4 x 281 = 1,406 on 22, four fives of 281 on 22: 141.
//
//     Strict balance: 8 cores an index again (5 at least, a divisor of
//     32): 256, 115 more.
//
// Mutations caught: kinds sized each on their own (214 and 142 cores),
// one group length over every kind (142 in the second case).
func TestCoresAcrossKinds(t *testing.T) {
	kindsOf := func(spec [][3]int) []groupKind {
		var out []groupKind
		for _, k := range spec { // full pods, their spines' links; the partial pod's (0: none); indices
			g := groupKind{lower: []Load{{k[0], 32, 32}}, present: []int{0}, groups: k[2]}
			if k[1] > 0 {
				g.lower, g.present = append(g.lower, Load{1, k[1], k[1]}), []int{0, 1}
			}
			out = append(out, g)
		}
		return out
	}
	spec := Spec{Radix: 64}
	for _, tc := range []struct {
		name         string
		kinds        [][3]int
		cores, extra int
		groupsOf     []int // spine indices of each group, in order
	}{
		{"13,584 DGX H100", [][3]int{{13, 18, 8}, {13, 17, 8}, {13, 0, 16}}, 213, 43,
			[]int{5, 5, 5, 1, 2, 2, 2, 2, 2, 2, 2, 2}},
		{"18,000 GPUs, two planes", [][3]int{{8, 26, 8}, {8, 25, 24}}, 141, 115,
			[]int{7, 5, 5, 5, 5, 5}},
	} {
		kinds := kindsOf(tc.kinds)
		sized, extra, ok := sizeCores(kinds, spec, 32)
		if !ok {
			t.Fatalf("%s: no core tier", tc.name)
		}
		cores, per := 0, []int{}
		for _, g := range sized {
			n := g.spines
			for _, p := range g.more {
				n += p.spines
			}
			for range g.groups {
				per = append(per, n)
			}
			cores += g.groups * g.c.n
		}
		if cores != tc.cores || extra != tc.extra || !slices.Equal(per, tc.groupsOf) {
			t.Errorf("%s: %d cores, %d more for strict balance, groups of %v spine indices; want %d, %d, %v", tc.name, cores, extra, per, tc.cores, tc.extra, tc.groupsOf)
		}
	}
}

// TestReservedSlots sizes a partial unit beside node slots held for
// management hosts (NVIDIA's UFM slot), by hand on 64-port leaves of 32
// down and 32 up, rail-optimized, 8 rails:
//   - 127 servers, 1 slot: 3 full units and one of 31 servers; the slot
//     fills the unit, so its 8 leaves keep 32 uplinks (1,024 leaf-spine
//     links, as NVIDIA's 4-SU SuperPOD) and no headroom is listed.
//   - 100 servers, 1 slot: a unit of 4 servers and the slot, 5 uplinks a
//     leaf: 24 x 32 + 8 x 5 = 808 links; headroom 8 leaves x (32 - 5) =
//     216 ports, the reason naming the reserved slot.
//   - 100 servers, 2 slots: 6 uplinks a leaf, 816 links, 208 ports,
//     "2 node slots".
//   - 128 servers, 1 slot: every unit full; nothing is added (1,024).
//
// Mutations caught: the slots ignored (1,016 and 800 links); a slot added
// to a full unit (a 33rd uplink); the headroom counting the slot as empty
// (224); the plural left out.
func TestReservedSlots(t *testing.T) {
	for _, tc := range []struct {
		servers, slots, leafSpine, headroom int
		reason                              string
	}{
		{127, 1, 1024, 0, ""},
		{100, 1, 808, 216, "the partial scalable unit has 4 of 32 servers and 1 node slot reserved for management hosts: its leaves' empty server ports, for growth"},
		{100, 2, 816, 208, "the partial scalable unit has 4 of 32 servers and 2 node slots reserved for management hosts: its leaves' empty server ports, for growth"},
		{128, 1, 1024, 0, ""},
	} {
		spec := Spec{Servers: tc.servers, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true, ReservedSlots: tc.slots}
		pl, err := Size(spec)
		if err != nil {
			t.Fatal(err)
		}
		ports, reason := 0, ""
		for _, h := range pl.Headroom {
			if h.Tier == TierLeaf {
				ports, reason = ports+h.Ports, h.Reason
			}
		}
		if pl.LeafSpine != tc.leafSpine || ports != tc.headroom || reason != tc.reason {
			t.Errorf("%d servers, %d slots: %d leaf-spine links, leaf headroom %d %q; want %d, %d %q",
				tc.servers, tc.slots, pl.LeafSpine, ports, reason, tc.leafSpine, tc.headroom, tc.reason)
		}
	}
}

// TestDealLinks spreads a core group's links over its cores a cage at a
// time, by hand:
//   - 3,132 links (9 spine indices of 348) on 49 cores of 32 twin-port
//     cages: 1,566 pairs, 31 to each core and 47 cores one more: 47 of
//     64 links and 2 of 62, every cage full. One at a time: 45 of 64 and
//     4 of 63, four cages half used.
//   - 27 links on 11 cores, pairs: 13 pairs and a single, 14 deals; one
//     round of 11 and 3 more, the third of which is the single: 2 cores
//     of 4 links, 1 of 3, 8 of 2 (one cage half used, 14 modules; one at
//     a time, 5 of 3 and 6 of 2: 16).
//   - 9 links on 5 cores, pairs: 5 deals, the last the single, which
//     lands on the last core: 4 of 2 and 1 of 1.
//   - 0 links: every core empty; 7 on 3 dealt one at a time: SpreadLinks.
//
// Mutations caught: the single dealt as a whole pair (28 and 10 links
// counted), the last deal's core taken from the round robin of links
// (core r rather than r-1), deal ignored (one at a time).
func TestDealLinks(t *testing.T) {
	for _, tc := range []struct {
		links, n, deal int
		want           []Load
	}{
		{3132, 49, 2, []Load{{47, 64, 0}, {2, 62, 0}}},
		{27, 11, 2, []Load{{2, 4, 0}, {1, 3, 0}, {8, 2, 0}}},
		{9, 5, 2, []Load{{4, 2, 0}, {1, 1, 0}}},
		{0, 4, 2, []Load{{4, 0, 0}}},
		{7, 3, 1, []Load{{1, 3, 0}, {2, 2, 0}}},
		{7, 3, 0, []Load{{1, 3, 0}, {2, 2, 0}}},
	} {
		got := DealLinks(tc.links, tc.n, tc.deal)
		if !slices.Equal(got, tc.want) {
			t.Errorf("DealLinks(%d, %d, %d) = %v, want %v", tc.links, tc.n, tc.deal, got, tc.want)
		}
		// The walk's dealing (CoreAt) gives every core what DealLinks counts.
		r := CoreRun{Cores: tc.n, Deal: tc.deal}
		per := make([]int, tc.n)
		for v := range tc.links {
			per[r.CoreAt(v)]++
		}
		if SumLinks(got, false) != tc.links || CountSwitches(got) != tc.n {
			t.Errorf("DealLinks(%d, %d, %d) = %v: not every link on every core", tc.links, tc.n, tc.deal, got)
		}
		for _, l := range got {
			k := 0
			for _, x := range per {
				if x == l.Down {
					k++
				}
			}
			if k != l.Switches {
				t.Errorf("%d links on %d cores by %d: the walk puts %d links on %d cores, DealLinks on %d", tc.links, tc.n, tc.deal, l.Down, k, l.Switches)
			}
		}
	}
}

// TestStrictGroupsOneAtATime keeps a strictly balanced core group's
// links one at a time, whatever the cores' cages: spine j of 3 pods,
// each spine sending 2 links, on 4-port cores of twin-port cages: 6
// links on 2 cores, one link from each spine to each core (3 a core,
// a cage of each half used), as the reference designs wire them; near
// groups would need as many cores, so strict is kept. Dealt two at a
// time the cores would take 4 and 2, a spine's 2 links to one core.
// Mutation caught: every group dealt by cages (strict ignored: loads
// 4 and 2).
func TestStrictGroupsOneAtATime(t *testing.T) {
	kinds := []groupKind{{lower: []Load{{3, 2, 2}}, present: []int{0}, groups: 1}}
	spec := Spec{Radix: 4, CoreCage: 2}
	sized, extra, ok := sizeCores(kinds, spec, 2)
	if !ok || len(sized) != 1 || extra != 0 {
		t.Fatalf("sizeCores: %d runs, %d extra, ok %v; want one strict run", len(sized), extra, ok)
	}
	g := sized[0]
	got := DealLinks(SumLinks(g.c.lower, true), g.c.n, groupDeal(g, spec.coreDeal()))
	if want := []Load{{2, 3, 0}}; !g.strict || !slices.Equal(got, want) {
		t.Errorf("strict %v, cores %v; want strict, %v", g.strict, got, want)
	}
}
