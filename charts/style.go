// Package charts draws Fabric Planner's charts with gonum/plot from plans,
// sweeps and the market tables, and exports them as PNG, SVG, PDF and a
// multi-page PDF report. It never sizes fabrics itself.
package charts

import (
	"image/color"
	"math"
	"strconv"

	"fabricplan/internal/textfmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is Okabe and Ito's colour-blind-safe set ("Color Universal
// Design", 2002), in the order charts use it.
var Palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0xF0, 0xE4, 0x42, 0xff}, // yellow
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
}

// Ink is the colour of text, axes and outlines.
var Ink = color.RGBA{0x22, 0x22, 0x22, 0xff}

// Grey marks secondary elements (baselines, idle ports, totals).
var Grey = color.RGBA{0x99, 0x99, 0x99, 0xff}

// computeGrey is the compute share of a step: neutral, darker than Grey.
var computeGrey = color.RGBA{0x5f, 0x5f, 0x5f, 0xff}

func colour(i int) color.Color { return Palette[i%len(Palette)] }

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Text sizes in points, chosen to read at 1200 x 800 px and on a printed
// A4/letter page.
const (
	titleSize  = 15
	labelSize  = 12
	tickSize   = 10.5
	legendSize = 10.5
	// footSize is the footnote's: no smaller than the tick labels, so
	// sources stay readable on a slide.
	footSize = tickSize
)

// newPlot makes a plot with the house style: sans-serif text, a title,
// axis labels with units, light gridlines.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans
	p.Title.TextStyle.Font.Size = titleSize
	p.Title.TextStyle.Color = Ink
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sans
		ax.Label.TextStyle.Font.Size = labelSize
		ax.Label.TextStyle.Color = Ink
		ax.Tick.Label.Font = sans
		ax.Tick.Label.Font.Size = tickSize
		ax.Tick.Label.Color = Ink
		ax.Color = Ink
		ax.Tick.Color = Ink
		ax.Padding = vg.Points(4)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = sans
	p.Legend.TextStyle.Font.Size = legendSize
	p.Legend.TextStyle.Color = Ink
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(6)
	p.Legend.YOffs = vg.Points(-2)
	p.Legend.ThumbnailWidth = vg.Points(14)
	p.Legend.Padding = vg.Points(1.5) // rows apart: descenders never meet the next capitals
	grid := plotter.NewGrid()
	// No vertical lines: a nil colour skips them (a transparent one is
	// drawn, and vgsvg writes alpha 0 as the invalid "#-8000…").
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	grid.Horizontal.Width = vg.Points(0.5)
	p.Add(grid)
	return p
}

// headroom raises the y-axis top so a top legend sits above the data:
// rows legend entries need about 7% of the height each at the export
// size; a figure's draw measures the legend and sets the top again.
func headroom(p *plot.Plot, maxY float64, rows int) {
	if maxY <= 0 || math.IsNaN(maxY) || math.IsInf(maxY, 0) {
		maxY = 1
	}
	p.Y.Min = 0
	p.Y.Max = maxY * (1.08 + 0.085*float64(rows))
	// At draw time the top is set from the legend's measured height.
	thinner(&p.Y, false).dataMax = maxY
}

// countTicks labels a linear axis with whole numbers and thousands
// separators.
type countTicks struct{}

func (countTicks) Ticks(min, max float64) []plot.Tick {
	ticks := niceTicks(min, max)
	if max-min < 20 { // small counts: whole-number steps only
		ticks = nil
		step := math.Max(1, math.Ceil((max-min)/6))
		for v := math.Ceil(min); v <= max; v += step {
			ticks = append(ticks, plot.Tick{Value: v, Label: "x"})
		}
	}
	return relabel(ticks, func(v float64) string {
		if v != math.Trunc(v) {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return textfmt.Int(int(v))
	})
}

// unitTicks labels a linear axis with a formatter.
type unitTicks struct{ format func(float64) string }

func (u unitTicks) Ticks(min, max float64) []plot.Tick {
	return relabel(niceTicks(min, max), u.format)
}

// niceTicks returns about six labelled ticks at 1, 2, 2.5 or 5 times a
// power of ten, with an unlabelled minor tick between each; it copes with
// min == max.
func niceTicks(min, max float64) []plot.Tick {
	if math.IsNaN(min) || math.IsNaN(max) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	if max <= min {
		if min == 0 {
			max = 1
		} else {
			min, max = min-math.Abs(min)/2, max+math.Abs(max)/2
		}
	}
	raw := (max - min) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag * 10
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	first := math.Ceil(min/step) * step
	for v := first; v <= max+step*1e-9; v += step {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(math.Round(v/step)*step, 'g', 12, 64), 64) // 1.15, not 1.1500000000000001
		if v == 0 {
			v = 0 // -0 (rounded up from below zero) is 0: no "-0%" tick
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: "x"})
		if mid := v + step/2; mid <= max {
			ticks = append(ticks, plot.Tick{Value: mid})
		}
		if len(ticks) > 40 {
			break
		}
	}
	return ticks
}

func relabel(ticks []plot.Tick, f func(float64) string) []plot.Tick {
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = f(ticks[i].Value)
		}
	}
	return ticks
}

// log2Ticks labels a log axis at powers of two (256, 1,024, ...
// 1,048,576) and copes with a single point (min == max). It labels at
// most most ticks (0: 10), for narrow panels. Counts are written in full,
// as every other count on a chart: a view never says "8k" beside
// "400,000".
type log2Ticks struct {
	most int
}

func (t log2Ticks) Ticks(min, max float64) []plot.Tick {
	most := t.most
	if most <= 0 {
		most = 10
	}
	if min <= 0 {
		min = 1
	}
	if max <= min {
		max = min * 2
	}
	lo, hi := math.Floor(math.Log2(min)), math.Ceil(math.Log2(max))
	step := math.Max(1, math.Ceil((hi-lo)/float64(most)))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Exp2(e)
		label := ""
		if math.Mod(e-lo, step) == 0 {
			label = textfmt.Int(int(v))
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// log10Ticks labels a log axis at 1, 10, 100 ... with thousands
// separators, with minor ticks at 2 and 5.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 {
		min = 1
	}
	if max <= min {
		max = min * 10
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		base := math.Pow(10, e)
		ticks = append(ticks, plot.Tick{Value: base, Label: textfmt.Int(int(base))})
		for _, m := range []float64{2, 5} {
			if v := base * m; v <= max*10 {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// exp10Ticks labels an axis whose values are log10 of the quantity, as
// log10Ticks labels the quantity on a log axis.
type exp10Ticks struct{}

func (exp10Ticks) Ticks(min, max float64) []plot.Tick {
	ticks := log10Ticks{}.Ticks(math.Pow(10, min), math.Pow(10, max))
	var out []plot.Tick
	for _, t := range ticks {
		if v := math.Log10(t.Value); v >= min && v <= max {
			out = append(out, plot.Tick{Value: v, Label: t.Label})
		}
	}
	return out
}

// valueLabels puts a text label above each bar of top (the top of its
// stack).
func valueLabels(top *plotter.BarChart, texts []string) (*plotter.Labels, error) {
	xys := make(plotter.XYs, len(texts))
	for i := range texts {
		xys[i].X = top.XMin + float64(i)
		xys[i].Y = top.BarHeight(i)
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font = sans
		l.TextStyle[i].Font.Size = tickSize
		l.TextStyle[i].Color = Ink
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].YAlign = draw.YBottom
	}
	l.Offset = vg.Point{X: top.Offset, Y: vg.Points(3)}
	return l, nil
}

// nominal labels the x categories and widens the axis by half a category
// on each side so the outer bars sit inside the frame.
func nominal(p *plot.Plot, labels ...string) {
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
}
