package charts

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// rackSelection is the floor plan's selected rack and where its links
// go, drawn over the racks: the rack ringed, a line to each far rack in
// its tier's colour (thicker: more links), the far racks outlined.
type rackSelection struct {
	rack int // index in Hall.Racks
	ends []planner.RackEnd
	most int // links of the busiest far end
}

// newRackSelection finds the rack named in.Rack and its far ends (as
// given, or worked out by a walk of every link).
func newRackSelection(in Input) (*rackSelection, error) {
	h := in.Plan.Hall
	rack := -1
	for i, r := range h.Racks {
		if r.Name == in.Rack {
			rack = i
			break
		}
	}
	if rack < 0 {
		names := "the hall has no racks"
		if n := len(h.Racks); n > 0 {
			names = fmt.Sprintf("racks are named R<row>-<position>, %s to %s", h.Racks[0].Name, h.Racks[n-1].Name)
		}
		return nil, fmt.Errorf("%w: rack %q: the hall has no such rack (%s)", ErrMissingInput, in.Rack, names)
	}
	ends := in.RackEnds
	if ends == nil {
		var err error
		if ends, err = in.Plan.RackEnds(context.Background(), rack); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrMissingInput, err)
		}
	}
	s := &rackSelection{rack: rack, ends: ends}
	for _, e := range ends {
		s.most = max(s.most, e.Links)
	}
	return s, nil
}

// width is the line width of a far end of n links: thicker with the log
// of n against the busiest end's, in the run widths' steps.
func (s *rackSelection) width(n int) vg.Length {
	k := len(runWidths) - 1
	if s.most > 1 {
		k = int(math.Log(float64(n)) / math.Log(float64(s.most)) * float64(len(runWidths)-1))
	}
	return vg.Points(runWidths[max(0, min(len(runWidths)-1, k))] + 0.5)
}

// draw strokes the selection: a line along the row then across the rows
// to each far rack (as the trays run), the far racks outlined and the
// rack ringed, big enough to find when racks are a pixel or two.
func (s *rackSelection) draw(c draw.Canvas, at func(hall.Rack) vg.Point, h *hall.Hall, rw, rd vg.Length) {
	a := at(h.Racks[s.rack])
	for _, e := range s.ends {
		if e.Far == s.rack {
			continue
		}
		b := at(h.Racks[e.Far])
		col := runColour[e.Tier]
		col.A = 0xff
		var pa vg.Path
		pa.Move(a)
		pa.Line(vg.Point{X: b.X, Y: a.Y})
		pa.Line(b)
		// No wider than half a rack: lines to neighbouring racks stay
		// apart on a plan of thousands.
		c.SetLineStyle(draw.LineStyle{Color: col, Width: min(s.width(e.Links), max(rw/2, vg.Points(0.5)))})
		c.Stroke(pa)
	}
	outline := func(p vg.Point, w vg.Length) {
		half := vg.Point{X: max(rw/2, vg.Points(1.5)), Y: max(rd/2, vg.Points(1.5))}
		r := vg.Rectangle{Min: p.Sub(half), Max: p.Add(half)}
		c.SetLineStyle(draw.LineStyle{Color: Ink, Width: w})
		c.Stroke(r.Path())
	}
	for _, e := range s.ends {
		outline(at(h.Racks[e.Far]), vg.Points(0.8))
	}
	outline(a, vg.Points(1.6))
	rad := max(rw, rd, vg.Points(6))
	var ring vg.Path
	ring.Move(vg.Point{X: a.X + rad, Y: a.Y})
	ring.Arc(a, rad, 0, 2*math.Pi)
	ring.Close()
	c.SetLineStyle(draw.LineStyle{Color: Ink, Width: vg.Points(1.2)})
	c.Stroke(ring)
}

// note says what the selection draws, for the footnote.
func (s *rackSelection) note(h *hall.Hall) string {
	r := h.Racks[s.rack]
	links, racks := 0, map[int]bool{}
	for _, e := range s.ends {
		links += e.Links
		racks[e.Far] = true
	}
	return fmt.Sprintf(" Ringed: rack %s (%s, %.1f kW peak); lines run to the %s its %s reach, in each tier's colour (thicker: more links).",
		r.Name, r.Kind, r.PeakKW, textfmt.Plural(len(racks), "rack"), textfmt.Plural(links, "link"))
}

// series is the selected rack's links by tier and far rack.
func (s *rackSelection) series(h *hall.Hall) Series {
	out := Series{Name: "rack " + h.Racks[s.rack].Name + " links by far rack"}
	for _, e := range s.ends {
		out.Labels = append(out.Labels, strings.ReplaceAll(e.Tier, "_", "-")+" "+h.Racks[e.Far].Name)
		out.Values = append(out.Values, float64(e.Links))
	}
	return out
}
