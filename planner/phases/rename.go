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
	const t = planner.LinkSpineCore
	if old.links[t] == 0 || cur.links[t] == 0 {
		return nil
	}
	// The new cores, densely numbered, and each common spine's links to
	// them as runs; per old core, the common spines it reaches.
	newIdx := map[uint64]int32{}
	var newKeys []uint64
	for _, k := range cur.ups[t] {
		if _, ok := newIdx[k]; !ok {
			newIdx[k] = int32(len(newKeys))
			newKeys = append(newKeys, k)
		}
	}
	type reach struct {
		spine int32 // index into curRuns
		n     int
	}
	var curRuns [][]keyRun
	byOld := map[uint64][]reach{}
	var oldKeys []uint64
	a, b := old.lower[t], cur.lower[t]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			sp := int32(len(curRuns))
			curRuns = append(curRuns, runs(cur.uppers(t, j)))
			for _, x := range runs(old.uppers(t, i)) {
				if _, ok := byOld[x.key]; !ok {
					oldKeys = append(oldKeys, x.key)
				}
				byOld[x.key] = append(byOld[x.key], reach{sp, x.n})
			}
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	slices.Sort(oldKeys)
	shared := make([]int, len(newKeys))
	taken := make([]bool, len(newKeys))
	var touched []int32
	rename := map[uint64]uint64{}
	kept, same := 0, 0
	for _, ak := range oldKeys {
		for _, r := range byOld[ak] {
			for _, y := range curRuns[r.spine] {
				bi := newIdx[y.key]
				if shared[bi] == 0 {
					touched = append(touched, bi)
				}
				shared[bi] += min(r.n, y.n)
			}
		}
		if ai, ok := newIdx[ak]; ok {
			same += shared[ai]
		}
		best := int32(-1)
		for _, bi := range touched {
			if taken[bi] {
				continue
			}
			if best < 0 || better(shared[bi], newKeys[bi], shared[best], newKeys[best], ak) {
				best = bi
			}
		}
		if best >= 0 {
			rename[ak], taken[best] = newKeys[best], true
			kept += shared[best]
		}
		for _, bi := range touched {
			shared[bi] = 0
		}
		touched = touched[:0]
	}
	if kept <= same {
		return nil
	}
	for _, x := range old.ups[t] {
		if _, ok := rename[x]; !ok {
			rename[x] = x | unmatchedCore
		}
	}
	return rename
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
