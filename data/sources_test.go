package data

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// mdRef is a Markdown file named in a source, with its section if any:
// "docs/networks.md §1a", "research/prices.md §3", "facility.md".
// A file after a repository's name ("phoenix-dataplane/mCCS
// docs/setup.md") is that project's.
var mdRef = regexp.MustCompile(`((?:[\w-]+/[\w.-]+ )?)([\w./-]*\.md)(?: §(\d+[a-z]?))?`)

// Every string in data/*.toml that names a Markdown file names one the
// product ships (docs/...), and a section of it that exists, so a user
// can follow every source; other sources name the public document.
// Mutations caught: a source citing "research/prices.md §3" or
// "(networks.md 3)", files only the developers have (the old catalog's
// 180 such strings); a "docs/networks.md §9" with no section 9.
func TestSourcesPointToShippedDocs(t *testing.T) {
	files, err := fs.Glob(FS, "*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no data files: %v", err)
	}
	checked := 0
	for _, name := range files {
		var doc map[string]any
		if _, err := toml.DecodeFS(FS, name, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		walkStrings(doc, name, func(at, s string) {
			for _, m := range mdRef.FindAllStringSubmatch(s, -1) {
				checked++
				repo, file, section := m[1], m[2], m[3]
				if repo != "" || file == "PERFORMANCE.md" {
					continue // a public project's file, named with its project
				}
				if !strings.HasPrefix(file, "docs/") {
					t.Errorf("%s: %s cites %q, which the product does not ship: %q", name, at, file, s)
					continue
				}
				text, err := os.ReadFile(filepath.Join("..", file))
				if err != nil {
					t.Errorf("%s: %s cites %s: %v", name, at, file, err)
					continue
				}
				if section != "" && !hasSection(string(text), section) {
					t.Errorf("%s: %s cites %s §%s, which has no such section", name, at, file, section)
				}
			}
		})
	}
	if checked == 0 {
		t.Error("no source names a document: the test no longer reaches the catalog's citations")
	}
}

// hasSection says whether Markdown text has a heading numbered section:
// "## 3. Front-end ..." for "3", "### 1a. DGX H100" for "1a".
func hasSection(text, section string) bool {
	for _, l := range strings.Split(text, "\n") {
		if h := strings.TrimLeft(l, "#"); h != l && strings.HasPrefix(strings.TrimSpace(h), section+".") {
			return true
		}
	}
	return false
}

// walkStrings calls f with every string in v and the key path it is at.
func walkStrings(v any, at string, f func(at, s string)) {
	switch x := v.(type) {
	case string:
		f(at, x)
	case map[string]any:
		for k, e := range x {
			walkStrings(e, at+"."+k, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, at, f)
		}
	case []map[string]any:
		for _, e := range x {
			walkStrings(e, at, f)
		}
	}
}
