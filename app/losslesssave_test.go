package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commented is a scenario as a user writes it: comments before, beside
// and between tables, a TODO, 1_024, an inline table, no defaults.
const commented = `# Pod B, second hall
# owner: net team

schema = 1 # format

[cluster]
gpus = 1_024 # TODO: grow to 2,048
gpus_per_server = 8

# the fabric
[network]
fabric = "infiniband"
media = { server_leaf = "aoc" } # end-of-row leaves
`

// TestSaveEditsTheFileInPlace: Save of an untouched file writes it back
// byte for byte; after an edit in the window only that value's text
// changes, and a Save As carries the comments to the new file. Mutation
// caught: Save re-encoding the scenario (issue 26: comments dropped,
// 1_024 rewritten, defaults and an empty table written).
func TestSaveEditsTheFileInPlace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pod-b.toml")
	if err := os.WriteFile(path, []byte(commented), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newTestUI(t)
	if err := u.OpenPath(path); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != commented {
		t.Fatalf("untouched save changed the file:\n%s", got)
	}
	pick(u, "network.planes", "2")
	if err := u.SavePath(path); err != nil {
		t.Fatal(err)
	}
	want := commented + "planes = 2\n" // after its last sibling in [network]
	if got, _ := os.ReadFile(path); string(got) != want {
		t.Fatalf("after an edit:\n%s\nwant:\n%s", got, want)
	}
	typeIn(u, "cluster.gpus", "2048")
	other := filepath.Join(dir, "pod-c.toml")
	if err := u.SavePath(other); err != nil {
		t.Fatal(err)
	}
	want = strings.Replace(want, "gpus = 1_024 #", "gpus = 2048 #", 1)
	if got, _ := os.ReadFile(other); string(got) != want {
		t.Fatalf("save as:\n%s\nwant:\n%s", got, want)
	}
}
