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
	// Hostile case H48 'quotes CSV with a column twice'. Caught: the
	// last copy of the column taken without a word.
	{"column twice", "q.csv", "part,unit_price,currency,vendor,date,valid_until,part\nqm9700,30000,USD,A,2026-10-01,2026-12-31,x\n", `line 1: column "part" appears twice (columns 1 and 7)`},
	// Hostile case H48 'TOML quote with a bare date'. Caught: the
	// decoder's "incompatible types: TOML value has type time.Time;
	// destination has type string" passed on raw.
	{"toml bare date", "q.toml", "[[quote]]\npart = \"qm9700\"\nunit_price = 30000.0\ncurrency = \"USD\"\nvendor = \"Acme\"\ndate = 2026-10-01\nvalid_until = \"2026-12-31\"\n", `line 6: date is a bare TOML date; write it as text in double quotes`},
	{"toml price in quotes", "q.toml", "[[quote]]\npart = \"qm9700\"\nunit_price = \"30000\"\ncurrency = \"USD\"\nvendor = \"Acme\"\ndate = \"2026-10-01\"\nvalid_until = \"2026-12-31\"\n", `line 3: unit_price must be a number`},
	{"price text", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,cheap,USD,A,2026-01-01,2026-02-01\n", `line 2: unit_price "cheap" is not a number`},
	{"negative price", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,-5,USD,A,2026-01-01,2026-02-01\n", "line 2: unit_price -5"},
	{"no vendor", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,,2026-01-01,2026-02-01\n", "line 2: vendor: empty"},
	{"bad date", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,A,1/2/2026,2026-02-01\n", `line 2: date "1/2/2026"`},
	{"ends before it starts", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,A,2026-03-01,2026-02-01\n", "before the quote's date"},
	{"foreign without rate", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,EUR,A,2026-01-01,2026-02-01\n", "usd_per: EUR needs"},
	{"bad currency", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,euro,A,2026-01-01,2026-02-01\n", `currency "EURO"`},
	{"toml unknown key", "q.toml", "[[quote]]\npart = \"qm9700\"\nprice = 5\n", `unknown key "quote.price"`},
	{"toml syntax", "q.toml", "[[quote]\n", "q.toml: line 2: expected end of table array"},
	{"rate 1e-300 (a $30k switch at $0)", "q.csv", "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,30000,EUR,A,2026-01-01,2026-02-01,1e-300\n", "line 2: usd_per 1e-300: give the US dollars per EUR it was converted at, from 1e-08 to 100"},
	{"rate just under the floor", "q.csv", "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,30000,IRR,A,2026-01-01,2026-02-01,9e-9\n", "usd_per 9e-09"},
	{"rate above the cap", "q.csv", "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,30000,KWD,A,2026-01-01,2026-02-01,101\n", "usd_per 101"},
	{"rate infinite", "q.csv", "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,30000,EUR,A,2026-01-01,2026-02-01,Inf\n", "usd_per +Inf"},
	{"price under a cent", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,0.001,USD,A,2026-01-01,2026-02-01\n", "unit_price 0.001 USD is $0.001: give a price of at least $0.01"},
	{"price a cent in a weak currency", "q.csv", "part,unit_price,currency,vendor,date,valid_until,usd_per\nqm9700,100,IRR,A,2026-01-01,2026-02-01,1e-6\n", "unit_price 100 IRR is $0.0001"},
	{"price NaN", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,NaN,USD,A,2026-01-01,2026-02-01\n", "unit_price NaN"},
	{"not a calendar day", "q.csv", "part,unit_price,currency,vendor,date,valid_until\nqm9700,5,USD,A,2026-02-30,2026-03-01\n", `date "2026-02-30"`},
	{"UTF-16LE with BOM", "q.csv", "\xff\xfe" + utf16le("part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme,2026-10-01,2026-12-31\n"), ""},
	{"UTF-16LE without BOM", "q.csv", utf16le("part,unit_price,currency,vendor,date,valid_until\nqm9700,30000,USD,Acme,2026-10-01,2026-12-31\n"), ""},
	{"UTF-16 lone surrogate", "q.csv", "\xff\xfe" + utf16le("part") + "\x00\xd8", "q.csv: the file is UTF-16LE text with a broken character"},
	{"toml UTF-8 BOM", "q.toml", "\ufeff[[quote]]\npart = \"qm9700\"\nunit_price = 30000.0\ncurrency = \"USD\"\nvendor = \"Acme\"\ndate = \"2026-10-01\"\nvalid_until = \"2026-12-31\"\n", ""},
	{"toml second bad", "q.toml", "[[quote]]\npart = \"a\"\nunit_price = 1.0\nvendor = \"A\"\ndate = \"2026-01-01\"\nvalid_until = \"2026-01-02\"\n[[quote]]\npart = \"b\"\nunit_price = 1.0\ndate = \"2026-01-01\"\nvalid_until = \"2026-01-02\"\n", "q.toml line 7: vendor"},
}

// utf16le is ASCII text s in UTF-16LE: each byte followed by a NUL.
func utf16le(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte(s[i])
		b.WriteByte(0)
	}
	return b.String()
}

// TestParseCapsErrors gives 100,000 bad rows (issue #48: 10 MB of
// errors). By hand: 50 listed, then "and 99950 more". Mutations caught:
// every error listed, the count left out or off by the listed ones.
func TestParseCapsErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("part,unit_price,currency,vendor,date,valid_until\n")
	for range 100_000 {
		b.WriteString("qm9700,-1,USD,A,2026-01-01,2026-02-01\n")
	}
	_, err := Parse("q.csv", []byte(b.String()), maxUSD)
	if err == nil {
		t.Fatal("accepted 100,000 bad rows")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 51 || !strings.Contains(lines[49], "line 51:") ||
		lines[50] != "q.csv: and 99950 more bad quotes not listed; fix the ones above first" {
		t.Errorf("%d lines, ending %q", len(lines), lines[len(lines)-2:])
	}
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

// checkAccepted asserts what every accepted quote holds, restated from
// the floors' reasons rather than from check: a finite US dollar price
// from a cent to maxUSD, a rate (other currencies) from 1e-8 to 100,
// real calendar days in order, a part and a vendor.
func checkAccepted(t *testing.T, q Quote) {
	t.Helper()
	usd := q.USD()
	if math.IsNaN(usd) || math.IsInf(usd, 0) || usd < 0.01 || usd > maxUSD {
		t.Errorf("accepted a price of $%g: %+v", usd, q)
	}
	if q.Currency != "USD" && !(q.USDPer >= 1e-8 && q.USDPer <= 100) {
		t.Errorf("accepted a rate of %g: %+v", q.USDPer, q)
	}
	from, ferr := time.Parse("2006-01-02", q.Date)
	until, uerr := time.Parse("2006-01-02", q.ValidUntil)
	if ferr != nil || uerr != nil || until.Before(from) {
		t.Errorf("accepted dates %q to %q", q.Date, q.ValidUntil)
	}
	if q.Vendor == "" || q.Part == "" {
		t.Errorf("accepted a quote without a part or vendor: %+v", q)
	}
}

// FuzzParse: any document either parses into quotes whose figures are
// finite and within their floors and caps (checkAccepted), or fails with
// at most maxListed errors and a count; nothing panics.
func FuzzParse(f *testing.F) {
	for _, tc := range quoteCases {
		f.Add(tc.file, tc.doc)
	}
	f.Fuzz(func(t *testing.T, name, doc string) {
		qs, err := Parse(name, []byte(doc), maxUSD)
		if err != nil {
			if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) > maxListed+1 {
				t.Errorf("%d errors listed, want at most %d and a count", len(j.Unwrap()), maxListed+1)
			}
			return
		}
		for _, q := range qs {
			checkAccepted(t, q)
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
