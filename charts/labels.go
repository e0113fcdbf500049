package charts

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
	// lines are segments (in data coordinates: the front, the target
	// and budget lines) no name may cross where it has room elsewhere.
	lines [][2]vg.Point
	// dropped counts the names the last draw had no free place for:
	// left out rather than drawn over others.
	dropped int
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
	l.dropped = 0
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
	var leaders [][2]vg.Point
	var names []vg.Rectangle
	block(l.points, vg.Points(4))
	block(l.avoid, vg.Points(7))
	if r := legendRect(p, c); r.Max.X > r.Min.X && r.Max.Y > r.Min.Y {
		// gonum/plot draws the legend over the data: no name goes under it
		placed = append(placed, r)
	}
	var lines [][2]vg.Point
	for _, s := range l.lines {
		lines = append(lines, [2]vg.Point{{X: trX(float64(s[0].X)), Y: trY(float64(s[0].Y))}, {X: trX(float64(s[1].X)), Y: trY(float64(s[1].Y))}})
	}
	overlaps := func(r vg.Rectangle) bool {
		// a name never covers another's leader
		return overlapsAny(r, placed) || boxHitsAny(r, lines) || boxHitsAny(r, leaders)
	}
	leader := draw.LineStyle{Color: color.RGBA{0x77, 0x77, 0x77, 0xff}, Width: vg.Points(0.5)}
	for _, it := range items {
		w := l.style.Width(it.text)
		box, end, ok := placeLabel(it.at, w, h, gap, c.Rectangle, overlaps, func(a, b vg.Point) bool {
			return crossesAny(a, b, leaders)
		}, func(a, b vg.Point) bool {
			return throughAny(a, b, names) // a leader never runs through a name
		})
		if !ok {
			l.dropped++
			continue
		}
		placed, names = append(placed, box), append(names, box)
		mid := vg.Point{X: box.Min.X, Y: (box.Min.Y + box.Max.Y) / 2}
		if end != it.at {
			c.StrokeLine2(leader, it.at.X, it.at.Y, end.X, end.Y)
			leaders = append(leaders, [2]vg.Point{it.at, end})
		}
		// A light backdrop keeps the name legible over lines and dots.
		c.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0})
		pad := vg.Points(1.5)
		c.Fill(vg.Rectangle{Min: vg.Point{X: box.Min.X - pad, Y: box.Min.Y - pad}, Max: vg.Point{X: box.Max.X + pad, Y: box.Max.Y}}.Path())
		sty := l.style
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: box.Min.X, Y: mid.Y}, it.text)
	}
}

// placeLabel is the greedy placer of one name w x h for the point at:
// it tries places right, left, above and below the point, then the same
// a line further out each round, nearest first, and takes the first
// inside the canvas that covers nothing placed (overlaps) and whose
// leader crosses no leader drawn (crosses). It returns the name's box
// and where its leader ends (at itself: no leader, the name is beside
// its point). With no such place it takes the nearest free one whose
// leader crosses another leader; a leader through a name (through) is
// never taken. With no free place at all, ok is false: the name is left
// out rather than drawn over another.
func placeLabel(at vg.Point, w, h, gap vg.Length, page vg.Rectangle, overlaps func(vg.Rectangle) bool,
	crosses, through func(a, b vg.Point) bool) (box vg.Rectangle, end vg.Point, ok bool) {
	cands := labelSpots(at, w, h, gap)
	inside := func(r vg.Rectangle) bool {
		return r.Min.X >= page.Min.X && r.Max.X <= page.Max.X && r.Min.Y >= page.Min.Y && r.Max.Y <= page.Max.Y
	}
	// Free and uncrossed; else free (a crossing leader is the lesser
	// evil), its leader clear of every name.
	for _, strict := range []bool{true, false} {
		for _, c := range cands {
			led := c.end != at
			if inside(c.box) && !overlaps(c.box) && (!led || through == nil || !through(at, c.end)) && (!strict || !led || !crosses(at, c.end)) {
				return c.box, c.end, true
			}
		}
	}
	return vg.Rectangle{}, at, false
}

// labelSpot is a place placeLabel may give a name: its box, where its
// leader ends (at the point itself: no leader) and how far the leader
// runs.
type labelSpot struct {
	box  vg.Rectangle
	end  vg.Point
	dist vg.Length
}

// labelSpots lists placeLabel's places for a name w x h by the point at,
// nearest first: right, left, above and below it, then the same a line
// further out each round.
func labelSpots(at vg.Point, w, h, gap vg.Length) []labelSpot {
	var cands []labelSpot
	add := func(x, y vg.Length) {
		box := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
		// The leader runs to the nearest point of the box's edge.
		end := vg.Point{X: max(box.Min.X, min(at.X, box.Max.X)), Y: max(box.Min.Y, min(at.Y, box.Max.Y))}
		d := vg.Length(math.Hypot(float64(end.X-at.X), float64(end.Y-at.Y)))
		if d <= gap+1e-6 {
			end = at // beside its point: no leader
		}
		cands = append(cands, labelSpot{box, end, d})
	}
	for ring := 0; ring < 20; ring++ {
		out := vg.Length(ring) * h
		for _, dy := range []vg.Length{0, out, -out} {
			add(at.X+gap+out/2, at.Y-h/2+dy)   // right
			add(at.X-gap-out/2-w, at.Y-h/2+dy) // left
		}
		add(at.X-w/2, at.Y+gap+out)   // above
		add(at.X-w/2, at.Y-gap-h-out) // below
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	return cands
}

// overlapsAny says whether r overlaps any of the boxes.
func overlapsAny(r vg.Rectangle, boxes []vg.Rectangle) bool {
	for _, q := range boxes {
		if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}

// boxHitsAny says whether any of the segments passes through r.
func boxHitsAny(r vg.Rectangle, segs [][2]vg.Point) bool {
	for _, s := range segs {
		if segmentHitsBox(s[0], s[1], r) {
			return true
		}
	}
	return false
}

// crossesAny says whether the segment a-b crosses any of the segments.
func crossesAny(a, b vg.Point, segs [][2]vg.Point) bool {
	for _, s := range segs {
		if segmentsCross(a, b, s[0], s[1]) {
			return true
		}
	}
	return false
}

// throughAny says whether the segment a-b passes through any of the
// boxes.
func throughAny(a, b vg.Point, boxes []vg.Rectangle) bool {
	for _, r := range boxes {
		if segmentHitsBox(a, b, r) {
			return true
		}
	}
	return false
}

// polylineSegments is the line through xys, segment by segment, in
// canvas coordinates.
func polylineSegments(xys plotter.XYs, trX, trY func(float64) vg.Length) [][2]vg.Point {
	var segs [][2]vg.Point
	for i := 1; i < len(xys); i++ {
		segs = append(segs, [2]vg.Point{{X: trX(xys[i-1].X), Y: trY(xys[i-1].Y)}, {X: trX(xys[i].X), Y: trY(xys[i].Y)}})
	}
	return segs
}

// segmentsCross says whether segments ab and cd cross at a point inside
// both (touching ends do not count).
func segmentsCross(a, b, c, d vg.Point) bool {
	orient := func(p, q, r vg.Point) float64 {
		return float64((q.X-p.X)*(r.Y-p.Y) - (q.Y-p.Y)*(r.X-p.X))
	}
	d1, d2 := orient(c, d, a), orient(c, d, b)
	d3, d4 := orient(a, b, c), orient(a, b, d)
	return (d1 > 0 && d2 < 0 || d1 < 0 && d2 > 0) && (d3 > 0 && d4 < 0 || d3 < 0 && d4 > 0)
}

// segmentHitsBox says whether the segment p-q passes through the inside
// of r (Liang-Barsky clipping).
func segmentHitsBox(p, q vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(q.X-p.X), float64(q.Y-p.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(p.X - r.Min.X)}, {dx, float64(r.Max.X - p.X)},
		{-dy, float64(p.Y - r.Min.Y)}, {dy, float64(r.Max.Y - p.Y)},
	} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq <= 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 >= t1 {
			return false
		}
	}
	return true
}

// legendRect is where p's legend is drawn on c: gonum/plot's
// Legend.Rectangle (v0.17.0) puts a legend drawn at the right
// (Left false) at the left edge and one drawn at the left at the
// right, so its box is mirrored to the side Legend.Draw uses, with
// the legend's offset.
func legendRect(p *plot.Plot, c draw.Canvas) vg.Rectangle {
	r := p.Legend.Rectangle(c)
	w := r.Max.X - r.Min.X
	r.Min.X = c.Min.X + p.Legend.XOffs
	if !p.Legend.Left {
		r.Min.X = c.Max.X - w + p.Legend.XOffs
	}
	r.Max.X = r.Min.X + w
	return r
}
