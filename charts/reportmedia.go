package charts

import (
	"fmt"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// tierMediaText is a link tier's media for the inputs table: with a hall
// layout, the range of lengths sold and the media the links take ("5-10
// m, ACC and multimode optics, laid out"); without one, the scenario's
// medium and length for the tier.
func tierMediaText(p *planner.Plan, tier string, medium planner.Medium, metres float64) string {
	for i := range p.LinkTiers {
		t := &p.LinkTiers[i]
		if t.Name != tier {
			continue
		}
		lo, hi, media, ok := t.LengthRange()
		if !ok {
			break
		}
		span := fmt.Sprintf("%g-%g m", lo, hi)
		if lo == hi {
			span = fmt.Sprintf("%g m", lo)
		}
		var names []string
		for _, m := range media {
			names = append(names, mediumName(m))
		}
		return fmt.Sprintf("%s, %s, laid out", span, textfmt.JoinAnd(names))
	}
	return fmt.Sprintf("%s, %g m", medium, metres)
}

// mediumName names a medium in a table cell: the cable kind, or the
// fibre's mode for links on transceivers.
func mediumName(m planner.Medium) string {
	switch m {
	case planner.Optics:
		return "single-mode optics"
	case planner.Multimode:
		return "multimode optics"
	}
	return strings.ToUpper(string(m))
}
