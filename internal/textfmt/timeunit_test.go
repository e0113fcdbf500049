package textfmt

import "testing"

// One rule picks the unit of times shown together, from the largest.
// Expected by hand: 0.28 days = 6.72 hours; 123.82 days = 17.69 weeks;
// 45 minutes = 0.03125 days, under an hour. Mutations caught: picking the unit from the
// smallest time (0.28 days and 3 days would then be written in hours),
// or a different threshold than Duration's.
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
			if len(tc.days) == 1 && Duration(tc.days[0]) != u.Format(tc.days[0]) {
				t.Errorf("Duration %q differs from the unit's %q", Duration(tc.days[0]), u.Format(tc.days[0]))
			}
		})
	}
}

func inf() float64 { return 1 / zero }

var zero float64

// Amounts shown together share the scale of the largest. Expected by
// hand: $648,000 in millions is $0.648M; $189,400 is $0.189M; $2,240,000
// is $2.24M. Mutation caught: each amount in its own scale ("$2.24M,
// $648.0k"); a small non-zero amount written as zero ("$0.000B" for a
// $412,000 management network beside $1.35B).
func TestMoneyScaleFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		usd  []float64
		want []string
	}{
		{"NICs, switches, optics, cables of 1,024 GPUs", []float64{2.24e6, 648e3, 1.48e6, 189.4e3}, []string{"$2.24M", "$0.648M", "$1.48M", "$0.189M"}},
		{"billions", []float64{1.41e9, 655.42e6}, []string{"$1.41B", "$0.655B"}},
		{"thousands", []float64{45e3, 9e3}, []string{"$45.0k", "$9.0k"}},
		{"small: whole dollars", []float64{950, 12}, []string{"$950", "$12"}},
		{"negative", []float64{-2.5e6, 1e6}, []string{"-$2.50M", "$1.00M"}},
		// $412,000 in billions is 0.000412B: not "$0.000B" but under the
		// scale's least step; $600,000 rounds to $0.001B; zero stays zero.
		{"below the scale's least step", []float64{1.35e9, 412e3, 600e3, 0}, []string{"$1.35B", "<$0.001B", "$0.001B", "$0.000B"}},
		{"below a tenth of a thousand", []float64{45e3, 30}, []string{"$45.0k", "<$0.1k"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := MoneyScaleFor(tc.usd...)
			for i, v := range tc.usd {
				if got := s.Format(v); got != tc.want[i] {
					t.Errorf("Format(%v) = %q, want %q", v, got, tc.want[i])
				}
			}
		})
	}
}
