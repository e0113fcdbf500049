package charts

import (
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
	m     affine   // the current transform
	stack []affine // saved by Push
	boxes []TextBox
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
	r.CanvasSizer.Push()
}

// Pop implements vg.Canvas.
func (r *textRecorder) Pop() {
	if n := len(r.stack); n > 0 {
		r.m, r.stack = r.stack[n-1], r.stack[:n-1]
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
		c = newPDFCanvas(w, h)
	default:
		return nil, 0, 0, errUnknownFormat(format)
	}
	rec := newTextRecorder(c)
	if err := f.safeDraw(rec); err != nil {
		return nil, 0, 0, err
	}
	return rec.boxes, w, h, nil
}
