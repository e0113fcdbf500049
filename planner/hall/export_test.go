package hall

// Internals the external tests (package hall_test, which may build
// plans with the planner) read.

// Units is the number of scalable units laid out.
func (h *Hall) Units() int { return len(h.unitLeafRack) }

// UnitLeafRack is the index in Racks of unit u's first leaf rack (or,
// top of rack, of the first compute rack holding its nodes).
func (h *Hall) UnitLeafRack(u int) int { return int(h.unitLeafRack[u]) }

// UnitRacks are the indexes in Racks of the compute racks holding unit
// u's nodes, in order.
func (h *Hall) UnitRacks(u int) []int {
	first, last := h.unitRackSpan(u)
	var out []int
	for c := first; c <= last; c++ {
		out = append(out, int(h.computeIndex(c)))
	}
	return out
}
