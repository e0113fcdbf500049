package hall

import (
	"fmt"
	"testing"
)

// rackName writes what fmt's "R%d-%02d" wrote: the row as is, the slot
// in at least two digits. Mutations caught: no zero before a one-digit
// slot, a zero before a two- or three-digit one, row and slot swapped,
// a missing dash; from the names kept, a name kept under the wrong row
// or slot (the table grown off by one), a row's slots from another row.
func TestRackName(t *testing.T) {
	for range 2 { // written, then read from the names kept
		for _, c := range []struct {
			row, slot int
			want      string
		}{
			{1, 1, "R1-01"},
			{3, 7, "R3-07"},
			{12, 10, "R12-10"},
			{7, 99, "R7-99"},
			{140, 123, "R140-123"},
			{2, 0, "R2-00"},
			{1025, 3, "R1025-03"},
			{5, 2000, "R5-2000"},
		} {
			if got := rackName(c.row, c.slot); got != c.want {
				t.Errorf("rackName(%d, %d) = %q, want %q", c.row, c.slot, got, c.want)
			}
		}
	}
	// Asked out of order, each row and slot keeps its own name.
	for _, c := range []struct{ row, slot int }{{9, 40}, {9, 3}, {2, 41}, {30, 1}, {9, 41}} {
		want := fmt.Sprintf("R%d-%02d", c.row, c.slot)
		if got := rackName(c.row, c.slot); got != want {
			t.Errorf("rackName(%d, %d) = %q, want %q", c.row, c.slot, got, want)
		}
	}
}
