package builtdoc

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"go/token"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// File names the generated Go file that sets one Doc.
type File struct {
	Path    string // the file, relative to the package's directory
	PkgPath string // the import path of the package it is in
	Var     string // the package variable of type *Doc[T] it sets
	From    string // the document's name for the header ("data/catalog.toml")
	Gen     string // the command that rewrites it
}

// Source writes the Go file f that sets f.Var to a Doc of v, the value
// the document src decodes to. It writes only exported fields and
// types of other packages, and fails on a value Go has no literal for
// (a channel, a function, a non-nil interface, a pointer to anything
// but a struct, a NaN, an infinity or a negative zero), so that
// everything a decode can set comes back by New.
func Source[T any](f File, src []byte, v *T) ([]byte, error) {
	p := &printer{pkg: f.PkgPath, imports: map[string]bool{pkgPath: true}}
	t := reflect.TypeFor[T]()
	name := p.typ(t)
	p.buf.WriteString("return ")
	p.value(reflect.ValueOf(v), false)
	if p.err != nil {
		return nil, fmt.Errorf("%s: %w", f.From, p.err)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated from %s by %s; DO NOT EDIT.\n", f.From, f.Gen)
	fmt.Fprintf(&out, "// When it no longer compiles, delete it and run that again.\n\n")
	fmt.Fprintf(&out, "package %s\n\nimport (\n", path.Base(f.PkgPath))
	imports := make([]string, 0, len(p.imports))
	for ip := range p.imports {
		if ip != f.PkgPath {
			imports = append(imports, ip)
		}
	}
	slices.Sort(imports)
	for _, ip := range imports {
		fmt.Fprintf(&out, "\t%q\n", ip)
	}
	docType := path.Base(pkgPath) + ".Doc"
	if f.PkgPath == pkgPath {
		docType = "Doc"
	}
	fmt.Fprintf(&out, ")\n\nfunc init() {\n\t%s = &%s[%s]{\n\t\tSHA256: %q,\n\t\tNew: func() *%s {\n%s\n},\n}\n}\n",
		f.Var, docType, name, Sum(src), name, p.buf.String())
	text, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: format the generated file: %w", f.From, err)
	}
	return text, nil
}

// pkgPath is this package's import path, which every generated file
// imports for Doc.
const pkgPath = "fabricplan/internal/builtdoc"

// printer writes a value as a Go expression in package pkg, noting the
// packages it names; the first problem stops it.
type printer struct {
	pkg     string
	imports map[string]bool
	buf     bytes.Buffer
	err     error
}

func (p *printer) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

// typ is the name of t in package p.pkg.
func (p *printer) typ(t reflect.Type) string {
	if name := t.Name(); name != "" {
		switch pp := t.PkgPath(); {
		case pp == "":
			return name // a predeclared type
		case strings.Contains(name, "["):
			p.fail("type %s: a generic type", t)
		case pp == p.pkg:
			return name
		case !token.IsExported(name):
			p.fail("type %s: not exported from %s", t, pp)
		default:
			p.imports[pp] = true
			return path.Base(pp) + "." + name
		}
		return name
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + p.typ(t.Elem())
	case reflect.Slice:
		return "[]" + p.typ(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + p.typ(t.Elem())
	case reflect.Map:
		return "map[" + p.typ(t.Key()) + "]" + p.typ(t.Elem())
	case reflect.Struct:
		return p.structType(t)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any"
		}
	}
	p.fail("type %s: no name to write it by", t)
	return t.String()
}

// structType writes an unnamed struct type in full, tags and all (a
// struct type is only identical to one with the same tags).
func (p *printer) structType(t reflect.Type) string {
	var b strings.Builder
	b.WriteString("struct {\n")
	for i := range t.NumField() {
		f := t.Field(i)
		if f.PkgPath != "" && f.PkgPath != p.pkg {
			p.fail("type %s: field %s not exported from %s", t, f.Name, f.PkgPath)
		}
		if !f.Anonymous {
			b.WriteString(f.Name + " ")
		}
		b.WriteString(p.typ(f.Type))
		switch tag := string(f.Tag); {
		case tag == "":
		case strconv.CanBackquote(tag):
			b.WriteString(" `" + tag + "`")
		default:
			b.WriteString(" " + strconv.Quote(tag))
		}
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

// value writes v; elide leaves out the type of a composite literal (and
// the & of a pointer to one), as Go allows inside a slice, array or map
// literal.
func (p *printer) value(v reflect.Value, elide bool) {
	b := &p.buf
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		p.float(v)
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Pointer:
		p.pointer(v, elide)
	case reflect.Struct:
		p.structLit(v, elide)
	case reflect.Slice, reflect.Array:
		p.list(v, elide)
	case reflect.Map:
		p.mapLit(v, elide)
	case reflect.Interface:
		if !v.IsNil() {
			p.fail("%s: a non-nil interface", v.Type())
		}
		b.WriteString("nil")
	default:
		p.fail("%s: no literal for a %s", v.Type(), v.Kind())
	}
}

// float writes a float that reads back to the same bits.
func (p *printer) float(v reflect.Value) {
	f := v.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
		p.fail("%s: no constant for %v", v.Type(), f)
	}
	bits := 64
	if v.Kind() == reflect.Float32 {
		bits = 32
	}
	p.buf.WriteString(strconv.FormatFloat(f, 'g', -1, bits))
}

// pointer writes a pointer to a struct as &T{...} (elided: {...}).
func (p *printer) pointer(v reflect.Value, elide bool) {
	switch {
	case v.IsNil():
		p.buf.WriteString("nil")
	case v.Elem().Kind() != reflect.Struct:
		p.fail("%s: no literal for a pointer to a %s", v.Type(), v.Elem().Kind())
	default:
		if !elide {
			p.buf.WriteString("&")
		}
		p.structLit(v.Elem(), elide)
	}
}

// structLit writes a struct's fields that are not zero, by name.
func (p *printer) structLit(v reflect.Value, elide bool) {
	t := v.Type()
	if !elide {
		p.buf.WriteString(p.typ(t))
	}
	p.buf.WriteString("{\n")
	for i := range t.NumField() {
		fv := v.Field(i)
		if fv.IsZero() {
			continue
		}
		f := t.Field(i)
		if !f.IsExported() {
			p.fail("%s.%s: set but not exported", t, f.Name)
			continue
		}
		p.buf.WriteString(f.Name + ": ")
		p.value(fv, false)
		p.buf.WriteString(",\n")
	}
	p.buf.WriteString("}")
}

// list writes a slice or an array, nil as nil.
func (p *printer) list(v reflect.Value, elide bool) {
	if v.Kind() == reflect.Slice && v.IsNil() {
		p.buf.WriteString("nil")
		return
	}
	if !elide {
		p.buf.WriteString(p.typ(v.Type()))
	}
	p.buf.WriteString("{")
	for i := range v.Len() {
		if i > 0 {
			p.buf.WriteString(", ")
		}
		p.value(v.Index(i), true)
	}
	p.buf.WriteString("}")
}

// mapLit writes a map, its entries in key order, nil as nil.
func (p *printer) mapLit(v reflect.Value, elide bool) {
	if v.IsNil() {
		p.buf.WriteString("nil")
		return
	}
	if !elide {
		p.buf.WriteString(p.typ(v.Type()))
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, compareKeys)
	p.buf.WriteString("{\n")
	for _, k := range keys {
		p.value(k, true)
		p.buf.WriteString(": ")
		p.value(v.MapIndex(k), true)
		p.buf.WriteString(",\n")
	}
	p.buf.WriteString("}")
}

// compareKeys orders map keys: strings and numbers by value, anything
// else by its printed form.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}
