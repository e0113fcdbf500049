package planner

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// Tests of the shortcuts that keep plans and sweeps fast: each compares a
// shortcut with the long way or a hand-worked answer.

// speedKey gives the catalog's key of every port speed, the constants
// and the rest. Mutation caught: a constant mistyped ("800" for 1,600
// Gbps), or a speed without a constant keyed as "".
func TestSpeedKey(t *testing.T) {
	for _, tc := range []struct {
		gbps int
		want string
	}{{1, "1"}, {50, "50"}, {100, "100"}, {200, "200"}, {400, "400"}, {800, "800"}, {1600, "1600"}, {3200, "3200"}} {
		if got := speedKey(tc.gbps); got != tc.want {
			t.Errorf("speedKey(%d) = %q, want %q", tc.gbps, got, tc.want)
		}
	}
}

// chooseNIC, a scan for the cheapest candidate, picks the first of the
// sorted candidate list, at every NIC speed, fabric and port split, and
// with the cheapest NIC priced above the rest by an override (then the
// next one must win). Mutations caught: auto picking the dearest or the
// first by key, or the scan dropping a filter (a card of several cages
// where no split is asked).
func TestChooseNICIsCheapestCandidate(t *testing.T) {
	cat := testCatalog(t)
	picked := 0
	for _, f := range []Fabric{InfiniBand, Ethernet} {
		for _, gbps := range cat.NICSpeeds(f) {
			for _, split := range []int{0, 1, 2, 4} {
				s := NewScenario()
				s.Network.NIC, s.Network.NICGbps, s.Network.Fabric, s.Network.PortsPerNIC = Auto, gbps, f, split
				name := fmt.Sprintf("%dG %s split %d", gbps, f, split)
				list := s.nicCandidates(cat)
				got := s.chooseNIC(cat)
				if len(list) == 0 {
					if got != nil {
						t.Errorf("%s: chose %s with no candidate", name, got.Key)
					}
					continue
				}
				picked++
				if got != list[0] {
					t.Errorf("%s: chose %v, want %s", name, got, list[0].Key)
				}
				if len(list) < 2 {
					continue
				}
				s.Prices = map[string]float64{list[0].Key: 1e9}
				if got, want := s.chooseNIC(cat), s.nicCandidates(cat)[0]; got != want || got == list[0] {
					t.Errorf("%s with %s at $1B: chose %v, want %s", name, list[0].Key, got, want.Key)
				}
			}
		}
	}
	if picked < 4 {
		t.Errorf("only %d settings have candidates: the table no longer checks the choice", picked)
	}
}

// The finiteness walk skips the fields that cannot hold a float, and
// still finds one anywhere it can be: in a nested struct, a slice of
// structs, an array, a pointer to a number and an interface; a pointer
// to a struct (a catalog entry) is not followed, nor a map. Mutations
// caught: holdsFloat answering no for slices, arrays, pointers to
// numbers or interfaces (a NaN there passes), or following a pointer to
// a struct.
func TestFiniteWalkPrunes(t *testing.T) {
	type inner struct {
		Name string
		N    int
		V    float64
	}
	type walked struct {
		Label  string
		Counts []int
		In     inner
		List   []inner
		Arr    [2]inner
		Ptr    *float64
		Any    any
		Entry  *inner
		Map    map[string]float64
		hidden float64
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		set  func(*walked)
		bad  bool
	}{
		{"finite", func(*walked) {}, false},
		{"nested struct", func(w *walked) { w.In.V = nan }, true},
		{"slice of structs", func(w *walked) { w.List[1].V = math.Inf(1) }, true},
		{"array", func(w *walked) { w.Arr[1].V = nan }, true},
		{"pointer to a number", func(w *walked) { w.Ptr = &nan }, true},
		{"interface", func(w *walked) { w.Any = nan }, true},
		{"pointer to a struct", func(w *walked) { w.Entry = &inner{V: nan} }, false},
		{"map", func(w *walked) { w.Map = map[string]float64{"x": nan} }, false},
		{"unexported", func(w *walked) { w.hidden = nan }, false},
	} {
		w := walked{List: make([]inner, 2), Counts: []int{1}}
		tc.set(&w)
		if got := !allFinite(reflect.ValueOf(w), false); got != tc.bad {
			t.Errorf("%s: not finite %v, want %v", tc.name, got, tc.bad)
		}
	}
	if got := exportedFields(reflect.TypeOf(inner{})); !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("fields walked of inner: %v, want [2] (V alone)", got)
	}
}

// hasNICSpeed, the check every plan's validation makes, agrees with the
// speed list its error message names, for speeds offered and not, in the
// shipped catalog and in one whose 1,600G NIC runs InfiniBand alone.
// Mutation caught: the check ignoring the fabric (a speed only
// InfiniBand NICs run accepted for Ethernet) or the speed.
func TestHasNICSpeed(t *testing.T) {
	ibOnly := &Catalog{NICs: map[string]*NIC{
		"ib1600": {Key: "ib1600", Gbps: 1600, InfiniBandPorts: []int{1}},
		"both":   {Key: "both", Gbps: 400, InfiniBandPorts: []int{1}, EthernetPorts: []int{1}},
	}}
	for _, cat := range []*Catalog{testCatalog(t), ibOnly} {
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			list := cat.NICSpeeds(f)
			for _, g := range []int{0, 25, 100, 200, 400, 800, 1600, 3200} {
				if got, want := cat.hasNICSpeed(f, g), slices.Contains(list, g); got != want {
					t.Errorf("%s %dG: %v, the list %v says %v", f, g, got, list, want)
				}
			}
		}
	}
	if !ibOnly.hasNICSpeed(InfiniBand, 1600) || ibOnly.hasNICSpeed(Ethernet, 1600) {
		t.Errorf("1,600G runs InfiniBand alone: %v for InfiniBand, %v for Ethernet", ibOnly.hasNICSpeed(InfiniBand, 1600), ibOnly.hasNICSpeed(Ethernet, 1600))
	}
}

// offersNICSpeed agrees with hasNICSpeed, the walk of the catalog, with
// NIC auto and a NIC named, at speeds the catalog has and not (CX-7 is
// a 400G NIC: 3,200G has none). Mutation caught: a named NIC taken as
// the speed's (CX-7 named at 3,200G passes).
func TestOffersNICSpeed(t *testing.T) {
	cat := testCatalog(t)
	for _, nic := range []string{Auto, "cx7-400"} {
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			for _, g := range []int{200, 400, 800, 1600, 3200} {
				s := NewScenario()
				s.Network.NIC, s.Network.Fabric, s.Network.NICGbps = nic, f, g
				if got, want := s.offersNICSpeed(cat), cat.hasNICSpeed(f, g); got != want {
					t.Errorf("NIC %s, %s %dG: %v, the catalog says %v", nic, f, g, got, want)
				}
			}
		}
	}
}

// chooseNIC answers each scenario after the one before it in the
// table (once a memo's order): the cheapest NIC by
// speed, fabric and split, read off the catalog by hand (400G: CX-7 at
// $1,894, its two-cage 2x200G only split in two; 800G: CX-8 and Thor
// Ultra at $1,904, by key, Thor Ultra alone running one Ethernet port;
// Pollara 400 at $1,894, then BlueField-3 at $3,053, the 400G Ethernet
// NICs left when CX-7 is priced out; 200G: ConnectX-7 and ConnectX-6 at
// $1,864, ConnectX-7 running two lane rates to ConnectX-6's one; 100G:
// ConnectX-6 HDR100 alone), and in a catalog of one NIC. Mutations
// caught: a choice that ignores the speed, the split, the fabric, the
// catalog or the price overrides; a price tie broken by key alone (picks
// cx6-200, which cannot join the 100G-lane QM9700).
func TestChooseNIC(t *testing.T) {
	cat := testCatalog(t)
	one := &Catalog{NICs: map[string]*NIC{"solo": {Key: "solo", Gbps: 400, Cages: 1, InfiniBandPorts: []int{1}, EthernetPorts: []int{1}}}}
	tests := []struct {
		name   string
		cat    *Catalog
		gbps   int
		splits int
		fabric Fabric
		prices map[string]float64
		want   string
	}{
		{"400G InfiniBand", cat, 400, 0, InfiniBand, nil, "cx7-400"},
		{"800G InfiniBand", cat, 800, 0, InfiniBand, nil, "cx8-800"},
		{"800G Ethernet", cat, 800, 0, Ethernet, nil, "cx8-800"},
		{"800G Ethernet, one port", cat, 800, 1, Ethernet, nil, "thor-ultra-800"},
		{"800G InfiniBand, one port", cat, 800, 1, InfiniBand, nil, "cx8-800"},
		{"400G Ethernet, split in two", cat, 400, 2, Ethernet, nil, "cx7-2x200"},
		{"400G Ethernet", cat, 400, 0, Ethernet, nil, "cx7-400"},
		{"400G Ethernet, CX-7 priced out", cat, 400, 0, Ethernet, map[string]float64{"cx7-400": 1e6}, "pollara-400"},
		{"400G Ethernet, CX-7 and Pollara priced out", cat, 400, 0, Ethernet, map[string]float64{"cx7-400": 1e6, "pollara-400": 1e6}, "bf3-400"},
		{"200G InfiniBand", cat, 200, 0, InfiniBand, nil, "cx7-200"},
		{"200G Ethernet", cat, 200, 0, Ethernet, nil, "cx7-200"},
		{"200G InfiniBand, CX-7 priced out", cat, 200, 0, InfiniBand, map[string]float64{"cx7-200": 1e6}, "cx6-200"},
		{"100G InfiniBand", cat, 100, 0, InfiniBand, nil, "cx6-hdr100"},
		{"400G Ethernet, one NIC's catalog", one, 400, 0, Ethernet, nil, "solo"},
	}
	for _, tc := range tests {
		s := NewScenario()
		s.Network.NIC, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Fabric, s.Prices = Auto, tc.gbps, tc.splits, tc.fabric, tc.prices
		for range 2 { // the first may fill the memo, the second reads it
			got := "none"
			if nic := s.chooseNIC(tc.cat); nic != nil {
				got = nic.Key
			}
			if got != tc.want {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			}
		}
	}
}
