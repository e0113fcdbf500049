package charts

import (
	"fmt"
	"image/color"
	"math"

	"fabricplan/internal/textfmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// tornadoBars is how many parts the tornado shows; the rest swing less
// and are summed in the footnote.
const tornadoBars = 10

// Tornado draws the plan's cost sensitivity: for each priced part, the
// total fabric cost with that part at its catalog low and high price and
// every other price at base, biggest swing on top, around a line at the
// base total.
func Tornado(in Input) (*Figure, error) {
	if err := needPlan(in, "sensitivity"); err != nil {
		return nil, err
	}
	p := in.Plan
	drivers := p.CostSensitivity()
	if len(drivers) == 0 {
		return nil, fmt.Errorf("%w: the sensitivity chart needs prices with a range; every price in this plan is set by the scenario", ErrMissingInput)
	}
	shown := drivers[:min(tornadoBars, len(drivers))]
	base := p.Cost.Total
	top := shown[0]
	// One scale for every total on the chart, from the highest drawn.
	amounts := []float64{base, p.Cost.LowUSD, p.Cost.HighUSD}
	for _, d := range shown {
		amounts = append(amounts, d.LowUSD, d.HighUSD)
	}
	usd := moneyFor(amounts...)
	title := fmt.Sprintf("%s moves the fabric cost most: %s to %s", top.Name, usd.text(top.LowUSD), usd.text(top.HighUSD))
	pl := newPlot(title, "total fabric cost (US$) with one price at its low or high", "")
	pl.X.Tick.Marker = usd
	// Rows bottom-up: the biggest swing is drawn last, on top.
	names := make([]string, len(shown))
	lows, highs := make(plotter.Values, len(shown)), make(plotter.Values, len(shown))
	lo, hi := base, base
	for i, d := range shown {
		row := len(shown) - 1 - i
		// The whole name: the axis wraps it to its room (fitNames).
		names[row] = fmt.Sprintf("%s ×%s", d.Name, textfmt.Int(d.Qty))
		lows[row], highs[row] = d.LowUSD, d.HighUSD
		lo, hi = min(lo, d.LowUSD), max(hi, d.HighUSD)
	}
	bars := &tornado{base: base, lows: lows, highs: highs, usd: usd}
	pl.Add(bars)
	pl.NominalY(names...)
	// Room on top for the three-line legend: a row's height shrinks as
	// rows are added, so the legend takes more of them.
	pl.Y.Min, pl.Y.Max = -0.7, float64(len(shown))-0.3+0.9+0.08*float64(len(shown))
	pad := (hi - lo) * 0.3 // room for the totals printed at the bar ends
	pl.X.Min, pl.X.Max = max(0, lo-pad), hi+pad
	if lo < base {
		// The lows' totals print left of the base line: a quarter of the
		// axis at least, however lopsided the swings (a dear switch's high
		// against small lows would leave them a sliver).
		pl.X.Min = max(0, min(pl.X.Min, (base-0.25*pl.X.Max)/0.75))
	}
	// And the highest total beside its bar: a fifth of the axis past it.
	pl.X.Max = max(pl.X.Max, (hi-0.2*pl.X.Min)/0.8)
	baseLine, err := plotter.NewLine(plotter.XYs{{X: base, Y: -0.7}, {X: base, Y: float64(len(shown)) - 0.5}})
	if err != nil {
		return nil, err
	}
	baseLine.Color, baseLine.Width = Ink, vg.Points(1)
	pl.Add(baseLine)
	pl.Legend.Add("price at its low", swatch{colour(0)})
	pl.Legend.Add("price at its high", swatch{colour(5)})
	pl.Legend.Add("this plan: "+usd.text(base), baseLine)
	pl.Legend.Left = false
	foot := fmt.Sprintf("Each bar moves one part's unit price across its low-high range in data/catalog.toml (sources: fabricplan catalog) with every other price at base. "+
		"All prices low: %s; all high: %s. Ranges are estimates.", usd.text(p.Cost.LowUSD), usd.text(p.Cost.HighUSD))
	if rest := len(drivers) - len(shown); rest > 0 {
		foot += fmt.Sprintf(" %s with smaller swings not drawn.", textfmt.Plural(rest, "part"))
	}
	labels := make([]string, len(shown))
	lowV, highV := make([]float64, len(shown)), make([]float64, len(shown))
	for i, d := range shown {
		labels[i], lowV[i], highV[i] = d.Key, d.LowUSD, d.HighUSD
	}
	data := []Series{{Name: "low total", Labels: labels, Values: lowV}, {Name: "high total", Labels: labels, Values: highV},
		{Name: "base", Values: []float64{base}}}
	return &Figure{Name: "sensitivity", Panels: [][]*plot.Plot{{pl}}, Footnote: foot, Data: data}, nil
}

// tornado draws one horizontal bar per row from the base to the low total
// and from the base to the high total, with the totals printed at the
// bar ends.
type tornado struct {
	base        float64
	lows, highs plotter.Values
	usd         money // the scale of the totals printed at the bar ends
}

func (t *tornado) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	h := (trY(1) - trY(0)) * 0.62
	sty := draw.TextStyle{Color: Ink, Font: sans, Handler: plot.DefaultTextHandler, YAlign: draw.YCenter}
	sty.Font.Size = tickSize
	for i := range t.lows {
		y := trY(float64(i))
		for _, end := range []struct {
			v    float64
			col  int
			left bool // the low end's label goes left of the base line, even for a bar of no width
		}{{t.lows[i], 0, true}, {t.highs[i], 5, false}} {
			x0, x1 := trX(t.base), trX(end.v)
			c.SetColor(colour(end.col))
			c.Fill(vg.Rectangle{Min: vg.Point{X: min(x0, x1), Y: y - h/2}, Max: vg.Point{X: max(x0, x1), Y: y + h/2}}.Path())
			c.FillText(barEndLabel(sty, t.usd.text(end.v), x0, x1, y, end.left, c))
		}
	}
}

// barEndLabel places a bar's total beside its end (x1, the bar running
// from x0) inside the data area; where the axis leaves no room beside
// it, inside the bar's end in white when the bar is long enough, else
// against the data area's edge. A bar of no width runs left when left
// is set, so the two ends of one row never share a place.
func barEndLabel(sty draw.TextStyle, label string, x0, x1, y vg.Length, left bool, c draw.Canvas) (draw.TextStyle, vg.Point, string) {
	pad := vg.Points(4)
	w := sty.Width(label)
	right := x1 > x0 || (x1 == x0 && !left)
	at := vg.Point{X: x1 + pad, Y: y}
	if !right {
		sty.XAlign = draw.XRight
		at.X = x1 - pad
	}
	switch {
	case right && at.X+w <= c.Max.X, !right && at.X-w >= c.Min.X:
	case math.Abs(float64(x1-x0)) >= float64(w+2*pad):
		sty.Color = color.White
		sty.XAlign, at.X = draw.XRight, x1-pad
		if !right {
			sty.XAlign, at.X = draw.XLeft, x1+pad
		}
	case right:
		at.X = c.Max.X - w
	default:
		at.X = c.Min.X + w
	}
	return sty, at, label
}

// swatch is a legend thumbnail of a filled colour.
type swatch struct{ color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.SetColor(s.Color)
	c.Fill(c.Rectangle.Path())
}
