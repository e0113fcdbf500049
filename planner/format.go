package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatInt writes n with thousands separators: 1234567 -> "1,234,567".
func FormatInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FormatUSD writes dollars compactly: $950, $12.3k, $4.56M, $1.23B.
func FormatUSD(v float64) string {
	a := math.Abs(v)
	sign := ""
	if v < 0 {
		sign = "-"
	}
	switch {
	case a >= 1e9:
		return fmt.Sprintf("%s$%.2fB", sign, a/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%s$%.2fM", sign, a/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%s$%.1fk", sign, a/1e3)
	}
	return sign + "$" + FormatInt(int(math.Round(a)))
}

// FormatUSDExact writes whole dollars with separators: $1,234,567.
func FormatUSDExact(v float64) string {
	if v < 0 {
		return "-$" + FormatInt(int(math.Round(-v)))
	}
	return "$" + FormatInt(int(math.Round(v)))
}

// FormatWatts writes power compactly: 950 W, 12.3 kW, 4.56 MW.
func FormatWatts(w float64) string {
	switch {
	case w >= 1e6:
		return fmt.Sprintf("%.2f MW", w/1e6)
	case w >= 1e3:
		return fmt.Sprintf("%.1f kW", w/1e3)
	}
	return fmt.Sprintf("%.0f W", w)
}

// FormatSeconds writes a duration in s, ms or µs.
func FormatSeconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.1f µs", s*1e6)
}
