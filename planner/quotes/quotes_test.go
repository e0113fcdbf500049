package quotes

import (
	"math"
	"strings"
	"testing"
	"time"
)

// maxUSD is the planner's bound on any one price (planner.MaxPriceUSD).
const maxUSD = 100e6

// quoteCases are the parser's table and the fuzz target's seeds: each
// document and the text its error must contain ("" for none).
var quoteCases = []struct {
	name, file, doc, err string
}{
	{"csv", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme,2026-10-01,2026-12-31\n", ""},
	{"csv columns any order, BOM, comment", "q.csv", "\ufeffvendor,part,valid_until,date,currency,unit_price\n# a comment\nAcme,qm9700,2026-12-31,2026-10-01,usd,$30000\n", ""},
	{"toml", "q.toml", "[[quote]]\npart = \"qm9700\"\nunit_price = 30000.0\ncurrency = \"USD\"\nvendor = \"Acme\"\ndate = \"2026-10-01\"\nvalid_until = \"2026-12-31\"\n", ""},
	{"no rows", "q.csv", "part,unit_price,currency,vendor,date,valid_until\n", "no quotes"},
	{"empty", "q.csv", "", "empty file"},
	{"missing column", "q.csv", "part,unit_price,currency,vendor,date\nqm9700,1,USD,A,2026-01-01\n", `no "valid_until" column`},
	{"unknown column", "q.csv", "part,price\n", `unknown column "price"`},
	{"price text", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,cheap,USD,A,2026-01-01,2026-02-01\n", `line 2: unit_price "cheap" is not a number`},
	{"negative price", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,-5,USD,A,2026-01-01,2026-02-01\n", "line 2: unit_price -5"},
	{"no vendor", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,,2026-01-01,2026-02-01\n", "line 2: vendor: empty"},
	{"bad date", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,A,1/2/2026,2026-02-01\n", `line 2: date "1/2/2026"`},
	{"ends before it starts", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,A,2026-03-01,2026-02-01\n", "before the quote's date"},
	{"foreign without rate", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,EUR,A,2026-01-01,2026-02-01\n", "usd_per: EUR needs"},
	{"bad currency", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,euro,A,2026-01-01,2026-02-01\n", `currency "EURO"`},
	{"toml unknown key", "q.toml", "[[quote]]\npart = \"qm9700\"\nprice = 5\n", `unknown key "quote.price"`},
	{"toml syntax", "q.toml", "[[quote]\n", "q.toml: line 2: expected end of table array"},
	{"toml second bad", "q.toml", "[[quote]]\npart = \"a\"\nunit_price = 1.0\nvendor = \"A\"\ndate = \"2026-01-01\"\nvalid_until = \"2026-01-02\"\n[[quote]]\npart = \"b\"\nunit_price = 1.0\ndate = \"2026-01-01\"\nvalid_until = \"2026-01-02\"\n", "q.toml line 7: vendor"},
}

// The parser accepts good files and names the line and field of every
// bad one. Mutations caught: a missing check, or an error without its
// line.
func TestParse(t *testing.T) {
	for _, tc := range quoteCases {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := Parse(tc.file, []byte(tc.doc), maxUSD)
			if tc.err == "" {
				if err != nil || len(qs) != 1 || qs[0].Part != "qm9700" || qs[0].USD() != 30000 || qs[0].Vendor != "Acme" {
					t.Errorf("got %+v, %v", qs, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("got %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

// FuzzParse: any document either parses into quotes that pass
// their own checks or fails with an error; nothing panics.
func FuzzParse(f *testing.F) {
	for _, tc := range quoteCases {
		f.Add(tc.file, tc.doc)
	}
	f.Fuzz(func(t *testing.T, name, doc string) {
		qs, err := Parse(name, []byte(doc), maxUSD)
		if err != nil {
			return
		}
		for _, q := range qs {
			if !(q.USD() > 0) || q.Vendor == "" || q.Part == "" {
				t.Errorf("accepted a bad quote %+v", q)
			}
		}
	})
}

// The quote in force is the cheapest unexpired one, else the cheapest
// expired one; a price in another currency counts at its rate. By hand
// for qm9700 on 2026-10-01: Acme $30,000 and Cole 28,000 EUR x 1.1 =
// $30,800 hold, Bell's $25,000 ended on 2026-06-30, so Acme's; on
// 2027-06-01 all have ended and Bell's is the cheapest. Mutations
// caught: an expired quote preferred for its price, the rate ignored
// (Cole's 28,000 beating Acme's 30,000), the last valid day counted as
// expired, a nil set or an unknown part answered.
func TestFor(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse(dateLayout, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	qs := []Quote{
		{Part: "qm9700", UnitPrice: 30000, Currency: "USD", Vendor: "Acme", Date: "2026-01-01", ValidUntil: "2026-12-31"},
		{Part: "qm9700", UnitPrice: 25000, Currency: "USD", Vendor: "Bell", Date: "2026-01-01", ValidUntil: "2026-06-30"},
		{Part: "qm9700", UnitPrice: 28000, Currency: "EUR", USDPer: 1.1, Vendor: "Cole", Date: "2026-01-01", ValidUntil: "2027-01-31"},
		{Part: "sn5600", UnitPrice: 1, Currency: "USD", Vendor: "Dale", Date: "2026-01-01", ValidUntil: "2027-01-31"},
	}
	for _, tc := range []struct {
		today, part, vendor string // vendor "" for no quote
		words               string
	}{
		{"2026-10-01", "qm9700", "Acme", "quote: Acme, 2026-01-01, valid until 2026-12-31"},
		{"2026-12-31", "qm9700", "Acme", "quote: Acme, 2026-01-01, valid until 2026-12-31"},
		{"2027-06-01", "qm9700", "Bell", "quote: Bell, 2026-01-01, valid until 2026-06-30 (EXPIRED)"},
		{"2026-10-01", "osfp-400x2", "", ""},
	} {
		set := &Set{Quotes: qs, Today: day(tc.today)}
		q := set.For(tc.part)
		switch {
		case tc.vendor == "" && q != nil:
			t.Errorf("%s on %s: %s's quote, want none", tc.part, tc.today, q.Vendor)
		case tc.vendor != "" && (q == nil || q.Vendor != tc.vendor || q.Words(set.Today) != tc.words):
			t.Errorf("%s on %s: %+v, want %s's (%q)", tc.part, tc.today, q, tc.vendor, tc.words)
		}
	}
	if got := qs[2].USD(); math.Abs(got-30800) > 1e-6 {
		t.Errorf("28,000 EUR at 1.1: $%g, want $30,800", got)
	}
	if qs[1].Expired(time.Time{}) {
		t.Error("expired with no clock")
	}
	var none *Set
	if none.For("qm9700") != nil {
		t.Error("a nil set answered")
	}
}
