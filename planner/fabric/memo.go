package fabric

import "sync"

// memoCap bounds the sizings kept: enough for the GUI's plans, a
// search's designs at one size and a comparison's scenarios, small
// enough (a few hundred kilobytes) to keep for the program's life. A
// sweep's thousand sizes pass through it, each sized once.
const memoCap = 256

// memo holds recent sizings by spec. Size is a pure function of a
// comparable value, so a spec seen before returns its plane at once:
// the GUI replans the same fabric after every edit that does not touch
// it (prices, workload, failures), and a search or comparison sizes the
// same spec for several designs.
var memo struct {
	sync.Mutex
	planes map[Spec]sizing
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
	memo.Lock()
	r, ok := memo.planes[spec]
	memo.Unlock()
	if ok {
		return r.plane, r.err
	}
	pl, err := size(spec)
	memo.Lock()
	if memo.planes == nil || len(memo.planes) >= memoCap {
		memo.planes = make(map[Spec]sizing, memoCap) // full: start again, cheaper than tracking ages
	}
	memo.planes[spec] = sizing{pl, err}
	memo.Unlock()
	return pl, err
}
