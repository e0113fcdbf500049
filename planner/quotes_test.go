package planner

import (
	"strings"
	"testing"
	"time"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/quotes"
)

// The price basis changes only the parts the catalog marks list_premium
// (third-party optics): on the default 1,024-GPU NDR plan the list basis
// multiplies each transceiver by the premium 1.5 (data/prices.toml, from
// LuxOptx's 30-50%): osfp-400x1 $1,124 -> $1,686, osfp-400x2 $1,119 ->
// $1,678.50; NICs, switches and fibre keep their price. Mutations caught:
// a premium on every part, on none, or on the range only.
// At the flat per-tier lengths (flatLengths): the parts named are the flat plan's single-mode modules.
func TestPriceBasisChangesOnlyNamedParts(t *testing.T) {
	cat := testCatalog(t)
	street, err := Build(flatIB(1024), cat)
	if err != nil {
		t.Fatal(err)
	}
	s := flatIB(1024)
	s.Pricing.Basis = BasisList
	list, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if street.Cost.Basis != BasisStreet || list.Cost.Basis != BasisList {
		t.Errorf("basis %q and %q, want street and list", street.Cost.Basis, list.Cost.Basis)
	}
	hand := map[string]float64{"osfp-400x1": 1686, "osfp-400x2": 1678.5}
	if len(street.BOM) != len(list.BOM) {
		t.Fatalf("BOMs differ in length: %d, %d", len(street.BOM), len(list.BOM))
	}
	for i, a := range street.BOM {
		b := list.BOM[i]
		want, named := hand[a.Key]
		switch {
		case named && !near(b.UnitUSD, want):
			t.Errorf("%s on list: $%.2f, want $%.2f", a.Key, b.UnitUSD, want)
		case named && !b.Premium:
			t.Errorf("%s on list: not marked as carrying the premium", a.Key)
		case !named && (b.UnitUSD != a.UnitUSD || b.Premium):
			t.Errorf("%s (%s): $%.2f on street, $%.2f on list; only list_premium parts change", a.Key, a.Category, a.UnitUSD, b.UnitUSD)
		}
	}
	if d := list.Cost.Total - street.Cost.Total; !near(d, 0.5*street.Cost.Transceivers) {
		t.Errorf("list - street = %.0f, want half the transceivers %.0f", d, 0.5*street.Cost.Transceivers)
	}
	s.Pricing.Basis = "wholesale"
	if _, err := Build(s, cat); !namesField(err, "pricing.basis") {
		t.Errorf("unknown basis: %v", err)
	}
}

// A quote overrides the catalog price and the BOM says whose quote it is
// and when; a quote past its date is still used but flagged, with a note.
// Hand check: 48 QM9700 at the quoted $30,000 = $1,440,000. A EUR quote
// converts at its own rate: EUR 1,000 x 1.10 = $1,100. Mutations caught:
// a quote that does not replace the price, a BOM line without the
// vendor, an expiry compared the wrong way round, a currency left
// unconverted.
// At the flat per-tier lengths (flatLengths): the quoted parts are the flat plan's single-mode modules.
func TestQuotesOverrideAndExpire(t *testing.T) {
	cat := testCatalog(t)
	qs, err := quotes.Parse("q.csv", []byte("part,unit_price,currency,vendor,date,valid_until,usd_per\n"+
		"qm9700,30000,USD,Acme Networks,2026-10-01,2026-12-31,\n"+
		"osfp-400x2,\"1,000\",EUR,Optics GmbH,2026-11-01,2026-11-30,1.10\n"), MaxPriceUSD)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		today        string
		expired      []string // parts flagged
		notesMention string
	}{
		{"2026-11-23", nil, ""},
		{"2026-11-30", nil, ""}, // the last valid day still holds
		{"2026-12-01", []string{"osfp-400x2"}, "Optics GmbH expired on 2026-11-30"},
		{"2027-01-01", []string{"qm9700", "osfp-400x2"}, "Acme Networks expired on 2026-12-31"},
	} {
		t.Run(tc.today, func(t *testing.T) {
			today, _ := time.Parse(dateLayout, tc.today)
			s := flatIB(1024)
			s.Quotes = &Quotes{Path: "q.csv", Quotes: qs, Today: today}
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Cost.Switches != 1_440_000 {
				t.Errorf("switches %s, want 48 x $30,000 = $1,440,000", textfmt.USDExact(p.Cost.Switches))
			}
			flagged := map[string]bool{}
			for _, l := range p.BOM {
				switch l.Key {
				case "qm9700":
					if l.Quote == nil || !strings.Contains(l.Source, "Acme Networks, 2026-10-01") || l.UnitLowUSD != 30000 {
						t.Errorf("qm9700 line: source %q, range %v-%v", l.Source, l.UnitLowUSD, l.UnitHighUSD)
					}
				case "osfp-400x2":
					if !near(l.UnitUSD, 1100) || !strings.Contains(l.Source, "Optics GmbH, 2026-11-01") {
						t.Errorf("osfp-400x2 line: $%.2f from %q, want $1,100 from Optics GmbH", l.UnitUSD, l.Source)
					}
				case "cx7-400":
					if l.Quote != nil {
						t.Error("an unquoted part is marked quoted")
					}
				}
				if l.QuoteExpired {
					flagged[l.Key] = true
					if !strings.Contains(l.Source, "EXPIRED") {
						t.Errorf("%s: expired but its source says %q", l.Key, l.Source)
					}
				}
			}
			if len(flagged) != len(tc.expired) {
				t.Errorf("flagged %v, want %v", flagged, tc.expired)
			}
			for _, k := range tc.expired {
				if !flagged[k] {
					t.Errorf("%s not flagged expired", k)
				}
			}
			if tc.notesMention != "" && !strings.Contains(strings.Join(p.Notes, "\n"), tc.notesMention) {
				t.Errorf("notes %q lack %q", p.Notes, tc.notesMention)
			}
		})
	}
	// A quote is what the buyer pays: the list basis leaves it alone.
	s := flatIB(1024)
	s.Pricing.Basis = BasisList
	s.Quotes = &Quotes{Path: "q.csv", Quotes: qs}
	p, _ := Build(s, cat)
	for _, l := range p.BOM {
		if l.Key == "osfp-400x2" && (!near(l.UnitUSD, 1100) || l.Premium) {
			t.Errorf("list basis moved a quoted price to $%.2f", l.UnitUSD)
		}
	}
}

// A quote for a part the catalog does not know is an error naming the
// part and where it sits. Mutation caught: unknown quotes dropped.
func TestQuoteForUnknownPart(t *testing.T) {
	cat := testCatalog(t)
	qs, err := quotes.Parse("q.toml", []byte("[[quote]]\npart = \"qm9800\"\nunit_price = 1\ncurrency = \"USD\"\nvendor = \"X\"\ndate = \"2026-01-01\"\nvalid_until = \"2026-02-01\"\n"), MaxPriceUSD)
	if err != nil {
		t.Fatal(err)
	}
	s := ibScenario(64)
	s.Quotes = &Quotes{Path: "q.toml", Quotes: qs}
	_, err = Build(s, cat)
	if !namesField(err, "pricing.quotes") || !strings.Contains(err.Error(), `"qm9800"`) || !strings.Contains(err.Error(), "q.toml line 1") {
		t.Errorf("got %v, want pricing.quotes naming qm9800 at q.toml line 1", err)
	}
	// A quotes file named but never read is said, not silently dropped.
	s = ibScenario(64)
	s.Pricing.Quotes = "missing.csv"
	if p, err := Build(s, cat); err != nil || !strings.Contains(strings.Join(p.Notes, "\n"), `"missing.csv" was not read`) {
		t.Errorf("a quotes file never read: %v", err)
	}
}
