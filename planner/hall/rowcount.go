package hall

import "math"

// A hall laid out for counting (NewCounting) keeps no rack, nor a place
// for each rack: a compute row's compute racks are a run (the first
// compute rack, how many, where the row's leaf racks stand among them)
// and every rack's row and slot, centre and index follow from its row's
// first rack on demand. A million-GPU hall's 31,000 compute racks are a
// few hundred runs.

// computeRun is one compute row of a hall laid out for counting: its
// computes compute racks, numbered from first, stand in the row's slots
// from 0 with the row's leafRacks leaf racks at slot leafAt among them.
type computeRun struct {
	first, computes, leafAt, leafRacks int32
	row                                int32 // index in Rows
}

// rackIndex is the index of compute rack c of run cr in a hall whose
// rows begin at the racks rowStart.
func (cr *computeRun) rackIndex(c int, rowStart []int32) int32 {
	off := int32(c) - cr.first
	if off >= cr.leafAt {
		off += cr.leafRacks
	}
	return rowStart[cr.row] + off
}

// countedRun is the run (index in h.runs) holding compute rack c of a
// hall laid out for counting: a guess from the racks a run holds on
// average, walked to the run (the rows hold about as many racks each).
func (h *Hall) countedRun(c int) int {
	runs := h.runs
	i := min(len(runs)-1, int(float64(c)*h.runsPerRack))
	for int(runs[i].first) > c {
		i--
	}
	for int(runs[i].first+runs[i].computes) <= c {
		i++
	}
	return i
}

// computeIndex is the index of compute rack c among the hall's racks.
func (h *Hall) computeIndex(c int) int32 {
	if h.computeRack != nil {
		return h.computeRack[c]
	}
	return h.runs[h.countedRun(c)].rackIndex(c, h.rowStart)
}

// slotOf is the row and slot (from 0) of rack i of a hall laid out for
// counting: a guess from the racks a row holds on average, walked to
// the row.
func (h *Hall) slotOf(i int32) (row, slot int) {
	r := min(len(h.Rows)-1, int(float64(i)*h.rowsPerRack))
	for h.rowStart[r] > i {
		r--
	}
	for h.rowStart[r+1] <= i {
		r++
	}
	return r, int(i - h.rowStart[r])
}

// guessRows sets the guesses' scales (countedRun, slotOf): the runs a
// compute rack, the rows a rack (a float's product is cheaper than an
// integer division, and a lookup is made for every rack a link meets).
func (h *Hall) guessRows() {
	h.runsPerRack = float64(len(h.runs)) / float64(max(h.computeTotal, 1))
	h.rowsPerRack = float64(len(h.Rows)) / float64(max(int(h.rowStart[len(h.Rows)]), 1))
}

// appendComputeRacks appends the indexes of compute racks a to b
// (inclusive) to racks, in order: the computeRack entries, or in a hall
// laid out for counting the same from the runs.
func (h *Hall) appendComputeRacks(racks []int32, a, b int) []int32 {
	if h.computeRack != nil {
		return append(racks, h.computeRack[a:b+1]...)
	}
	for i := h.countedRun(a); a <= b; i++ {
		cr := &h.runs[i]
		for c := a; c <= min(b, int(cr.first+cr.computes)-1); c++ {
			racks = append(racks, cr.rackIndex(c, h.rowStart))
		}
		a = int(cr.first + cr.computes)
	}
	return racks
}

// countComputes adds n compute racks from compute rack c, in slots s on
// of row r, to a hall laid out for counting: their draw to the row's
// and to the figures, as rackPower and addRackFigures do for listed
// racks, a stretch of racks of one draw at a time (a unit's racks hold
// as many nodes each but its last).
func (h *Hall) countComputes(c, n, r, s int, in Inputs) {
	for n > 0 {
		k := min(n, h.sameNodes(c))
		peak := float64(h.rackNodes(c)) * in.NodeKW
		typical := peak * (h.Facility.TypicalPct / 100)
		h.Rows[r].PeakKW = addN(h.Rows[r].PeakKW, peak, k)
		h.kindRacks[0] += k // rackKinds[0] is RackCompute
		h.addDraw(peak, typical, in.Cooling, k, func(j int) string { return rackName(r+1, s+j+1) })
		c, n, s = c+k, n-k, s+k
	}
}

// sameNodes is how many compute racks from c on (at least c) hold as
// many nodes as c: to the last whole rack of c's unit, or of the hall
// for rack-scale systems; a partly filled rack stands alone.
func (h *Hall) sameNodes(c int) int {
	total := h.computeTotal
	if h.racksPerUnit == 0 {
		return max(1, total-1-c) // every rack but the last is full
	}
	u, j := c/h.racksPerUnit, c%h.racksPerUnit
	unitNodes := min(h.serversPerUnit, h.servers-u*h.serversPerUnit)
	full := min(unitNodes/h.nodesPerRack, total-u*h.racksPerUnit) // the unit's full racks
	return max(1, full-j)
}

// addN is s with p added n times over, one addition at a time, as a sum
// taken rack by rack adds it (the rows' draw is New's to the bit). A
// row's few racks are added one by one; more are added in steps of many
// additions: while s stays in one binade (from 2^e up to 2^(e+1), where
// floats are multiples of one ulp u) and s+p too, each addition rounds
// s+p to the grid of u, so adds p rounded to that grid, the same d every
// time (unless p falls half way between two multiples of u: then the
// rounding to even depends on s, and addN adds one at a time). s+k*d, a
// multiple of u below 2^(e+1), is exact. s and p are a draw: not
// negative, and far above the subnormals.
func addN(s, p float64, n int) float64 {
	if n <= addOneByOne {
		for range n {
			s += p
		}
		return s
	}
	for n > 0 {
		t := s + p
		k := 1
		if e := math.Float64bits(s) >> fracBits; s > 0 && e > fracBits {
			top, u := math.Float64frombits((e+1)<<fracBits), math.Float64frombits((e-fracBits)<<fracBits)
			q := p / u // exact: u is a power of two
			if d := t - s; d > 0 && t < top && q-math.Floor(q) != 0.5 {
				// Every sum s+j*d+p below top-u/2 rounds to s+(j+1)*d:
				// keep s+j*d at most top-2u, with a step to spare for
				// the division's rounding.
				k = max(1, min(n, int((top-2*u-s)/d)-1))
				t = s + float64(k)*d
			}
		}
		s, n = t, n-k
	}
	return s
}

// addOneByOne is the most additions addN makes one by one: a row's
// racks (a step of many costs a few additions' time, and the first
// binades hold a step or two each).
const addOneByOne = 64

// fracBits is the bits of a float64's stored fraction: the exponent's
// bits (the sign clear) start above them, and a float in [2^e, 2^(e+1))
// is a multiple of 2^(e-52).
const fracBits = 52
