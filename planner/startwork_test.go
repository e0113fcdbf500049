package planner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRegexpAtStart: no package of the module compiles a regular
// expression into a package-level variable, which every start of the
// program would pay for whether or not the command reads it (issue 49:
// five of them took about 0.2 ms of a 10 ms plan --json); compile it on
// first use (sync.OnceValue) or inside the function. Mutation caught
// (tried): a package-level var of planner set by regexp.MustCompile.
func TestNoRegexpAtStart(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						if pos, ok := regexpAtStart(v); ok {
							t.Errorf("%s: a package-level regexp compiled at every start: compile it on first use (sync.OnceValue)", fset.Position(pos))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// regexpAtStart finds a call of regexp.Compile or regexp.MustCompile in
// e outside a function literal (run when the package initialises).
func regexpAtStart(e ast.Expr) (token.Pos, bool) {
	var at token.Pos
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "regexp" && strings.HasSuffix(n.Sel.Name, "Compile") && at == token.NoPos {
				at = n.Pos()
			}
		}
		return at == token.NoPos
	})
	return at, at != token.NoPos
}
