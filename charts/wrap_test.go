package charts

import (
	"strings"
	"testing"
)

// TestWrapKeepsUnitWithNumber: a title wrapped to its panel never starts
// a line with a unit cut from its number. The styles chart of the
// GB300 NVL72 example (data/scenarios/gb300-nvl72-4k.toml) wrapped
// "Fabric power: lowest ToR, 18/ToR, 526.2 kW; this plan 639.1 kW" as
// "... this plan 639.1" / "kW". Widths are measured in the chart font:
// each case's width is that of its first line as wanted, so the next
// word does not fit. Mutation caught: the plain word wrap (a line "kW").
func TestWrapKeepsUnitWithNumber(t *testing.T) {
	sty := textStyle(tickSize, false)
	for _, tc := range []struct {
		name, text, firstLine string
	}{
		{"kW", "Fabric power: lowest ToR, 526.2 kW; this plan 639.1 kW", "Fabric power: lowest ToR, 526.2 kW; this plan 639.1"},
		{"weeks", "Job time: this plan 14.1 weeks", "Job time: this plan 14.1"},
		{"GB/s", "bus bandwidth 43.7 GB/s, over TCP", "bus bandwidth 43.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := wrapToWidth(tc.text, sty.Width(tc.firstLine), sty)
			if strings.Join(lines, " ") != tc.text {
				t.Fatalf("wrapped %q, words lost or moved", lines)
			}
			for i, l := range lines {
				first := strings.Fields(l)[0]
				if i > 0 && isUnitWord(first) {
					t.Errorf("line %d starts with the unit %q: %q", i+1, first, lines)
				}
				if sty.Width(l) > sty.Width(tc.firstLine) && len(strings.Fields(l)) > 1 {
					t.Errorf("line %d %q is wider than the width", i+1, l)
				}
			}
		})
	}
}
