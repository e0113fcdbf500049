package planner

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
)

// Price conditions: what kind of observation a catalog price is
// (research/prices.md's condition codes).
const (
	CondList     = "list"             // vendor list price or MSRP
	CondStreet   = "street"           // a retailer's price for new goods
	CondAnalyst  = "analyst estimate" // an analyst's or author's estimate
	CondTool     = "tool default"     // a default hard-coded in someone's calculator
	CondEstimate = "planner estimate" // ours: no source prices the part itself
)

// Price grades: how well sourced a catalog price is.
const (
	// GradeTwoSource: at least two independent sources price the part
	// (or its class), at least one of them dated.
	GradeTwoSource = "two-source"
	// GradeSingleSource: one source, or several that are not independent.
	GradeSingleSource = "single-source"
	// GradeEstimate: no source prices the part; the catalog says how the
	// figure was reached.
	GradeEstimate = "estimate"
)

// Undated is the price_date of a source that prints no date.
const Undated = "undated"

var (
	conditions = []string{CondList, CondStreet, CondAnalyst, CondTool, CondEstimate}
	grades     = []string{GradeTwoSource, GradeSingleSource, GradeEstimate}
)

// Pricing is the provenance of one catalog part's price: what kind of
// figure it is, how well sourced, when, any currency conversion, and
// whether a vendor-list price basis adds the branded-optics premium.
type Pricing struct {
	Condition string `toml:"price_condition" json:"price_condition"`
	Grade     string `toml:"price_grade" json:"price_grade"`
	Date      string `toml:"price_date" json:"price_date"` // YYYY-MM (or YYYY-MM-DD) of the source, or "undated"
	// FX is the conversion when the source priced the part in another
	// currency (nil: US dollars).
	FX *FX `toml:"price_fx" json:"price_fx,omitempty"`
	// ListPremium marks parts whose street price is a third-party
	// (compatible) part: the "list" basis multiplies it by the sourced
	// branded premium.
	ListPremium bool `toml:"list_premium" json:"list_premium"`
	// Basis is the price basis the catalog figure belongs to (BasisList
	// for a vendor list price, else BasisStreet: a plan on the street
	// basis takes it as it is), derived from Condition when the catalog
	// loads, for catalog --json.
	Basis string `toml:"-" json:"price_basis"`
	// Volume is the part's price on the volume basis, filled in when the
	// catalog loads with its price data, for catalog --json.
	Volume *VolumeWords `toml:"-" json:"volume_price,omitempty"`
}

// VolumeWords is a part's price on the volume basis as catalog --json
// lists it: the price and range, and how it was reached (the part's own
// dated source, or the stated discount rule on the street price).
type VolumeWords struct {
	USD      float64    `json:"price_usd"`
	RangeUSD [2]float64 `json:"price_range_usd"`
	// Rule says the price is the street price less the volume discount
	// rule (an estimate); else Date and Source are the part's own.
	Rule   bool   `json:"rule"`
	Grade  string `json:"price_grade"`
	Date   string `json:"price_date"`
	Source string `json:"source"`
}

// basisOf is the price basis of a catalog price of condition cond.
func basisOf(cond string) string {
	if cond == CondList {
		return BasisList
	}
	return BasisStreet
}

// FX converts a source's price range from another currency: Low and High
// in Currency, times USDPer, give the part's USD range.
type FX struct {
	Currency string  `toml:"currency" json:"currency"`
	Low      float64 `toml:"low" json:"low"`
	High     float64 `toml:"high" json:"high"`
	USDPer   float64 `toml:"usd_per" json:"usd_per"` // US dollars per unit of Currency
	RateDate string  `toml:"rate_date" json:"rate_date"`
}

// check validates the provenance of part's price; usdLow and usdHigh are
// the part's USD range, which a conversion must reproduce within 1%.
func (p *Pricing) check(part string, usdLow, usdHigh float64) error {
	switch {
	case p.Condition == "":
		return fmt.Errorf("%s: missing price_condition; give one of %s", part, quoteList(conditions))
	case !slices.Contains(conditions, p.Condition):
		return fmt.Errorf("%s: price_condition %q; give one of %s", part, p.Condition, quoteList(conditions))
	case p.Grade == "":
		return fmt.Errorf("%s: missing price_grade; give one of %s", part, quoteList(grades))
	case !slices.Contains(grades, p.Grade):
		return fmt.Errorf("%s: price_grade %q; give one of %s", part, p.Grade, quoteList(grades))
	case p.Date != Undated && !validMonth(p.Date):
		return fmt.Errorf("%s: price_date %q; give the source's date as YYYY-MM, or %q", part, p.Date, Undated)
	}
	if fx := p.FX; fx != nil {
		if fx.Currency == "" || !(fx.USDPer > 0) || !(fx.Low > 0) || fx.High < fx.Low || !validMonth(fx.RateDate) {
			return fmt.Errorf("%s: price_fx needs currency, 0 < low <= high, usd_per > 0 and rate_date YYYY-MM", part)
		}
		// The converted figures must lie in the USD range (1% for rounding);
		// a range may be wider than one converted price when it says why.
		if lo, hi := fx.Low*fx.USDPer, fx.High*fx.USDPer; lo < usdLow*0.99 || hi > usdHigh*1.01 {
			return fmt.Errorf("%s: price_fx %s %g-%g at %g USD/%s is $%.0f-$%.0f, outside the price range $%.0f-$%.0f",
				part, fx.Currency, fx.Low, fx.High, fx.USDPer, fx.Currency, lo, hi, usdLow, usdHigh)
		}
	}
	return nil
}

// Label is the price's condition, grade and date in a few words:
// "street, two-source, 2026-09".
func (p *Pricing) Label() string {
	s := p.Condition + ", " + p.Grade + ", " + p.Date
	if p.FX != nil {
		s += ", " + p.FX.Words()
	}
	return s
}

// Words says how the price was converted: "from EUR 89-149 at 1.17 USD/EUR (2025-09)".
func (fx *FX) Words() string {
	amount := trimFloat(fx.Low)
	if fx.High != fx.Low {
		amount += "-" + trimFloat(fx.High)
	}
	return fmt.Sprintf("from %s %s at %s USD/%s (%s)", fx.Currency, amount, trimFloat(fx.USDPer), fx.Currency, fx.RateDate)
}

func trimFloat(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.4g", v), ".0") }

// validMonth accepts YYYY-MM or YYYY-MM-DD.
func validMonth(s string) bool {
	if len(s) != 7 && len(s) != 10 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 4 || i == 7:
			if r != '-' {
				return false
			}
		case r < '0' || r > '9':
			return false
		}
	}
	return s[5:7] >= "01" && s[5:7] <= "12"
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, v := range list {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// PriceBasis is the basis s is priced on: its own, or the catalog's
// default when it names none.
func (s *Scenario) PriceBasis(cat *Catalog) string {
	if s.Pricing.Basis != "" {
		return s.Pricing.Basis
	}
	if cat.Prices != nil {
		return cat.Prices.DefaultBasis
	}
	return BasisStreet
}

// PartPrice is one part's unit price as a plan buys it: the price, its
// low-high range, and where it came from.
type PartPrice struct {
	USD, LowUSD, HighUSD float64
	// Quote is the vendor quote in force (nil: none); a quote is a firm
	// price, so its range is the price itself.
	Quote *Quote
	// Override says the scenario's [prices] table set the price.
	Override bool
	// Premium says the list basis's branded premium is applied.
	Premium bool
	// Volume is the part's own volume price on the volume basis (nil:
	// none applied); VolumeRule says the volume basis's discount rule is
	// applied to the street price instead.
	Volume     *VolumePrice
	VolumeRule bool
}

// pointPrice is a part's price where no basis applies: the scenario's
// override, else the quote in force, else the catalog's.
func (s *Scenario) pointPrice(key string, usd float64, r [2]float64) PartPrice {
	if v, ok := s.Prices[key]; ok {
		return PartPrice{USD: v, LowUSD: v, HighUSD: v, Override: true}
	}
	if q := s.Quotes.For(key); q != nil {
		v := q.USD()
		return PartPrice{USD: v, LowUSD: v, HighUSD: v, Quote: q}
	}
	return PartPrice{USD: usd, LowUSD: r[0], HighUSD: r[1]}
}

// partPrice is pointPrice with the price basis: on the list basis a
// catalog price marked list_premium takes the branded premium (its factor
// on the price, its range on the range); on the volume basis every part
// takes its volume price, or the volume discount rule where it has none.
// Overrides and quotes are what the buyer pays and stay as they are.
func (s *Scenario) partPrice(cat *Catalog, key string, usd float64, r [2]float64, pr *Pricing) PartPrice {
	pp := s.pointPrice(key, usd, r)
	if pp.Override || pp.Quote != nil || cat.Prices == nil {
		return pp
	}
	switch s.PriceBasis(cat) {
	case BasisList:
		if !pr.ListPremium {
			return pp
		}
		f := cat.Prices.ListPremium
		return PartPrice{USD: usd * f.Factor, LowUSD: r[0] * f.Range[0], HighUSD: r[1] * f.Range[1], Premium: true}
	case BasisVolume:
		return cat.Prices.volumePrice(key, usd, r)
	}
	return pp
}

// cablePrice is the price of one cable of cb, metres long.
func (s *Scenario) cablePrice(cat *Catalog, cb *Cable, metres float64) PartPrice {
	usd := cb.PriceUSD(metres)
	// A cable is priced by length: the volume basis takes it by the rule
	// (the catalog's check keeps volume prices off cables).
	return s.partPrice(cat, cb.Key, usd, [2]float64{usd * cb.PriceRangeFactor[0], usd * cb.PriceRangeFactor[1]}, &cb.Pricing)
}

// validatePricing checks the basis and that every quote names a catalog
// part.
func (s *Scenario) validatePricing(cat *Catalog) []error {
	var errs []error
	if b := s.Pricing.Basis; b != "" && !slices.Contains(bases, b) {
		errs = append(errs, fielderr.New("pricing.basis", fmt.Sprintf("write %q (third-party optics, retail prices), %q (branded optics at the vendor premium) or %q (hyperscale volume prices)", BasisStreet, BasisList, BasisVolume),
			"unknown price basis %q", b))
	}
	if s.Quotes != nil {
		for _, q := range s.Quotes.Quotes {
			if !cat.HasPriceKey(q.Part) {
				errs = append(errs, fielderr.New("pricing.quotes", "use a catalog key ('fabricplan catalog' lists them)",
					"%s line %d: a quote for %q, which the catalog does not know", s.Quotes.Path, q.Line, q.Part))
			}
		}
	}
	return errs
}
