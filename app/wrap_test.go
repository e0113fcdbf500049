package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// wrapWords gives the rows Fyne's own word wrapping gives, here a
// transcription of Fyne 2.7.2's widget.lineBounds (TextWrapWord, no
// truncation) made independently of wrapWords' steps, under measures
// whose widths are not the sum of their words' (pairs across a space
// kerned closer or wider, as a shaped font's are), at odd widths from one rune to past
// the whole text. Mutations caught: the guessed row taken without the
// exact checks (a row one word too long or short where kerning moves
// the edge), the check of the next word dropped, the space after a row
// not skipped, a too-long first word cut anywhere but where Fyne cuts
// it, wrapping at a negative width.
func TestWrapWordsAsFyne(t *testing.T) {
	texts := []string{
		"",
		"one",
		"estimate, hall basis, $2.06B–$2.52B; 8.3% of cluster capex, within analysts' 5–15%",
		"1,152 per server at 800G, cx8\nwithout NICs $4,321, above analysts' $1,000–$3,000: a note",
		"AVeryLongWordThatDoesNotFitAnywhere then short words follow it here",
		"two  spaces  between\n\nand an empty line",
		" leading space and trailing space ",
		"x y z w v u t s r q p o n m l k j i h g f e d c b a",
	}
	measures := []struct {
		name string
		m    func(string) float32
	}{
		{"even runes", func(s string) float32 { return float32(len([]rune(s))) * 7 }},
		{"kerned tight", func(s string) float32 { return kernedWidth(s, -0.6) }},
		{"kerned loose", func(s string) float32 { return kernedWidth(s, 0.6) }},
	}
	for _, ms := range measures {
		for _, text := range texts {
			runes := []rune(text)
			full := ms.m(text)
			for width := float32(-1); width <= full+8; width += 3.7 {
				got := wrapWords(runes, width, ms.m)
				want := fyneWrap(runes, width, ms.m)
				if !slices.Equal(got, want) {
					t.Errorf("%s, %q at %.1f: rows %s, Fyne's %s", ms.name, text, width, rowsText(runes, got), rowsText(runes, want))
				}
			}
		}
	}
}

// kernedWidth is a proportional width (narrow i, l and punctuation,
// wide m and w) with pairs kerned across a space (a letter before or
// after a space kern wider or, negative, narrower), so a row's width is
// not its words'.
func kernedWidth(s string, kern float32) float32 {
	w := float32(0)
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case strings.ContainsRune("il.,;:'!|", r):
			w += 3
		case strings.ContainsRune("mwMW", r):
			w += 11
		case unicode.IsSpace(r):
			w += 4
		default:
			w += 7
		}
		if i > 0 && unicode.IsSpace(r) != unicode.IsSpace(runes[i-1]) {
			w += kern
		}
	}
	return w
}

// rowsText is the rows' text, for messages.
func rowsText(text []rune, rows []span) string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%q", string(text[r.begin:r.end])))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// fyneWrap is Fyne 2.7.2's widget.lineBounds for one segment wrapped by
// words without truncation, as it reads there (its first row as wide as
// the others), for the test to compare against.
func fyneWrap(text []rune, width float32, measure func(string) float32) []span {
	var lines []span
	low := 0
	for i, r := range text {
		if r == '\n' {
			lines = append(lines, span{low, i})
			low = i + 1
		}
	}
	lines = append(lines, span{low, len(text)})
	if width < 0 {
		return lines
	}
	fits := func(a, b int) bool { return measure(string(text[a:b])) <= width }
	search := func(low, maxHigh int) int {
		if low >= maxHigh {
			return low
		}
		if fits(low, maxHigh) {
			return maxHigh
		}
		high, delta := low, maxHigh-low
		for delta > 0 {
			delta /= 2
			if fits(low, high+delta) {
				high += delta
			}
		}
		for high < maxHigh && fits(low, high+1) {
			high++
		}
		return high
	}
	var bounds []span
	for _, l := range lines {
		low, high := l.begin, l.end
		if low == high {
			bounds = append(bounds, l)
			continue
		}
		for low < high {
			sub := text[low:high]
			if fits(low, high) {
				bounds = append(bounds, span{low, high})
				low, high = high, l.end
				if low < high && unicode.IsSpace(text[low]) {
					low++
				}
				continue
			}
			fallback := search(low, low+len(sub)-1) - low
			if fallback < 1 {
				bounds = append(bounds, span{low, low + 1})
				low++
				high = low + 1
				if high > l.end {
					return bounds
				}
				continue
			}
			i := fallback
			for ; i >= 0 && !unicode.IsSpace(sub[i]); i-- {
			}
			if i < 0 {
				i = fallback
			}
			if i == 0 {
				i = 1
			}
			high = low + i
		}
	}
	return bounds
}
