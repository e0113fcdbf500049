package app

import (
	"sort"
	"unicode"
)

// span is one row of wrapped text: the runes [begin, end).
type span struct{ begin, end int }

// wrapWords splits text into the rows Fyne 2.7.2 wraps one text
// segment into by words (widget.lineBounds with fyne.TextWrapWord and
// no truncation, as a Label with that wrapping lays its text out) at
// width: the lines between newlines, each wrapped at its last space
// that leaves the row within width, a word too long for a row broken
// where it no longer fits. A negative width wraps nothing. measure is
// the width of a run of text as fyne.MeasureText gives it.
//
// Fyne finds each row by bisecting over every rune, measuring (and so
// shaping) a dozen new strings a row. Here the row is guessed from the
// widths of its words and checked with two measurements: the row fits
// and the row with the next word does not. Widths grow with each rune,
// so those two settle the row Fyne's bisection settles. Where the guess
// cannot be checked so (a row that starts with a space, a first word
// wider than the row) Fyne's own steps are taken.
func wrapWords(text []rune, width float32, measure func(string) float32) []span {
	w := wrapper{text: text, width: width, measure: measure}
	return w.wrap()
}

// wrapper holds one wrapping's text and measurements.
type wrapper struct {
	text    []rune
	width   float32
	measure func(string) float32
	cands   []candidate
	// stepsOnly skips the guessed rows and takes Fyne's steps alone
	// (the slow path every row falls back to): the rows must be the same.
	stepsOnly bool
}

// candidate is where a row may end (a space, or the end of the line)
// and the row's guessed width to there.
type candidate struct {
	at    int
	guess float32
}

func (w *wrapper) fits(a, b int) bool { return w.measure(string(w.text[a:b])) <= w.width }

func (w *wrapper) wrap() []span {
	lines := splitLines(w.text)
	if w.width < 0 {
		return lines
	}
	var rows []span
	for _, l := range lines {
		if l.begin == l.end {
			rows = append(rows, l)
			continue
		}
		low, high := l.begin, l.end
		for low < high {
			if high == l.end && !w.stepsOnly {
				if end, ok := w.row(low, l.end); ok {
					rows = append(rows, span{low, end})
					low, high = w.next(end, l.end)
					continue
				}
			}
			// Fyne's step (widget.lineBounds, TextWrapWord).
			if w.fits(low, high) {
				rows = append(rows, span{low, high})
				low, high = w.next(high, l.end)
				continue
			}
			fallback := bisect(w.fits, low, high-1) - low
			if fallback < 1 { // not even one rune fits
				rows = append(rows, span{low, low + 1})
				low++
				high = low + 1
				if high > l.end {
					return rows
				}
				continue
			}
			space := lastSpace(w.text[low:high], fallback)
			if space == 0 {
				space = 1
			}
			high = low + space
		}
	}
	return rows
}

// next is where the row after one ending at end starts (past one
// space), and the line's end.
func (w *wrapper) next(end, lineEnd int) (int, int) {
	if end < lineEnd && unicode.IsSpace(w.text[end]) {
		end++
	}
	return end, lineEnd
}

// row finds the end of the row that starts at low on a line ending at
// lineEnd: the last candidate (a space or lineEnd) the row fits to, the
// row to the next one not fitting; false when the row is not settled
// so (see wrapWords).
func (w *wrapper) row(low, lineEnd int) (int, bool) {
	if unicode.IsSpace(w.text[low]) {
		return 0, false
	}
	first := w.wordEnd(low, lineEnd)
	w.cands = append(w.cands[:0], candidate{first, w.measure(string(w.text[low:first]))})
	for w.cands[len(w.cands)-1].guess <= w.width {
		if !w.more(lineEnd) {
			break
		}
	}
	at := 0
	for at+1 < len(w.cands) && w.cands[at+1].guess <= w.width {
		at++
	}
	for at >= 0 && !w.fits(low, w.cands[at].at) {
		at--
	}
	if at < 0 {
		return 0, false // the first word alone is too wide
	}
	for (at+1 < len(w.cands) || w.more(lineEnd)) && w.fits(low, w.cands[at+1].at) {
		at++
	}
	return w.cands[at].at, true
}

// more adds the next candidate past the last, with its guessed width;
// false at the line's end.
func (w *wrapper) more(lineEnd int) bool {
	last := w.cands[len(w.cands)-1]
	if last.at == lineEnd {
		return false
	}
	i := last.at + 1
	j := w.wordEnd(i, lineEnd)
	guess := last.guess + w.measure(string(w.text[last.at:i])) + w.measure(string(w.text[i:j]))
	w.cands = append(w.cands, candidate{j, guess})
	return true
}

// wordEnd is where the word from i ends: the next space, or lineEnd.
func (w *wrapper) wordEnd(i, lineEnd int) int {
	for i < lineEnd && !unicode.IsSpace(w.text[i]) {
		i++
	}
	return i
}

// splitLines is the text's lines between newlines, as Fyne's
// widget.splitLines gives them.
func splitLines(text []rune) []span {
	var lines []span
	low := 0
	for i, r := range text {
		if r == '\n' {
			lines = append(lines, span{low, i})
			low = i + 1
		}
	}
	return append(lines, span{low, len(text)})
}

// bisect is the end of the longest text from low, to at most maxHigh,
// that fits (widths grow with every rune added, so a binary search
// finds it); low when none does.
func bisect(fits func(int, int) bool, low, maxHigh int) int {
	if low >= maxHigh {
		return low
	}
	// The first length past low that no longer fits.
	over := sort.Search(maxHigh-low+1, func(n int) bool { return n > 0 && !fits(low, low+n) })
	return low + max(over-1, 0)
}

// lastSpace is where a too-long row is cut back to: the last space of
// text at or before fallback, or fallback itself when there is none.
func lastSpace(text []rune, fallback int) int {
	for i := fallback; i >= 0; i-- {
		if unicode.IsSpace(text[i]) {
			return i
		}
	}
	return fallback
}
