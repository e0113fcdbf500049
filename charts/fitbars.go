package charts

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// fittedBars draws bar charts with widths fitted to the plot's width at
// draw time, so bars and their category labels suit any export or window
// size. Bars in one group stand side by side; stacked bars share a slot.
type fittedBars struct {
	categories int
	groups     [][]*plotter.BarChart // side by side; each inner slice is one stack, bottom first
	labels     []*plotter.Labels     // labels[i] sits over groups[i] (nil: none)
}

// maxBar is the widest a bar gets, in points.
const maxBar = 70

func (f *fittedBars) Plot(c draw.Canvas, p *plot.Plot) {
	slot := (c.Max.X - c.Min.X) * 0.7 / vg.Length(max(f.categories, 1)*max(len(f.groups), 1))
	w := min(slot, vg.Points(maxBar))
	n := float64(len(f.groups))
	for i, stack := range f.groups {
		offset := w * vg.Length(float64(i)-(n-1)/2)
		for _, b := range stack {
			b.Width, b.Offset = w, offset
		}
		if i < len(f.labels) && f.labels[i] != nil {
			f.labels[i].Offset.X = offset
		}
	}
	for _, stack := range f.groups {
		for _, b := range stack {
			b.Plot(c, p)
		}
	}
}

// DataRange spans every bar.
func (f *fittedBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, stack := range f.groups {
		for _, b := range stack {
			x0, x1, y0, y1 := b.DataRange()
			xmin, xmax = math.Min(xmin, x0), math.Max(xmax, x1)
			ymin, ymax = math.Min(ymin, y0), math.Max(ymax, y1)
		}
	}
	return xmin, xmax, ymin, ymax
}

// newBars makes a bar chart with no outline; its width is set at draw time.
func newBars(values plotter.Values) (*plotter.BarChart, error) {
	b, err := plotter.NewBarChart(values, vg.Points(10))
	if err != nil {
		return nil, err
	}
	b.LineStyle.Width = 0
	return b, nil
}
