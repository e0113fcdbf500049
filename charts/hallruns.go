package charts

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// runColour is the colour of each link tier's runs on the floor plan.
var runColour = map[string]color.RGBA{
	"server_leaf": {0xe6, 0x55, 0x0d, 0xa0},
	"leaf_spine":  {0x08, 0x51, 0x9c, 0xa0},
	"spine_core":  {0x54, 0x27, 0x8f, 0xa0},
}

// runWidths are the line widths, in points, of the floor plan's run
// classes: a rack pair's line is thicker the more links it carries.
var runWidths = []float64{0.5, 1, 1.8, 3}

// floorRuns is a link tier's runs drawn over the floor plan: one line
// per rack pair, thickness by links.
type floorRuns struct {
	tier  string // planner key
	pairs []planner.RackPair
	most  int // links of the busiest pair
	least int // links of the quietest pair
	links int
}

// newFloorRuns counts the tier's links by rack pair.
func newFloorRuns(p *planner.Plan, tier string) (*floorRuns, error) {
	key, ok := planner.TierKey(tier)
	if !ok {
		return nil, fmt.Errorf("%w: tier %q: write server-leaf, leaf-spine or spine-core", ErrMissingInput, tier)
	}
	pairs, err := p.RackPairs(context.Background(), key)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMissingInput, err)
	}
	r := &floorRuns{tier: key, pairs: pairs}
	for _, pr := range pairs {
		r.most = max(r.most, pr.Links)
		if r.least == 0 || pr.Links < r.least {
			r.least = pr.Links
		}
		r.links += pr.Links
	}
	return r, nil
}

// class is the width class of a pair of n links: the log of n over the
// log of the busiest pair's, in len(runWidths) steps.
func (r *floorRuns) class(n int) int {
	if r.most <= 1 {
		return 0
	}
	k := int(math.Log(float64(n)) / math.Log(float64(r.most)) * float64(len(runWidths)))
	return max(0, min(len(runWidths)-1, k))
}

// draw strokes every pair's run as the cable goes: along its row to the
// far rack's slot, then across the rows (a ring on the rack for links
// inside one rack), one path per width class.
//
// Thousands of pairs share a few trays: the runs of one width class
// along one row line, or down one column, are merged into the stretches
// they cover before stroking (one stroke paints an overlap once, so the
// picture is the same, drawn in a fraction of the time).
func (r *floorRuns) draw(c draw.Canvas, at func(hall.Rack) vg.Point, h *hall.Hall, rackW vg.Length) {
	segs := make([]segments, len(runWidths))
	paths := make([]vg.Path, len(runWidths)) // one pair at a time, when not merged
	rings := make([]vg.Path, len(runWidths))
	for _, pr := range r.pairs {
		k := r.class(pr.Links)
		a, b := at(h.Racks[pr.A]), at(h.Racks[pr.B])
		if pr.A == pr.B {
			rad := max(rackW/3, vg.Points(1))
			rings[k].Move(vg.Point{X: a.X + rad, Y: a.Y})
			rings[k].Arc(a, rad, 0, 2*math.Pi)
			rings[k].Close()
			continue
		}
		if !mergeRuns {
			paths[k].Move(a)
			paths[k].Line(vg.Point{X: b.X, Y: a.Y})
			paths[k].Line(b)
			continue
		}
		// Each stretch reaches half a width past the corner, so the
		// corner is filled where the run's two stretches meet.
		ext := vg.Points(runWidths[k]) / 2
		if a.Y == b.Y || a.X == b.X {
			ext = 0 // no corner
		}
		segs[k].add(true, a.Y, a.X, b.X, ext)
		segs[k].add(false, b.X, b.Y, a.Y, ext)
	}
	col := runColour[r.tier]
	for k := range runWidths {
		c.SetLineStyle(draw.LineStyle{Color: col, Width: vg.Points(runWidths[k])})
		if pa := append(paths[k], segs[k].path()...); len(pa) > 0 {
			c.Stroke(pa)
		}
		if len(rings[k]) > 0 {
			c.Stroke(rings[k])
		}
	}
}

// mergeRuns says whether runs are merged into stretches (always, but
// for the test that checks merging draws the same picture).
var mergeRuns = true

// segments are horizontal and vertical stretches of one width class,
// by the line they lie on.
type segments struct {
	rows, cols map[vg.Length][]span
}

// span is a stretch of a line, lo <= hi.
type span struct{ lo, hi vg.Length }

// add adds the stretch of a row line (row) or column line at at, from
// start to the corner end, reaching ext past the corner.
func (s *segments) add(row bool, at, start, corner, ext vg.Length) {
	if start == corner {
		return
	}
	if s.rows == nil {
		s.rows, s.cols = map[vg.Length][]span{}, map[vg.Length][]span{}
	}
	sp := span{start, corner + ext}
	if corner < start {
		sp = span{corner - ext, start}
	}
	if row {
		s.rows[at] = append(s.rows[at], sp)
	} else {
		s.cols[at] = append(s.cols[at], sp)
	}
}

// path is the merged stretches.
func (s *segments) path() vg.Path {
	var pa vg.Path
	for _, y := range sortedLines(s.rows) {
		for _, sp := range mergeSpans(s.rows[y]) {
			pa.Move(vg.Point{X: sp.lo, Y: y})
			pa.Line(vg.Point{X: sp.hi, Y: y})
		}
	}
	for _, x := range sortedLines(s.cols) {
		for _, sp := range mergeSpans(s.cols[x]) {
			pa.Move(vg.Point{X: x, Y: sp.lo})
			pa.Line(vg.Point{X: x, Y: sp.hi})
		}
	}
	return pa
}

// sortedLines is the lines of m in order, so a drawing is the same
// every time.
func sortedLines(m map[vg.Length][]span) []vg.Length {
	out := make([]vg.Length, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// mergeSpans joins overlapping or touching stretches.
func mergeSpans(in []span) []span {
	slices.SortFunc(in, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var out []span
	for _, sp := range in {
		if n := len(out); n > 0 && sp.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, sp.hi)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// legendWords says what the lines are, for the legend.
func (r *floorRuns) legendWords() string {
	each := textfmt.Int(r.most) + " links each"
	if r.least != r.most {
		each = textfmt.Int(r.least) + " to " + each + " (thicker: more)"
	}
	return fmt.Sprintf("%s runs: %s, %s", strings.ReplaceAll(r.tier, "_", "-"), textfmt.Plural(len(r.pairs), "rack pair"), each)
}
