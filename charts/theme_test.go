package charts

import (
	"image/color"
	"strings"
	"testing"
)

// Mutations caught: the dark theme ignored (white page in a dark window),
// data hues recoloured along with text, ink left dark on a dark page, the
// light theme (or the zero Theme of exports) recolouring anything.
func TestThemeRecolour(t *testing.T) {
	bg := color.NRGBA{0x17, 0x17, 0x18, 0xff}
	fg := color.NRGBA{0xf3, 0xf3, 0xf3, 0xff}
	dark := Theme{Background: bg, Ink: fg}
	light := Theme{Background: color.White, Ink: color.Black}
	cases := []struct {
		name     string
		th       Theme
		in, want color.Color
	}{
		{"page", dark, color.White, bg},
		{"ink", dark, color.Black, fg},
		{"translucent backdrop keeps its alpha", dark, color.NRGBA{0xff, 0xff, 0xff, 0xd0}, color.NRGBA{0x17, 0x17, 0x18, 0xd0}},
		{"data hue", dark, Palette[0], Palette[0]},
		{"baseline grey", dark, Grey, Grey},
		{"light theme", light, color.White, color.White},
		{"export", Theme{}, Ink, Ink},
	}
	for _, c := range cases {
		got := color.NRGBAModel.Convert(c.th.recolour(c.in))
		if want := color.NRGBAModel.Convert(c.want); got != want {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, want)
		}
	}
	if l := luma(dark.recolour(Ink)); l < 0.7 {
		t.Errorf("ink on the dark page has lightness %.2f, want light", l)
	}
	// A dark hue (the scale chart's brown markers) is lightened.
	brown := color.RGBA{0xa0, 0x40, 0x00, 0xff}
	if luma(dark.recolour(brown)) <= luma(brown) {
		t.Error("dark hue not lightened on the dark page")
	}
}

// The window's dark chart: the page is the theme's background, the
// export's stays white.
func TestImageOnDarkTheme(t *testing.T) {
	fig, err := Cost(inputs(t)["default"])
	if err != nil {
		t.Fatal(err)
	}
	bg := color.NRGBA{0x17, 0x17, 0x18, 0xff}
	img, err := fig.ImageOn(Size{600, 400, 96}, Theme{Background: bg, Ink: color.White})
	if err != nil {
		t.Fatal(err)
	}
	if got := color.NRGBAModel.Convert(img.At(2, 2)); got != bg {
		t.Errorf("dark page corner %v, want %v", got, bg)
	}
	img, err = fig.Image(Size{600, 400, 96})
	if err != nil {
		t.Fatal(err)
	}
	if got := color.NRGBAModel.Convert(img.At(2, 2)); got != (color.NRGBA{0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("export page corner %v, want white", got)
	}
}

// Powers-of-two labels for narrow panels, written in full as every
// count on a chart: 64 to 65,536 with two labels in 10 octaves reads 64,
// 2,048, 65,536. Mutations caught: a short scale beside full counts
// ("2k", "64k", a million as "1Mi" or "1024k"), decimal thousands
// ("65.5k"), the label step ignored.
func TestLog2TicksFull(t *testing.T) {
	for _, c := range []struct {
		ticks    log2Ticks
		min, max float64
		want     string
	}{
		{log2Ticks{most: 2}, 64, 65536, "64 2,048 65,536"},
		{log2Ticks{most: 1}, 8, 1 << 20, "8 1,048,576"},
		{log2Ticks{most: 3}, 100, 3000, "64 256 1,024 4,096"}, // 2^6 to 2^12, every second octave
	} {
		var labels []string
		for _, tk := range c.ticks.Ticks(c.min, c.max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("%+v from %g to %g: labels %q, want %q", c.ticks, c.min, c.max, got, c.want)
		}
	}
}
