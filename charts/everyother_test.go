package charts

import (
	"fmt"
	"reflect"
	"testing"
)

// everyOther thins a narrow axis's labels but never drops zero's, where a
// restart's bars run left of zero. Ticks by hand (niceTicks: about five
// steps of 1, 2, 2.5 or 5 times a power of ten): -17 to 3 is labelled
// -15, -10, -5, 0 (step 5), and every other one counted from zero keeps
// -10 and 0; -20 to 30 (step 10) keeps -20, 0, 20. Mutation caught:
// thinning from the first label, which keeps -15 and -5 and drops zero
// when an odd number of labels precede it.
func TestEveryOtherKeepsZero(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{-17, 3, []string{"-10", "0"}},
		{-13.5, 0.09, []string{"-10", "0"}},
		{-20, 30, []string{"-20", "0", "20"}},
		{0, 10, []string{"0", "4", "8"}},
		{2.5, 11, []string{"4", "8"}}, // no zero: every other from the first (4, 6, 8, 10)
	} {
		e := everyOther{unitTicks{func(v float64) string { return fmt.Sprintf("%g", v) }}}
		var got []string
		for _, tk := range e.Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%g to %g: labels %v, want %v", c.min, c.max, got, c.want)
		}
	}
}
