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
