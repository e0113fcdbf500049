package hall

import (
	"strconv"
	"sync"
)

// rackNames keeps the rack names written, by row and slot (from 1):
// every hall names its racks from R1-01 on, and a design search lays out
// dozens of 3,000-rack halls to bound its designs (a tenth of the 100k
// report went to writing the same names again). The table grows to the
// largest hall laid out; the names are shared, as strings may be.
var rackNames struct {
	sync.RWMutex
	rows [][]string // [row-1][slot-1]
}

// maxKeptRackName bounds the rows and slots whose names are kept; a
// larger one (no hall the planner lays out has it) is written each time.
const maxKeptRackName = 1 << 10

// rackName names the rack in slot slot of row row (both from 1):
// "R3-07", the slot in at least two digits, kept in rackNames.
func rackName(row, slot int) string {
	if row < 1 || slot < 1 || row > maxKeptRackName || slot > maxKeptRackName {
		return writeRackName(row, slot)
	}
	rackNames.RLock()
	if row <= len(rackNames.rows) && slot <= len(rackNames.rows[row-1]) {
		name := rackNames.rows[row-1][slot-1]
		rackNames.RUnlock()
		return name
	}
	rackNames.RUnlock()
	rackNames.Lock()
	defer rackNames.Unlock()
	for len(rackNames.rows) < row {
		rackNames.rows = append(rackNames.rows, nil)
	}
	r := rackNames.rows[row-1]
	for len(r) < slot {
		r = append(r, writeRackName(row, len(r)+1))
	}
	rackNames.rows[row-1] = r
	return r[slot-1]
}

// writeRackName writes rackName's name. A hall names thousands of racks,
// so the name is written without fmt.
func writeRackName(row, slot int) string {
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
		n += len(rp.racks)
	}
	return n
}
