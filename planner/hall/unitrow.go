package hall

import (
	"encoding/binary"
	"math"
)

// AppendUnitPlace appends to key where unit u's nodes first to
// first+n-1 and its leaf racks stand in a hall laid out for counting
// (NewCounting), from which every one of their racks' centres follows
// to the bit: the first node's place in its rack, the unit's first leaf
// switch among its row's and the leaf switches a rack holds, the leaf
// row's left end and its first leaf rack's slot, then for each row
// holding the nodes (in order) the first and last of them among the
// row's compute racks, where the row's leaf racks stand among those,
// the row's left end and its centre line's offset from the leaf row's.
// Two units of halls laid out alike (the same facility, constants and
// switches) with the same place have their nodes and leaves at the
// same heights, their racks in the same order and every gap between
// them equal to the bit. It costs a lookup a row, where listing the
// racks and taking each one's centre costs a lookup a rack. False (key
// as given) when the hall lists its racks (New, NewGeometry, top-of-rack
// leaves) or n is not positive.
func (h *Hall) AppendUnitPlace(key []byte, u, first, n int) ([]byte, bool) {
	if h.runs == nil || n <= 0 || h.Facility.LeafPlacement == PlaceToR {
		return key, false
	}
	a, k := h.rackOf(first)
	b, _ := h.rackOf(first + n - 1)
	leafRow, leafSlot := h.slotOf(h.unitLeafRack[u])
	lr := &h.Rows[leafRow]
	key = binary.AppendVarint(key, int64(k))
	key = binary.AppendVarint(key, int64(h.unitLeafOff[u]))
	key = binary.AppendVarint(key, int64(h.leavesPerRack))
	key = binary.LittleEndian.AppendUint64(key, math.Float64bits(lr.X))
	key = binary.AppendVarint(key, int64(leafSlot))
	for i := h.countedRun(a); a <= b; i++ {
		cr := &h.runs[i]
		end := min(b, int(cr.first+cr.computes)-1)
		row := &h.Rows[cr.row]
		for _, v := range [...]int32{int32(a) - cr.first, int32(end) - cr.first, cr.leafAt, cr.leafRacks} {
			key = binary.AppendVarint(key, int64(v))
		}
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(row.X))
		key = binary.LittleEndian.AppendUint64(key, math.Float64bits(row.Y-lr.Y))
		a = end + 1
	}
	return key, true
}
