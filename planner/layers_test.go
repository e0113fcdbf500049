package planner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// exportedForPrefix starts the last line of the doc comment of a name the
// facade exports only for one package above it ("Exported for
// planner/phases."): the facade's API for that layer, not for the app.
const exportedForPrefix = "Exported for "

// layerName is one name the facade exports for one layer only.
type layerName struct {
	name   string
	layer  string // the package it is exported for, relative to the module
	method bool   // a method or field: read as x.Name on any value
}

// exportedForLayers lists the names of the facade's files (parsed with
// comments) whose doc comment's last line is "Exported for planner/X.".
func exportedForLayers(files []*ast.File) []layerName {
	var out []layerName
	mark := func(doc *ast.CommentGroup) (string, bool) {
		if doc == nil {
			return "", false
		}
		lines := strings.Split(strings.TrimSpace(doc.Text()), "\n")
		last := strings.TrimSpace(lines[len(lines)-1])
		layer, ok := strings.CutPrefix(last, exportedForPrefix)
		if !ok {
			return "", false
		}
		return strings.TrimSuffix(layer, "."), true
	}
	add := func(id *ast.Ident, doc *ast.CommentGroup, method bool) {
		if layer, ok := mark(doc); ok && id.IsExported() {
			out = append(out, layerName{name: id.Name, layer: layer, method: method})
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				add(d.Name, d.Doc, d.Recv != nil)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						add(s.Name, doc, false)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									add(n, fl.Doc, true)
								}
							}
						}
					case *ast.ValueSpec:
						doc := s.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						for _, n := range s.Names {
							add(n, doc, false)
						}
					}
				}
			}
		}
	}
	return out
}

// layerViolations lists, sorted, each read of a layer name by a package
// other than the facade and the layer it is exported for. files maps a
// package (relative to the module) to its parsed files, tests included.
func layerViolations(files map[string][]*ast.File, fset *token.FileSet, names []layerName) []string {
	var out []string
	for pkg, fs := range files {
		if pkg == "planner" {
			continue
		}
		for _, f := range fs {
			facade := facadeImportName(f)
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				for _, ln := range names {
					if sel.Sel.Name != ln.name || matches(ln.layer, pkg) {
						continue
					}
					x, isIdent := sel.X.(*ast.Ident)
					if ln.method || (isIdent && facade != "" && x.Name == facade) {
						out = append(out, fset.Position(sel.Pos()).String()+": "+show(pkg)+" reads planner's "+ln.name+", exported for "+ln.layer+" only")
					}
				}
				return true
			})
		}
	}
	sort.Strings(out)
	return out
}

// facadeImportName is the name file f gives the planner facade ("" when
// it does not import it).
func facadeImportName(f *ast.File) string {
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || p != module+"/planner" {
			continue
		}
		if is.Name != nil {
			return is.Name.Name
		}
		return "planner"
	}
	return ""
}

// moduleFiles parses every Go file of the module under root, tests
// included, whatever its build tags, by package directory; the facade's
// own tests are left out (they read what they like).
func moduleFiles(t *testing.T, root string, fset *token.FileSet) map[string][]*ast.File {
	t.Helper()
	files := map[string][]*ast.File{}
	walkModuleGo(t, root, func(p, pkg string) error {
		if strings.HasSuffix(p, "_test.go") && pkg == "planner" {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files[pkg] = append(files[pkg], f)
		return nil
	})
	return files
}

// TestLayerNamesStayInTheirLayer: a name the facade exports only for a
// package above it (its doc comment ends "Exported for planner/X.") is
// read by no other package of ours, tests included, so the window and
// the CLI go through that layer's API. Mutation caught: cli or app
// calling a sweep or phase helper of the facade directly instead of
// planner/explore's or planner/phases' API.
func TestLayerNamesStayInTheirLayer(t *testing.T) {
	fset := token.NewFileSet()
	files := moduleFiles(t, "..", fset)
	names := exportedForLayers(files["planner"])
	for _, ln := range names {
		if _, ok := files[ln.layer]; !ok {
			t.Errorf("planner's %s says it is exported for %s, which is not a package of the module", ln.name, ln.layer)
		}
	}
	for _, v := range layerViolations(files, fset, names) {
		t.Error(v)
	}
}

// The checker fires on a read from outside the layer and only then.
// Mutations caught: the facade's import name ignored (any X.Name
// flagged, or none), the layer's own reads flagged, a method read
// through a value missed, a doc comment's mark not on its last line
// taken as a mark.
func TestLayerNamesBite(t *testing.T) {
	const facade = `package planner
// Links walks the links.
//
// Exported for planner/phases.
func (p *Plan) Links(fn func()) {}
// TierRows are a sweep's rows.
//
// Exported for planner/explore.
func TierRows() {}
// Public is for everyone. Exported for planner/explore.
// It says so mid-comment, which is no mark.
func Public() {}
`
	fset := token.NewFileSet()
	parse := func(src string) *ast.File {
		f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	names := exportedForLayers([]*ast.File{parse(facade)})
	var got []string
	for _, n := range names {
		got = append(got, n.name+">"+n.layer)
	}
	if want := []string{"Links>planner/phases", "TierRows>planner/explore"}; !slices.Equal(got, want) {
		t.Fatalf("marked names %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name, pkg, src string
		bad            bool
	}{
		{"the layer reads its name", "planner/explore", `package explore; import "fabricplan/planner"; func f() { planner.TierRows() }`, false},
		{"the CLI reads explore's name", "cli", `package cli; import "fabricplan/planner"; func f() { planner.TierRows() }`, true},
		{"under another import name", "cli", `package cli; import pl "fabricplan/planner"; func f() { pl.TierRows() }`, true},
		{"another package's TierRows", "cli", `package cli; import planner "fabricplan/charts"; func f() { planner.TierRows() }`, false},
		{"a method through a value", "app/model", `package model; func f(p *P) { p.Links(nil) }`, true},
		{"phases reads its method", "planner/phases", `package phases; func f(p *P) { p.Links(nil) }`, false},
		{"an unmarked name", "cli", `package cli; import "fabricplan/planner"; func f() { planner.Public() }`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := layerViolations(map[string][]*ast.File{tc.pkg: {parse(tc.src)}}, fset, names)
			if (len(v) > 0) != tc.bad {
				t.Errorf("violations %q, want any: %v", v, tc.bad)
			}
		})
	}
}
