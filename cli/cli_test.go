package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runArgs(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestPlanJSONKeys(t *testing.T) {
	out, errOut, code := runArgs(t, "plan", "--json", "--gpus", "4096")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"":             {"gpus", "servers", "tiers", "planes", "nic_ports"},
		"switches":     {"leaf", "spine", "core", "total"},
		"switch_ports": {"used", "installed"},
		"links":        {"server_leaf", "leaf_spine", "spine_core", "total"},
		"transceivers": {"server", "switch", "total"},
		"cost_usd":     {"nics", "switches", "transceivers", "cables", "total", "per_gpu", "basis"},
		"power_w":      {"nics", "switches", "transceivers", "total"},
		"jct":          {"step_s", "baseline_step_s", "gain", "busbw_gbs"},
		"per_su":       {"nodes", "gpus", "full_nodes", "units", "partial", "rows"},
		"layout":       {"unit_servers", "unit_gpus", "leaf_alignment"},
	}
	for obj, keys := range want {
		sub := m
		if obj != "" {
			var ok bool
			if sub, ok = m[obj].(map[string]any); !ok {
				t.Fatalf("no object %q", obj)
			}
		}
		for _, k := range keys {
			if _, ok := sub[k]; !ok {
				t.Errorf("%s lacks %q", obj, k)
			}
		}
	}
	if m["gpus"].(float64) != 4096 {
		t.Errorf("gpus = %v", m["gpus"])
	}
	// The built ratio per tier (1:1 asked: 1 at the leaf and the spine)
	// and the cheaper designs (an array, empty or not).
	over, _ := m["oversubscription"].([]any)
	if len(over) == 0 || over[0].(map[string]any)["tier"] != "leaf" || over[0].(map[string]any)["ratio"].(float64) != 1 {
		t.Errorf("oversubscription = %v", m["oversubscription"])
	}
	if _, ok := m["cheaper"].([]any); !ok {
		t.Errorf("cheaper = %v", m["cheaper"])
	}
}

func TestPlanText(t *testing.T) {
	out, _, code := runArgs(t, "plan", "../data/scenarios/eth-800g-16k.toml", "--planes", "4")
	if code != 0 {
		t.Fatal(code)
	}
	for _, want := range []string{"16,384 GPUs", "sn5600", "BILL OF MATERIALS", "JCT gain", "4 planes",
		"PER SCALABLE UNIT", "One SU: ", "ONE SU", "leaf-spine, "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("schema = 1\n[cluster]\ngpus = 0\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--gpus", "abc"}, "--gpus"},
		{[]string{"plan", "--gpus", "0"}, "--gpus"},
		{[]string{"plan", "--fabric", "token-ring"}, "--fabric"},
		{[]string{"plan", "--switch", "sn5600", "--fabric", "infiniband"}, "--switch"}, // alone, --switch sn5600 takes its Ethernet fabric
		{[]string{"plan", bad}, "cluster.gpus (line 3)"},
		{[]string{"plan", filepath.Join(dir, "missing.toml")}, "open scenario"},
		{[]string{"plan", "--gpus", "2000000", "--switch", "qm9700"}, "three tiers"},
		{[]string{"plan", "--oversubscription", "x"}, "--oversubscription"},
		{[]string{"sweep", "--gpus", "9:1"}, "--gpus"},
		{[]string{"jct", "--sweep", "weather"}, "--sweep"},
		{[]string{"compare", "a.toml"}, "two or more"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"plan", "--no-such-flag"}, "no-such-flag"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errOut, code := runArgs(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (%s)", code, errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q lacks %q", errOut, tc.want)
			}
		})
	}
}

func TestSweepCSV(t *testing.T) {
	out, errOut, code := runArgs(t, "sweep", "--gpus", "256:131072", "--csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 11 || recs[0][1] != "gpus" || recs[1][1] != "256" || recs[10][1] != "131072" {
		t.Fatalf("unexpected CSV:\n%s", out)
	}
	// 131,072 GPUs on 400G QM9700 is past three tiers: the row says so in
	// its error column (then memory, and how the row is priced: these
	// sizes fit the sweep's budget, so each is laid out in the hall as
	// its plan is; an error row is not priced).
	n := len(recs[0])
	if recs[0][n-3] != "error" || recs[10][n-3] == "" {
		t.Errorf("last row has no error: %v", recs[10])
	}
	if recs[0][n-1] != "priced" || recs[1][n-1] != "hall" || recs[10][n-1] != "" {
		t.Errorf("priced column: header %q, first %q, last %q; want priced, hall and empty", recs[0][n-1], recs[1][n-1], recs[10][n-1])
	}
}

func TestCompareAndJCT(t *testing.T) {
	out, errOut, code := runArgs(t, "compare", "../data/scenarios/ib-ndr-1k.toml", "../data/scenarios/eth-800g-16k.toml")
	if code != 0 || !strings.Contains(out, "Gain vs first") {
		t.Fatalf("compare: %d %s\n%s", code, errOut, out)
	}
	for _, kind := range []string{"gpus", "nic", "fabric"} {
		out, errOut, code := runArgs(t, "jct", "--sweep", kind, "--json")
		if code != 0 {
			t.Fatalf("jct %s: %s", kind, errOut)
		}
		var rows []sweepRow
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) < 2 {
			t.Fatalf("jct %s: %v %s", kind, err, out)
		}
	}
}

// jct --sweep fabric and nic compare each design's cost with the first
// one's, as compare does: every row after the first has a probability
// and a verdict, the first reads "first", and RoCE adaptive and RoCE
// ECMP (one set of hardware, different load balancing) get the same
// probability from the shared draws. A sweep of sizes leaves it out (a
// larger cluster costs more), in the text too. Mutations caught: jct
// never filling the comparison ("–" in every "Cost vs first" cell, the
// old code); the text printing that row of dashes for a sweep of sizes.
func TestJCTSweepCostVsFirst(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		filled bool
	}{
		{[]string{"jct", "../data/scenarios/eth-800g-16k.toml", "--sweep", "fabric"}, true},
		{[]string{"jct", "../data/scenarios/rail-only-512.toml", "--sweep", "fabric"}, true},
		{[]string{"jct", "--gpus", "1000", "--sweep", "nic"}, true},
		{[]string{"jct", "--sweep", "gpus", "--sizes", "512,1000"}, false},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			out, errOut, code := runArgs(t, append(tc.args, "--json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var rows []sweepRow
			if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) < 2 {
				t.Fatalf("%v: %s", err, out)
			}
			for i, r := range rows {
				switch {
				case !tc.filled && (r.ProbCheaperThanFirst != nil || r.CostVsFirst != ""):
					t.Errorf("row %d (%s): sizes compared on cost: %q", i, r.Label, r.CostVsFirst)
				case tc.filled && r.Error == "" && r.ProbCheaperThanFirst == nil:
					t.Errorf("row %d (%s): no cost comparison", i, r.Label)
				case tc.filled && i == 0 && r.CostVsFirst != "first":
					t.Errorf("row 0: %q, want first", r.CostVsFirst)
				case tc.filled && i > 0 && r.Error == "" && !strings.Contains("cheaper dearer tie", r.CostVsFirst):
					t.Errorf("row %d (%s): verdict %q", i, r.Label, r.CostVsFirst)
				}
			}
			if tc.args[len(tc.args)-1] == "fabric" && rows[1].Label == "RoCE adaptive" && rows[2].Label == "RoCE ECMP" &&
				*rows[1].ProbCheaperThanFirst != *rows[2].ProbCheaperThanFirst {
				t.Errorf("one set of hardware, two probabilities: %v and %v", *rows[1].ProbCheaperThanFirst, *rows[2].ProbCheaperThanFirst)
			}
			unplanned := 0 // a column that does not plan shows "–" throughout
			for _, r := range rows {
				if r.Error != "" {
					unplanned++
				}
			}
			text, _, _ := runArgs(t, tc.args...)
			for _, l := range strings.Split(text, "\n") {
				row := strings.HasPrefix(strings.TrimSpace(l), "Cost vs first ")
				if row && tc.filled && strings.Count(l, "–") != unplanned {
					t.Errorf("a cell of a planned column is empty: %s", l)
				}
				if row && !tc.filled {
					t.Errorf("a sweep of sizes prints a row of empty cost comparisons: %s", l)
				}
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	out, _, code := runArgs(t, "catalog")
	if code != 0 {
		t.Fatal(code)
	}
	for _, k := range []string{"qm9700", "q3400", "sn5600", "tomahawk5", "tomahawk6", "cx7-400", "cx8-800", "bf3-400", "SOURCES", "estimate",
		"CONDITION", "GRADE", "single-source", "two-source", "tool default", "from EUR 89-149", "PRICE BASIS"} {
		if !strings.Contains(out, k) {
			t.Errorf("catalog lacks %q", k)
		}
	}
}

// catalog --json keys are snake_case like plan --json, never Go field
// names. Mutation caught: a part struct without json tags (PriceUSD).
func TestCatalogJSONKeys(t *testing.T) {
	out, _, code := runArgs(t, "catalog", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var doc struct {
		Switches map[string]map[string]any `json:"switches"`
		Cables   map[string]map[string]any `json:"cables"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	qm := doc.Switches["qm9700"]
	for _, k := range []string{"price_usd", "price_range_usd", "price_condition", "price_grade", "price_date", "source"} {
		if _, ok := qm[k]; !ok {
			t.Errorf("qm9700 lacks %q: %v", k, qm)
		}
	}
	if fx, ok := doc.Cables["dac"]["price_fx"].(map[string]any); !ok || fx["currency"] != "EUR" {
		t.Errorf("dac price_fx: %v", doc.Cables["dac"]["price_fx"])
	}
	for _, part := range []map[string]any{qm, doc.Cables["dac"]} {
		for k := range part {
			if k != strings.ToLower(k) {
				t.Errorf("key %q is not snake_case", k)
			}
		}
	}
}

// catalog --json gives every priced part its price basis and its
// source's date, the parts published 2020-on designs used among them:
// each part's basis as its condition makes it (the QM8700 and the AMD
// platforms are priced by a stated rule on street prices; the AOC is a
// vendor list price), and a date as YYYY-MM or "undated". Mutations
// caught: the basis left out of the JSON (no tag, or never filled), a
// list price shown on the street basis, a new part missing.
func TestCatalogJSONBasis(t *testing.T) {
	out, _, code := runArgs(t, "catalog", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	doc := map[string]map[string]map[string]any{}
	for _, kind := range []string{"systems", "switches", "nics", "transceivers", "cables"} {
		var parts map[string]map[string]any
		if err := json.Unmarshal(raw[kind], &parts); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		doc[kind] = parts
		for k, p := range parts {
			if b := p["price_basis"]; b != "street" && b != "list" {
				t.Errorf("%s %s: price_basis %v", kind, k, b)
			}
			if d, _ := p["price_date"].(string); d != "undated" && (len(d) < 7 || d[4] != '-') {
				t.Errorf("%s %s: price_date %q", kind, k, d)
			}
		}
	}
	for _, tc := range []struct{ kind, key, basis, date string }{
		{"switches", "qm8700", "street", "2024-08"},
		{"switches", "tomahawk4", "street", "2025-10"},
		{"switches", "sn5400", "street", "2025-10"},
		{"switches", "tomahawk5", "street", "2025-10"},     // Sesterce V5 calculator, 2025-10-05
		{"switches", "tomahawk6", "street", "2025-10"},     // its rule scales that figure
		{"switches", "arista-7700r4", "street", "2025-10"}, // Jericho3-AI DES: its rule scales the 51.2T figure
		{"nics", "cx6-200", "street", "2026-09"},
		{"systems", "mi300x", "street", "2024-03"},
		{"systems", "mi355x", "street", "2024-12"},
		{"cables", "aoc", "list", "2023-11"},
	} {
		p, ok := doc[tc.kind][tc.key]
		if !ok {
			t.Errorf("%s %s missing", tc.kind, tc.key)
			continue
		}
		if p["price_basis"] != tc.basis || p["price_date"] != tc.date {
			t.Errorf("%s %s: basis %v, date %v; want %s, %s", tc.kind, tc.key, p["price_basis"], p["price_date"], tc.basis, tc.date)
		}
	}
}

func FuzzPlanFlags(f *testing.F) {
	for _, s := range []string{"--gpus 1024", "--gpus abc", "--planes 3 --nic-gbps 800", "--fabric ethernet --switch qm9700",
		"--oversubscription 2:1 --tiers 3", "--ports-per-nic 0", "x.toml --gpus 8", "--gpus=-5", "--tiers 9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"plan", "--json"}, strings.Fields(line)...)
		var out, errOut bytes.Buffer
		code := Run(args, &out, &errOut)
		switch code {
		case 0:
			if out.Len() == 0 && strings.Contains(errOut.String(), "Usage") {
				return // -h or -help
			}
			if !json.Valid(out.Bytes()) {
				t.Fatalf("%q: invalid JSON", line)
			}
		case 1, 2:
			if errOut.Len() == 0 {
				t.Fatalf("%q: exit %d without a message", line, code)
			}
		default:
			t.Fatalf("%q: exit %d", line, code)
		}
	})
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{"png", "svg", "pdf"} {
		out := filepath.Join(dir, "cost."+ext)
		_, errOut, code := runArgs(t, "export", "--chart", "cost", "--out", out, "--width", "800", "--height", "500")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", ext, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil || len(b) < 1000 {
			t.Fatalf("%s: %d bytes, %v", ext, len(b), err)
		}
		magic := map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"}[ext]
		if !strings.HasPrefix(string(b), magic) {
			t.Errorf("%s: starts %q", ext, b[:8])
		}
	}
	// --scale 2: twice the pixels (800x500 asked, 1600x1000 written).
	// Mutation caught: the flag parsed but not applied.
	sharp := filepath.Join(dir, "cost.2x.png")
	if _, errOut, code := runArgs(t, "export", "--chart", "cost", "--out", sharp, "--width", "800", "--height", "500", "--scale", "2"); code != 0 {
		t.Fatalf("--scale 2: exit %d: %s", code, errOut)
	}
	f, err := os.Open(sharp)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != 1600 || cfg.Height != 1000 {
		t.Errorf("--scale 2: %dx%d (%v), want 1600x1000", cfg.Width, cfg.Height, err)
	}
	out, _, code := runArgs(t, "export", "--list")
	if code != 0 || !strings.Contains(out, "market") || !strings.Contains(out, "sensitivity") {
		t.Errorf("--list: %d %q", code, out)
	}
	bad := []struct {
		args []string
		want string
	}{
		{[]string{"export", "--chart", "pie", "--out", filepath.Join(dir, "x.png")}, "unknown chart"},
		{[]string{"export", "--chart", "cost", "--out", filepath.Join(dir, "x.jpg")}, ".jpg"},
		{[]string{"export", "--chart", "cost", "--out", filepath.Join(dir, "no", "such", "dir", "x.png")}, "no such file"},
		{[]string{"export", "--chart", "cost", "--out", filepath.Join(dir, "x.png"), "--width", "10"}, "too small"},
		{[]string{"export", "--chart", "jct", "--out", filepath.Join(dir, "j.png"), "--gpus", "8"}, "JCT"},
		{[]string{"report", "--out", filepath.Join(dir, "r.png")}, ".pdf"},
		{[]string{"export", "--chart", "cost", "--out", filepath.Join(dir, "x.png"), "--scale", "0"}, "--scale 0"},
	}
	for _, tc := range bad {
		_, errOut, code := runArgs(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "cost.") {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

func TestReportCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.pdf")
	_, errOut, code := runArgs(t, "report", "--out", out, "../data/scenarios/eth-800g-16k.toml")
	if code != 0 {
		t.Fatal(errOut)
	}
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "%PDF") {
		t.Error("not a PDF")
	}
}

// --budget reads money as the app prints it. Mutation caught: a budget
// parser of its own that rejects "4.6M", the way every cost is printed.
func TestBudgetAsPrinted(t *testing.T) {
	for in, want := range map[string]float64{"4.6M": 4.6e6, "$4.6M": 4.6e6, "5e6": 5e6, "$300,000": 3e5} {
		opt, err := searchOptions(0, "", in)
		if err != nil || opt.BudgetUSD != want {
			t.Errorf("--budget %s: %v, %v; want %v", in, opt.BudgetUSD, err, want)
		}
	}
	if _, err := searchOptions(0, "", "0"); err == nil {
		t.Error("a zero budget accepted")
	}
}

// The resilience command prints the failure cases in every format: CSV
// with one row per case (a 1,024-GPU two-tier plan: GPU, server, NIC,
// server-leaf link, leaf, spine, leaf-spine link = 7), JSON that parses
// with the goodput, and text with the interruption rate. Mutations
// caught: a case dropped from one format, an infinite step time breaking
// the JSON, --csv and --json accepted together.
func TestResilienceCommand(t *testing.T) {
	out, errOut, code := runArgs(t, "resilience", "--csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 1+7 || recs[0][0] != "component" {
		t.Fatalf("CSV (%v):\n%s", err, out)
	}
	out, _, code = runArgs(t, "resilience", "--json", "--planes", "2")
	var r struct {
		Cases   []map[string]any `json:"cases"`
		Goodput struct {
			InterruptionsPerDay float64 `json:"interruptions_per_day"`
		} `json:"goodput"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || len(r.Cases) < 7 || r.Goodput.InterruptionsPerDay <= 0 {
		t.Fatalf("JSON (exit %d, %v):\n%s", code, err, out)
	}
	out, _, code = runArgs(t, "resilience")
	if code != 0 || !strings.Contains(out, "Interruptions: ") || !strings.Contains(out, "leaf switch") || !strings.Contains(out, "Goodput (ETTR)") ||
		!strings.Contains(out, "No spares: a failed switch or optic stays down 24.0 hours") {
		t.Errorf("text (exit %d):\n%s", code, out)
	}
	if _, errOut, code := runArgs(t, "resilience", "--csv", "--json"); code != 2 || !strings.Contains(errOut, "not both") {
		t.Errorf("--csv --json: exit %d, %s", code, errOut)
	}
	// plan --json carries the same block.
	out, _, _ = runArgs(t, "plan", "--json")
	if !strings.Contains(out, `"resilience"`) || !strings.Contains(out, `"ettr"`) {
		t.Error("plan --json lacks the resilience block")
	}
}

// cables writes one row per link in each format, to standard output or
// safely to --out, and asks for exactly one format. Mutations caught: a
// format flag ignored, two formats accepted, --out half-written.
func TestCablesCommand(t *testing.T) {
	out, errOut, code := runArgs(t, "cables", "--csv", "--gpus", "1000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	// 1,000 GPUs in 125 servers of 8 rails: 1,000 server links. Units
	// of 32 servers: 24 full leaves send 32 links up; the 8 leaves of
	// the 29-server unit send the 29 their servers need at 1:1 (never
	// padded to 32): 24 x 32 + 8 x 29 = 1,000 leaf-spine links.
	if err != nil || len(recs) != 1+1000+1000 || recs[0][0] != "a_device" {
		t.Fatalf("CSV: %d records (%v)", len(recs), err)
	}
	out, _, code = runArgs(t, "cables", "--topo", "--gpus", "64")
	if code != 0 || !strings.Contains(out, "p1-su1-leaf\n") || strings.Count(out, " -> ") != 64 {
		t.Errorf("topo (exit %d):\n%s", code, out)
	}
	path := filepath.Join(t.TempDir(), "cables.json")
	if _, errOut, code := runArgs(t, "cables", "--json", "--gpus", "64", "--out", path); code != 0 || !strings.Contains(errOut, "64 links") {
		t.Fatalf("--out: exit %d, %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	var links []any
	if err != nil || json.Unmarshal(b, &links) != nil || len(links) != 64 {
		t.Errorf("--out file: %d links (%v)", len(links), err)
	}
	for _, args := range [][]string{{"cables"}, {"cables", "--csv", "--json"}} {
		if _, errOut, code := runArgs(t, args...); code != 2 || !strings.Contains(errOut, "one of --csv, --json or --topo") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// A job that does not fit in memory still plans its fabric: exit 0, the
// switches and cost printed, the finding with the cheapest fix and its
// step time in text and JSON. Mutations caught: exit 2 on a memory
// finding (the old refusal), the fix or its step left out of the JSON.
func TestPlanMemoryFinding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.toml")
	src := "schema = 1\n[cluster]\ngpus = 1024\n[workload]\nmodel = \"llama3-70b\"\ngpu = \"h100\"\nglobal_batch_tokens = 16777216\nmicro_batch = 4\ntp = 8\npp = 4\nvpp = 5\nep = 1\nzero = true\nrecompute = false\ntokens_total = 1e12\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArgs(t, "plan", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Switches", "COST", "does not fit", "Step with micro_batch = 2", "as entered, if it fit in memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	out, errOut, code = runArgs(t, "plan", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Switches struct{ Total int }
		JCT      struct {
			Memory    struct{ Status string }
			MemoryFix *struct {
				Change string
				StepS  float64 `json:"step_s"`
			} `json:"memory_fix"`
			Findings []string
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.Switches.Total == 0 || m.JCT.Memory.Status != "does not fit" || m.JCT.MemoryFix == nil ||
		m.JCT.MemoryFix.Change != "micro_batch = 2" || m.JCT.MemoryFix.StepS <= 0 || len(m.JCT.Findings) == 0 {
		t.Errorf("JSON: %+v", m)
	}
}

// validate prints every published point with its source, class and
// ratchet verdict, accuracy by class, and the published runs with
// accuracy by split and kind; it exits 0 on the shipped model, and 1
// when the model is made worse: with the H100's GEMM ceiling (gpus.h100
// efficiency_max) scaled by 0.9, H100 points and runs grow past their
// records. --update-ratchet writes the checked-in file unchanged on the
// shipped model (the file is current) and refuses on the worse one.
// Mutations caught: validate always exiting 0, the classes or the
// held-out split left out of the JSON, an update that records a worse
// model.
func TestValidateCommand(t *testing.T) {
	out, errOut, code := runArgs(t, "validate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"GPT 1.7B", "Llama 3 405B", "DeepSeek-V3", "MT-NLG 530B", "All-reduce busbw", "DeepEP", "yes: efficiency.infiniband", "SOURCES", "gap:",
		"ACCURACY BY CLASS", "independent", "heldout moe", "not modelled: ", "every error held or fell"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate lacks %q", want)
		}
	}
	out, _, code = runArgs(t, "validate", "--json")
	var rep validationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.Points) < 25 || len(rep.Runs) < 30 {
		t.Fatalf("JSON: %v, exit %d, %d points, %d runs", err, code, len(rep.Points), len(rep.Runs))
	}
	groups := map[string]bool{}
	for _, a := range append(rep.PointAccuracy, rep.RunAccuracy...) {
		groups[a.Group] = a.Count > 0
	}
	for _, g := range []string{"fitted", "neighbour", "independent", "dev dense", "dev moe", "heldout dense", "heldout moe"} {
		if !groups[g] {
			t.Errorf("JSON accuracy lacks %q: %v", g, groups)
		}
	}
	if out, _, _ := runArgs(t, "validate", "--markdown"); !strings.HasPrefix(out, "| Published point |") {
		t.Errorf("markdown: %.60q", out)
	}
	path := filepath.Join(t.TempDir(), "ratchet.toml")
	if _, errOut, code := runArgs(t, "validate", "--update-ratchet", path); code != 0 {
		t.Fatalf("update: exit %d: %s", code, errOut)
	}
	got, err1 := os.ReadFile(path)
	shipped, err2 := os.ReadFile("../data/validation-ratchet.toml")
	if err1 != nil || err2 != nil || !bytes.Equal(got, shipped) {
		t.Errorf("the shipped model's ratchet differs from data/validation-ratchet.toml (%v, %v): rerun validate --update-ratchet", err1, err2)
	}
	cat, market, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	jd := *cat.JCT
	jd.GPUs = maps.Clone(jd.GPUs)
	h100 := *jd.GPUs["h100"]
	h100.EfficiencyMax *= 0.9
	jd.GPUs["h100"] = &h100
	cat.JCT = &jd
	var o, e bytes.Buffer
	err = runValidate(&cliEnv{stdout: &o, stderr: &e, cat: cat, market: market}, nil)
	if code := report(&e, "validate", err); code != ExitFailure || !strings.Contains(o.String(), ": WORSE, now ") {
		t.Errorf("worse model: exit %d, %v", code, err)
	}
	o.Reset()
	err = runValidate(&cliEnv{stdout: &o, stderr: &e, cat: cat, market: market}, []string{"--update-ratchet", path})
	if err == nil || !strings.Contains(err.Error(), "only moves down") {
		t.Errorf("update on a worse model: %v", err)
	}
}

// At 100,000 GPUs the default job runs one micro-batch per pipeline: the
// text labels the step with the bubble's share and prints the finding
// with its fix; JSON carries it in jct.findings. Mutation caught: the
// finding only in one of the two outputs.
func TestPlanShortPipelineFinding(t *testing.T) {
	out, errOut, code := runArgs(t, "plan", "../data/scenarios/ib-xdr-100k.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "Step, RDMA (bubble") || !strings.Contains(out, "pipeline short of micro-batches") {
		t.Errorf("text lacks the short-pipeline finding")
	}
	out, _, _ = runArgs(t, "plan", "--json", "../data/scenarios/ib-xdr-100k.toml")
	var m struct {
		JCT struct{ Findings []string }
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.JCT.Findings) == 0 || !strings.Contains(m.JCT.Findings[0], "global_batch_tokens") {
		t.Errorf("JSON findings %v (%v)", m.JCT.Findings, err)
	}
}

// docs/jct-validation.md carries the table `fabricplan validate
// --markdown` prints, so the page says where the model stands today.
// Mutation caught: a model or data change that leaves the page behind
// (regenerate it with `fabricplan validate --markdown`).
func TestValidationDocInSync(t *testing.T) {
	out, _, code := runArgs(t, "validate", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	doc, err := os.ReadFile("../docs/jct-validation.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), out) {
		t.Error("docs/jct-validation.md does not hold the current `fabricplan validate --markdown` table")
	}
}

// A sweep keeps planning the fabric where the job does not fit in memory:
// each such row has its switches and cost, no step time, and the memory
// finding; the count of skipped sizes stays. Mutation caught: the fabric
// blanked on a memory finding (as the error used to).
func TestSweepMemoryKeepsFabric(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.toml")
	src := "schema = 1\n[workload]\nmodel = \"llama3-70b\"\ngpu = \"h100\"\nglobal_batch_tokens = 16777216\nmicro_batch = 4\ntp = 8\npp = 4\nvpp = 5\nep = 1\nzero = true\nrecompute = false\ntokens_total = 1e12\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArgs(t, "sweep", path, "--gpus", "512,1024", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []sweepRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	for _, r := range rows {
		if r.Switches == 0 || r.CostUSD <= 0 || r.StepS != 0 || !strings.Contains(r.Memory, "does not fit") || r.Error != "" {
			t.Errorf("%d GPUs: %+v", r.GPUs, r)
		}
	}
	if !strings.Contains(errOut, "2 of 2 sizes skipped") {
		t.Errorf("stderr %q", errOut)
	}
}
