package charts

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
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
func (r *floorRuns) draw(c draw.Canvas, at func(planner.Rack) vg.Point, h *planner.Hall, rackW vg.Length) {
	paths := make([]vg.Path, len(runWidths))
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
		paths[k].Move(a)
		paths[k].Line(vg.Point{X: b.X, Y: a.Y})
		paths[k].Line(b)
	}
	col := runColour[r.tier]
	for k := range runWidths {
		c.SetLineStyle(draw.LineStyle{Color: col, Width: vg.Points(runWidths[k])})
		if len(paths[k]) > 0 {
			c.Stroke(paths[k])
		}
		if len(rings[k]) > 0 {
			c.Stroke(rings[k])
		}
	}
}

// legendWords says what the lines are, for the legend.
func (r *floorRuns) legendWords() string {
	each := textfmt.Int(r.most) + " links each"
	if r.least != r.most {
		each = textfmt.Int(r.least) + " to " + each + " (thicker: more)"
	}
	return fmt.Sprintf("%s runs: %s, %s", strings.ReplaceAll(r.tier, "_", "-"), textfmt.Plural(len(r.pairs), "rack pair"), each)
}
