package charts

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image/color"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"fabricplan/internal/safefile/fulldisk"
)

// The PDF of a chart with regular and bold text embeds each font in its
// own file, read back with pdffonts: both LiberationSans and
// LiberationSans-Bold embedded, and no two font descriptors sharing one
// font file. Mutation caught: every font defined with vgpdf's one file
// name, "font.z", so the page drew all its text in the last font
// registered (the topology all bold in the PDF, regular in the PNG).
func TestPDFFontsEmbeddedOnceEach(t *testing.T) {
	if _, err := exec.LookPath("pdffonts"); err != nil {
		t.Fatal("pdffonts not installed: run scripts/deps.sh")
	}
	for _, name := range []string{"scenarios/ib-xdr-100k.toml", "scenarios/gb300-nvl72-4k.toml"} {
		fig, err := Topology(textFitInputs(t)[name])
		if err != nil {
			t.Fatal(err)
		}
		b, err := fig.Bytes("pdf", DefaultSize)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), "topology.pdf")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdffonts", f).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"LiberationSans ", "LiberationSans-Bold "} {
			line := ""
			for _, l := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(l, want) {
					line = l
				}
			}
			if fields := strings.Fields(line); len(fields) < 4 || fields[3] != "yes" {
				t.Errorf("%s: pdffonts has no embedded %q:\n%s", name, strings.TrimSpace(want), out)
			}
		}
		files := regexp.MustCompile(`/FontFile2 (\d+) 0 R`).FindAllSubmatch(b, -1)
		seen := map[string]bool{}
		for _, m := range files {
			if seen[string(m[1])] {
				t.Errorf("%s: two fonts share font file object %s", name, m[1])
			}
			seen[string(m[1])] = true
		}
		if len(files) < 2 {
			t.Errorf("%s: %d font files, want one for regular and one for bold", name, len(files))
		}
	}
}

// Text at several sizes on one PDF canvas is each size marked as added
// in vgpdf's own font set, so vgpdf does not run the PDF font maker again
// for every size (40 ms of CPU each, half a second of the 100k report),
// and the fonts are still embedded once each by name. Mutations caught:
// the size not marked (vgpdf makes the font again), vgpdf's font set not
// found (vgpdfFontsOf nil), a bold face marked under its regular key.
func TestPDFFontMadeOncePerName(t *testing.T) {
	c, err := newPDFCanvas(reportW, reportH)
	if err != nil {
		t.Fatal(err)
	}
	if c.vgFonts == nil {
		t.Fatal("vgpdf's font set not found: each text size makes its font again")
	}
	for _, size := range []vg.Length{7, 9.5, 13} {
		for _, bold := range []bool{false, true} {
			sty := textStyle(size, bold)
			face := font.DefaultCache.Lookup(sty.Font, size)
			if bold { // as FillString passes a bold face on
				face.Font.Variant += "Bold"
				face.Font.Weight = xfont.WeightNormal
			}
			c.registerFont(face) // before vgpdf's FillString looks
			if _, ok := c.vgFonts[face.Font]; !ok {
				t.Errorf("%v pt, bold %v: not marked in vgpdf's font set", size, bold)
			}
			c.FillString(font.DefaultCache.Lookup(sty.Font, size), vg.Point{X: 72, Y: 72}, "Réseau 1,024")
		}
	}
	if want := map[string]bool{"LiberationSans-Regular": true, "LiberationSansBold-Regular": true}; !reflect.DeepEqual(c.registered, want) {
		t.Errorf("fonts added by name: %v, want %v", c.registered, want)
	}
}

// A translucent colour reaches the PDF with its own RGB and its alpha as
// the opacity: white at 0xd0 alpha is 255, 255, 255 at 0.816. Mutation
// caught: vgpdf's premultiplied components (208, 208, 208), the grey
// boxes under the search chart's names in the PDF only.
func TestPDFColourNotPremultiplied(t *testing.T) {
	for _, tc := range []struct {
		name    string
		col     color.Color
		r, g, b int
		alpha   float64
	}{
		{"backdrop white at 0xd0", color.NRGBA{0xff, 0xff, 0xff, 0xd0}, 255, 255, 255, 0xd0 / 255.0},
		{"grey dots at 0xb0", color.RGBA{0x99 * 0xb0 / 0xff, 0x99 * 0xb0 / 0xff, 0x99 * 0xb0 / 0xff, 0xb0}, 0x99, 0x99, 0x99, 0xb0 / 255.0},
		{"opaque blue", Palette[0], 0x00, 0x72, 0xb2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := newPDFCanvas(100, 100)
			if err != nil {
				t.Fatal(err)
			}
			if c.doc == nil {
				t.Fatal("the PDF canvas cannot reach its document")
			}
			c.SetColor(tc.col)
			r, g, b := c.doc.GetFillColor()
			if absInt(r-tc.r) > 1 || absInt(g-tc.g) > 1 || absInt(b-tc.b) > 1 {
				t.Errorf("fill %d,%d,%d, want %d,%d,%d", r, g, b, tc.r, tc.g, tc.b)
			}
			if a, _ := c.doc.GetAlpha(); math.Abs(a-tc.alpha) > 0.01 {
				t.Errorf("alpha %.3f, want %.3f", a, tc.alpha)
			}
		})
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// An SVG export carries its fonts: parsed as XML, its style sheet has an
// @font-face with the TrueType data (which parses as a font whose family
// is the one the text asks for) for every weight its text uses. Mutation
// caught: SVG text naming "Liberation Sans" without carrying it, so a
// machine without the font draws wider text that overlaps.
func TestSVGEmbedsItsFonts(t *testing.T) {
	fig, err := Topology(textFitInputs(t)["scenarios/ib-ndr-1k.toml"])
	if err != nil {
		t.Fatal(err)
	}
	b, err := fig.Bytes("svg", DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Style []string `xml:"defs>style"`
		Texts []struct {
			Style string `xml:"style,attr"`
		} `xml:"g>text"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("SVG does not parse: %v", err)
	}
	css := strings.Join(doc.Style, "\n")
	faces := regexp.MustCompile(`(?s)@font-face\{.*?font-family:"([^"]+)";.*?font-weight:(\w+);.*?base64,([A-Za-z0-9+/=]+)\)`).FindAllStringSubmatch(css, -1)
	embedded := map[string]bool{}
	for _, f := range faces {
		raw, err := base64.StdEncoding.DecodeString(f[3])
		if err != nil {
			t.Fatalf("font %s %s: %v", f[1], f[2], err)
		}
		font, err := sfnt.Parse(raw)
		if err != nil {
			t.Fatalf("font %s %s is not a font: %v", f[1], f[2], err)
		}
		family, _ := font.Name(nil, sfnt.NameIDFamily)
		if family != f[1] {
			t.Errorf("@font-face %q carries the font %q", f[1], family)
		}
		embedded[f[1]+"/"+f[2]] = true
	}
	used := map[string]bool{}
	weight := regexp.MustCompile(`font-family:([^;]+);.*font-weight:(\w+)`)
	for _, tx := range doc.Texts {
		if m := weight.FindStringSubmatch(tx.Style); m != nil {
			used[m[1]+"/"+m[2]] = true
		}
	}
	if len(used) < 2 {
		t.Fatalf("the topology's text uses %v: want a regular and a bold face", used)
	}
	for u := range used {
		if !embedded[u] {
			t.Errorf("text uses %s, which the SVG does not carry (it carries %v)", u, embedded)
		}
	}
}

// The report's bill of materials keeps every part's whole name, part
// number included, wrapping the cell when it is long: each of the
// 16k-GPU Ethernet plan's parts (its optics such as "2x400G OSFP SR8
// multimode twin-port (MMA4Z00-NS class)", data/catalog.toml) reads back
// whole. Mutation caught: a part cut to 36 characters, losing the
// number a buyer orders.
func TestReportBOMKeepsWholePartNames(t *testing.T) {
	in := textFitInputs(t)["scenarios/eth-800g-16k.toml"]
	var buf bytes.Buffer
	if err := WriteReport(&buf, in, catalog(t), nil); err != nil {
		t.Fatal(err)
	}
	text := squash(pdfText(t, buf.Bytes()))
	for _, l := range in.Plan.BOM {
		if !strings.Contains(text, squash(l.Part())) && !wrappedIn(text, l.Part()) {
			t.Errorf("the report's BOM lacks the whole part %q", l.Part())
		}
	}
	long := 0
	for _, l := range in.Plan.BOM {
		long = max(long, len(l.Part()))
	}
	if long <= 36 {
		t.Errorf("the longest part name has %d characters: the test no longer reaches a name the BOM would cut", long)
	}
}

// wrappedIn says whether every word of part appears, in order, in text
// (a wrapped cell's lines interleave with the cells beside it).
func wrappedIn(text, part string) bool {
	at := 0
	for _, w := range strings.Fields(part) {
		i := strings.Index(text[at:], w)
		if i < 0 {
			return false
		}
		at += i + len(w)
	}
	return true
}

// TestPDFWithoutTempDir: with TMPDIR a folder that does not exist, a PDF
// export fails (the report draws through the same canvas) with an error
// naming the folder and the fix, and nothing is logged (issue #48: a raw
// "vgpdf: could not generate font data" log line). A PDF is drawn first,
// so the fonts are cached and the check cannot lean on their being made.
// Mutation caught: newPDFCanvas without checkPDFTempDir (no error here;
// in a fresh process, vgpdf's log line and error).
func TestPDFWithoutTempDir(t *testing.T) {
	f, err := Topology(textFitInputs(t)["scenarios/ib-xdr-100k.toml"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Bytes("pdf", DefaultSize); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "gone")
	t.Setenv("TMPDIR", missing)
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	_, err = f.Bytes("pdf", DefaultSize)
	if err == nil || !strings.Contains(err.Error(), missing+" cannot hold one (no such file or directory); create it, or set TMPDIR") {
		t.Errorf("err = %v", err)
	}
	if logged.Len() > 0 {
		t.Errorf("logged %q", logged.String())
	}
}

// TestPDFWithFullTempDir: hostile case H48 'report with TMPDIR on a full
// disk'. With TMPDIR on a 256 KiB tmpfs a PDF fails with an error naming
// the folder, the lack of space and the fix, and nothing is logged.
// Mutation caught: checkPDFTempDir making the folder without writing the
// room the font maker needs (a fresh process then printed vgpdf's raw
// "could not generate font data ... no space left on device" log line).
func TestPDFWithFullTempDir(t *testing.T) {
	full, ok := fulldisk.Mount(t, "256k")
	if !ok {
		t.Skip("needs root to mount a small tmpfs")
	}
	f, err := Topology(textFitInputs(t)["scenarios/ib-xdr-100k.toml"])
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", full)
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	_, err = f.Bytes("pdf", DefaultSize)
	if err == nil || !strings.Contains(err.Error(), full+" has not got it (no space left on device); free some space there, or set TMPDIR") {
		t.Errorf("err = %v", err)
	}
	if logged.Len() > 0 {
		t.Errorf("logged %q", logged.String())
	}
	if entries, _ := os.ReadDir(full); len(entries) > 0 {
		t.Errorf("left %d files in the temporary folder", len(entries))
	}
}
