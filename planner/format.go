package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
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

// maxNameRunes is the longest name printed; longer ones end in "…".
const maxNameRunes = 120

// DisplayName makes a user-given name safe to print on a terminal, in a
// PDF title or a window label: control characters (escape sequences,
// newlines, tabs) and bidirectional overrides become spaces, runs of
// space collapse, invalid UTF-8 becomes U+FFFD, and a name longer than
// 120 characters is cut with an ellipsis.
func DisplayName(s string) string { return cleanText(s, maxNameRunes) }

// TerminalText is DisplayName without the length limit, for error
// messages that quote user input (a key name may hold an escape).
func TerminalText(s string) string { return cleanText(s, 0) }

// cleanText replaces control and bidi characters and collapses space;
// limit > 0 cuts the text to that many runes with an ellipsis.
func cleanText(s string, limit int) string {
	var b strings.Builder
	space, n := false, 0
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if limit > 0 && n == limit {
			b.WriteRune('…')
			return b.String()
		}
		if space {
			b.WriteByte(' ')
			space = false
			n++
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// CSVText neutralises a text cell for spreadsheets: a cell that starts
// with = + - @, a tab or a carriage return would be read as a formula
// (CSV injection), so it gets a leading apostrophe, which spreadsheets
// show as plain text. Numbers are written separately and never pass here.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// FormatDuration writes a job time given in days the way the app shows
// every job time: minutes or hours below two days ("4.8 hours"), days to
// two decimals up to 60 ("14.03 days"), weeks beyond ("9.3 weeks").
func FormatDuration(days float64) string {
	switch {
	case math.IsNaN(days) || math.IsInf(days, 0) || days < 0:
		return "–"
	case days < 1.0/24:
		return strconv.FormatFloat(days*24*60, 'f', 1, 64) + " minutes"
	case days < 2:
		return strconv.FormatFloat(days*24, 'f', 1, 64) + " hours"
	case days <= 60:
		return strconv.FormatFloat(days, 'f', 2, 64) + " days"
	}
	return strconv.FormatFloat(days/7, 'f', 1, 64) + " weeks"
}

// FormatTokens writes a token count: "1T tokens", "1.5T tokens", "300B
// tokens", "2M tokens".
func FormatTokens(n float64) string {
	for _, u := range []struct {
		v float64
		s string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if n >= u.v {
			return strconv.FormatFloat(n/u.v, 'g', 3, 64) + u.s + " tokens" // below 1,000: never an exponent
		}
	}
	return strconv.FormatFloat(n, 'f', 0, 64) + " tokens"
}

// FormatGain writes a speed-up ratio: "1.06x".
func FormatGain(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + "x"
}

// Plural writes a count with its noun: "1 tier", "3 tiers", "1,024 GPUs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") || strings.HasSuffix(noun, "x") || strings.HasSuffix(noun, "ch") {
		return FormatInt(n) + " " + noun + "es"
	}
	return FormatInt(n) + " " + noun + "s"
}
