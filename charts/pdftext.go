package charts

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"
	stdfnt "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfCanvas is a vgpdf canvas that takes UTF-8 text. vgpdf embeds its
// fonts with the Windows-1252 code page and passes strings through as
// bytes, so UTF-8 text prints as mojibake ("RÃ©seau", "â€”" for an em
// dash). pdfCanvas encodes each run of Windows-1252 characters for it,
// and draws any other character (Greek, Cyrillic, a check mark) as its
// glyph outline from the same font, so any name the font covers renders.
type pdfCanvas struct {
	*vgpdf.Canvas
	doc        *fpdf.Fpdf             // the document vgpdf writes (nil: unknown)
	registered map[string]bool        // font name -> added under its own file (false: left to vgpdf)
	vgFonts    map[font.Font]struct{} // vgpdf's fonts added (vgpdfFontsOf; nil: unknown)
}

// newPDFCanvas is a PDF canvas of w by h, or the error that the
// temporary folder the fonts are made in is unusable (checkPDFTempDir).
func newPDFCanvas(w, h vg.Length) (pdfCanvas, error) {
	if err := checkPDFTempDir(); err != nil {
		return pdfCanvas{}, err
	}
	c := vgpdf.New(w, h)
	c.EmbedFonts(true)
	return pdfCanvas{Canvas: c, doc: fpdfOf(c), registered: map[string]bool{}, vgFonts: vgpdfFontsOf(c)}, nil
}

// pdfFontScratchBytes is the room the PDF font maker needs in the
// temporary folder: measured on a report, TMPDIR on a 768 KiB tmpfs
// held it and 512 KiB did not (Liberation Sans's TrueType file, about
// 400 kB, and the maker's compressed copy of it); 1 MiB leaves a margin.
const pdfFontScratchBytes = 1 << 20

// checkPDFTempDir makes a folder in the temporary folder (os.TempDir:
// TMPDIR, else /tmp), where the PDF font maker writes each font's files
// (makePDFFont, and vgpdf itself), writes pdfFontScratchBytes into it and
// removes it. Without this check a missing or full TMPDIR surfaced as
// vgpdf's raw log line ("vgpdf: could not generate font data") and its
// error.
func checkPDFTempDir() error {
	dir, err := os.MkdirTemp("", "fabricplan-pdfcheck-")
	if err != nil {
		return fmt.Errorf("a PDF needs a temporary folder to make its fonts in, and %s cannot hold one (%w); create it, or set TMPDIR to a folder you may write",
			os.TempDir(), errors.Unwrap(err))
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "room"), make([]byte, pdfFontScratchBytes), 0o600); err != nil {
		return fmt.Errorf("a PDF needs %d KiB in the temporary folder to make its fonts in, and %s has not got it (%w); free some space there, or set TMPDIR to a folder with room",
			pdfFontScratchBytes>>10, os.TempDir(), errors.Unwrap(err))
	}
	return nil
}

// FillString draws s at pt, as vg.Canvas's FillString does.
func (c pdfCanvas) FillString(fnt font.Face, pt vg.Point, s string) {
	// vgpdf registers a font under its name with no style but looks a
	// bold one up with style "B", which fails ("undefined font"): a bold
	// face goes on as a regular one with a variant name of its own and
	// its own (bold) outlines.
	if fnt.Font.Weight != stdfnt.WeightNormal {
		fnt.Font.Variant += "Bold"
		fnt.Font.Weight = stdfnt.WeightNormal
	}
	c.registerFont(fnt)
	enc := charmap.Windows1252
	start := 0
	flush := func(end int) {
		if end > start {
			run := s[start:end]
			b := make([]byte, 0, len(run))
			for _, r := range run {
				x, _ := enc.EncodeRune(r)
				b = append(b, x)
			}
			c.Canvas.FillString(fnt, pt, string(b))
			pt.X += fnt.Width(run)
		}
	}
	for i, r := range s {
		if _, ok := enc.EncodeRune(r); ok && r != utf8.RuneError {
			continue
		}
		flush(i)
		pt.X += c.fillGlyph(fnt, pt, r)
		start = i + utf8.RuneLen(r)
	}
	flush(len(s))
}

// fillGlyph draws r's outline at pt and returns its advance; a rune the
// font lacks draws the font's missing-glyph box.
func (c pdfCanvas) fillGlyph(fnt font.Face, pt vg.Point, r rune) vg.Length {
	f := fnt.Face
	if f == nil {
		return 0
	}
	var buf sfnt.Buffer
	idx, err := f.GlyphIndex(&buf, r)
	if err != nil {
		return 0
	}
	ppem := fixed.Int26_6(fnt.Font.Size.Points() * 64)
	segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
	if err != nil {
		return 0
	}
	at := func(p fixed.Point26_6) vg.Point {
		// Glyph y grows downwards; the canvas's grows upwards.
		return vg.Point{X: pt.X + vg.Length(float64(p.X)/64), Y: pt.Y - vg.Length(float64(p.Y)/64)}
	}
	var path vg.Path
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if len(path) > 0 {
				path.Close()
			}
			path.Move(at(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			path.Line(at(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			path.QuadTo(at(s.Args[0]), at(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			path.CubeTo(at(s.Args[0]), at(s.Args[1]), at(s.Args[2]))
		}
	}
	if len(path) > 0 {
		path.Close()
		c.Fill(path)
	}
	adv, err := f.GlyphAdvance(&buf, idx, ppem, 0)
	if err != nil {
		return 0
	}
	return vg.Length(float64(adv) / 64)
}

// SetColor implements vg.Canvas. vgpdf passes a colour's premultiplied
// components on as its RGB and its alpha as the opacity, so a
// translucent white (a label's backdrop) printed as an opaque-looking
// grey box the PNG does not have; the components go on un-premultiplied.
func (c pdfCanvas) SetColor(col color.Color) {
	if col != nil {
		col = straightAlpha(color.NRGBAModel.Convert(col).(color.NRGBA))
	}
	c.Canvas.SetColor(col)
}

// straightAlpha is a colour whose RGBA method returns its components
// without premultiplying them by alpha, as vgpdf expects.
type straightAlpha color.NRGBA

// RGBA implements color.Color.
func (s straightAlpha) RGBA() (r, g, b, a uint32) {
	return uint32(s.R) * 0x101, uint32(s.G) * 0x101, uint32(s.B) * 0x101, uint32(s.A) * 0x101
}
