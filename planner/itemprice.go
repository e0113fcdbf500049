package planner

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
)

// UnitPrice is a catalog part's price for one unit and that price's
// low-high range, as every priced part but a cable declares them.
type UnitPrice struct {
	PriceUSD float64 `toml:"price_usd" json:"price_usd"`
	// PriceRangeUSD is the low and high price of one unit.
	PriceRangeUSD [2]float64 `toml:"price_range_usd" json:"price_range_usd"`
}

// Provenance is where a catalog part's figures came from (Source) and
// what kind of observation its price is (Pricing): every priced part
// declares it.
type Provenance struct {
	Source Source `toml:"source" json:"source"`
	Pricing
}

// unitPrice is the part's price and range (a cable's: one of its base
// length).
func (u *UnitPrice) unitPrice() UnitPrice { return *u }

// provenance is the part's sources and price provenance.
func (p *Provenance) provenance() *Provenance { return p }

// unitPrice is the price of one cable at its base length and its range
// by the cable's price_range_factor.
func (c *Cable) unitPrice() UnitPrice {
	b := c.PriceBaseUSD
	return UnitPrice{PriceUSD: b, PriceRangeUSD: [2]float64{b * c.PriceRangeFactor[0], b * c.PriceRangeFactor[1]}}
}

// priced is a catalog part with a price: what every kind of pricedKinds
// holds.
type priced interface {
	unitPrice() UnitPrice
	provenance() *Provenance
}

// pricedKind is one kind of priced catalog part: how errors name it, and
// its parts by key. check and item read a part's price fields: check
// validates them, item gives them as a [prices] key names the part.
type pricedKind struct {
	what  string
	parts func(c *Catalog) iter.Seq2[string, priced]
	find  func(c *Catalog, key string) (priced, bool)
	check func(part string, p priced) error
	item  func(p priced) ItemPrice
}

// kindOf is the pricedKind of the parts in the catalog map parts gives,
// checked and looked up as a part with its own price range.
func kindOf[P priced](what string, parts func(c *Catalog) map[string]P) pricedKind {
	return pricedKind{
		what: what,
		parts: func(c *Catalog) iter.Seq2[string, priced] {
			return func(yield func(string, priced) bool) {
				for k, p := range parts(c) {
					if !yield(k, p) {
						return
					}
				}
			}
		},
		find: func(c *Catalog, key string) (priced, bool) {
			p, ok := parts(c)[key]
			return p, ok
		},
		check: checkUnitPrice,
		item: func(p priced) ItemPrice {
			pv := p.provenance()
			return ItemPrice{p.unitPrice().PriceUSD, pv.Source.Price, pv.Pricing}
		},
	}
}

// pricedKinds is every kind of priced catalog part, once, in the order
// ItemPrice looks a key up: systems, back-end switches, NICs,
// transceivers and cables, then the parts of the networks beside the
// back end. The catalog's check (checkPrices), ItemPrice and PriceKeys
// walk it; a kind left out is neither checked nor priceable by key.
var pricedKinds = []pricedKind{
	kindOf("system", func(c *Catalog) map[string]*System { return c.Systems }),
	kindOf("switch", func(c *Catalog) map[string]*Switch { return c.Switches }),
	kindOf("nic", func(c *Catalog) map[string]*NIC { return c.NICs }),
	kindOf("transceiver", func(c *Catalog) map[string]*Transceiver { return c.Transceivers }),
	cableKind(),
	kindOf("side switch", func(c *Catalog) map[string]*Switch { return c.SideSwitches }),
	kindOf("side nic", func(c *Catalog) map[string]*SideNIC { return c.SideNICs }),
	kindOf("side link", func(c *Catalog) map[string]*SideLink { return c.SideLinks }),
	kindOf("side server", func(c *Catalog) map[string]*SideServer { return c.SideServers }),
}

// cableKind is the cables' pricedKind: a cable is priced by length, its
// range by a factor on the price, and its key's price is one cable at
// the base length, its source saying how the length adds.
func cableKind() pricedKind {
	k := kindOf("cable", func(c *Catalog) map[string]*Cable { return c.Cables })
	k.check = func(part string, p priced) error {
		if f := p.(*Cable).PriceRangeFactor; !(f[0] > 0 && f[0] <= 1 && f[1] >= 1) {
			return fmt.Errorf("%s: price_range_factor %v must be [low <= 1, high >= 1]", part, f)
		}
		// A cable's sources price one length or one price for all, so its
		// provenance is checked at the base price.
		r := p.unitPrice().PriceRangeUSD
		return p.provenance().check(part, r[0], r[1])
	}
	k.item = func(p priced) ItemPrice {
		cb := p.(*Cable)
		return ItemPrice{cb.PriceBaseUSD, fmt.Sprintf("per cable: $%.0f + $%.2f per metre (an override sets the price of one cable). %s",
			cb.PriceBaseUSD, cb.PricePerMUSD, cb.Source.Price), cb.Pricing}
	}
	return k
}

// checkUnitPrice checks a part's price against its range and its price's
// condition, grade, date and currency conversion.
func checkUnitPrice(part string, p priced) error {
	u := p.unitPrice()
	if err := checkRange(part, u.PriceUSD, u.PriceRangeUSD); err != nil {
		return err
	}
	return p.provenance().check(part, u.PriceRangeUSD[0], u.PriceRangeUSD[1])
}

// checkPrices checks the price fields of every priced part of every kind
// and fills in each price's basis.
func (c *Catalog) checkPrices() error {
	for _, kind := range pricedKinds {
		for k, p := range kind.parts(c) {
			if err := kind.check(kind.what+" "+k, p); err != nil {
				return err
			}
			pv := p.provenance()
			pv.Basis = basisOf(pv.Condition)
		}
	}
	return nil
}

// ItemPrice is a priced catalog item as a scenario's [prices] table or
// a quote names it by key: its catalog price, where that came from, and
// the price's condition, grade and date.
type ItemPrice struct {
	USD     float64
	Source  string
	Pricing Pricing
}

// ItemPrice looks key up among every priced part of the catalog: systems,
// back-end switches, NICs, transceivers and cables, and the parts of the
// networks beside the back end. A cable's price is per cable at its base
// length, and its source says how the length adds. ok is false for a key
// that names no priced part.
func (c *Catalog) ItemPrice(key string) (p ItemPrice, ok bool) {
	for _, kind := range pricedKinds {
		if part, ok := kind.find(c, key); ok {
			return kind.item(part), true
		}
	}
	return ItemPrice{}, false
}

// PriceOn is one unit of the part key names priced on basis ("street",
// "list" or "volume") as a plan without overrides or quotes buys it: the
// same price and low-high range a plan's bill takes (a cable's at its
// base length). It fails for a key that names no priced part or an
// unknown basis.
// Exported for planner/validation.
func (c *Catalog) PriceOn(key, basis string) (PartPrice, error) {
	if !slices.Contains(bases, basis) {
		return PartPrice{}, fmt.Errorf("price basis %q; give one of %s", basis, quoteList(bases))
	}
	for _, kind := range pricedKinds {
		if part, ok := kind.find(c, key); ok {
			u := part.unitPrice()
			s := Scenario{Pricing: PriceSettings{Basis: basis}}
			return s.partPrice(c, key, u.PriceUSD, u.PriceRangeUSD, &part.provenance().Pricing), nil
		}
	}
	return PartPrice{}, fmt.Errorf("%q names no priced catalog part ('fabricplan catalog' lists them)", key)
}

// PriceKeys lists every key a scenario's [prices] table may override:
// the parts of every priced kind, sorted.
func (c *Catalog) PriceKeys() []string {
	var out []string
	for _, kind := range pricedKinds {
		for k := range kind.parts(c) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// attachVolume checks that every volume price names a priced catalog part
// other than a cable (a cable is priced by length, a volume price per
// unit), and gives every priced part its price on the volume basis, for
// catalog --json: its own volume price, else its street price (a cable's
// at its base length) less the discount rule.
func (c *Catalog) attachVolume() error {
	d := c.Prices
	if d == nil {
		return nil
	}
	for _, v := range d.VolumePrices {
		if _, ok := c.Cables[v.Part]; ok || !c.HasPriceKey(v.Part) {
			return fmt.Errorf("price data: volume_price for %q, which is no priced catalog part other than a cable ('fabricplan catalog' lists them)", v.Part)
		}
	}
	rule := d.Volume
	for _, kind := range pricedKinds {
		for k, p := range kind.parts(c) {
			u, pv := p.unitPrice(), p.provenance()
			pp := d.volumePrice(k, u.PriceUSD, u.PriceRangeUSD)
			w := &VolumeWords{USD: cents(pp.USD), RangeUSD: [2]float64{cents(pp.LowUSD), cents(pp.HighUSD)}, Rule: pp.VolumeRule,
				Grade: GradeEstimate, Date: rule.AsOf, Source: "estimate: the street price less the volume discount rule; " + rule.Source}
			if v := pp.Volume; v != nil {
				w.Grade, w.Date, w.Source = v.Grade, v.Date, v.Source
			}
			pv.Volume = w
		}
	}
	return nil
}

// cents rounds usd to the cent, as a price list shows it.
func cents(usd float64) float64 { return math.Round(usd*100) / 100 }
