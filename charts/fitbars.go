package charts

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// fittedBars draws bar charts with widths fitted to the plot's width at
// draw time, so bars and their category labels suit any export or window
// size. Bars in one group stand side by side; stacked bars share a slot.
// It draws its labels itself (add it to a plot without them).
type fittedBars struct {
	categories int
	groups     [][]*plotter.BarChart // side by side; each inner slice is one stack, bottom first
	labels     []*plotter.Labels     // labels[i] sits over groups[i] (nil: none)
	// inner are labels set inside the bars, fitted to a bar's width.
	inner []*plotter.Labels

	built map[*plotter.Labels][]draw.TextStyle // each label's style as built
	texts map[*plotter.Labels][]string         // and its text
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
	room := (c.Max.X-c.Min.X)/vg.Length(max(f.categories, 1)*max(len(f.groups), 1)) - tickGap
	for _, l := range f.labels {
		f.fitLabels(l, room)
	}
	for _, l := range f.inner {
		f.fitLabels(l, w-vg.Points(2))
	}
	for _, l := range f.allLabels() {
		l.Plot(c, p)
	}
}

// allLabels are the labels over the bars and inside them, each once.
func (f *fittedBars) allLabels() []*plotter.Labels {
	var out []*plotter.Labels
	seen := map[*plotter.Labels]bool{}
	for _, l := range append(append([]*plotter.Labels(nil), f.labels...), f.inner...) {
		if l != nil && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// GlyphBoxes are the boxes of the labels over the bars as built, whatever
// an earlier draw fitted them to: the layout measures them before this
// draw fits them, so every draw lays the panel out as the first did (a
// window's redraw and an export at the same size draw the same picture).
// Labels inside the bars are fitted to the bars' width and need no room
// of their own.
func (f *fittedBars) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	for _, l := range f.labels {
		if l == nil {
			continue
		}
		built := *l
		if sty, ok := f.built[l]; ok {
			built.Labels, built.TextStyle = f.texts[l], sty
		}
		boxes = append(boxes, built.GlyphBoxes(p)...)
	}
	return boxes
}

// fitLabels fits each of l's texts, as built, to room: a little smaller
// (down to 80%) on one line, else wrapped at that size, at spaces and
// after hyphens, a word still too wide cut with an ellipsis.
func (f *fittedBars) fitLabels(l *plotter.Labels, room vg.Length) {
	if l == nil {
		return
	}
	if f.built == nil {
		f.built, f.texts = map[*plotter.Labels][]draw.TextStyle{}, map[*plotter.Labels][]string{}
	}
	if _, ok := f.built[l]; !ok {
		f.built[l] = append([]draw.TextStyle(nil), l.TextStyle...)
		f.texts[l] = append([]string(nil), l.Labels...)
	}
	for j, s := range f.texts[l] {
		l.Labels[j], l.TextStyle[j] = fitLabel(s, room, f.built[l][j])
	}
}

// fitLabel is s in sty fitted to width room (see fitLabels); one word
// (a value: "1.06x") may shrink to 60% rather than be cut.
func fitLabel(s string, room vg.Length, sty draw.TextStyle) (string, draw.TextStyle) {
	size := sty.Font.Size
	least := 0.8
	if !strings.ContainsRune(strings.TrimSpace(s), ' ') {
		least = 0.6
	}
	for k := 1.0; k >= least-1e-9; k -= 0.05 {
		sty.Font.Size = size * vg.Length(k)
		if sty.Width(s) <= room {
			return s, sty
		}
	}
	return strings.Join(fitLines(s, room, sty), "\n"), sty
}

// DataRange spans every bar and label.
func (f *fittedBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	var ranges []plot.DataRanger
	for _, stack := range f.groups {
		for _, b := range stack {
			ranges = append(ranges, b)
		}
	}
	for _, l := range f.allLabels() {
		ranges = append(ranges, l)
	}
	for _, r := range ranges {
		x0, x1, y0, y1 := r.DataRange()
		xmin, xmax = math.Min(xmin, x0), math.Max(xmax, x1)
		ymin, ymax = math.Min(ymin, y0), math.Max(ymax, y1)
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
