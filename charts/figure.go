package charts

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"path/filepath"
	"strings"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is one exported chart: one or more plots laid out in rows, and a
// footnote (sources, estimate labels) under them.
type Figure struct {
	Name   string
	Panels [][]*plot.Plot // rows of plots; every row has the same length
	// Weights, for a single row, sets each panel's share of the width
	// (nil: equal shares, axes aligned across panels).
	Weights  []float64
	Footnote string
	// FootnoteShort, when set, is the footnote's short form: drawn
	// instead when the full one would take more than maxFootShare of the
	// page's height (a small window or export); the full text stays in
	// larger exports and in the report.
	FootnoteShort string
	// Data is what the plots draw, series by series, for tests and for
	// readers who want the numbers.
	Data []Series

	titles map[*plot.Plot]string     // each panel's title as built, before fitting
	built  map[*plot.Plot]panelBuilt // what fitting changes in each panel, as built
	noFit  bool                      // draw text as given (tests of the fitting)
	// rendering is held while the figure draws: drawing fits titles and
	// legends into the plots, so the window's redraw and an export in
	// the background take turns.
	rendering sync.Mutex
	// panelRects is where the last draw put each panel, in page points:
	// the tests tell a panel's text from the footnote's by it.
	panelRects []vg.Rectangle
}

// Series is one drawn series: values by category (or by x).
type Series struct {
	Name   string
	Labels []string
	Values []float64
}

// Series finds a drawn series by name.
func (f *Figure) Series(name string) (Series, bool) {
	for _, s := range f.Data {
		if s.Name == name {
			return s, true
		}
	}
	return Series{}, false
}

// Size is an export size: pixels and dots per inch. SVG and PDF use the
// same physical size (pixels / DPI inches).
type Size struct {
	WidthPx, HeightPx, DPI int
}

// DefaultSize is 1200 x 800 px at 96 DPI (12.5 x 8.3 in).
var DefaultSize = Size{1200, 800, 96}

// Validate checks the size is drawable and not absurd.
func (s Size) Validate() error {
	switch {
	case s.WidthPx < 200 || s.HeightPx < 150:
		return fmt.Errorf("size %dx%d px is too small: use at least 200x150", s.WidthPx, s.HeightPx)
	case s.WidthPx > 10000 || s.HeightPx > 10000:
		return fmt.Errorf("size %dx%d px is too large: use at most 10000x10000", s.WidthPx, s.HeightPx)
	case s.DPI < 36 || s.DPI > 1200:
		return fmt.Errorf("dpi %d: use 36 to 1200", s.DPI)
	}
	return nil
}

// Scaled returns the size with k times the pixels and k times the DPI:
// the same chart, laid out identically, sharper (k = 2 for high-DPI
// slides).
func (s Size) Scaled(k int) Size {
	return Size{s.WidthPx * k, s.HeightPx * k, s.DPI * k}
}

func (s Size) points() (vg.Length, vg.Length) {
	return vg.Length(s.WidthPx) * vg.Inch / vg.Length(s.DPI), vg.Length(s.HeightPx) * vg.Inch / vg.Length(s.DPI)
}

// Formats are the export formats, by file extension.
var Formats = []string{"png", "svg", "pdf"}

// FormatOf returns the export format of a path from its extension.
func FormatOf(path string) (string, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	for _, f := range Formats {
		if ext == f {
			return f, nil
		}
	}
	if ext == "" {
		return "", fmt.Errorf("%q has no extension: end it in .png, .svg or .pdf", path)
	}
	return "", fmt.Errorf("cannot export .%s: use .png, .svg or .pdf", ext)
}

// Draw renders the figure onto a canvas: white background, plots tiled,
// footnote at the bottom.
func (f *Figure) Draw(dc draw.Canvas) {
	f.drawOn(dc, true)
}

// drawOn draws the figure; paint fills the background white first (raster
// canvases start white already, so they skip it: a full-canvas fill is a
// large share of a chart's drawing time).
func (f *Figure) drawOn(dc draw.Canvas, paint bool) {
	if paint {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
	}
	f.panelRects = f.panelRects[:0]
	if !f.noFit {
		f.restoreBuilt()
	}
	if f.Footnote != "" {
		sty := footStyle()
		lh := sty.Height("Xg")
		lines := f.footLines(dc.Rectangle, sty)
		y := dc.Min.Y + vg.Points(6) + lh*vg.Length(len(lines)-1)
		for _, line := range lines {
			dc.FillText(sty, vg.Point{X: dc.Min.X + vg.Points(10), Y: y}, line)
			y -= lh
		}
		dc.Min.Y += lh*vg.Length(len(lines)) + vg.Points(8)
	}
	rows := len(f.Panels)
	if rows == 0 {
		return
	}
	cols := len(f.Panels[0])
	if rows == 1 && len(f.Weights) == cols {
		f.drawWeighted(dc)
		return
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(22), PadY: vg.Points(16),
		PadTop: vg.Points(6), PadBottom: vg.Points(4), PadLeft: vg.Points(8), PadRight: vg.Points(14)}
	tileW := (dc.Max.X - dc.Min.X - tiles.PadLeft - tiles.PadRight - tiles.PadX*vg.Length(cols-1)) / vg.Length(cols)
	widths := make([][]vg.Length, rows)
	for j := range widths {
		for range cols {
			widths[j] = append(widths[j], tileW)
		}
	}
	f.fitTitles(widths)
	canvases := plot.Align(f.Panels, tiles, dc)
	for j := range f.Panels {
		for i, p := range f.Panels[j] {
			if p != nil {
				f.drawPanel(p, canvases[j][i])
			}
		}
	}
}

// footLines is the footnote wrapped to a page of r: the full form, or
// the short one when the full one would take more than maxFootShare of
// the page's height.
func (f *Figure) footLines(r vg.Rectangle, sty draw.TextStyle) []string {
	lines := wrapToWidth(f.Footnote, r.Max.X-r.Min.X-vg.Points(20), sty)
	if f.FootnoteShort != "" && sty.Height("Xg")*vg.Length(len(lines)) > (r.Max.Y-r.Min.Y)*maxFootShare {
		lines = wrapToWidth(f.FootnoteShort, r.Max.X-r.Min.X-vg.Points(20), sty)
	}
	return lines
}

// maxFootShare is the most of a page's height a full footnote takes
// before its short form is drawn instead.
const maxFootShare = 0.16

func footStyle() draw.TextStyle {
	sty := draw.TextStyle{Color: color.RGBA{0x55, 0x55, 0x55, 0xff}, Font: sans, Handler: plot.DefaultTextHandler}
	sty.Font.Size = footSize
	return sty
}

// Render writes the figure in format ("png", "svg" or "pdf") at size.
func (f *Figure) Render(w io.Writer, format string, size Size) (err error) {
	if err := size.Validate(); err != nil {
		return err
	}
	f.rendering.Lock()
	defer f.rendering.Unlock()
	defer func() {
		// gonum/plot panics on degenerate layouts (e.g. a canvas too small
		// for the labels); report it as an error instead.
		if r := recover(); r != nil {
			err = fmt.Errorf("draw %s chart: %v", f.Name, r)
		}
	}()
	wPt, hPt := size.points()
	if format == "png" {
		// Encode with BestSpeed: the default compression takes most of a
		// chart's export time for a file only ~20% smaller.
		img := newRaster(wPt, hPt, size.DPI)
		f.drawOn(draw.New(img), false)
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		return enc.Encode(w, img.Image())
	}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case "svg":
		c = newSVGCanvas(wPt, hPt)
	case "pdf":
		pc, err := newPDFCanvas(wPt, hPt)
		if err != nil {
			return err
		}
		c = pc
	default:
		return errUnknownFormat(format)
	}
	f.Draw(draw.New(c))
	_, err = c.WriteTo(w)
	return err
}

func errUnknownFormat(format string) error {
	return fmt.Errorf("unknown format %q: use png, svg or pdf", format)
}

// safeDraw draws the figure on c, white background first, and reports
// a panic of gonum/plot's layout as an error.
func (f *Figure) safeDraw(c vg.CanvasSizer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("draw %s chart: %v", f.Name, r)
		}
	}()
	f.Draw(draw.New(c))
	return nil
}

// Bytes renders the figure into memory, so a file is written only once
// the whole chart has drawn.
func (f *Figure) Bytes(format string, size Size) ([]byte, error) {
	var b bytes.Buffer
	if err := f.Render(&b, format, size); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// drawWeighted lays one row of panels out by f.Weights.
func (f *Figure) drawWeighted(dc draw.Canvas) {
	total := 0.0
	for _, w := range f.Weights {
		total += w
	}
	pad := vg.Points(22)
	width := dc.Max.X - dc.Min.X - pad*vg.Length(len(f.Weights)-1) - vg.Points(22)
	x := dc.Min.X + vg.Points(8)
	widths := [][]vg.Length{nil}
	for i := range f.Panels[0] {
		widths[0] = append(widths[0], width*vg.Length(f.Weights[i]/total))
	}
	f.fitTitles(widths)
	for i, p := range f.Panels[0] {
		w := widths[0][i]
		sub := dc
		sub.Min.X, sub.Max.X = x, x+w
		sub.Max.Y -= vg.Points(6)
		sub.Min.Y += vg.Points(4)
		if p != nil {
			f.drawPanel(p, sub)
		}
		x += w + pad
	}
}

// wrapToWidth splits text into lines (at its newlines, then at spaces) no
// wider than width in sty. A unit never starts a line after its number
// ("639.1" / "kW"): the number moves down with it where the line above
// keeps another word.
func wrapToWidth(text string, width vg.Length, sty draw.TextStyle) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		words := strings.Fields(para)
		line := ""
		for _, w := range words {
			next := w
			if line != "" {
				next = line + " " + w
			}
			if line != "" && sty.Width(next) > width {
				if cut := strings.LastIndexByte(line, ' '); cut > 0 && isUnitWord(w) && endsInDigit(line) {
					out = append(out, line[:cut])
					line = line[cut+1:] + " " + w
					continue
				}
				out = append(out, line)
				line = w
				continue
			}
			line = next
		}
		out = append(out, line)
	}
	return out
}

// unitWords are the units textfmt and the charts write after a number
// with a space: power, bandwidth, sizes and durations.
var unitWords = map[string]bool{
	"W": true, "kW": true, "MW": true, "GW": true,
	"GB/s": true, "Gb/s": true, "Tb/s": true, "GB": true, "TB": true,
	"m": true, "km": true, "ms": true, "µs": true, "s": true,
	"minutes": true, "hours": true, "days": true, "weeks": true, "years": true,
}

// isUnitWord says w, less trailing punctuation, is a unit.
func isUnitWord(w string) bool {
	return unitWords[strings.TrimRight(w, ",;:.)")]
}

// endsInDigit says the last character of s is a digit.
func endsInDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// Image renders the figure to an in-memory image (for on-screen display,
// without PNG encoding).
func (f *Figure) Image(size Size) (img image.Image, err error) {
	return f.ImageOn(size, Theme{})
}

// ImageOn draws the figure as an image coloured by th, for the window.
func (f *Figure) ImageOn(size Size, th Theme) (img image.Image, err error) {
	img, _, err = f.ImageTargets(size, th)
	return img, err
}

// ImageTargets is ImageOn that also returns where a click on the image
// can act (the topology diagram's summaries, for one).
func (f *Figure) ImageTargets(size Size, th Theme) (img image.Image, targets []Target, err error) {
	if err := size.Validate(); err != nil {
		return nil, nil, err
	}
	f.rendering.Lock()
	defer f.rendering.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("draw %s chart: %v", f.Name, r)
		}
	}()
	wPt, hPt := size.points()
	c := newRaster(wPt, hPt, size.DPI)
	rec := &targetCanvas{CanvasSizer: c}
	paint := false
	if th.dark() {
		rec.CanvasSizer, paint = themed{c, th}, true
	}
	f.drawOn(draw.New(rec), paint)
	return c.Image(), rec.targets, nil
}

// Target is a region of a drawn figure that a click can act on: Name
// says what (TargetNextPod, TargetNextUnit); X0, Y0 and X1, Y1 are its
// top-left and bottom-right corners as fractions of the image.
type Target struct {
	Name           string
	X0, Y0, X1, Y1 float64
	// Index says which one for targets of many (TargetRack: the rack's
	// index in the plan's Hall.Racks).
	Index int
}

// Targets of the topology diagram, and the floor plan's racks.
const (
	TargetNextPod  = "next pod"
	TargetNextUnit = "next SU"
	TargetRack     = "rack"
)

// Contains says whether the point at fractions x, y of the image (from
// the top left) is inside the target.
func (t Target) Contains(x, y float64) bool { return t.X0 <= x && x <= t.X1 && t.Y0 <= y && y <= t.Y1 }

// targetCanvas is a canvas that records the targets drawn on it.
type targetCanvas struct {
	vg.CanvasSizer
	targets []Target
}

// markTarget records the rectangle lo-hi (canvas points, from the
// bottom left) as target name, when c draws for the window.
func markTarget(c draw.Canvas, name string, lo, hi vg.Point) {
	if rec := targetsOf(c); rec != nil {
		rec.mark(name, 0, lo, hi)
	}
}

// targetsOf is the target recorder c draws on, nil when it draws for a
// file (no clicks).
func targetsOf(c draw.Canvas) *targetCanvas {
	// Plots draw on canvases that wrap the one they were given.
	vc := c.Canvas
	for {
		inner, ok := vc.(draw.Canvas)
		if !ok {
			break
		}
		vc = inner.Canvas
	}
	rec, _ := vc.(*targetCanvas)
	return rec
}

// mark records the rectangle lo-hi (canvas points, from the bottom
// left) as target name number index.
func (rec *targetCanvas) mark(name string, index int, lo, hi vg.Point) {
	w, h := rec.Size()
	rec.targets = append(rec.targets, Target{Name: name, Index: index,
		X0: float64(lo.X / w), X1: float64(hi.X / w), Y0: 1 - float64(hi.Y/h), Y1: 1 - float64(lo.Y/h)})
}

// raster is a vgimg canvas that sets text without kerning. The
// rasteriser applies Liberation Sans's kerning pairs at far more than
// their size: "A" or "T" against a space closes the gap
// ("RDMANetworking") and "11" touches ("$1l0.19M"). Text is drawn in runs
// split where a pair is kerned, each run placed at the advance the layout
// measured, so text still fits where it was placed.
type raster struct{ *vgimg.Canvas }

func newRaster(w, h vg.Length, dpi int) raster {
	return raster{vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
}

// FillString draws s in runs without a kerned pair inside.
func (c raster) FillString(f font.Face, pt vg.Point, s string) {
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(f.Face.UnitsPerEm())
	start := 0
	var prev sfnt.GlyphIndex
	for i, r := range s {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			idx = 0
		}
		if i > 0 {
			if k, err := f.Face.Kern(&buf, prev, idx, ppem, xfont.HintingNone); err == nil && k != 0 {
				run := s[start:i]
				c.Canvas.FillString(f, pt, run)
				pt.X += f.Width(run)
				start = i
			}
		}
		prev = idx
	}
	c.Canvas.FillString(f, pt, s[start:])
}

// newSVGCanvas is an SVG canvas that embeds the fonts it draws with, so
// the file draws the same on a machine without Liberation Sans.
func newSVGCanvas(w, h vg.Length) *vgsvg.Canvas {
	return vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
}
