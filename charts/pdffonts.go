package charts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg/vgpdf"
)

// PDF fonts, each embedded once under a file name of its own.
//
// vgpdf makes every font's definition with the same file name
// ("font.z"), and the PDF writer keeps one font file per name: every font
// of a page then draws with the file of the last one registered, so a
// chart with one bold label came out all bold. Before vgpdf sees a font,
// pdfCanvas registers it with the document itself, from the same font
// data, under a file name made from the font's name; vgpdf's own
// registration of that font name is then a no-op.

// pdfFontDef is a font's definition and compressed file for the PDF
// writer.
type pdfFontDef struct {
	json, z []byte
	err     error
}

var pdfFontDefs sync.Map // font name -> *pdfFontDef, made once per process

// fpdfOf is the PDF document a vgpdf canvas writes, nil when vgpdf keeps
// it otherwise than this code knows (then fonts are left to vgpdf).
func fpdfOf(c *vgpdf.Canvas) *fpdf.Fpdf {
	v := reflect.ValueOf(c).Elem().FieldByName("doc")
	if !v.IsValid() || v.Type() != reflect.TypeOf((*fpdf.Fpdf)(nil)) || v.IsNil() {
		return nil
	}
	return (*fpdf.Fpdf)(unsafe.Pointer(v.Pointer()))
}

// vgpdfFontsOf is the set of fonts a vgpdf canvas has added to its
// document, keyed by font and size, nil when vgpdf keeps it otherwise
// than this code knows (then vgpdf adds each font itself).
func vgpdfFontsOf(c *vgpdf.Canvas) map[font.Font]struct{} {
	v := reflect.ValueOf(c).Elem().FieldByName("fonts")
	if !v.IsValid() || v.Type() != reflect.TypeOf(map[font.Font]struct{}(nil)) || v.IsNil() {
		return nil
	}
	return *(*map[font.Font]struct{})(unsafe.Pointer(v.UnsafeAddr()))
}

// registerFont adds f to the document under its name, once, and tells
// vgpdf that f at its size is in. vgpdf keys the fonts it has added by
// size as well as name, and for each new size it runs the PDF font
// maker again (some 40 ms of CPU) only to add the result under a name
// the document already has, which the writer ignores; the report's
// dozen sizes made that half a second.
func (c pdfCanvas) registerFont(f font.Face) {
	if c.doc == nil {
		return
	}
	name := f.Name()
	ok, seen := c.registered[name]
	if !seen {
		def := pdfFontDefFor(name, f)
		ok = def.err == nil // if not, vgpdf registers it as it would have
		if ok {
			c.doc.AddFontFromBytes(name, "", def.json, def.z)
		}
		c.registered[name] = ok
	}
	if ok && c.vgFonts != nil {
		c.vgFonts[f.Font] = struct{}{}
	}
}

// pdfFontDefFor makes (once) the PDF definition of face f named name.
func pdfFontDefFor(name string, f font.Face) *pdfFontDef {
	if d, ok := pdfFontDefs.Load(name); ok {
		return d.(*pdfFontDef)
	}
	d := &pdfFontDef{}
	d.json, d.z, d.err = makePDFFont(name, f)
	actual, _ := pdfFontDefs.LoadOrStore(name, d)
	return actual.(*pdfFontDef)
}

// fileSafe keeps the characters a font file name may use; compiled on
// first use, so a start that writes no PDF does not pay for it.
var fileSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]`) })

// makePDFFont runs the PDF writer's font maker over f's TrueType data
// with the Windows-1252 code page (the encoding pdfCanvas writes text in),
// and names the font file after the font.
func makePDFFont(name string, f font.Face) (def, z []byte, err error) {
	var raw bytes.Buffer
	if _, err := f.Face.WriteSourceTo(nil, &raw); err != nil {
		return nil, nil, fmt.Errorf("read font %s: %w", name, err)
	}
	dir, err := os.MkdirTemp("", "fabricplan-pdffont-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	ttf, enc := filepath.Join(dir, "font.ttf"), filepath.Join(dir, "cp1252.map")
	if err := os.WriteFile(ttf, raw.Bytes(), 0o600); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(enc, cp1252Map(), 0o600); err != nil {
		return nil, nil, err
	}
	if err := fpdf.MakeFont(ttf, enc, dir, nil, true); err != nil {
		return nil, nil, fmt.Errorf("make PDF font %s: %w", name, err)
	}
	if def, err = os.ReadFile(filepath.Join(dir, "font.json")); err != nil {
		return nil, nil, err
	}
	if z, err = os.ReadFile(filepath.Join(dir, "font.z")); err != nil {
		return nil, nil, err
	}
	file := fileSafe().ReplaceAllString(name, "_") + ".z"
	def = bytes.Replace(def, []byte(`"File":"font.z"`), []byte(`"File":"`+file+`"`), 1)
	return def, z, nil
}

// cp1252Map is the Windows-1252 code page in the font maker's map format
// ("!80 U+20AC uni20AC"), built from x/text's table; bytes the code page
// leaves undefined are left out.
func cp1252Map() []byte {
	var b strings.Builder
	for i := 0; i < 256; i++ {
		r := charmap.Windows1252.DecodeByte(byte(i))
		if r == '\uFFFD' {
			continue
		}
		glyph := fmt.Sprintf("uni%04X", r)
		if r < 0x20 || r == 0x7F {
			glyph = ".notdef"
		}
		fmt.Fprintf(&b, "!%02X U+%04X %s\n", i, r, glyph)
	}
	return []byte(b.String())
}
