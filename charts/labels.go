package charts

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pointLabels names points beside them and keeps the names apart: each
// name goes right of its point (left when the right edge is near), and
// moves up or down a line at a time, with a thin leader, until it
// overlaps no name placed before it. The layout is done at draw time, so
// it holds at any export or window size.
type pointLabels struct {
	points []vg.Point // in data coordinates
	texts  []string
	style  draw.TextStyle
	// avoid are other marks (in data coordinates) no name may cover; the
	// labelled points themselves are avoided too.
	avoid []vg.Point
}

func newPointLabels(xs, ys []float64, texts []string) *pointLabels {
	l := &pointLabels{texts: texts, style: draw.TextStyle{Color: Ink, Font: sans, Handler: plot.DefaultTextHandler}}
	l.style.Font.Size = tickSize
	for i := range xs {
		l.points = append(l.points, vg.Point{X: vg.Length(xs[i]), Y: vg.Length(ys[i])})
	}
	return l
}

// Plot implements plot.Plotter.
func (l *pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	type item struct {
		at   vg.Point
		text string
	}
	items := make([]item, 0, len(l.points))
	for i, pt := range l.points {
		at := vg.Point{X: trX(float64(pt.X)), Y: trY(float64(pt.Y))}
		if c.Contains(at) {
			items = append(items, item{at, l.texts[i]})
		}
	}
	// Place from the top down so names step downward in reading order.
	sort.SliceStable(items, func(i, j int) bool { return items[i].at.Y > items[j].at.Y })
	h := l.style.Height("Xg") * 1.1
	gap := vg.Points(7)
	var placed []vg.Rectangle
	block := func(pts []vg.Point, half vg.Length) {
		for _, pt := range pts {
			at := vg.Point{X: trX(float64(pt.X)), Y: trY(float64(pt.Y))}
			placed = append(placed, vg.Rectangle{Min: vg.Point{X: at.X - half, Y: at.Y - half}, Max: vg.Point{X: at.X + half, Y: at.Y + half}})
		}
	}
	block(l.points, vg.Points(4))
	block(l.avoid, vg.Points(7))
	overlaps := func(r vg.Rectangle) bool {
		for _, q := range placed {
			if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
				return true
			}
		}
		return false
	}
	leader := draw.LineStyle{Color: color.RGBA{0x77, 0x77, 0x77, 0xff}, Width: vg.Points(0.5)}
	for _, it := range items {
		w := l.style.Width(it.text)
		x := it.at.X + gap
		if x+w > c.Max.X {
			x = it.at.X - gap - w
		}
		var box vg.Rectangle
		for k := 0; k < 40; k++ {
			// 0, -1, +1, -2, +2 ... lines from the point.
			shift := vg.Length((k+1)/2) * h
			if k%2 == 1 {
				shift = -shift
			}
			y := it.at.Y - h/2 + shift
			box = vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
			if !overlaps(box) && box.Min.Y >= c.Min.Y && box.Max.Y <= c.Max.Y {
				break
			}
		}
		placed = append(placed, box)
		mid := vg.Point{X: box.Min.X, Y: (box.Min.Y + box.Max.Y) / 2}
		if mid.X < it.at.X {
			mid.X = box.Max.X
		}
		if math.Abs(float64(mid.Y-it.at.Y)) > float64(h)/2 {
			c.StrokeLine2(leader, it.at.X, it.at.Y, mid.X, mid.Y)
		}
		// A light backdrop keeps the name legible over lines and dots.
		c.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0})
		pad := vg.Points(1.5)
		c.Fill(vg.Rectangle{Min: vg.Point{X: box.Min.X - pad, Y: box.Min.Y}, Max: vg.Point{X: box.Max.X + pad, Y: box.Max.Y}}.Path())
		sty := l.style
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: box.Min.X, Y: mid.Y}, it.text)
	}
}
