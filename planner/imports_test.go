package planner_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of this repository's Go module.
const module = "fabricplan"

// importRule is one line of DESIGN.md's layout section as a check on the
// import graph: the packages it covers (a path relative to the module,
// "" for the root; a trailing "/..." takes the subtree), and either the
// only imports of ours they may have, imports they must never have
// (ours or not), or the only packages that may import them.
type importRule struct {
	name      string
	pkgs      []string
	onlyOurs  []string // when set (even empty): every import of ours is one of these
	never     []string // import paths, relative when ours (no dot in the first element)
	importers []string // when set: only these packages may import pkgs
}

// importRules: data flows one way, from the small leaf packages through
// the engine to the GUI and the CLI.
var importRules = []importRule{
	{name: "textfmt imports nothing of ours", pkgs: []string{"internal/textfmt"}, onlyOurs: []string{}},
	{name: "fielderr imports nothing of ours", pkgs: []string{"internal/fielderr"}, onlyOurs: []string{}},
	{name: "datadoc imports nothing of ours", pkgs: []string{"internal/datadoc"}, onlyOurs: []string{}},
	{name: "builtdoc imports nothing of ours", pkgs: []string{"internal/builtdoc"}, onlyOurs: []string{}},
	{name: "tomledit imports nothing of ours", pkgs: []string{"internal/tomledit"}, onlyOurs: []string{}},
	{name: "workers imports nothing of ours", pkgs: []string{"internal/workers"}, onlyOurs: []string{}},
	{name: "memo imports nothing of ours", pkgs: []string{"internal/memo"}, onlyOurs: []string{}},
	{name: "memguard imports nothing of ours", pkgs: []string{"internal/memguard"}, onlyOurs: []string{}},
	{name: "safefile imports nothing of ours", pkgs: []string{"internal/safefile/..."}, onlyOurs: []string{"internal/safefile/..."}},
	{name: "internal packages never import the engine, the GUI or the CLI", pkgs: []string{"internal/..."},
		never: []string{"planner/...", "app/...", "charts/...", "cli/...", ""}},
	{name: "planner/fabric imports nothing of ours", pkgs: []string{"planner/fabric/..."}, onlyOurs: []string{}},
	{name: "planner/hall imports only textfmt and fielderr of ours", pkgs: []string{"planner/hall/..."},
		onlyOurs: []string{"internal/textfmt", "internal/fielderr"}},
	{name: "planner/sidenet imports nothing of ours", pkgs: []string{"planner/sidenet/..."}, onlyOurs: []string{}},
	{name: "planner/pricedraw imports only memo of ours", pkgs: []string{"planner/pricedraw/..."}, onlyOurs: []string{"internal/memo"}},
	{name: "planner/perf never imports the planner facade", pkgs: []string{"planner/perf/..."},
		never: []string{"planner", "planner/scenariofile/...", "app/...", "charts/...", "cli/..."}},
	{name: "planner/serve imports only perf, fielderr, datadoc and builtdoc of ours", pkgs: []string{"planner/serve/..."},
		onlyOurs: []string{"planner/perf", "internal/fielderr", "internal/datadoc", "internal/builtdoc"}},
	{name: "planner/resilience never imports the planner facade", pkgs: []string{"planner/resilience/..."},
		never: []string{"planner", "app/...", "charts/...", "cli/..."}},
	{name: "planner/quotes imports only textfmt of ours", pkgs: []string{"planner/quotes/..."}, onlyOurs: []string{"internal/textfmt"}},
	{name: "planner/market imports only datadoc and builtdoc of ours", pkgs: []string{"planner/market/..."}, onlyOurs: []string{"internal/datadoc", "internal/builtdoc"}},
	{name: "the engine never reads the market tables (charts and the app do)", pkgs: []string{"planner"}, never: []string{"planner/market/..."}},
	{name: "planner/validation imports only the planner, perf and datadoc of ours", pkgs: []string{"planner/validation/..."},
		onlyOurs: []string{"planner", "planner/perf", "internal/datadoc"}},
	{name: "only cli and app run the validation points (the engine never imports them)", pkgs: []string{"planner/validation/..."},
		importers: []string{"app", "cli", "planner/validation/..."}},
	{name: "planner/phases (above the facade) never imports scenariofile, validation, the market tables, the GUI, charts or the CLI", pkgs: []string{"planner/phases/..."},
		never: []string{"planner/scenariofile/...", "planner/validation/...", "planner/market/...", "app/...", "charts/...", "cli/...", ""}},
	{name: "the planner never imports planner/phases (it sits above the facade)", pkgs: []string{"planner"}, never: []string{"planner/phases/..."}},
	{name: "the engine never imports scenariofile (scenariofile imports the engine)", pkgs: []string{"planner"},
		never: []string{"planner/scenariofile/..."}},
	{name: "the engine does no file I/O (only scenariofile, cli and app read and write files)", pkgs: []string{"planner"},
		never: []string{"internal/safefile/...", "os"}},
	{name: "the engine never imports the GUI, charts, the CLI, Fyne or gonum/plot", pkgs: []string{"planner/..."},
		never: []string{"app/...", "charts/...", "cli/...", "", "fyne.io/...", "gonum.org/v1/plot/..."}},
	{name: "planner/explore imports only the planner and below", pkgs: []string{"planner/explore/..."},
		onlyOurs: []string{"planner", "planner/perf", "planner/serve", "planner/hall", "planner/pricedraw", "internal/textfmt", "internal/fielderr", "internal/workers"}},
	{name: "the planner never imports explore (explore imports the planner)", pkgs: []string{"planner"}, never: []string{"planner/explore/..."}},
	{name: "the view model imports only the planner, explore, perf (its types), textfmt and fielderr", pkgs: []string{"app/model/..."},
		onlyOurs: []string{"planner", "planner/explore", "planner/perf", "internal/textfmt", "internal/fielderr"}, never: []string{"fyne.io/..."}},
	{name: "charts never import the GUI or the CLI", pkgs: []string{"charts/..."},
		never: []string{"app/...", "cli/...", "", "fyne.io/..."}},
	{name: "the CLI never imports the GUI", pkgs: []string{"cli/..."}, never: []string{"app/...", "", "fyne.io/..."}},
	{name: "only cli and app read and write scenario files", pkgs: []string{"planner/scenariofile/..."},
		importers: []string{"app", "cli", "", "planner/scenariofile/..."}},
	{name: "only cli, app and scenariofile write user files", pkgs: []string{"internal/safefile/..."},
		importers: []string{"app", "cli", "", "planner/scenariofile/...", "internal/safefile/..."}},
}

// ours turns an import path of this module into its relative form
// ("fabricplan/planner" -> "planner", "fabricplan" -> ""); ok is false
// for other modules.
func ours(imp string) (rel string, ok bool) {
	if imp == module {
		return "", true
	}
	rel, ok = strings.CutPrefix(imp, module+"/")
	return rel, ok
}

// matches says whether pkg is pattern or, for "x/...", x or below it.
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

func matchesAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if matches(p, pkg) {
			return true
		}
	}
	return false
}

// importViolations checks graph (package relative to the module -> its
// non-test import paths, full) against rules, one line per broken rule
// and import, sorted.
func importViolations(graph map[string][]string, rules []importRule) []string {
	var out []string
	for _, r := range rules {
		for pkg, imps := range graph {
			for _, imp := range imps {
				rel, own := ours(imp)
				target := imp
				if own {
					target = rel
				}
				switch {
				case matchesAny(r.pkgs, pkg) && r.onlyOurs != nil && own && !matchesAny(r.onlyOurs, rel):
					out = append(out, r.name+": "+show(pkg)+" imports "+imp)
				case matchesAny(r.pkgs, pkg) && matchesAny(r.never, target):
					out = append(out, r.name+": "+show(pkg)+" imports "+imp)
				case r.importers != nil && own && matchesAny(r.pkgs, rel) && !matchesAny(r.importers, pkg):
					out = append(out, r.name+": "+show(pkg)+" imports "+imp)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func show(pkg string) string {
	if pkg == "" {
		return module + " (the root)"
	}
	return module + "/" + pkg
}

// walkModuleGo calls fn with every Go file of the module under root and
// its package directory relative to the module ("" for the root),
// whatever its build tags, skipping data, hidden folders and other
// modules (tools/).
func walkModuleGo(t *testing.T, root string, fn func(file, pkg string) error) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || fileExists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := path.Clean(filepath.ToSlash(rel))
		if pkg == "." {
			pkg = ""
		}
		return fn(p, pkg)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// moduleGraph reads the imports of every non-test Go file of the module
// under root, whatever its build tags, by package directory.
func moduleGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	fset := token.NewFileSet()
	walkModuleGo(t, root, func(p, pkg string) error {
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, is := range f.Imports {
			imp, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			if !slices.Contains(graph[pkg], imp) {
				graph[pkg] = append(graph[pkg], imp)
			}
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		return nil
	})
	return graph
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestImportsFlowOneWay checks the module's real import graph against
// DESIGN.md's layout: each broken rule is named with the import that
// breaks it. Mutations caught: planner importing scenariofile or
// safefile again, app/model importing Fyne or charts, charts importing
// app, a leaf package (textfmt, fielderr) importing the planner, the
// hall's geometry (planner/hall) importing the planner or the sizer, the
// side-network sizer (planner/sidenet), the failure model
// (planner/resilience) or the price draws (planner/pricedraw) importing
// the planner, the engine importing the
// validation points (planner/validation) or the market tables
// (planner/market), the market tables or the vendor quotes
// (planner/quotes) importing the planner, the planner importing
// planner/explore or explore importing anything above the planner.
func TestImportsFlowOneWay(t *testing.T) {
	graph := moduleGraph(t, "..")
	for _, want := range []string{"", "planner", "planner/hall", "planner/sidenet", "planner/resilience", "planner/pricedraw", "planner/quotes", "planner/market", "planner/validation", "planner/explore", "internal/datadoc", "internal/textfmt", "internal/fielderr", "app/model", "charts", "cli"} {
		if _, ok := graph[want]; !ok {
			t.Fatalf("package %s not found: the walk of the module is wrong", show(want))
		}
	}
	for _, v := range importViolations(graph, importRules) {
		t.Error(v)
	}
}

// The checker itself fires for each kind of rule. Mutations caught: an
// onlyOurs rule that ignores imports of ours, a never rule that ignores
// third-party paths, an importers rule never checked, a "/..." pattern
// that matches a sibling with the same prefix (planner/fabricx).
func TestImportRulesBite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		graph map[string][]string
		want  string // the start of a violation expected; "" for none
	}{
		{"clean", map[string][]string{"planner": {"fmt", "fabricplan/internal/textfmt"}, "planner/scenariofile": {"fabricplan/planner"}, "cli": {"fabricplan/planner/scenariofile"}}, ""},
		{"textfmt imports planner", map[string][]string{"internal/textfmt": {"strings", "fabricplan/planner"}}, "textfmt imports nothing of ours: fabricplan/internal/textfmt imports fabricplan/planner"},
		{"planner imports scenariofile", map[string][]string{"planner": {"fabricplan/planner/scenariofile"}}, "the engine never imports scenariofile"},
		{"planner opens files", map[string][]string{"planner": {"os"}}, "the engine does no file I/O"},
		{"a sub-engine package imports Fyne", map[string][]string{"planner/perf": {"fyne.io/fyne/v2"}}, "the engine never imports the GUI"},
		{"model imports charts", map[string][]string{"app/model": {"fabricplan/charts"}}, "the view model imports only"},
		{"model imports Fyne", map[string][]string{"app/model": {"fyne.io/fyne/v2/widget"}}, "the view model imports only"},
		{"charts import app", map[string][]string{"charts": {"fabricplan/app/model"}}, "charts never import the GUI"},
		{"charts load scenario files", map[string][]string{"charts": {"fabricplan/planner/scenariofile"}}, "only cli and app read and write scenario files"},
		{"a sibling with the prefix is not the subtree", map[string][]string{"planner/fabricx": {"fabricplan/app"}}, "the engine never imports the GUI"},
		{"planner/fabricx is not planner/fabric", map[string][]string{"planner/fabricx": {"fabricplan/internal/textfmt"}}, ""},
		{"the hall imports the planner", map[string][]string{"planner/hall": {"fabricplan/internal/fielderr", "fabricplan/planner"}}, "planner/hall imports only textfmt and fielderr of ours: fabricplan/planner/hall imports fabricplan/planner"},
		{"the price draws import the planner", map[string][]string{"planner/pricedraw": {"fabricplan/planner"}}, "planner/pricedraw imports only memo of ours"},
		{"the side-network sizer imports the planner", map[string][]string{"planner/sidenet": {"fabricplan/planner"}}, "planner/sidenet imports nothing of ours"},
		{"the failure model imports the planner", map[string][]string{"planner/resilience": {"fabricplan/planner/perf", "fabricplan/planner"}}, "planner/resilience never imports the planner facade: fabricplan/planner/resilience imports fabricplan/planner"},
		{"the quotes import the planner", map[string][]string{"planner/quotes": {"fabricplan/planner"}}, "planner/quotes imports only textfmt of ours"},
		{"the market tables import the planner", map[string][]string{"planner/market": {"fabricplan/internal/datadoc", "fabricplan/planner"}}, "planner/market imports only datadoc and builtdoc of ours"},
		{"the engine reads the market tables", map[string][]string{"planner": {"fabricplan/planner/market"}}, "the engine never reads the market tables"},
		{"the engine imports the validation points", map[string][]string{"planner": {"fabricplan/planner/validation"}}, "only cli and app run the validation points"},
		{"the validation points import charts", map[string][]string{"planner/validation": {"fabricplan/planner", "fabricplan/charts"}}, "planner/validation imports only"},
		{"the hall imports the fabric sizer", map[string][]string{"planner/hall": {"fabricplan/planner/fabric"}}, "planner/hall imports only"},
		{"the planner imports explore", map[string][]string{"planner": {"fabricplan/planner/explore"}}, "the planner never imports explore"},
		{"explore imports charts", map[string][]string{"planner/explore": {"fabricplan/planner", "fabricplan/charts"}}, "planner/explore imports only the planner and below"},
		{"explore imports scenariofile", map[string][]string{"planner/explore": {"fabricplan/planner/scenariofile"}}, "planner/explore imports only the planner and below"},
		{"the view model uses explore", map[string][]string{"app/model": {"fabricplan/planner", "fabricplan/planner/explore"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := importViolations(tc.graph, importRules)
			found := false
			for _, v := range got {
				found = found || strings.HasPrefix(v, tc.want)
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("violations %q, want none", got)
			case tc.want != "" && !found:
				t.Errorf("violations %q, want one starting %q", got, tc.want)
			}
		})
	}
}
