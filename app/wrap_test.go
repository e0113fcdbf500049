package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// wrapWords' guessed rows are the rows its step-by-step path gives
// (the steps Fyne's own word wrapping takes, which every row falls back
// to; TestWrapLabelDrawsAsLabel holds that path to a real Label), under
// measures whose widths are not the sum of their words' (pairs across a
// space kerned closer or wider, as a shaped font's are), at odd widths
// from one rune to past the whole text. Mutations caught: the guessed
// row taken without the exact checks (a row one word too long or short
// where kerning moves the edge), the check of the next word dropped, a
// row started on a space taken by the guess.
func TestWrapWordsGuessAsSteps(t *testing.T) {
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
				steps := (&wrapper{text: runes, width: width, measure: ms.m, stepsOnly: true}).wrap()
				if !slices.Equal(got, steps) {
					t.Errorf("%s, %q at %.1f: rows %s, by steps %s", ms.name, text, width, rowsText(runes, got), rowsText(runes, steps))
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
