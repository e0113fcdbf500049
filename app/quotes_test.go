package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fabricplan/app/model"
)

// Loading vendor quotes in the window prices the plan at them: 48 QM9700
// at the quoted $30,000 = $1,440,000 of switches; the BOM marks the line
// quoted, or quote EXPIRED against the window's clock; Undo restores the
// catalog price; a file that does not parse is reported and changes
// nothing. The price basis choice moves only the optics. Mutations
// caught: a quote read on the wrong clock, a load that is not undoable,
// a bad file that half-applies.
func TestQuotesInTheWindow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "quotes.csv")
	if err := os.WriteFile(path, []byte("part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme,2026-10-01,2026-12-31\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		day, mark string
	}{{"2026-11-23", "quoted"}, {"2027-02-01", "quote EXPIRED"}} {
		day, _ := time.Parse("2006-01-02", tc.day)
		u := newTestUIWith(t, Options{Ephemeral: true, Now: func() time.Time { return day }})
		before := u.Plan().Cost.Switches
		var loadErr error
		u.LoadQuotes(path, func(err error) { loadErr = err })
		u.WaitIdle()
		if loadErr != nil || u.Plan().Cost.Switches != 1_440_000 {
			t.Fatalf("%s: switches %v after the quote (%v)", tc.day, u.Plan().Cost.Switches, loadErr)
		}
		found := false
		for r, l := range u.summary.rows {
			if l.Key == "qm9700" {
				found = true
				if cell := u.summary.bomCell(r, 3); !strings.HasSuffix(cell, tc.mark) || !strings.Contains(u.summary.bomCell(r, 6), "Acme, 2026-10-01") {
					t.Errorf("%s: BOM cells %q, %q", tc.day, cell, u.summary.bomCell(r, 6))
				}
			}
		}
		if !found || !strings.Contains(u.inputs.prices.quotes.Text, "1 quote from quotes.csv") {
			t.Errorf("%s: quotes label %q", tc.day, u.inputs.prices.quotes.Text)
		}
		u.Undo()
		u.WaitIdle()
		if u.Plan().Cost.Switches != before || u.Scenario().Quotes != nil {
			t.Errorf("%s: undo left switches at %v", tc.day, u.Plan().Cost.Switches)
		}
	}
	day, _ := time.Parse("2006-01-02", "2026-11-23")
	u := newTestUIWith(t, Options{Ephemeral: true, Now: func() time.Time { return day }})
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("part,unit_price\n"), 0o644)
	var loadErr error
	cost := u.Plan().Cost.Total
	u.LoadQuotes(bad, func(err error) { loadErr = err })
	u.WaitIdle()
	if loadErr == nil || u.Plan().Cost.Total != cost || u.Scenario().Quotes != nil {
		t.Errorf("bad quotes file: error %v, cost %v (was %v)", loadErr, u.Plan().Cost.Total, cost)
	}
	// The basis choice: list raises only the transceivers, by half.
	street := u.Plan().Cost
	pick(u, "pricing.basis", model.BasisList)
	got := u.Plan().Cost
	if got.Basis != "list" || got.Switches != street.Switches || got.NICs != street.NICs || got.Transceivers != 1.5*street.Transceivers {
		t.Errorf("list basis: %+v from %+v", got, street)
	}
}
