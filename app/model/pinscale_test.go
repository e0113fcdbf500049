package model

import (
	"fmt"
	"strings"
	"testing"
)

// The Compare tab writes every plan's cost in one scale, chosen from the
// dearest plan: a 16,384-GPU pin (millions) beside a current plan of a
// few dozen GPUs (under $1M) writes the small one as "$0.xxxM", three
// decimals, as textfmt's rule for an amount below the scale's unit says.
// Mutation caught: each column formatted on its own ("$4.56M" beside
// "$98.2k").
func TestCompareWritesCostsInOneScale(t *testing.T) {
	for _, c := range []struct{ big, small string }{
		{"16384", "24"}, // H100 servers of 8: three servers
		{"9000", "40"},  // off the grid
	} {
		t.Run(c.big+"/"+c.small, func(t *testing.T) {
			m := testModel(t)
			mustSet(t, m, "cluster.gpus", c.big)
			settle(t, m)
			if err := m.PinCurrent("big"); err != nil {
				t.Fatal(err)
			}
			big := m.Pins()[0].Plan.Cost.Total
			mustSet(t, m, "cluster.gpus", c.small)
			settle(t, m)
			small := m.Plan().Cost.Total
			if big < 1e6 || small >= 1e6 {
				t.Fatalf("the case needs a plan over $1M and one under: %.0f and %.0f", big, small)
			}
			var cells []string
			for _, r := range m.Compare().Rows {
				if r.Name == "Cost" {
					cells = r.Cells
				}
			}
			if len(cells) != 2 {
				t.Fatalf("Cost row %v", cells)
			}
			want := []string{fmt.Sprintf("$%.2fM", big/1e6), fmt.Sprintf("$%.3fM", small/1e6)}
			for i := range want {
				if cells[i] != want[i] {
					t.Errorf("cost cell %d = %q, want %q (one scale for the view)", i, cells[i], want[i])
				}
				if !strings.HasSuffix(cells[i], "M") {
					t.Errorf("cost cell %d = %q not in millions", i, cells[i])
				}
			}
		})
	}
}
