package charts

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/planner/hall"
)

// mergeRacksBelow is the rack width under which neighbours of one
// colour in a row are filled as one block, the gaps between them then
// stroked in the page's colour: the thousands of racks of a 100k-GPU
// hall fill in far fewer edges, and still show one by one.
var mergeRacksBelow = vg.Points(4)

// fillRacks fills every rack of h at its centre at(r), rw wide and rd
// deep, one path per colour, and records each rack's slot as a click
// target when c draws for the window. Each rack is inset a little so
// neighbours stay apart, unless racks are too thin for that to show.
func fillRacks(c draw.Canvas, h *hall.Hall, at func(hall.Rack) vg.Point, rw, rd vg.Length) {
	gap := min(vg.Points(0.4), rw/8)
	merge := rw < mergeRacksBelow
	paths := map[color.Color]*vg.Path{}
	var order []color.Color
	rec := targetsOf(c)
	var seams vg.Path // where merged racks meet
	// block is the rectangle being grown along a row, not yet filled.
	var block struct {
		on     bool
		col    color.Color
		row    int
		slot   int
		lo, hi vg.Point
	}
	flush := func() {
		if !block.on {
			return
		}
		pa := paths[block.col]
		if pa == nil {
			pa = &vg.Path{}
			paths[block.col] = pa
			order = append(order, block.col)
		}
		lo, hi := block.lo, block.hi
		pa.Move(lo)
		pa.Line(vg.Point{X: hi.X, Y: lo.Y})
		pa.Line(hi)
		pa.Line(vg.Point{X: lo.X, Y: hi.Y})
		pa.Close()
		block.on = false
	}
	for i, r := range h.Racks {
		p := at(r)
		col := rackColour(r, h.Facility.RackKW)
		lo := vg.Point{X: p.X - rw/2 + gap, Y: p.Y - rd/2}
		hi := vg.Point{X: p.X + rw/2 - gap, Y: p.Y + rd/2}
		if rec != nil { // the whole slot, so a tap between two racks finds one
			rec.mark(TargetRack, i, vg.Point{X: p.X - rw/2, Y: lo.Y}, vg.Point{X: p.X + rw/2, Y: hi.Y})
		}
		if merge && block.on && block.col == col && block.row == r.Row && block.slot+1 == r.Slot && block.lo.Y == lo.Y &&
			lo.X-block.hi.X < rw/2 {
			seam := vg.Rectangle{Min: vg.Point{X: block.hi.X, Y: lo.Y}, Max: vg.Point{X: lo.X, Y: hi.Y}}
			seams.Move(seam.Min)
			seams.Line(vg.Point{X: seam.Max.X, Y: seam.Min.Y})
			seams.Line(seam.Max)
			seams.Line(vg.Point{X: seam.Min.X, Y: seam.Max.Y})
			seams.Close()
			block.hi.X, block.slot = hi.X, r.Slot
			continue
		}
		flush()
		block.on, block.col, block.row, block.slot, block.lo, block.hi = true, col, r.Row, r.Slot, lo, hi
	}
	flush()
	for _, col := range order {
		c.SetColor(col)
		c.Fill(*paths[col])
	}
	// The gaps inside the blocks, in the page's colour, so racks can
	// still be counted: one fill of thin slivers costs far less than a
	// fill per rack.
	if len(seams) > 0 {
		c.SetColor(color.White)
		c.Fill(seams)
	}
}
