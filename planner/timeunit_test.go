package planner

import "testing"

// One rule picks the unit of times shown together, from the largest.
// Expected by hand: 0.28 days = 6.72 hours; 123.82 days = 17.69 weeks;
// 45 minutes = 0.03125 days, under an hour. Mutations caught: picking the unit from the
// smallest time (0.28 days and 3 days would then be written in hours),
// or a different threshold than FormatDuration's.
func TestDurationUnitFor(t *testing.T) {
	for _, tc := range []struct {
		name  string
		days  []float64
		unit  string
		first string // days[0] written in the unit
	}{
		{"100k search: target and front under two days", []float64{0.28, 0.275, 0.42}, "hours", "6.7 hours"},
		{"a short and a long time together: the long one decides", []float64{0.28, 3}, "days", "0.28 days"},
		{"over 60 days: weeks", []float64{123.82, 40}, "weeks", "17.7 weeks"},
		{"exactly 60 days stays in days", []float64{60}, "days", "60.00 days"},
		{"just under two days: hours", []float64{1.99}, "hours", "47.8 hours"},
		{"45 minutes", []float64{0.03125}, "minutes", "45.0 minutes"},
		{"under an hour: minutes", []float64{0.02}, "minutes", "28.8 minutes"},
		{"infinite and negative times are passed over", []float64{5, -1, inf()}, "days", "5.00 days"},
		{"nothing finite: days", []float64{inf()}, "days", "–"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := DurationUnitFor(tc.days...)
			if u.Name != tc.unit {
				t.Errorf("unit %s, want %s", u.Name, tc.unit)
			}
			if got := u.Format(tc.days[0]); got != tc.first {
				t.Errorf("Format(%v) = %q, want %q", tc.days[0], got, tc.first)
			}
			if len(tc.days) == 1 && FormatDuration(tc.days[0]) != u.Format(tc.days[0]) {
				t.Errorf("FormatDuration %q differs from the unit's %q", FormatDuration(tc.days[0]), u.Format(tc.days[0]))
			}
		})
	}
}

func inf() float64 { return 1 / zero }

var zero float64
