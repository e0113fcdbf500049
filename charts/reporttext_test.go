package charts

import (
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
)

// The report's kept measures are the ones measured afresh, for every
// string, font and width asked in any order: a bold face is wider than
// the regular one, 13 pt wider than 9 pt, and a paragraph wrapped to a
// narrower width has more lines. Mutations caught: widths keyed by the
// string alone (the bold width given for the regular), by the face
// without its size, or wraps keyed without their width.
func TestTextMeasuresKeepEachFontAndWidth(t *testing.T) {
	m := newTextMeasures()
	para := "The fabric's 3,072 leaf switches and 1,536 spines take 98,304 cables of 2 to 47 m; prices are estimates."
	for range 2 { // the second round reads what the first kept
		for _, size := range []vg.Length{9, 13} {
			for _, bold := range []bool{false, true} {
				sty := textStyle(size, bold)
				for _, s := range []string{"Réseau 1,024", "Wide WWW"} {
					if got, want := m.width(s, sty), sty.Width(s); got != want {
						t.Errorf("%v pt bold %v: width(%q) = %v, want %v", size, bold, s, got, want)
					}
				}
				for _, w := range []vg.Length{150, 415} {
					if got, want := m.wrap(para, w, sty), wrapToWidth(para, w, sty); !slices.Equal(got, want) {
						t.Errorf("%v pt bold %v, %v wide: wrap = %q, want %q", size, bold, w, got, want)
					}
				}
			}
		}
	}
	if textStyle(9, true).Width("Wide WWW") <= textStyle(9, false).Width("Wide WWW") ||
		len(wrapToWidth(para, 150, textStyle(9, false))) <= len(wrapToWidth(para, 415, textStyle(9, false))) {
		t.Error("the cases do not tell the fonts or the widths apart")
	}
	var none *textMeasures // no kept measures: measured afresh
	if got, want := none.width("Réseau", textStyle(9, false)), textStyle(9, false).Width("Réseau"); got != want {
		t.Errorf("nil measures: width %v, want %v", got, want)
	}
}
