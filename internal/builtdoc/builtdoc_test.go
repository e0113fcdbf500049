package builtdoc

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// part and doc stand for a decoded data document: named and unnamed
// structs, an embedded struct, pointers, maps, slices, arrays, a type of
// another package.
type part struct {
	Name  string
	Ports map[string]int
	Lanes []int
	Range [2]float64
	Price
	Months []time.Month
}

// Price is embedded in part.
type Price struct{ USD float64 }

type doc struct {
	Schema int
	Parts  map[string]*part
	Hops   struct {
		US float64 `toml:"us"`
	}
	Empty []string
	Nil   []string
	Flag  bool
	Big   uint64
	Small float32
	Any   any
}

const testPkg = "fabricplan/internal/builtdoc"

func testFile(dir string) File {
	return File{Path: filepath.Join(dir, "built_doc.go"), PkgPath: testPkg, Var: "builtDoc", From: "data/doc.toml", Gen: "go generate"}
}

// TestSourceWritesEveryKind: Source writes each kind of value as the Go
// literal written out here by hand (gofmt'd): zero fields left out, an
// empty slice kept apart from a nil one, map entries in key order, the
// types of elements elided, another package's type qualified and
// imported, an unnamed struct with its tags. Mutations caught: a zero
// field written, an empty slice dropped (it would come back nil), map
// entries in random order, a float written short of its bits, the
// import left out.
func TestSourceWritesEveryKind(t *testing.T) {
	v := &doc{
		Schema: 1,
		Parts: map[string]*part{
			"b": {Name: "B \"two\"", Lanes: []int{100, 200}, Months: []time.Month{time.March}},
			"a": {Ports: map[string]int{"800": 64, "400": 128}, Range: [2]float64{0.1, 1e21}, Price: Price{USD: 2.5}},
		},
		Empty: []string{},
		Flag:  true,
		Big:   math.MaxUint64,
		Small: 0.1,
	}
	v.Hops.US = 14
	got, err := Source(testFile(""), []byte("schema = 1\n"), v)
	if err != nil {
		t.Fatal(err)
	}
	want := "// Code generated from data/doc.toml by go generate; DO NOT EDIT.\n" +
		"// When it no longer compiles, delete it and run that again.\n\n" +
		"package builtdoc\n\nimport (\n\t\"time\"\n)\n\n" +
		"func init() {\n" +
		"\tbuiltDoc = &Doc[doc]{\n" +
		"\t\tSHA256: \"" + Sum([]byte("schema = 1\n")) + "\",\n" +
		"\t\tNew: func() *doc {\n" +
		"\t\t\treturn &doc{\n" +
		"\t\t\t\tSchema: 1,\n" +
		"\t\t\t\tParts: map[string]*part{\n" +
		"\t\t\t\t\t\"a\": {\n" +
		"\t\t\t\t\t\tPorts: map[string]int{\n" +
		"\t\t\t\t\t\t\t\"400\": 128,\n" +
		"\t\t\t\t\t\t\t\"800\": 64,\n" +
		"\t\t\t\t\t\t},\n" +
		"\t\t\t\t\t\tRange: [2]float64{0.1, 1e+21},\n" +
		"\t\t\t\t\t\tPrice: Price{\n" +
		"\t\t\t\t\t\t\tUSD: 2.5,\n" +
		"\t\t\t\t\t\t},\n" +
		"\t\t\t\t\t},\n" +
		"\t\t\t\t\t\"b\": {\n" +
		"\t\t\t\t\t\tName:   \"B \\\"two\\\"\",\n" +
		"\t\t\t\t\t\tLanes:  []int{100, 200},\n" +
		"\t\t\t\t\t\tMonths: []time.Month{3},\n" +
		"\t\t\t\t\t},\n" +
		"\t\t\t\t},\n" +
		"\t\t\t\tHops: struct {\n" +
		"\t\t\t\t\tUS float64 `toml:\"us\"`\n" +
		"\t\t\t\t}{\n" +
		"\t\t\t\t\tUS: 14,\n" +
		"\t\t\t\t},\n" +
		"\t\t\t\tEmpty: []string{},\n" +
		"\t\t\t\tFlag:  true,\n" +
		"\t\t\t\tBig:   18446744073709551615,\n" +
		"\t\t\t\tSmall: 0.1,\n" +
		"\t\t\t}\n" +
		"\t\t},\n" +
		"\t}\n" +
		"}\n"
	if string(got) != want {
		t.Errorf("Source wrote\n%s\nwant\n%s", got, want)
	}
}

// TestSourceRefuses: a value Go has no literal for, or that only its
// own package may write, stops Source with an error naming the document
// and the problem. Mutations caught: a NaN, an infinity or a negative
// zero written as a constant that reads back otherwise (or does not
// compile), an unexported field, an unexported type of another package
// or a generic type written, a non-nil interface or a pointer to a
// number written as if it were a struct.
func TestSourceRefuses(t *testing.T) {
	one := 1.0
	var sb strings.Builder
	sb.WriteString("x")
	type hidden struct{ x int }
	type signal chan int
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"NaN", source(testPkg, struct{ F []float64 }{[]float64{math.NaN()}}), "no constant for NaN"},
		{"infinity", source(testPkg, struct{ F []float64 }{[]float64{math.Inf(1)}}), "no constant for +Inf"},
		{"negative zero", source(testPkg, struct{ F []float64 }{[]float64{math.Copysign(0, -1)}}), "no constant for -0"},
		{"interface", source(testPkg, struct{ A []any }{[]any{1}}), "a non-nil interface"},
		{"pointer to a number", source(testPkg, struct{ P *float64 }{&one}), "pointer to a float64"},
		{"channel", source(testPkg, struct{ C []signal }{[]signal{make(signal)}}), "no literal for a chan"},
		{"function", source(testPkg, struct{ F func() }{func() {}}), "no name to write it by"},
		{"unexported field", source(testPkg, struct{ B []strings.Builder }{[]strings.Builder{sb}}), "set but not exported"},
		{"unexported type", source("fabricplan/other", struct{ H []hidden }{[]hidden{{x: 1}}}), "not exported from fabricplan/internal/builtdoc"},
		{"unexported field of an unnamed struct", source("fabricplan/other", struct{ S []struct{ x int } }{[]struct{ x int }{}}), "field x not exported"},
		{"generic type", source(testPkg, struct{ D []Doc[int] }{[]Doc[int]{{SHA256: "x"}}}), "a generic type"},
		{"nil interface, pointer, map and slice", source(testPkg, struct {
			A []any
			P []*part
			M []map[int]int
			S [][]int
		}{[]any{nil}, []*part{nil}, []map[int]int{nil}, [][]int{nil}}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			switch err := tc.err; {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "data/x.toml: ")):
				t.Errorf("error %v, want one naming data/x.toml and saying %q", err, tc.want)
			}
		})
	}
}

// source is the error of Source writing v in the package pkg.
func source[T any](pkg string, v T) error {
	_, err := Source(File{PkgPath: pkg, Var: "built", From: "data/x.toml"}, nil, &v)
	return err
}

// newDoc is a document as a generated file's New makes it.
func newDoc() *doc {
	return &doc{Schema: 1, Parts: map[string]*part{"a": {Name: "A", Lanes: []int{100}}}}
}

// decodeDoc stands for a document's TOML decoder: "schema = 1" decodes
// to newDoc, anything else is an error.
func decodeDoc(src []byte) (*doc, error) {
	if string(src) != "schema = 1\n" {
		return nil, errors.New("doc: bad")
	}
	return newDoc(), nil
}

// TestDocFor: a Doc gives its copy for the bytes it was made from and
// for no others, a fresh one each time, and Decode decodes the others.
// Mutations caught: the sum not compared (any bytes given the built
// copy), one copy handed out twice (an edit to one plan's catalog seen
// by the next), a nil Doc dereferenced.
func TestDocFor(t *testing.T) {
	src := []byte("schema = 1\n")
	d := &Doc[doc]{SHA256: Sum(src), New: newDoc}
	a, ok := d.For(src)
	if !ok || a.Parts["a"].Name != "A" {
		t.Fatalf("For(its bytes) = %+v, %v; want its copy", a, ok)
	}
	a.Parts["a"].Lanes[0] = 400
	if b, _ := d.For(src); b.Parts["a"].Lanes[0] != 100 {
		t.Errorf("a second copy saw the first one's edit: lanes %v", b.Parts["a"].Lanes)
	}
	if v, ok := d.For([]byte("schema = 2\n")); ok || v != nil {
		t.Errorf("For(other bytes) = %+v, %v; want nothing", v, ok)
	}
	var none *Doc[doc]
	if v, ok := none.For(src); ok || v != nil {
		t.Errorf("nil Doc's For = %+v, %v; want nothing", v, ok)
	}
	if _, err := Decode(d, []byte("schema = 2\n"), decodeDoc); err == nil || err.Error() != "doc: bad" {
		t.Errorf("Decode(other bytes) error %v, want the decoder's", err)
	}
	if v, err := Decode(d, src, func([]byte) (*doc, error) { return nil, errors.New("decoded") }); err != nil || v.Parts["a"].Lanes[0] != 100 {
		t.Errorf("Decode(its bytes) = %+v, %v; want its copy, not a decode", v, err)
	}
	if v, err := Decode(none, src, decodeDoc); err != nil || v.Schema != 1 {
		t.Errorf("Decode without a Doc = %+v, %v; want the decoded document", v, err)
	}
}

// TestCheck: Check writes the generated file when asked, and otherwise
// fails on a stale file, a Doc made from other bytes, a Doc whose copy
// is not what the decoder makes, and the decoder's own error. Mutations
// caught: a stale file passed, the copy not compared with the decode,
// a rewrite of a file that is up to date.
func TestCheck(t *testing.T) {
	src := []byte("schema = 1\n")
	good := &Doc[doc]{SHA256: Sum(src), New: newDoc}
	dir := t.TempDir()
	f := testFile(dir)
	if err := Check(good, src, decodeDoc, f, false); err == nil || !strings.Contains(err.Error(), "is stale") {
		t.Errorf("no file yet: error %v, want it stale", err)
	}
	if err := Check(good, src, decodeDoc, f, true); err != nil {
		t.Fatalf("write: %v", err)
	}
	want, _ := Source(f, src, newDoc())
	if got, _ := os.ReadFile(f.Path); string(got) != string(want) {
		t.Errorf("wrote\n%s\nwant\n%s", got, want)
	}
	old, _ := os.Stat(f.Path)
	if err := Check(good, src, decodeDoc, f, true); err != nil {
		t.Errorf("write again: %v", err)
	}
	if again, _ := os.Stat(f.Path); !again.ModTime().Equal(old.ModTime()) {
		t.Errorf("an up-to-date file was written again")
	}
	other := func() *doc { v := newDoc(); v.Parts["a"].Lanes = nil; return v }
	for _, tc := range []struct {
		name string
		d    *Doc[doc]
		src  []byte
		f    File
		want string
	}{
		{"up to date", good, src, f, ""},
		{"no doc", nil, src, f, "was not made from these bytes"},
		{"doc of other bytes", &Doc[doc]{SHA256: Sum([]byte("x")), New: newDoc}, src, f, "was not made from these bytes"},
		{"copy differs", &Doc[doc]{SHA256: Sum(src), New: other}, src, f, "differs from what the TOML decodes to"},
		{"decode fails", good, []byte("bad"), f, "doc: bad"},
		{"file unreadable", good, src, File{Path: dir, PkgPath: testPkg, Var: "builtDoc"}, "read "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			switch err := Check(tc.d, tc.src, decodeDoc, tc.f, false); {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	bad := File{Path: filepath.Join(dir, "missing", "built_doc.go"), PkgPath: testPkg, Var: "builtDoc"}
	if err := Check(good, src, decodeDoc, bad, true); err == nil || !strings.HasPrefix(err.Error(), "write ") {
		t.Errorf("write into a missing directory: error %v, want a write error", err)
	}
}

// TestSourceOrdersKeys: map entries come out in key order for every
// kind of key, numbers by value (10 after 9), so the generated file is
// the same on every run. Mutations caught: numbers ordered as text, a
// kind of key left in the map's random order.
func TestSourceOrdersKeys(t *testing.T) {
	type keys struct {
		Ints   map[int]int
		Uints  map[uint8]int
		Floats map[float64]int
		Bools  map[bool]int
	}
	v := keys{
		Ints:   map[int]int{10: 1, -3: 2, 9: 3},
		Uints:  map[uint8]int{10: 1, 9: 2},
		Floats: map[float64]int{2.5: 1, -1: 2, 10: 3},
		Bools:  map[bool]int{true: 1, false: 2},
	}
	got, err := Source(File{PkgPath: testPkg, Var: "built"}, nil, &v)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Ints: map[int]int{\n\t\t\t\t\t-3: 2,\n\t\t\t\t\t9:  3,\n\t\t\t\t\t10: 1,\n",
		"Uints: map[uint8]int{\n\t\t\t\t\t9:  2,\n\t\t\t\t\t10: 1,\n",
		"Floats: map[float64]int{\n\t\t\t\t\t-1:  2,\n\t\t\t\t\t2.5: 1,\n\t\t\t\t\t10:  3,\n",
		"Bools: map[bool]int{\n\t\t\t\t\tfalse: 2,\n\t\t\t\t\ttrue:  1,\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("Source wrote\n%s\nwant it to hold\n%s", got, want)
		}
	}
}

// CheckData reads its document from the file system it is given and
// names it in the header as data/ + its name: a missing document is an
// error, not a pass. Mutations caught: the read error dropped, From left
// empty in the file written.
func TestCheckDataReadsTheDocument(t *testing.T) {
	decode := func(src []byte) (*struct{ A int }, error) { return &struct{ A int }{A: len(src)}, nil }
	var d *Doc[struct{ A int }]
	f := File{Path: filepath.Join(t.TempDir(), "built_x.go"), PkgPath: "example.com/x", Var: "builtX", Gen: "go generate"}
	if err := CheckData(fstest.MapFS{}, "x.toml", d, decode, f, false); err == nil {
		t.Error("a missing document checked as fresh")
	}
	fsys := fstest.MapFS{"x.toml": {Data: []byte("a = 1\n")}}
	if err := CheckData(fsys, "x.toml", d, decode, f, true); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(f.Path)
	if err != nil || !strings.Contains(string(text), "data/x.toml") {
		t.Errorf("written file %q (%v) does not name data/x.toml", text, err)
	}
}
