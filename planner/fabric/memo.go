package fabric

import "sync"

// memoCap bounds the sizings kept: enough for the GUI's plans, a
// search's designs at one size and a comparison's scenarios, small
// enough (about 110 kilobytes) to keep for the program's life. A
// sweep's thousand sizes pass through it, each sized once.
const memoCap = 256

// memo holds recent sizings by spec. Size is a pure function of a
// comparable value, so a spec seen before returns its plane at once:
// the GUI replans the same fabric after every edit that does not touch
// it (prices, workload, failures), and a search or comparison sizes the
// same spec for several designs.
//
// It is direct-mapped: a spec has one slot (slotOf), and a later spec of
// the same slot takes it. A map of specs cost a sweep two allocations a
// point (its keys and values are stored apart, being large) and a new
// map every 256 points.
var memo struct {
	sync.Mutex
	slots [memoCap]memoSlot
}

// memoSlot is one memoised sizing and its spec.
type memoSlot struct {
	used bool
	spec Spec
	sizing
}

// sizing is one memoised result.
type sizing struct {
	plane Plane
	err   error
}

// Size builds the fewest-tier fabric that holds spec (or exactly
// spec.Tiers tiers); see size for the rules. The plane's slices are
// shared with later calls of the same spec: callers read them and never
// write to them. Safe for concurrent use.
func Size(spec Spec) (Plane, error) {
	e := &memo.slots[slotOf(spec)]
	memo.Lock()
	if e.used && e.spec == spec {
		r := e.sizing
		memo.Unlock()
		return r.plane, r.err
	}
	memo.Unlock()
	pl, err := size(spec)
	memo.Lock()
	*e = memoSlot{true, spec, sizing{pl, err}}
	memo.Unlock()
	return pl, err
}

// slotOf is spec's slot in the memo: FNV-1a over its fields, so that
// specs that differ in any field (a sweep's in the servers alone) spread
// over the slots.
func slotOf(s Spec) int {
	h := uint64(14695981039346656037)
	for _, v := range [...]int{s.Servers, s.Rails, s.Radix, s.Down, s.Up, s.RatioD, s.RatioU, b2i(s.RailOptimized), s.Tiers,
		s.PodLeaves, b2i(s.RailPods), s.SpineD, s.SpineU, s.UpRadix, s.CoreRadixAt, s.LeafW.Down, s.LeafW.Up, s.SpineW.Down, s.SpineW.Up} {
		h = (h ^ uint64(v)) * 1099511628211
	}
	return int(h % memoCap)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
