package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Int writes n with thousands separators: 1234567 -> "1,234,567".
func Int(n int) string {
	var buf [32]byte
	return string(AppendInt(buf[:0], n))
}

// AppendInt appends n with thousands separators to dst, as Int writes it,
// for text built in one buffer without a string per number.
func AppendInt(dst []byte, n int) []byte {
	var digits [24]byte
	s := strconv.AppendInt(digits[:0], int64(n), 10)
	if s[0] == '-' {
		dst = append(dst, '-')
		s = s[1:]
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c)
	}
	return dst
}

// USD writes dollars compactly: $950, $12.3k, $4.56M, $1.23B.
func USD(v float64) string {
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
	return sign + "$" + Int(int(math.Round(a)))
}

// USDExact writes whole dollars with separators: $1,234,567.
func USDExact(v float64) string {
	if v < 0 {
		return "-$" + Int(int(math.Round(-v)))
	}
	return "$" + Int(int(math.Round(v)))
}

// Watts writes power compactly: 950 W, 12.3 kW, 4.56 MW.
func Watts(w float64) string {
	switch {
	case w >= 1e6:
		return fmt.Sprintf("%.2f MW", w/1e6)
	case w >= 1e3:
		return fmt.Sprintf("%.1f kW", w/1e3)
	}
	return fmt.Sprintf("%.0f W", w)
}

// Seconds writes a duration in s, ms or µs.
func Seconds(s float64) string {
	var buf [32]byte
	return string(AppendSeconds(buf[:0], s))
}

// AppendSeconds appends s as Seconds writes it to dst (strconv writes
// "%.Nf" byte for byte as fmt does, NaN and infinities included).
func AppendSeconds(dst []byte, s float64) []byte {
	switch {
	case s >= 1:
		return append(strconv.AppendFloat(dst, s, 'f', 2, 64), " s"...)
	case s >= 1e-3:
		return append(strconv.AppendFloat(dst, s*1e3, 'f', 1, 64), " ms"...)
	}
	return append(strconv.AppendFloat(dst, s*1e6, 'f', 1, 64), " µs"...)
}

// SignedSeconds is Seconds with a sign: "+1.2 ms", "−40 µs".
func SignedSeconds(s float64) string {
	if s < 0 {
		return "−" + Seconds(-s)
	}
	return "+" + Seconds(s)
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

// CSVText makes a text cell safe for terminals and spreadsheets: control
// and bidi characters go (ESC, NUL, CR and U+202E would reach a terminal
// that cats the file, or reorder what a reader sees), as TerminalText
// does; then a cell that starts with = + - @ would be read as a formula
// (CSV injection), so it gets a leading apostrophe, which spreadsheets
// show as plain text. Numbers are written separately and never pass here.
func CSVText(s string) string {
	s = TerminalText(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Duration writes a job time given in days, alone, in the unit
// DurationUnitFor picks for it: minutes or hours below two days ("4.8
// hours"), days to two decimals up to 60 ("14.03 days"), weeks beyond
// ("9.3 weeks"). Times shown together share one unit: DurationUnit.
func Duration(days float64) string {
	return DurationUnitFor(days).Format(days)
}

// Tokens writes a token count: "1T tokens", "1.5T tokens", "300B
// tokens", "2M tokens".
func Tokens(n float64) string {
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

// Gain writes a speed-up ratio: "1.06x".
func Gain(x float64) string {
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
		return Int(n) + " " + noun + "es"
	}
	return Int(n) + " " + noun + "s"
}

// ParseCount reads a whole number from 1 to limit as the app prints or a
// user types it: "1,024", "1_024", "16k", "1.5k", "1M", "1e6".
func ParseCount(text string, limit int) (int, error) {
	v, ok := parseScaled(text, ",_ ")
	if !ok {
		return 0, fmt.Errorf("%q is not a whole number", text)
	}
	if !(v >= 1 && v <= float64(limit)) {
		return 0, fmt.Errorf("give a number from 1 to %s", Int(limit))
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a whole number", text)
	}
	return int(v), nil
}

// MaxMoneyUSD is the largest amount ParseMoney reads: US$100 billion, a
// thousand times the largest single price a scenario takes, so any budget
// for a real cluster fits and a typo of a dozen zeros does not.
const MaxMoneyUSD = 100e9

// ParseMoney reads an amount of US dollars as USD prints it or a
// user types it: "300000", "$300,000", "4.6M", "$4.6M", "12k", "1e6".
// Empty is 0.
func ParseMoney(text string) (float64, error) {
	if strings.TrimSpace(text) == "" {
		return 0, nil
	}
	v, ok := parseScaled(text, ",_ $")
	if !ok || !(v >= 0 && v <= MaxMoneyUSD) {
		return 0, fmt.Errorf("%q is not an amount of US$: write e.g. 300000, $300,000 or 4.6M", text)
	}
	return v, nil
}

// parseScaled reads a number with the characters of drop removed and an
// optional k, M or B suffix (thousand, million, billion).
func parseScaled(text, drop string) (float64, bool) {
	t := strings.Map(func(r rune) rune {
		if strings.ContainsRune(drop, r) {
			return -1
		}
		return r
	}, strings.TrimSpace(text))
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult, t = 1e3, t[:n-1]
		case 'm', 'M':
			mult, t = 1e6, t[:n-1]
		case 'B':
			mult, t = 1e9, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	return v * mult, err == nil && t != ""
}

// Clip shortens s to at most n runes, ending in an ellipsis when cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// JoinAnd joins words as a list in a sentence: "a", "a and b", "a, b
// and c".
func JoinAnd(words []string) string { return joinList(words, " and ") }

// JoinOr is JoinAnd with "or": "a or b", "a, b or c".
func JoinOr(words []string) string { return joinList(words, " or ") }

func joinList(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// ParseInt reads a whole number from lo to hi in the one count grammar
// of the app, the CLI and the files' tools: "1024", "1,024", "1_024",
// "16k", "1.5k", "1M", "1e6".
func ParseInt(text string, lo, hi int) (int, error) {
	v, ok := parseScaled(text, ",_ ")
	if !ok || v != math.Trunc(v) {
		return 0, fmt.Errorf("%q is not a whole number", strings.TrimSpace(text))
	}
	if !(v >= float64(lo) && v <= float64(hi)) {
		return 0, fmt.Errorf("give a number from %s to %s", Int(lo), Int(hi))
	}
	return int(v), nil
}

// ParseNumber reads a number from lo to hi in the same grammar, with
// decimals: "2.5", "1,000", "1e12", "1.5k". A trailing unit ("30 m")
// is the caller's to strip.
func ParseNumber(text string, lo, hi float64) (float64, error) {
	v, ok := parseScaled(text, ",_ ")
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a number", strings.TrimSpace(text))
	}
	if !(v >= lo && v <= hi) {
		return 0, fmt.Errorf("give a number from %s to %s", strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64))
	}
	return v, nil
}
