package textfmt

import (
	"math"
	"testing"
)

// Oversub writes down/up ratios as an engineer writes them: 2:1, 1.33:1
// (4:3), 1.07:1 (HPN's 16:15), and below one the other way round, 1:2
// for a leaf with twice the uplinks (Meta's rack switches), 1:1.5 for
// 2:3. Mutation caught: "0.5:1" for an under-subscribed leaf.
func TestOversub(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want string
	}{
		{0, "-"}, {1, "1:1"}, {2, "2:1"}, {4.0 / 3, "1.33:1"}, {16.0 / 15, "1.07:1"}, {6.857142857, "6.86:1"},
		{0.5, "1:2"}, {2.0 / 3, "1:1.5"}, {0.25, "1:4"},
	} {
		if got := Oversub(tc.r); got != tc.want {
			t.Errorf("Oversub(%v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// Interval writes a checkpoint interval or write time in the unit a
// planner reads, by hand: 0.04 s is 40.0 ms; 0.9995 s rounds to 1 s;
// 43.2 s; 59.4 s stays seconds and 59.5 s is 1 min; 38 min is 2,280 s;
// 59 min 29 s is 59 min and 59 min 30 s is 1 hour (not "1.0 hours"); 2.5 hours is
// 9,000 s. Mutations caught: minutes written with "%.0f" below a minute
// ("0 min", issue #45), a unit switch that shows "60 s" or "60 min".
func TestInterval(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0, "0.0 µs"}, {0.04, "40.0 ms"}, {0.494, "494.0 ms"}, {0.9995, "1 s"}, {43.2, "43 s"}, {59.4, "59 s"}, {59.5, "1 min"},
		{2280, "38 min"}, {59*60 + 29, "59 min"}, {59*60 + 30, "1 hour"}, {3629, "1 hour"}, {3780, "1.1 hours"}, {9000, "2.5 hours"}, {-1, "–"}, {math.Inf(1), "–"}, {math.NaN(), "–"},
	} {
		if got := Interval(tc.s); got != tc.want {
			t.Errorf("Interval(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
