package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A scenario's pricing.quotes file is read relative to the scenario, its
// quoted lines are marked in the BOM with vendor and date, and a quote
// past its date (against the injected clock) is flagged; --price-basis
// reaches cost_usd.basis. Mutations caught: a path read relative to the
// working directory, an expiry check against the real clock, a basis
// flag that is ignored.
func TestPlanWithQuotes(t *testing.T) {
	dir := t.TempDir()
	quotes := "part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme Networks,2026-10-01,2026-12-31\n"
	if err := os.WriteFile(filepath.Join(dir, "quotes.csv"), []byte(quotes), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "s.toml")
	doc := "schema = 1\n[cluster]\ngpus = 1024\ngpus_per_server = 8\n[network]\nfabric = \"infiniband\"\nnic_gbps = 400\nswitch = \"qm9700\"\n[pricing]\nquotes = \"quotes.csv\"\n"
	if err := os.WriteFile(scen, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(f func() time.Time) { today = f }(today)
	for _, tc := range []struct {
		day, mark string
		expired   bool
	}{
		{"2026-11-23", "q qm9700: quote: Acme Networks, 2026-10-01", false},
		{"2027-01-05", "! qm9700: quote: Acme Networks, 2026-10-01, valid until 2026-12-31 (EXPIRED)", true},
	} {
		day, _ := time.Parse("2006-01-02", tc.day)
		today = func() time.Time { return day }
		out, errOut, code := runArgs(t, "plan", scen)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.day, code, errOut)
		}
		// 48 switches at the quoted $30,000 = $1.44M.
		if !strings.Contains(out, tc.mark) || !strings.Contains(out, "switches $1.44M") {
			t.Errorf("%s: output lacks %q or the quoted switch cost:\n%s", tc.day, tc.mark, out)
		}
		if strings.Contains(out, "expired on 2026-12-31") != tc.expired {
			t.Errorf("%s: expiry note wrong", tc.day)
		}
	}
	out, _, code := runArgs(t, "plan", scen, "--json", "--price-basis", "list")
	var m struct {
		Cost struct {
			Basis string `json:"basis"`
		} `json:"cost_usd"`
		BOM []struct {
			Key   string `json:"key"`
			Quote *struct {
				Vendor  string `json:"vendor"`
				Expired bool   `json:"expired"`
			} `json:"quote"`
		} `json:"bom"`
	}
	if err := json.Unmarshal([]byte(out), &m); code != 0 || err != nil || m.Cost.Basis != "list" {
		t.Fatalf("exit %d, %v, basis %q", code, err, m.Cost.Basis)
	}
	for _, l := range m.BOM {
		if (l.Key == "qm9700") != (l.Quote != nil && l.Quote.Vendor == "Acme Networks") {
			t.Errorf("%s: quote %+v", l.Key, l.Quote)
		}
	}
	// A quote for a part the catalog lacks is an error naming it.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("part,unit_price,currency,vendor,date,valid_until\nqm9999,1,USD,A,2026-01-01,2026-02-01\n"), 0o644)
	_, errOut, code := runArgs(t, "plan", "--quotes", bad)
	if code != ExitUsage || !strings.Contains(errOut, `"qm9999"`) {
		t.Errorf("unknown part: exit %d, %s", code, errOut)
	}
	_, errOut, code = runArgs(t, "plan", "--quotes", filepath.Join(dir, "none.csv"))
	if code == 0 || !strings.Contains(errOut, "--quotes") {
		t.Errorf("missing quotes file: exit %d, %s", code, errOut)
	}
}

// compare says how sure each cost difference is, in text, CSV and JSON:
// the same scenario twice is a tie at exactly 0.5; QM9700 InfiniBand
// against SN5600 RoCE at 1,024 GPUs has disjoint switch ranges ($1.68M-
// 2.4M against $2.88M-6.0M, research/prices.md) and the rest shared, so
// RoCE is dearer in every draw (P 0). Mutations caught: the probability
// left out of one format, measured against the wrong scenario.
func TestCompareProbability(t *testing.T) {
	dir := t.TempDir()
	ib := filepath.Join(dir, "ib.toml")
	eth := filepath.Join(dir, "eth.toml")
	base := "schema = 1\n[cluster]\ngpus = 1024\ngpus_per_server = 8\n[network]\nnic_gbps = 400\n"
	os.WriteFile(ib, []byte(base+"fabric = \"infiniband\"\nswitch = \"qm9700\"\n"), 0o644)
	os.WriteFile(eth, []byte(base+"fabric = \"ethernet\"\nswitch = \"sn5600\"\n"), 0o644)
	out, errOut, code := runArgs(t, "compare", ib, eth, ib, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []struct {
		P       *float64 `json:"prob_cheaper_than_first"`
		Verdict string   `json:"cost_vs_first"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("%v: %s", err, out)
	}
	for i, want := range []struct {
		p       float64
		verdict string
	}{{0.5, "first"}, {0, "dearer"}, {0.5, "tie"}} {
		if rows[i].P == nil || *rows[i].P != want.p || rows[i].Verdict != want.verdict {
			t.Errorf("row %d: %v %q, want %v %q", i, rows[i].P, rows[i].Verdict, want.p, want.verdict)
		}
	}
	out, _, _ = runArgs(t, "compare", ib, eth, "--csv")
	if !strings.Contains(out, "prob_cheaper_than_first,cost_vs_first,error") || !strings.Contains(out, ",0.0000,dearer,") {
		t.Errorf("csv:\n%s", out)
	}
	out, _, _ = runArgs(t, "compare", ib, eth)
	if !strings.Contains(out, "dearer (P 0.00)") || !strings.Contains(out, "a tie: the difference is inside") {
		t.Errorf("text:\n%s", out)
	}
}

// search JSON gives each design's probability of costing less than the
// pick, and the text marks ties. Mutation caught: the fields missing.
func TestSearchProbability(t *testing.T) {
	out, errOut, code := runArgs(t, "search", "--gpus", "2048", "--target-days", "40", "--json", "--all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Pick    *struct{ Label string } `json:"pick"`
		Designs []map[string]any        `json:"designs"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Pick == nil || len(res.Designs) == 0 {
		t.Fatalf("%v: %.300s", err, out)
	}
	for _, d := range res.Designs {
		p, ok := d["prob_cheaper_than_pick"].(float64)
		v, _ := d["cost_vs_pick"].(string)
		if !ok || p < 0 || p > 1 || (v != "tie" && v != "cheaper" && v != "dearer") {
			t.Errorf("design %v: p %v verdict %q", d["label"], d["prob_cheaper_than_pick"], v)
		}
		if d["label"] == res.Pick.Label && (p != 0.5 || v != "tie") {
			t.Errorf("the pick against itself: %v %q", p, v)
		}
	}
	out, _, _ = runArgs(t, "search", "--gpus", "2048", "--target-days", "40")
	if !strings.Contains(out, "VS PICK") || !strings.Contains(out, "(P ") {
		t.Errorf("text:\n%s", out)
	}
}
