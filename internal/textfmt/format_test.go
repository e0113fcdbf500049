package textfmt

import (
	"math"
	"testing"
)

// One way to write durations, tokens, gains and plurals everywhere.
// Mutations caught: "0.2 vs 0.5 days" (hours below two days), "1e+12"
// tokens, "2 tier(s)".
func TestFormatDurationsTokensPlurals(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Duration(0.2), "4.8 hours"},
		{Duration(0.5 / 24), "30.0 minutes"},
		{Duration(14.0312), "14.03 days"},
		{Duration(60), "60.00 days"},
		{Duration(65.1), "9.3 weeks"},
		{Duration(math.NaN()), "–"},
		{Tokens(1e12), "1T tokens"},
		{Tokens(1.5e12), "1.5T tokens"},
		{Tokens(15.6e12), "15.6T tokens"},
		{Tokens(300e9), "300B tokens"},
		{Tokens(999), "999 tokens"},
		{Gain(1.0567), "1.06x"},
		{Gain(0), "–"},
		{Plural(1, "tier"), "1 tier"},
		{Plural(3, "tier"), "3 tiers"},
		{Plural(2, "switch"), "2 switches"},
		{Plural(1024, "GPU"), "1,024 GPUs"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// Money is read as the app prints it. Mutation caught: a Budget field
// that rejects "4.6M".
func TestParseMoney(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"4.6M", 4.6e6, true}, {"$4.6M", 4.6e6, true}, {"$300,000", 300000, true}, {"12k", 12000, true},
		{"1e6", 1e6, true}, {"", 0, true}, {"-5", 0, false}, {"NaN", 0, false}, {"4.6 apples", 0, false},
	} {
		got, err := ParseMoney(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseMoney(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestParseCount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1,024", 1024, true}, {"16k", 16000, true}, {"1.5k", 1500, true}, {"1e5", 100000, true},
		{"0", 0, false}, {"1.5", 0, false}, {"1e30", 0, false}, {"", 0, false}, {"eight", 0, false},
	} {
		got, err := ParseCount(c.in, 10_000_000)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestAppendInt checks the thousands separators by hand: a comma every three
// digits from the right, none before the sign, and the smallest int whole.
// Mutations caught: grouping from the left ("123,456,7"), a comma after the
// minus ("-,123"), dropping the sign, and AppendInt overwriting dst.
func TestAppendInt(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{1234567, "1,234,567"},
		{-123, "-123"},
		{-123456, "-123,456"},
		{math.MinInt64, "-9,223,372,036,854,775,808"},
	}
	for _, tc := range cases {
		if got := string(AppendInt([]byte("x="), tc.n)); got != "x="+tc.want {
			t.Errorf("AppendInt(x=, %d) = %q; want %q", tc.n, got, "x="+tc.want)
		}
		if got := Int(tc.n); got != tc.want {
			t.Errorf("Int(%d) = %q; want %q", tc.n, got, tc.want)
		}
	}
}

// TestAppendSeconds checks the unit picked and the digits by hand, the
// non-finite values as fmt's "%.Nf" wrote them before AppendSeconds, and
// that Seconds is AppendSeconds. Mutations caught: the millisecond bound
// at 1e-2, two decimals below a second, a lost "+Inf" sign, and
// AppendSeconds overwriting dst.
func TestAppendSeconds(t *testing.T) {
	cases := []struct {
		s    float64
		want string
	}{
		{12.3456, "12.35 s"},
		{1, "1.00 s"},
		{0.999, "999.0 ms"},
		{0.001, "1.0 ms"},
		{0.00099, "990.0 µs"},
		{0, "0.0 µs"},
		{math.Inf(1), "+Inf s"},
		{math.NaN(), "NaN µs"},
	}
	for _, tc := range cases {
		if got := string(AppendSeconds([]byte("t="), tc.s)); got != "t="+tc.want {
			t.Errorf("AppendSeconds(t=, %g) = %q; want %q", tc.s, got, "t="+tc.want)
		}
		if got := Seconds(tc.s); got != tc.want {
			t.Errorf("Seconds(%g) = %q; want %q", tc.s, got, tc.want)
		}
	}
}
