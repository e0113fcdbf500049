package charts

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// TextBox is where one string was drawn on a figure: the box its glyphs
// take, in points from the bottom left of the page, after every
// translation, rotation and scaling the drawing applied.
type TextBox struct {
	Text string
	Min  vg.Point
	Max  vg.Point
	seq  int // the order it was drawn in, among text and marks
}

// Mark is a line or a filled shape drawn on a figure, in page points: a
// stroke's segments (a curve or arc by its bounding box, as a filled
// shape), or a fill's bounding box.
type Mark struct {
	Fill     bool
	Segments [][2]vg.Point // a stroke's straight segments
	Min, Max vg.Point      // a fill's (or curved stroke's) bounding box
	Color    color.Color
	seq      int
}

// Overlaps says whether two boxes share more than slack points in both
// directions.
func (b TextBox) Overlaps(o TextBox, slack vg.Length) bool {
	return b.Min.X+slack < o.Max.X && o.Min.X+slack < b.Max.X && b.Min.Y+slack < o.Max.Y && o.Min.Y+slack < b.Max.Y
}

// Inside says whether the box lies within w x h points, give or take
// slack.
func (b TextBox) Inside(w, h, slack vg.Length) bool {
	return b.Min.X >= -slack && b.Min.Y >= -slack && b.Max.X <= w+slack && b.Max.Y <= h+slack
}

// textRecorder is a canvas that passes every call on and records the box
// of each string drawn: the measure the overlap and clipping tests take
// of a chart in any export format.
type textRecorder struct {
	vg.CanvasSizer
	m      affine   // the current transform
	stack  []affine // saved by Push
	colors []color.Color
	color  color.Color
	boxes  []TextBox
	marks  []Mark
	seq    int
}

// SetColor implements vg.Canvas.
func (r *textRecorder) SetColor(c color.Color) {
	r.color = c
	r.CanvasSizer.SetColor(c)
}

// Stroke implements vg.Canvas: it records the path's straight segments,
// or the box of a path with curves.
func (r *textRecorder) Stroke(p vg.Path) {
	r.mark(p, false)
	r.CanvasSizer.Stroke(p)
}

// Fill implements vg.Canvas: it records the box of the path.
func (r *textRecorder) Fill(p vg.Path) {
	r.mark(p, true)
	r.CanvasSizer.Fill(p)
}

func (r *textRecorder) mark(p vg.Path, fill bool) {
	m := Mark{Fill: fill, Color: r.color, seq: r.seq,
		Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))},
		Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	r.seq++
	grow := func(pt vg.Point) {
		q := r.m.apply(pt)
		m.Min.X, m.Min.Y = min(m.Min.X, q.X), min(m.Min.Y, q.Y)
		m.Max.X, m.Max.Y = max(m.Max.X, q.X), max(m.Max.Y, q.Y)
	}
	var start, last vg.Point
	curved := false
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp:
			start, last = c.Pos, c.Pos
			grow(c.Pos)
		case vg.LineComp:
			m.Segments = append(m.Segments, [2]vg.Point{r.m.apply(last), r.m.apply(c.Pos)})
			last = c.Pos
			grow(c.Pos)
		case vg.CloseComp:
			m.Segments = append(m.Segments, [2]vg.Point{r.m.apply(last), r.m.apply(start)})
			last = start
		case vg.ArcComp:
			curved = true
			grow(vg.Point{X: c.Pos.X - c.Radius, Y: c.Pos.Y - c.Radius})
			grow(vg.Point{X: c.Pos.X + c.Radius, Y: c.Pos.Y + c.Radius})
			a := c.Start + c.Angle
			last = vg.Point{X: c.Pos.X + c.Radius*vg.Length(math.Cos(a)), Y: c.Pos.Y + c.Radius*vg.Length(math.Sin(a))}
		case vg.CurveComp:
			curved = true
			for _, q := range c.Control {
				grow(q)
			}
			grow(c.Pos)
			last = c.Pos
		}
	}
	if curved {
		m.Fill, m.Segments = true, nil
	}
	if !fill && !curved && len(m.Segments) == 0 {
		return
	}
	r.marks = append(r.marks, m)
}

// affine maps (x, y) to (a x + c y + e, b x + d y + f).
type affine struct{ a, b, c, d, e, f float64 }

var identity = affine{a: 1, d: 1}

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

// then is m followed, in the drawing's own coordinates, by n (m · n).
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

func newTextRecorder(c vg.CanvasSizer) *textRecorder {
	return &textRecorder{CanvasSizer: c, m: identity}
}

// Translate implements vg.Canvas.
func (r *textRecorder) Translate(pt vg.Point) {
	r.m = r.m.then(affine{a: 1, d: 1, e: float64(pt.X), f: float64(pt.Y)})
	r.CanvasSizer.Translate(pt)
}

// Rotate implements vg.Canvas.
func (r *textRecorder) Rotate(rad float64) {
	s, c := math.Sincos(rad)
	r.m = r.m.then(affine{a: c, b: s, c: -s, d: c})
	r.CanvasSizer.Rotate(rad)
}

// Scale implements vg.Canvas.
func (r *textRecorder) Scale(x, y float64) {
	r.m = r.m.then(affine{a: x, d: y})
	r.CanvasSizer.Scale(x, y)
}

// Push implements vg.Canvas.
func (r *textRecorder) Push() {
	r.stack = append(r.stack, r.m)
	r.colors = append(r.colors, r.color)
	r.CanvasSizer.Push()
}

// Pop implements vg.Canvas.
func (r *textRecorder) Pop() {
	if n := len(r.stack); n > 0 {
		r.m, r.stack = r.stack[n-1], r.stack[:n-1]
	}
	if n := len(r.colors); n > 0 {
		r.color, r.colors = r.colors[n-1], r.colors[:n-1]
	}
	r.CanvasSizer.Pop()
}

// FillString implements vg.Canvas: it records the box of s, from the
// baseline's descent to the capitals' height (accents and the font's
// line gap may touch a neighbour without the glyphs meeting).
func (r *textRecorder) FillString(f font.Face, pt vg.Point, s string) {
	ext := f.Extents()
	w := f.Width(s)
	lo := vg.Point{X: pt.X, Y: pt.Y - ext.Descent}
	hi := vg.Point{X: pt.X + w, Y: pt.Y + ext.Ascent*capShare}
	b := TextBox{Text: s, Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))},
		Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	for _, corner := range []vg.Point{lo, hi, {X: lo.X, Y: hi.Y}, {X: hi.X, Y: lo.Y}} {
		p := r.m.apply(corner)
		b.Min.X, b.Min.Y = min(b.Min.X, p.X), min(b.Min.Y, p.Y)
		b.Max.X, b.Max.Y = max(b.Max.X, p.X), max(b.Max.Y, p.Y)
	}
	if s != "" && w > 0 {
		b.seq = r.seq
		r.seq++
		r.boxes = append(r.boxes, b)
	}
	r.CanvasSizer.FillString(f, pt, s)
}

// capShare is Liberation Sans's capital height over its ascent (1409 and
// 1854 font units).
const capShare = 0.76

// TextBoxes draws the figure in format at size and returns the box of
// every string drawn, and the page's width and height in points.
func (f *Figure) TextBoxes(format string, size Size) (boxes []TextBox, w, h vg.Length, err error) {
	rec, w, h, err := f.record(format, size)
	if err != nil {
		return nil, 0, 0, err
	}
	return rec.boxes, w, h, nil
}

// Drawing is what a figure drew: its text, its lines and filled shapes
// in drawing order, and the page's size in points.
type Drawing struct {
	Text  []TextBox
	Marks []Mark
	W, H  vg.Length
}

// Record draws the figure in format at size and returns what it drew.
func (f *Figure) Record(format string, size Size) (Drawing, error) {
	rec, w, h, err := f.record(format, size)
	if err != nil {
		return Drawing{}, err
	}
	return Drawing{Text: rec.boxes, Marks: rec.marks, W: w, H: h}, nil
}

func (f *Figure) record(format string, size Size) (rec *textRecorder, w, h vg.Length, err error) {
	if err := size.Validate(); err != nil {
		return nil, 0, 0, err
	}
	w, h = size.points()
	var c vg.CanvasSizer
	switch format {
	case "png":
		c = newRaster(w, h, size.DPI)
	case "svg":
		c = newSVGCanvas(w, h)
	case "pdf":
		pc, err := newPDFCanvas(w, h)
		if err != nil {
			return nil, 0, 0, err
		}
		c = pc
	default:
		return nil, 0, 0, errUnknownFormat(format)
	}
	rec = newTextRecorder(c)
	if err := f.safeDraw(rec); err != nil {
		return nil, 0, 0, err
	}
	return rec, w, h, nil
}
