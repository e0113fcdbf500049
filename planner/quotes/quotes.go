package quotes

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"fabricplan/internal/textfmt"
)

// Quote is one vendor's price for one catalog part: a firm unit price, in
// its currency, from its date until it expires.
type Quote struct {
	Part       string  `toml:"part" json:"part"`
	UnitPrice  float64 `toml:"unit_price" json:"unit_price"`
	Currency   string  `toml:"currency" json:"currency"`
	USDPer     float64 `toml:"usd_per" json:"usd_per,omitempty"` // US dollars per unit of Currency; 1 for USD
	Vendor     string  `toml:"vendor" json:"vendor"`
	Date       string  `toml:"date" json:"date"`               // YYYY-MM-DD the quote was given
	ValidUntil string  `toml:"valid_until" json:"valid_until"` // YYYY-MM-DD, the last day it holds
	Line       int     `toml:"-" json:"-"`                     // where it sits in its file
}

// USD is the quote's unit price in US dollars.
func (q *Quote) USD() float64 {
	if q.USDPer > 0 {
		return q.UnitPrice * q.USDPer
	}
	return q.UnitPrice
}

// Expired reports whether the quote's validity ended before today.
func (q *Quote) Expired(today time.Time) bool {
	return !today.IsZero() && today.Format(dateLayout) > q.ValidUntil
}

// Words names the quote for a BOM line: "quote: Acme, 2026-10-01, valid
// until 2026-12-31" (with "EXPIRED" when it has).
func (q *Quote) Words(today time.Time) string {
	s := fmt.Sprintf("quote: %s, %s, valid until %s", q.Vendor, q.Date, q.ValidUntil)
	if q.Expired(today) {
		s += " (EXPIRED)"
	}
	return s
}

const dateLayout = "2006-01-02"

// The floors and caps of a quote's figures: outside them a figure is a
// typo or a wrong rate, never a price (issue #48: usd_per = 1e-300
// priced a $30k switch at $0).
const (
	// minUSDPer is the fewest US dollars per unit of a currency accepted
	// as a rate: 1e-8, a hundred times below the weakest currency in use
	// (the Iranian rial traded near 1,000,000 to the US dollar in 2025,
	// 1e-6 US dollars per rial; xe.com, 2025-11).
	minUSDPer = 1e-8
	// maxUSDPer is the most: 100, some thirty times the strongest
	// currency in use (the Kuwaiti dinar, about 3.3 US dollars in 2025;
	// xe.com, 2025-11).
	maxUSDPer = 100.0
	// minUSD is the lowest unit price in US dollars: one cent, the
	// smallest amount a price list carries. The cheapest part a plan
	// buys, a DAC cable, lists at tens of dollars (data/catalog.toml).
	minUSD = 0.01
)

// maxListed is how many bad quotes Parse names; the rest are counted, so
// a file of 100,000 bad rows gets a readable answer (the scenario's own
// cap, fielderr.MaxListed, is the same).
const maxListed = 50

// Set is a loaded quotes file: where it came from, its quotes, and the
// day their validity is checked against (the caller's clock).
type Set struct {
	Path   string
	Quotes []Quote
	Today  time.Time
}

// For is the quote in force for part: the cheapest that has not expired,
// else the cheapest expired one (the plan flags it); nil when none.
func (qs *Set) For(part string) *Quote {
	if qs == nil {
		return nil
	}
	var best *Quote
	for i := range qs.Quotes {
		q := &qs.Quotes[i]
		if q.Part != part {
			continue
		}
		if best == nil || best.Expired(qs.Today) && !q.Expired(qs.Today) ||
			best.Expired(qs.Today) == q.Expired(qs.Today) && q.USD() < best.USD() {
			best = q
		}
	}
	return best
}

// columns are a quotes CSV's columns; usd_per may be left out when
// every price is in USD.
var columns = []string{"part", "unit_price", "currency", "vendor", "date", "valid_until", "usd_per"}

// Parse decodes quotes from a CSV document (a header row naming the
// columns part, unit_price, currency, vendor, date, valid_until and
// optionally usd_per) or, when name ends in .toml, from [[quote]] tables
// with the same keys. Each quote is checked, its price in US dollars
// against maxUSD (the highest price the caller accepts); errors name
// the line.
func Parse(name string, src []byte, maxUSD float64) ([]Quote, error) {
	src, err := textfmt.UTF8(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var qs []Quote
	if strings.EqualFold(filepath.Ext(name), ".toml") {
		qs, err = parseTOML(src)
	} else {
		qs, err = parseCSV(src)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no quotes; give one row per part", name)
	}
	var errs []error
	bad := 0
	for i := range qs {
		if err := qs[i].check(maxUSD); err != nil {
			if bad++; bad <= maxListed {
				errs = append(errs, fmt.Errorf("%s line %d: %w", name, qs[i].Line, err))
			}
		}
	}
	if bad > maxListed {
		errs = append(errs, fmt.Errorf("%s: and %d more bad quotes not listed; fix the ones above first", name, bad-maxListed))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return qs, nil
}

func parseTOML(src []byte) ([]Quote, error) {
	var doc struct {
		Quote []Quote `toml:"quote"`
	}
	md, err := toml.Decode(string(src), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		return nil, typeError(err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("unknown key %q; a quote has %s", und[0].String(), strings.Join(columns, ", "))
	}
	lines := tableLines(src)
	for i := range doc.Quote {
		if i < len(lines) {
			doc.Quote[i].Line = lines[i]
		}
	}
	return doc.Quote, nil
}

// badTypeRE matches the TOML decoder's error for a value of the wrong
// type, which it gives as plain text. Compiled on first use, so a
// start that reads no quotes file does not pay for it.
var badTypeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^toml: line (\d+) \(last key "(?:quote\.)?([^"]+)"\): incompatible types: TOML value has type (\S+); destination has type (\S+)`)
})

// typeError says in a quote's terms what the decoder's type error means:
// a bare TOML date (date = 2026-10-01) where the quote wants text, or
// text where it wants a number. Other errors pass as they are.
func typeError(err error) error {
	m := badTypeRE().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	line, key, got := m[1], m[2], m[3]
	if m[4] == "string" {
		what := "a TOML " + got
		if got == "time.Time" {
			what = "a bare TOML date"
		}
		return fmt.Errorf("line %s: %s is %s; write it as text in double quotes, such as %s = \"2026-10-01\"", line, key, what, key)
	}
	return fmt.Errorf("line %s: %s must be a number; write it without quotes, such as %s = 30000", line, key, key)
}

// tableLines lists the lines of the [[quote]] headers.
func tableLines(src []byte) []int {
	var out []int
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[[quote]]") {
			out = append(out, i+1)
		}
	}
	return out
}

func parseCSV(src []byte) ([]Quote, error) {
	r := csv.NewReader(bytes.NewReader(src))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.Comment = '#'
	head, err := r.Read()
	if err == io.EOF {
		return nil, errors.New("empty file; the first row names the columns " + strings.Join(columns, ","))
	}
	if err != nil {
		return nil, err
	}
	col, err := csvColumns(head)
	if err != nil {
		return nil, err
	}
	var out []Quote
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := r.FieldPos(0)
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		q := Quote{Part: get("part"), Currency: strings.ToUpper(get("currency")), Vendor: get("vendor"),
			Date: get("date"), ValidUntil: get("valid_until"), Line: line}
		if q.UnitPrice, err = parseNumber(get("unit_price")); err != nil {
			return nil, fmt.Errorf("line %d: unit_price %w", line, err)
		}
		if v := get("usd_per"); v != "" {
			if q.USDPer, err = parseNumber(v); err != nil {
				return nil, fmt.Errorf("line %d: usd_per %w", line, err)
			}
		}
		out = append(out, q)
	}
}

// csvColumns maps a quotes CSV's header row to each column's index:
// every column known, none twice, all but usd_per present.
func csvColumns(head []string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(columns, h) {
			return nil, fmt.Errorf("line 1: unknown column %q; the columns are %s", h, strings.Join(columns, ","))
		}
		if j, seen := col[h]; seen {
			return nil, fmt.Errorf("line 1: column %q appears twice (columns %d and %d); keep one", h, j+1, i+1)
		}
		col[h] = i
	}
	for _, c := range columns[:6] {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("line 1: no %q column; the columns are %s", c, strings.Join(columns, ","))
		}
	}
	return col, nil
}

func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.NewReplacer(",", "", "_", "", "$", "").Replace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// check validates one quote on its own, its price against maxUSD (the
// part against the catalog is checked with the scenario).
func (q *Quote) check(maxUSD float64) error {
	if q.Currency == "" {
		q.Currency = "USD"
	}
	q.Currency = strings.ToUpper(q.Currency)
	date, derr := time.Parse(dateLayout, q.Date)
	until, uerr := time.Parse(dateLayout, q.ValidUntil)
	switch {
	case q.Part == "":
		return errors.New("part: empty; give the catalog key ('fabricplan catalog' lists them)")
	case q.Vendor == "":
		return fmt.Errorf("vendor: empty for %s; say who quoted it", q.Part)
	}
	if err := q.checkCurrency(); err != nil {
		return err
	}
	switch {
	case !(q.UnitPrice > 0) || !(q.USD() <= maxUSD):
		return fmt.Errorf("unit_price %g: give a price above 0 and at most $%.0f", q.UnitPrice, maxUSD)
	case !(q.USD() >= minUSD):
		return fmt.Errorf("unit_price %g %s is $%.2g: give a price of at least $%.2f (a cent) in US dollars; check the price and usd_per",
			q.UnitPrice, q.Currency, q.USD(), minUSD)
	case derr != nil:
		return fmt.Errorf("date %q: write the day it was quoted as YYYY-MM-DD", q.Date)
	case uerr != nil:
		return fmt.Errorf("valid_until %q: write the last valid day as YYYY-MM-DD", q.ValidUntil)
	case until.Before(date):
		return fmt.Errorf("valid_until %s is before the quote's date %s", q.ValidUntil, q.Date)
	}
	return nil
}

// checkCurrency checks the quote's currency code and, for a currency
// other than USD, the rate it was converted at.
func (q *Quote) checkCurrency() error {
	switch {
	case len(q.Currency) != 3 || strings.Trim(q.Currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "":
		return fmt.Errorf("currency %q: give a three-letter code such as USD or EUR", q.Currency)
	case q.Currency != "USD" && q.USDPer == 0:
		return fmt.Errorf("usd_per: %s needs the US dollars per %s it was converted at", q.Currency, q.Currency)
	case q.Currency != "USD" && !(q.USDPer >= minUSDPer && q.USDPer <= maxUSDPer):
		return fmt.Errorf("usd_per %g: give the US dollars per %s it was converted at, from %g to %g (rates of the weakest and strongest currencies, with a margin)",
			q.USDPer, q.Currency, minUSDPer, maxUSDPer)
	case q.Currency == "USD" && q.USDPer != 0 && q.USDPer != 1:
		return fmt.Errorf("usd_per %g for a USD price; leave it out or write 1", q.USDPer)
	}
	return nil
}
