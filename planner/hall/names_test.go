package hall

import "testing"

// rackName writes what fmt's "R%d-%02d" wrote: the row as is, the slot
// in at least two digits. Mutations caught: no zero before a one-digit
// slot, a zero before a two- or three-digit one, row and slot swapped,
// a missing dash.
func TestRackName(t *testing.T) {
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
	} {
		if got := rackName(c.row, c.slot); got != c.want {
			t.Errorf("rackName(%d, %d) = %q, want %q", c.row, c.slot, got, c.want)
		}
	}
}
