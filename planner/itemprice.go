package planner

import "fmt"

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
	switch {
	case c.Systems[key] != nil:
		s := c.Systems[key]
		return ItemPrice{s.PriceUSD, s.Source.Price, s.Pricing}, true
	case c.Switches[key] != nil:
		s := c.Switches[key]
		return ItemPrice{s.PriceUSD, s.Source.Price, s.Pricing}, true
	case c.NICs[key] != nil:
		n := c.NICs[key]
		return ItemPrice{n.PriceUSD, n.Source.Price, n.Pricing}, true
	case c.Transceivers[key] != nil:
		t := c.Transceivers[key]
		return ItemPrice{t.PriceUSD, t.Source.Price, t.Pricing}, true
	case c.Cables[key] != nil:
		cb := c.Cables[key]
		return ItemPrice{cb.PriceBaseUSD, fmt.Sprintf("per cable: $%.0f + $%.2f per metre (an override sets the price of one cable). %s",
			cb.PriceBaseUSD, cb.PricePerMUSD, cb.Source.Price), cb.Pricing}, true
	case c.SideSwitches[key] != nil:
		s := c.SideSwitches[key]
		return ItemPrice{s.PriceUSD, s.Source.Price, s.Pricing}, true
	case c.SideNICs[key] != nil:
		n := c.SideNICs[key]
		return ItemPrice{n.PriceUSD, n.Source.Price, n.Pricing}, true
	case c.SideLinks[key] != nil:
		l := c.SideLinks[key]
		return ItemPrice{l.PriceUSD, l.Source.Price, l.Pricing}, true
	case c.SideServers[key] != nil:
		s := c.SideServers[key]
		return ItemPrice{s.PriceUSD, s.Source.Price, s.Pricing}, true
	}
	return ItemPrice{}, false
}
