package charts

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestLegendRectSide: point names keep clear of the legend where it is
// drawn: at the right edge of the data canvas for Left false, at the
// left for Left true. Mutation caught: gonum/plot's Legend.Rectangle
// used as it is (v0.17.0 mirrors the sides; the search chart's names
// sat on its right-hand legend).
func TestLegendRectSide(t *testing.T) {
	for _, left := range []bool{false, true} {
		p := plot.New()
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(l)
		p.Legend.Add("a long legend entry", l)
		p.Legend.Left = left
		c := draw.New(vgimg.New(400, 300))
		da := p.DataCanvas(c)
		r := legendRect(p, da)
		w := r.Max.X - r.Min.X
		if w <= 0 || w > da.Max.X-da.Min.X {
			t.Fatalf("left %v: legend width %v", left, w)
		}
		slack := vg.Points(1)
		switch {
		case !left && (r.Max.X < da.Max.X-slack || r.Max.X > da.Max.X+slack):
			t.Errorf("right-hand legend ends at %v, the canvas at %v", r.Max.X, da.Max.X)
		case left && (r.Min.X < da.Min.X-slack || r.Min.X > da.Min.X+slack):
			t.Errorf("left-hand legend starts at %v, the canvas at %v", r.Min.X, da.Min.X)
		}
	}
}
