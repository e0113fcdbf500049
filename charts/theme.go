package charts

import (
	"image/color"
)

// Theme colours a figure drawn for the window: Background replaces the
// white page and Ink the near-black text and axes, with every grey in
// between mapped along the way, so a chart sits in a dark window as
// readably as on a white slide. Data colours keep their hue (dark ones
// are lightened on a dark page). The zero Theme draws as exported.
type Theme struct {
	Background, Ink color.Color
}

// dark reports whether the theme puts light ink on a dark page.
func (t Theme) dark() bool {
	return t.Background != nil && t.Ink != nil && luma(t.Background) < luma(t.Ink)
}

// recolour maps a colour drawn for a white page onto the theme.
func (t Theme) recolour(c color.Color) color.Color {
	if !t.dark() || c == nil {
		return c
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if n.A == 0 {
		return c
	}
	r, g, b := float64(n.R), float64(n.G), float64(n.B)
	hi, lo := max(r, g, b), min(r, g, b)
	l := (r + g + b) / (3 * 255)
	// White, black and the light and dark greys of text, grids and
	// backdrops reverse between page and ink; the mid greys of data
	// (baseline and compute bars) read on either page and stay.
	if hi-lo < 24 && (l < 0.35 || l > 0.7) {
		bg, ink := color.NRGBAModel.Convert(t.Background).(color.NRGBA), color.NRGBAModel.Convert(t.Ink).(color.NRGBA)
		mix := func(p, q uint8) uint8 { return uint8(float64(q) + l*(float64(p)-float64(q)) + 0.5) }
		return color.NRGBA{mix(bg.R, ink.R), mix(bg.G, ink.G), mix(bg.B, ink.B), n.A}
	}
	if luma(n) < 0.35 { // a dark hue: lighten it toward white to keep contrast
		up := func(v uint8) uint8 { return uint8(float64(v) + 0.45*(255-float64(v)) + 0.5) }
		return color.NRGBA{up(n.R), up(n.G), up(n.B), n.A}
	}
	return c
}

// luma is a colour's relative lightness, 0 (black) to 1 (white).
func luma(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return (0.2126*float64(n.R) + 0.7152*float64(n.G) + 0.0722*float64(n.B)) / 255
}

// themed is a raster canvas that recolours everything drawn on it.
type themed struct {
	raster
	theme Theme
}

// SetColor implements vg.Canvas.
func (c themed) SetColor(col color.Color) { c.raster.SetColor(c.theme.recolour(col)) }
