package planner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// memoName is what a package-level memo is called.
var memoName = regexp.MustCompile(`(Memo|memo)([A-Z]|$)|[Cc]ache|[Rr]ecent|[Kk]ept|^last`)

// handKeyedAllowed are package-level memos not built on internal/memo,
// each with why. Keep it short.
var handKeyedAllowed = map[string]string{
	"planner.hallMemoOff":        "a switch that turns the hall and back-end memos off, not a memo",
	"planner.exportedFieldIndex": "keyed by the reflect.Type itself: the whole input, nothing written by hand",
}

// TestNoHandKeyedCaches: no package of the engine keeps a package-level
// memo but through internal/memo, whose keys are derived from the
// inputs in one place (memo.Of), never a key struct written by hand. A
// package-level var is a memo when its name says so (memo, cache,
// recent, kept, last) or its type holds a lock, a sync.Map or atomic
// pointers; it passes when its value is built by memo.New or
// memo.NewWeighted, or is listed in handKeyedAllowed. Mutations caught
// (each tried): the old cable-place memo put back (var whereMemo
// recent[whereKey, string]), a map behind a mutex
// (var probCache = struct{ sync.Mutex; m map[[2]*Plan]float64 }{}),
// perf's crossing-detail slots ([32]atomic.Pointer[keptDetail]).
func TestNoHandKeyedCaches(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					var value ast.Expr
					if i < len(vs.Values) {
						value = vs.Values[i]
					}
					id := f.Name.Name + "." + name.Name
					if _, ok := handKeyedAllowed[id]; ok || builtOnMemo(value) {
						continue
					}
					if memoName.MatchString(name.Name) || holdsState(vs.Type) || holdsState(value) {
						t.Errorf("%s: package-level %s looks like a memo not built on internal/memo (memo.New, keys by memo.Of)",
							fset.Position(name.Pos()), id)
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

// builtOnMemo reports whether e calls memo.New or memo.NewWeighted.
func builtOnMemo(e ast.Expr) bool {
	found := false
	if e != nil {
		ast.Inspect(e, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "memo" && strings.HasPrefix(sel.Sel.Name, "New") {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// holdsState reports whether type or value expression e holds a lock, a
// sync.Map or an atomic pointer (what a memo shared between goroutines
// needs; a function literal's body and a call, computed once, are not
// looked into).
func holdsState(e ast.Expr) bool {
	found := false
	if e != nil {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.CallExpr:
				return false // computed once: a table, not a memo
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && (x.Name == "sync" && n.Sel.Name != "Pool" || x.Name == "atomic" && n.Sel.Name == "Pointer") {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
