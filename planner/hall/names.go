package hall

import "strconv"

// rackName names the rack in slot slot of row row (both from 1):
// "R3-07", the slot in at least two digits. A hall names thousands of
// racks, and every design a search bounds tightly lays one out, so the
// name is written without fmt.
func rackName(row, slot int) string {
	b := make([]byte, 0, 12)
	b = append(b, 'R')
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, '-')
	if slot < 10 {
		b = append(b, '0')
	}
	b = strconv.AppendInt(b, int64(slot), 10)
	return string(b)
}

// racksIn counts the racks of the rows.
func racksIn(rows []rowPlan) int {
	n := 0
	for _, rp := range rows {
		n += rp.size()
	}
	return n
}
