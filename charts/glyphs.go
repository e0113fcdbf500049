package charts

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
)

// FontName is the typeface every chart and the PDF report draw text in:
// Liberation Sans, metric-compatible with Arial, which gonum/plot embeds
// (Latin, Greek and Cyrillic). A CJK font would cover Chinese, Japanese
// and Korean names but adds 10-20 MB to the binary, so names in those
// scripts are reported (MissingGlyphs) rather than drawn.
const FontName = "Liberation Sans"

// MissingGlyphs lists, once each and in order, the characters of s that
// the chart font cannot draw (a PDF or PNG shows them as empty boxes or
// not at all); spaces and control characters are not counted.
func MissingGlyphs(s string) []rune {
	face := font.DefaultCache.Lookup(sans, 10)
	if face.Face == nil {
		return nil
	}
	var buf sfnt.Buffer
	seen := map[rune]bool{}
	var out []rune
	for _, r := range s {
		if seen[r] || unicode.IsSpace(r) || unicode.IsControl(r) {
			continue
		}
		seen[r] = true
		if idx, err := face.Face.GlyphIndex(&buf, r); err != nil || idx == 0 {
			out = append(out, r)
		}
	}
	return out
}

// GlyphWarning says which characters of the scenario's name the chart
// font cannot draw, for the export's status line and the CLI; "" when it
// draws them all.
func GlyphWarning(name string) string {
	missing := MissingGlyphs(name)
	if len(missing) == 0 {
		return ""
	}
	const show = 12
	list := string(missing[:min(len(missing), show)])
	if len(missing) > show {
		list += fmt.Sprintf(" and %d more", len(missing)-show)
	}
	return fmt.Sprintf("the font (%s) has no glyph for %s in the scenario name: they show as empty boxes; use Latin, Greek or Cyrillic letters for a name that prints",
		FontName, strings.TrimSpace(list))
}
