package textfmt

import (
	"strings"
	"testing"
)

// TestParseIntGrammar: the one count grammar of the window, the CLI flags
// and the field table, worked by hand: separators are dropped, k M B
// scale by a thousand, a million and a billion, an exponent is read, and
// a fraction or a value out of range is refused naming the range.
// Mutations caught: "," or "_" not dropped (16,384 refused), k read as
// 1,024, a fractional count truncated (1.5 read as 1), the range check
// off by one at either end.
func TestParseIntGrammar(t *testing.T) {
	for _, tc := range []struct {
		text    string
		lo, hi  int
		want    int
		wantErr string
	}{
		{"16384", 1, 1 << 20, 16384, ""},
		{"16,384", 1, 1 << 20, 16384, ""},
		{"16_384", 1, 1 << 20, 16384, ""},
		{" 16 384 ", 1, 1 << 20, 16384, ""},
		{"16k", 1, 1 << 20, 16000, ""},
		{"1.5k", 1, 1 << 20, 1500, ""},
		{"1M", 1, 1 << 21, 1000000, ""},
		{"1e6", 1, 1 << 21, 1000000, ""},
		{"1", 1, 8, 1, ""},
		{"8", 1, 8, 8, ""},
		{"9", 1, 8, 0, "from 1 to 8"},
		{"0", 1, 8, 0, "from 1 to 8"},
		{"1.5", 1, 8, 0, "not a whole number"},
		{"", 1, 8, 0, "not a whole number"},
		{"lots", 1, 8, 0, "not a whole number"},
	} {
		got, err := ParseInt(tc.text, tc.lo, tc.hi)
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("ParseInt(%q) = %d, %v; want %d", tc.text, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseInt(%q) = %d, %v; want an error saying %q", tc.text, got, err, tc.wantErr)
		}
	}
}

// TestParseNumberGrammar: decimals in the same grammar; NaN and infinity
// are refused, and the range is inclusive. Mutations caught: "inf" or
// "NaN" accepted (ParseFloat reads both), the range made exclusive.
func TestParseNumberGrammar(t *testing.T) {
	for _, tc := range []struct {
		text    string
		want    float64
		wantErr string
	}{
		{"2.5", 2.5, ""},
		{"9,99.5", 999.5, ""},
		{"1e3", 1000, ""},
		{"0.5k", 500, ""},
		{"0", 0, ""},
		{"1000", 1000, ""},
		{"1000.1", 0, "from 0 to 1000"},
		{"-1", 0, "from 0 to 1000"},
		{"NaN", 0, "not a number"},
		{"inf", 0, "not a number"},
		{"x", 0, "not a number"},
	} {
		got, err := ParseNumber(tc.text, 0, 1000)
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("ParseNumber(%q) = %g, %v; want %g", tc.text, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseNumber(%q) = %g, %v; want an error saying %q", tc.text, got, err, tc.wantErr)
		}
	}
}
