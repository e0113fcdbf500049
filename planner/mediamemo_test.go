package planner

import (
	"strconv"
	"testing"
)

// TestMediaMemo plans the same 4,096-GPU Tomahawk 6 fabric with its
// leaf-spine links 2 m, 50 m and 2 m long again, then 2 m with a DAC
// priced at $1M: a 2 m run takes a DAC (the cheapest medium that
// reaches; copper reaches a few metres), 50 m transceivers and fibre
// (no copper reaches), and a $1M DAC loses to the next copper, an active
// copper cable (ACC). The media memo keeps the choice by everything it reads, and
// never where the scenario overrides prices. Mutations caught: the
// memo's key without the length (50 m given the 2 m DAC, which the BOM
// then refuses as beyond its reach) or without the tier (the spine-core
// choice reused), and a memoised choice used under price overrides
// (the $1M DAC kept).
func TestMediaMemo(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		metres float64
		prices map[string]float64
		want   Medium
	}{
		{2, nil, DAC},
		{50, nil, Optics},
		{2, nil, DAC},
		{2, map[string]float64{string(DAC): 1e6}, ACC},
	} {
		s := NewScenario()
		s.Cluster.GPUs = 4096
		s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g"
		s.Network.Media.LeafSpineM = tc.metres
		s.Prices = tc.prices
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%g m, prices %v: %v", tc.metres, tc.prices, err)
		}
		if got := p.LinkTiers[1].Medium; got != tc.want {
			t.Errorf("%g m, prices %v: leaf-spine medium %q, want %q", tc.metres, tc.prices, got, tc.want)
		}
	}
}

// TestRecent fills the eight-slot memo with nine keys: the first is
// gone (the oldest is replaced), the other eight are found with their
// values, and a key never put is not. Mutations caught: a put that
// does not wrap (a ninth key past the slots), the newest replaced
// instead of the oldest, a lookup past the slots filled (the zero key
// found in an empty slot).
func TestRecent(t *testing.T) {
	var m recent[int, string]
	if _, ok := m.get(0); ok {
		t.Errorf("an empty memo found the zero key")
	}
	for k := 1; k <= 9; k++ {
		m.put(k, strconv.Itoa(k*10))
	}
	if v, ok := m.get(1); ok {
		t.Errorf("key 1, the oldest of nine in eight slots, still found (%q)", v)
	}
	for k := 2; k <= 9; k++ {
		if v, ok := m.get(k); !ok || v != strconv.Itoa(k*10) {
			t.Errorf("key %d: %q, %v; want %q", k, v, ok, strconv.Itoa(k*10))
		}
	}
}

// TestRecentLooksRound asks a memo of three keys in eight slots for its
// keys in every order: get looks first after the slot it found last and
// goes round, so each is found wherever the look starts, and the zero
// key, never put, is not (it fills the empty slots). Mutations caught:
// a look that does not go round (the key before the last found is
// missed), one that goes round at the eight slots instead of the three
// filled (the zero key found in an empty slot).
func TestRecentLooksRound(t *testing.T) {
	var m recent[int, string]
	for _, k := range []int{1, 2, 3} {
		m.put(k, strconv.Itoa(k*10))
	}
	for _, order := range [][]int{{1, 2, 3}, {3, 1, 2}, {2, 1, 3}, {3, 2, 1}, {3, 3, 1}} {
		for _, k := range order {
			if v, ok := m.get(k); !ok || v != strconv.Itoa(k*10) {
				t.Errorf("order %v, key %d: %q, %v; want %q", order, k, v, ok, strconv.Itoa(k*10))
			}
		}
		if v, ok := m.get(0); ok {
			t.Errorf("order %v: the zero key, never put, found (%q)", order, v)
		}
	}
}
