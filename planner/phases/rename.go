package phases

import (
	"slices"

	"fabricplan/planner"
)

// unmatchedCore marks a core key of a phase before that no core of the
// new phase takes over (a re-cut to fewer cores): it then matches no
// key of the new phase. Core keys use bits 0-39 and 40-60 (plane) and 63.
const unmatchedCore = 1 << 61

// coreRename matches the cores of the phase before (old) to the new
// phase's (cur) so that a re-cut core tier keeps the most links: a core
// switch stays in place and takes the name of the new core it shares
// most links with (a label, not a cable). Old core A and new core B
// share, over the spines both reach, the smaller of their link counts
// to the spine. Old cores in key order each take the free new core they
// share most with (their own index first among equals, then the lowest
// key). It returns nil where the cores' own indices keep as many links
// (nothing is re-cut, or the match gains nothing): the same fabric and
// bill, fewer links moved.
func coreRename(old, cur *linkSet) map[uint64]uint64 {
	if old.links[planner.LinkSpineCore] == 0 || cur.links[planner.LinkSpineCore] == 0 {
		return nil
	}
	r := newCoreReach(old, cur)
	rename, kept, same := r.match()
	if kept <= same {
		return nil
	}
	for _, x := range old.ups[planner.LinkSpineCore] {
		if _, ok := rename[x]; !ok {
			rename[x] = x | unmatchedCore
		}
	}
	return rename
}

// coreReach is which new cores each old core shares spines with: the
// new cores densely numbered, each spine both phases have as its runs
// of links to new cores, and per old core the spines it reaches.
type coreReach struct {
	newIdx  map[uint64]int32
	newKeys []uint64
	curRuns [][]keyRun
	byOld   map[uint64][]spineReach
	oldKeys []uint64 // ascending
}

// spineReach is an old core's links to one spine (an index into
// coreReach.curRuns).
type spineReach struct {
	spine int32
	n     int
}

// newCoreReach collects the spine-core links of old and cur by core.
func newCoreReach(old, cur *linkSet) *coreReach {
	const t = planner.LinkSpineCore
	r := &coreReach{newIdx: map[uint64]int32{}, byOld: map[uint64][]spineReach{}}
	for _, k := range cur.ups[t] {
		if _, ok := r.newIdx[k]; !ok {
			r.newIdx[k] = int32(len(r.newKeys))
			r.newKeys = append(r.newKeys, k)
		}
	}
	sharedLowers(old, cur, t, func(i, j int) {
		sp := int32(len(r.curRuns))
		r.curRuns = append(r.curRuns, runs(cur.uppers(t, j)))
		for _, x := range runs(old.uppers(t, i)) {
			if _, ok := r.byOld[x.key]; !ok {
				r.oldKeys = append(r.oldKeys, x.key)
			}
			r.byOld[x.key] = append(r.byOld[x.key], spineReach{sp, x.n})
		}
	})
	slices.Sort(r.oldKeys)
	return r
}

// match gives each old core, in key order, the free new core it shares
// most links with; kept is the links the match keeps, same those the
// cores' own indices keep.
func (r *coreReach) match() (rename map[uint64]uint64, kept, same int) {
	shared := make([]int, len(r.newKeys))
	taken := make([]bool, len(r.newKeys))
	var touched []int32
	rename = map[uint64]uint64{}
	for _, ak := range r.oldKeys {
		for _, sr := range r.byOld[ak] {
			for _, y := range r.curRuns[sr.spine] {
				bi := r.newIdx[y.key]
				if shared[bi] == 0 {
					touched = append(touched, bi)
				}
				shared[bi] += min(sr.n, y.n)
			}
		}
		if ai, ok := r.newIdx[ak]; ok {
			same += shared[ai]
		}
		best := int32(-1)
		for _, bi := range touched {
			if !taken[bi] && (best < 0 || better(shared[bi], r.newKeys[bi], shared[best], r.newKeys[best], ak)) {
				best = bi
			}
		}
		if best >= 0 {
			rename[ak], taken[best] = r.newKeys[best], true
			kept += shared[best]
		}
		for _, bi := range touched {
			shared[bi] = 0
		}
		touched = touched[:0]
	}
	return rename, kept, same
}

// better says whether new core b (n links shared with old core own)
// beats new core c (m shared): more shared, then own's own index, then
// the lower key.
func better(n int, b uint64, m int, c uint64, own uint64) bool {
	if n != m {
		return n > m
	}
	if (b == own) != (c == own) {
		return b == own
	}
	return b < c
}

// keyRun is a key and how many times it repeats in a sorted list.
type keyRun struct {
	key uint64
	n   int
}

// runs turns a sorted list of keys into its runs.
func runs(keys []uint64) []keyRun {
	var out []keyRun
	for _, k := range keys {
		if n := len(out); n > 0 && out[n-1].key == k {
			out[n-1].n++
			continue
		}
		out = append(out, keyRun{k, 1})
	}
	return out
}

// renamed is key under rename (itself where rename has no entry).
func renamed(rename map[uint64]uint64, key uint64) uint64 {
	if to, ok := rename[key]; ok {
		return to
	}
	return key
}

// renamedUppers is uppers with every key renamed, sorted again, in buf.
func renamedUppers(rename map[uint64]uint64, uppers, buf []uint64) []uint64 {
	buf = buf[:0]
	for _, k := range uppers {
		buf = append(buf, renamed(rename, k))
	}
	slices.Sort(buf)
	return buf
}

// renamedCores counts the cores rename gives another core's name (not
// those no new core takes over).
func renamedCores(rename map[uint64]uint64) int {
	n := 0
	for a, b := range rename {
		if a != b && b&unmatchedCore == 0 {
			n++
		}
	}
	return n
}

// phaseRename is coreRename between two plans.
func phaseRename(from, to *planner.Plan) map[uint64]uint64 {
	return coreRename(newLinkSet(from), newLinkSet(to))
}
