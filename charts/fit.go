package charts

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Text fitting: before a figure draws, each panel's title is wrapped to
// the panel's width, and each axis's tick labels are thinned to those
// that do not touch, measured with the font that draws them at the size
// the page gives the axis. The rules hold at any export or window size.

// tickGap is the least room, in points, between two tick labels.
const tickGap = vg.Length(4)

// fitTitle wraps p's title (its words as built, kept in orig) to width
// in the title's font; a line that is one word too wide for it is cut
// with an ellipsis.
func fitTitle(p *plot.Plot, orig string, width vg.Length) {
	sty := p.Title.TextStyle
	var lines []string
	for _, l := range wrapToWidth(orig, width, sty) {
		lines = append(lines, ellipsize(l, width, sty))
	}
	p.Title.Text = strings.Join(lines, "\n")
}

// ellipsize cuts s, with an ellipsis, to at most width in sty.
func ellipsize(s string, width vg.Length, sty draw.TextStyle) string {
	if sty.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)+"…") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ,;:") + "…"
}

// thinTicks is a ticker that drops the labels (never the tick marks) that
// would touch the label kept before them along an axis of the given
// length; length 0 (not yet laid out) drops none.
//
// Named categories (constant ticks) are never dropped, since a bar must
// keep its name: on a vertical axis their lines are joined into one when
// the rows are too close for two, and on a horizontal one they are
// wrapped to the width of their slot.
type thinTicks struct {
	inner      plot.Ticker
	axis       *plot.Axis
	length     vg.Length
	horizontal bool
	categories bool
	// dataMax, when positive, is the highest value drawn on this (y)
	// axis: the axis top is raised so the data and a label over it stay
	// under a top legend.
	dataMax float64
	// label is the axis label as built (labelKept: saved), before it
	// was wrapped to the axis's length.
	label     string
	labelKept bool
	// nameWidth, for names along a vertical axis, is the most width they
	// may take (0: any); fontSize is the tick font's size as built.
	nameWidth vg.Length
	fontSize  vg.Length
}

// Ticks implements plot.Ticker.
func (t *thinTicks) Ticks(min, max float64) []plot.Tick {
	ticks := t.inner.Ticks(min, max)
	if t.length <= 0 || max <= min {
		return ticks
	}
	if t.categories && !t.horizontal && t.nameWidth > 0 {
		return t.fitNames(ticks, min, max)
	}
	if t.categories {
		return t.fitCategories(ticks, min, max)
	}
	sty := t.axis.Tick.Label
	type span struct {
		i      int
		lo, hi vg.Length
	}
	var spans []span
	for i, tk := range ticks {
		if tk.Label == "" || tk.Value < min || tk.Value > max {
			continue
		}
		at := vg.Length(t.axis.Norm(tk.Value)) * t.length
		ext := sty.Height(tk.Label)
		if t.horizontal {
			ext = sty.Width(tk.Label)
		}
		spans = append(spans, span{i, at - ext/2, at + ext/2})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].lo < spans[b].lo })
	out := append([]plot.Tick(nil), ticks...)
	var last vg.Length
	for k, s := range spans {
		if k > 0 && s.lo < last+tickGap {
			out[s.i].Label = ""
			continue
		}
		last = s.hi
	}
	return out
}

// fitCategories fits category names to the room between a name and its
// nearest neighbours on the same line (names under others start with
// blank lines, as paired bars' group names do).
func (t *thinTicks) fitCategories(ticks []plot.Tick, min, max float64) []plot.Tick {
	if !t.horizontal {
		return t.fitCategoriesAt(ticks, min, max)
	}
	// Names under bars: the axis's font shrinks (to minNameShare) before
	// a word too long for its slot is cut ("tomahawk6-100g").
	if t.fontSize == 0 {
		t.fontSize = t.axis.Tick.Label.Font.Size
	}
	var out []plot.Tick
	for share := 1.0; share >= minNameShare-1e-9; share -= 0.05 {
		t.axis.Tick.Label.Font.Size = t.fontSize * vg.Length(share)
		out = t.fitCategoriesAt(ticks, min, max)
		if !cut(out) {
			break
		}
	}
	// Numbers (lengths sold, sizes) are never cut: every second one, then
	// every third, ... is named instead, at the smallest font tried.
	for step := 2; cut(out) && numeric(ticks) && step < len(ticks); step++ {
		thinned := append([]plot.Tick(nil), ticks...)
		named := 0
		for i := range thinned {
			if thinned[i].Label == "" {
				continue
			}
			if named%step != 0 {
				thinned[i].Label = ""
			}
			named++
		}
		out = t.fitCategoriesAt(thinned, min, max)
	}
	return out
}

// numeric says whether every named tick is a number.
func numeric(ticks []plot.Tick) bool {
	for _, tk := range ticks {
		if tk.Label == "" {
			continue
		}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(tk.Label), ",", ""), 64); err != nil {
			return false
		}
	}
	return true
}

// cut says whether a fitted label lost characters to an ellipsis.
func cut(ticks []plot.Tick) bool {
	for _, tk := range ticks {
		if strings.Contains(tk.Label, "…") {
			return true
		}
	}
	return false
}

// fitCategoriesAt fits the names at the axis's current font size.
func (t *thinTicks) fitCategoriesAt(ticks []plot.Tick, min, max float64) []plot.Tick {
	perUnit := t.length / vg.Length(max-min)
	sty := t.axis.Tick.Label
	out := append([]plot.Tick(nil), ticks...)
	for i, tk := range out {
		if tk.Label == "" {
			continue
		}
		body := strings.TrimLeft(tk.Label, "\n")
		lead := tk.Label[:len(tk.Label)-len(body)]
		gap := max - min
		for j, o := range ticks {
			if j != i && o.Label != "" && len(o.Label)-len(strings.TrimLeft(o.Label, "\n")) == len(lead) {
				gap = math.Min(gap, math.Abs(o.Value-tk.Value))
			}
		}
		slot := perUnit * vg.Length(gap)
		switch {
		case !t.horizontal && sty.Height(tk.Label)+tickGap/2 > slot:
			out[i].Label = strings.Join(strings.Fields(tk.Label), " ")
		case t.horizontal && sty.Width(tk.Label) > slot-tickGap:
			// Leading blank lines set a label under another: keep them.
			out[i].Label = lead + strings.Join(fitLines(strings.Join(strings.Fields(body), " "), slot-tickGap, sty), "\n")
		}
	}
	return out
}

// fitNames fits the names of a vertical category axis (a tornado's
// parts, a failure chart's components) whole: each is wrapped to the
// axis's name width, at spaces and after hyphens, and when a wrapped name
// is taller than its row the axis's font is shrunk (to no less than
// minNameShare of its size) until every name fits. A name is never cut
// short; at the smallest size the names keep their lines.
func (t *thinTicks) fitNames(ticks []plot.Tick, min, max float64) []plot.Tick {
	if t.fontSize == 0 {
		t.fontSize = t.axis.Tick.Label.Font.Size
	}
	slot := t.length / vg.Length(max-min) // one row's height
	var out []plot.Tick
	for share := 1.0; share >= minNameShare-1e-9; share -= 0.05 {
		t.axis.Tick.Label.Font.Size = t.fontSize * vg.Length(share)
		sty := t.axis.Tick.Label
		out = append(out[:0], ticks...)
		fits := true
		for i, tk := range out {
			if tk.Label == "" {
				continue
			}
			label := tk.Label
			if sty.Width(label) > t.nameWidth || sty.Height(label)+tickGap/2 > slot {
				// Each given line wrapped to the width; if that is too
				// tall, the whole name wrapped as one paragraph.
				var lines []string
				for _, l := range strings.Split(label, "\n") {
					lines = append(lines, wrapWhole(l, t.nameWidth, sty)...)
				}
				if sty.Height(strings.Join(lines, "\n"))+tickGap/2 > slot {
					lines = wrapWhole(strings.Join(strings.Fields(label), " "), t.nameWidth, sty)
				}
				label = strings.Join(lines, "\n")
			}
			out[i].Label = label
			fits = fits && sty.Height(label)+tickGap/2 <= slot
		}
		if fits {
			return out
		}
	}
	// Too many rows for wrapped names even at the smallest size: each
	// name on one line, as wide as it needs.
	for i, tk := range out {
		if tk.Label != "" {
			out[i].Label = strings.Join(strings.Fields(ticks[i].Label), " ")
		}
	}
	return out
}

// minNameShare is the smallest a category axis's font is shrunk to fit
// its names.
const minNameShare = 0.75

// wrapWhole wraps text to width in sty at spaces and after hyphens,
// keeping every character: a word still too wide keeps its own line.
func wrapWhole(text string, width vg.Length, sty draw.TextStyle) []string {
	var out []string
	for _, line := range wrapToWidth(text, width, sty) {
		if sty.Width(line) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, hyphenWrap(line, width, sty)...)
	}
	return out
}

// fitLines wraps text to width in sty, breaking a word too long for a
// line after a hyphen ("tomahawk6-" "100g", "back-" "end") and cutting
// with an ellipsis what is still too wide.
func fitLines(text string, width vg.Length, sty draw.TextStyle) []string {
	var out []string
	for _, line := range wrapToWidth(text, width, sty) {
		if sty.Width(line) <= width {
			out = append(out, line)
			continue
		}
		for _, l := range hyphenWrap(line, width, sty) {
			out = append(out, ellipsize(l, width, sty))
		}
	}
	return out
}

// hyphenWrap wraps line to width in sty at spaces and after hyphens.
func hyphenWrap(line string, width vg.Length, sty draw.TextStyle) []string {
	words := strings.Fields(line)
	var pieces []string // each ends where a line may break
	for i, w := range words {
		parts := strings.SplitAfter(w, "-")
		if i < len(words)-1 {
			parts[len(parts)-1] += " "
		}
		pieces = append(pieces, parts...)
	}
	var out []string
	cur := ""
	for _, p := range pieces {
		if cur != "" && sty.Width(strings.TrimSpace(cur+p)) > width {
			out = append(out, strings.TrimSpace(cur))
			cur = p
			continue
		}
		cur += p
	}
	return append(out, strings.TrimSpace(cur))
}

// fitAxes sets each axis's thinning to the length the panel's data area
// gets on c.
func fitAxes(p *plot.Plot, c draw.Canvas) {
	xs := thinner(&p.X, true)
	ys := thinner(&p.Y, false)
	xs.length, ys.length = 0, 0
	if !ys.labelKept {
		ys.label, ys.labelKept = p.Y.Label.Text, true
	}
	if ys.label != "" {
		// The y label runs along the data's height: wrap it to that.
		p.Y.Label.Text = ys.label
		da := p.DataCanvas(c)
		p.Y.Label.Text = strings.Join(wrapWhole(ys.label, da.Max.Y-da.Min.Y, p.Y.Label.TextStyle), "\n") // never cut
	}
	if ys.categories {
		// Names along the y axis take at most this share of the panel.
		ys.nameWidth = (c.Max.X - c.Min.X) * nameShare
	}
	da := p.DataCanvas(c)
	if r := p.Legend.Rectangle(da); ys.dataMax > 0 && p.Legend.Top && r.Max.Y > r.Min.Y {
		// Room under the legend for the data and a value label above it.
		r.Min.Y += p.Legend.YOffs
		label := p.Y.Tick.Label.Height("0") + vg.Points(6)
		share := float64((r.Min.Y - label - da.Min.Y) / (da.Max.Y - da.Min.Y))
		p.Y.Max = ys.dataMax / math.Max(share, minDataShare)
		da = p.DataCanvas(c)
	}
	xs.length, ys.length = da.Max.X-da.Min.X, da.Max.Y-da.Min.Y
}

// nameShare is the most of a panel's width the names along its y axis
// take: the bars keep the rest.
const nameShare = 0.36

// minDataShare is the least share of a panel's height the data keeps
// under a top legend; a panel too short for both lets them meet.
const minDataShare = 0.3

// thinner wraps ax's ticker in a thinTicks once and returns it.
func thinner(ax *plot.Axis, horizontal bool) *thinTicks {
	switch t := ax.Tick.Marker.(type) {
	case *thinTicks:
		return t
	case plot.ConstantTicks:
		c := &thinTicks{inner: t, axis: ax, horizontal: horizontal, categories: true}
		ax.Tick.Marker = c
		return c
	}
	t := &thinTicks{inner: ax.Tick.Marker, axis: ax, horizontal: horizontal}
	ax.Tick.Marker = t
	return t
}

// fitPanels wraps the titles of a row-major grid of panels whose widths
// are given, before the layout measures them.
func (f *Figure) fitTitles(widths [][]vg.Length) {
	if f.noFit {
		return
	}
	if f.titles == nil {
		f.titles = map[*plot.Plot]string{}
	}
	for j, row := range f.Panels {
		for i, p := range row {
			if p == nil || i >= len(widths[j]) {
				continue
			}
			orig, ok := f.titles[p]
			if !ok {
				orig = p.Title.Text
				f.titles[p] = orig
			}
			fitTitle(p, orig, widths[j][i]-vg.Points(4))
		}
	}
}

// drawPanel draws p on c with its axes thinned and its legend fitted.
func (f *Figure) drawPanel(p *plot.Plot, c draw.Canvas) {
	f.panelRects = append(f.panelRects, c.Rectangle)
	if !f.noFit {
		f.fitLegend(p, c)
		fitAxes(p, c)
	}
	p.Draw(c)
}

// panelBuilt is what fitting changes in a panel, as the panel was built.
type panelBuilt struct {
	legendSize, legendXOffs vg.Length
	yMax                    float64
}

// restoreBuilt puts back what an earlier draw's fitting changed in each
// panel (the legend's text size and offset, the y axis's top, the axes'
// thinning), keeping the values as built the first time it sees a panel.
// Every draw starts from it, before anything measures a panel, so a
// redraw (the window's, an export's) draws what the first draw did at
// that size.
func (f *Figure) restoreBuilt() {
	for _, row := range f.Panels {
		for _, p := range row {
			if p != nil {
				f.restorePanel(p)
			}
		}
	}
}

// restorePanel is restoreBuilt for one panel.
func (f *Figure) restorePanel(p *plot.Plot) {
	if f.built == nil {
		f.built = map[*plot.Plot]panelBuilt{}
	}
	b, ok := f.built[p]
	if !ok {
		f.built[p] = panelBuilt{p.Legend.TextStyle.Font.Size, p.Legend.XOffs, p.Y.Max}
		return
	}
	p.Legend.TextStyle.Font.Size, p.Legend.XOffs, p.Y.Max = b.legendSize, b.legendXOffs, b.yMax
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if t, ok := ax.Tick.Marker.(*thinTicks); ok {
			t.reset()
		}
	}
}

// reset puts the axis back as built, unthinned: its tick font size and
// label, with no length or name width fitted yet.
func (t *thinTicks) reset() {
	t.length, t.nameWidth = 0, 0
	if t.fontSize > 0 {
		t.axis.Tick.Label.Font.Size = t.fontSize
	}
	if t.labelKept {
		t.axis.Label.Text = t.label
	}
}

// fitLegend shrinks a top-left legend's text (to no less than
// minLegendShare of its size as built) until it fits between the data's
// left edge and the panel's right edge, then moves it left if it still
// does not.
func (f *Figure) fitLegend(p *plot.Plot, c draw.Canvas) {
	if p.Legend.Rectangle(c).Max.X <= p.Legend.Rectangle(c).Min.X {
		return
	}
	if !p.Legend.Left {
		f.fitRightLegend(p, c)
		return
	}
	size := p.Legend.TextStyle.Font.Size // as built: restoreBuilt put it back
	da := p.DataCanvas(c)
	room := c.Max.X - da.Min.X - p.Legend.XOffs
	width := func() vg.Length { r := p.Legend.Rectangle(da); return r.Max.X - r.Min.X }
	if w := width(); w > room {
		k := math.Max(minLegendShare, float64((room-p.Legend.ThumbnailWidth)/(w-p.Legend.ThumbnailWidth)))
		p.Legend.TextStyle.Font.Size = size * vg.Length(k)
	}
	p.Legend.XOffs = min(vg.Points(6), vg.Points(6)+room-width())
}

// fitRightLegend shrinks a top-right legend's text (to no less than
// minLegendShare of its size as built) until it fits within the data
// area's width, so it never reaches over the y axis.
func (f *Figure) fitRightLegend(p *plot.Plot, c draw.Canvas) {
	size := p.Legend.TextStyle.Font.Size // as built: restoreBuilt put it back
	da := p.DataCanvas(c)
	room := da.Max.X - da.Min.X + p.Legend.XOffs - vg.Points(4)
	r := p.Legend.Rectangle(da)
	if w := r.Max.X - r.Min.X; w > room {
		k := math.Max(minLegendShare, float64((room-p.Legend.ThumbnailWidth)/(w-p.Legend.ThumbnailWidth)))
		p.Legend.TextStyle.Font.Size = size * vg.Length(k)
	}
}

// minLegendShare is the smallest a legend's text is shrunk to fit.
const minLegendShare = 0.75
