package scenariofile

import (
	"fabricplan/planner"
	"fabricplan/planner/perf"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileLayout is a scenario written every way TOML allows: comments
// everywhere, a TODO, blank lines, 1_024 and 5e1 spellings, an inline
// table, quoted and dotted keys, a multi-line string, CRLF-free
// indentation, tables in an unusual order and an empty table.
const hostileLayout = `# Pod A plan: quote from vendor X, 2026-10
#
# owner: net team

schema = 1 # the format
name = """
Pod A"""

# --- compute ---
[cluster] # the GPUs
  gpus = 1_024        # TODO: 2,048 next year
  "gpus_per_server" = 8

[workload]
model = 'llama3-70b'
tp = 8
# pp comes from the preset
global_batch_tokens = 16_777_216

[network]
fabric = "infiniband"
media = { server_leaf = "aoc", leaf_spine_m = 5e1 } # inline
oversubscription = "1:1"

[prices]

# trailing comment
`

// TestEditScenarioKeepsTheText: saving with no edit gives the file back
// byte for byte; an edit changes only its value's text; a new key goes
// after its siblings or into its table; a removed key leaves with its
// line; a table the file lacks is created at the end. Mutations caught:
// Save re-encoding the whole file (issue 26: 6 of 8 comments dropped,
// 1_024 rewritten as 1024, defaults and an empty table added), unchanged
// values rewritten, a new key put at the end of the file outside its
// table, an inline table's member edited outside the braces.
func TestEditScenarioKeepsTheText(t *testing.T) {
	cat := testCatalog(t)
	old, err := Check([]byte(hostileLayout), cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(s *planner.Scenario)
		from string // the text that changes ("" none)
		to   string
	}{
		{name: "no edit"},
		{name: "gpus", edit: func(s *planner.Scenario) { s.Cluster.GPUs = 2048 },
			from: "  gpus = 1_024        # TODO", to: "  gpus = 2048        # TODO"},
		{name: "inline member", edit: func(s *planner.Scenario) { s.Network.Media.ServerLeaf = planner.DAC },
			from: `server_leaf = "aoc"`, to: `server_leaf = "dac"`},
		{name: "new inline member", edit: func(s *planner.Scenario) { s.Network.Media.SpineCore = planner.Optics },
			from: `leaf_spine_m = 5e1 }`, to: `leaf_spine_m = 5e1, spine_core = "transceiver" }`},
		{name: "new key after its sibling", edit: func(s *planner.Scenario) { s.Network.Planes = 2 },
			from: "oversubscription = \"1:1\"\n", to: "oversubscription = \"1:1\"\nplanes = 2\n"},
		{name: "new key in its table", edit: func(s *planner.Scenario) { s.Workload.PP = 8 },
			from: "global_batch_tokens = 16_777_216\n", to: "global_batch_tokens = 16_777_216\npp = 8\n"},
		{name: "into an empty table", edit: func(s *planner.Scenario) { s.Prices = map[string]float64{"qm9700": 25000} },
			from: "[prices]\n", to: "[prices]\nqm9700 = 25000.0\n"},
		{name: "removed key leaves with its line", edit: func(s *planner.Scenario) { s.Name = "" },
			from: "name = \"\"\"\nPod A\"\"\"\n", to: ""},
		{name: "new table at the end", edit: func(s *planner.Scenario) {
			r := 4.0
			s.Reliability = &planner.ReliabilityInputs{RepairHours: &r}
		}, from: "# trailing comment\n", to: "# trailing comment\n\n[reliability]\nrepair_hours = 4.0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := old.Clone()
			if tc.edit != nil {
				tc.edit(&s)
			}
			got, err := Edit([]byte(hostileLayout), old, s)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(hostileLayout, tc.from, tc.to, 1)
			if tc.from != "" && !strings.Contains(hostileLayout, tc.from) {
				t.Fatalf("test text %q not in the layout", tc.from)
			}
			if string(got) != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
			back, err := Check(got, cat)
			if err != nil || !back.Equal(s.WithSystem(cat)) {
				t.Fatalf("reads back as %+v (%v), want %+v", back, err, s)
			}
		})
	}
}

// TestEditScenarioExamples: every example scenario saved untouched is
// byte for byte the same, and after an edit of every input the file
// reads back as the edited scenario with its comments kept. Mutation
// caught: a layout of the examples the editor mishandles (a value
// written in the wrong table, a comment lost).
func TestEditScenarioExamples(t *testing.T) {
	cat := testCatalog(t)
	paths, _ := filepath.Glob("../../data/scenarios/*.toml")
	paths = append(paths, "../../data/default.toml")
	if len(paths) < 4 {
		t.Fatalf("examples: %v", paths)
	}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			old, err := Check(src, cat)
			if err != nil {
				t.Fatal(err)
			}
			same, err := Edit(src, old, old)
			if err != nil || string(same) != string(src) {
				t.Fatalf("untouched save changed the file (%v):\n%s", err, same)
			}
			s := old.Clone()
			s.Cluster.GPUs += 8
			s.Network.Oversubscription = "2:1"
			s.Name = "edited"
			if s.Workload == nil {
				w := perf.NewWorkload()
				s.Workload = &w
			}
			s.Workload.TP = 4
			got, err := Edit(src, old, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "#") && !strings.Contains(string(got), line) {
					t.Errorf("comment lost: %q", line)
				}
			}
			back, err := Decode(got)
			if err != nil || back.Cluster.GPUs != s.Cluster.GPUs || back.Name != "edited" || back.Workload.TP != 4 || back.Network.Oversubscription != "2:1" {
				t.Errorf("reads back as %+v (%v)", back, err)
			}
		})
	}
}

// editSeeds are layouts the editor must handle: the hostile one, CRLF
// line ends, dotted keys at the top, a table defined by dotted keys,
// quoted keys, literal and multi-line strings holding # and =, an
// escaped quote, no newline at the end.
var editSeeds = []string{
	hostileLayout,
	"schema = 1\r\n[cluster]\r\ngpus = 64\r\n",
	"schema = 1\ncluster.gpus = 64\nnetwork.fabric = \"ethernet\"\n",
	"schema = 1\n[network]\nmedia.server_leaf = \"dac\"\n",
	"\"schema\" = 1\n[\"cluster\"]\n'gpus' = 64",
	"schema = 1\nname = '''a # b = c\n[not a table]'''\n[cluster]\ngpus = 64 # x = 1\n",
	"schema = 1\nname = \"a \\\" # [x]\"\n",
	"# only a comment\nschema = 1",
}

// FuzzEditScenario edits fuzzed documents: the output always parses and
// decodes to the edited scenario, and an untouched save is byte for byte
// the input. Mutations caught: the scanner misreading a string or comment
// as a key (a value replaced in the wrong place), a new key put outside
// its table, an edit that is not checked before it is returned.
func FuzzEditScenario(f *testing.F) {
	for _, s := range editSeeds {
		f.Add([]byte(s), int64(2048), "edited", int64(2), 12.5)
	}
	f.Fuzz(func(t *testing.T, src []byte, gpus int64, name string, planes int64, price float64) {
		old, err := Decode(src)
		if err != nil {
			return
		}
		if same, err := Edit(src, old, old); err == nil && string(same) != string(src) {
			t.Fatalf("untouched save changed the text:\n%q\n%q", src, same)
		}
		s := old.Clone()
		s.Cluster.GPUs, s.Name, s.Network.Planes = int(gpus), name, int(planes)
		if !math.IsNaN(price) { // a NaN price never equals itself
			s.Prices = map[string]float64{"qm9700": price}
		}
		out, err := Edit(src, old, s)
		if err != nil {
			return // not edited: the caller writes the whole scenario
		}
		back, err := Decode(out)
		if err != nil || !back.Equal(s) {
			t.Fatalf("edit of\n%q\ngave\n%q\nwhich reads back as %+v (%v), want %+v", src, out, back, err, s)
		}
	})
}

// TestEditSeedsEdit: every seed layout is edited in place, not written
// afresh. Mutation caught: the scanner refusing a layout (CRLF, quoted
// keys, a string holding # or =), which makes Save drop its comments.
func TestEditSeedsEdit(t *testing.T) {
	for _, src := range editSeeds {
		old, err := Decode([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		s := old.Clone()
		s.Cluster.GPUs, s.Network.Planes = 2048, 2
		out, err := Edit([]byte(src), old, s)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if c := strings.Index(src, "#"); c >= 0 && !strings.Contains(string(out), src[c:c+5]) {
			t.Errorf("%q: comment lost:\n%s", src, out)
		}
	}
}
