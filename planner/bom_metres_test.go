package planner

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendMetres holds appendMetres to strconv's 'g' with the shortest
// digits, the format a cable line's place was written in, on lengths
// worked out by hand: whole metres (2, 50, 150, 999,999 written as
// integers), the first length 'g' writes with an exponent (1e+06),
// fractions (2.5, 0.1), zero and negative zero ("-0"), a negative length.
// Mutations caught: the integer path taken at or past 1e6 ("1000000"
// for "1e+06"), for a fraction (2.5 as "2"), or for negative zero ("0").
func TestAppendMetres(t *testing.T) {
	for _, tc := range []struct {
		m    float64
		want string
	}{
		{2, "2"}, {50, "50"}, {150, "150"}, {999999, "999999"}, {1e6, "1e+06"}, {2.5, "2.5"}, {0.1, "0.1"},
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {-3, "-3"}, {-1e6, "-1e+06"},
	} {
		if got := string(appendMetres(nil, tc.m)); got != tc.want || got != strconv.FormatFloat(tc.m, 'g', -1, 64) {
			t.Errorf("appendMetres(%v) = %q, want %q (strconv %q)", tc.m, got, tc.want, strconv.FormatFloat(tc.m, 'g', -1, 64))
		}
	}
}
