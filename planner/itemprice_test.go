package planner

import (
	"strings"
	"testing"
)

// TestItemPrice looks up every priced part of every kind the catalog
// holds and checks it gets that part's own price, source and pricing,
// and that keys of no part are refused. Mutations caught: a kind left
// out of the one lookup (a side server's [prices] key refused by
// HasPriceKey, its price shown as $0), a case reading another kind's
// map, a cable priced without its per-metre source.
func TestItemPrice(t *testing.T) {
	cat := testCatalog(t)
	want := pricedParts(cat)
	if len(cat.SideServers) == 0 || len(cat.SideLinks) == 0 || len(cat.Cables) == 0 {
		t.Fatal("the catalog lost a kind of part this test checks")
	}
	for k, w := range want {
		got, ok := cat.ItemPrice(k)
		switch {
		case !ok || !cat.HasPriceKey(k):
			t.Errorf("%s: not found", k)
		case got.USD != w.USD || got.Pricing != w.Pricing || !strings.HasSuffix(got.Source, w.Source):
			t.Errorf("%s: %+v, want %+v", k, got, w)
		case cat.Cables[k] != nil && !strings.Contains(got.Source, "per metre"):
			t.Errorf("%s: source %q does not say the price grows per metre", k, got.Source)
		}
	}
	for _, k := range []string{"", "h100", "no-such-part", "dgx-h100.source"} {
		if _, ok := cat.ItemPrice(k); ok || cat.HasPriceKey(k) {
			t.Errorf("%q: found, want no such part", k)
		}
	}
}

// pricedParts lists every priced part of the catalog, kind by kind, with
// its own price, source and pricing.
func pricedParts(cat *Catalog) map[string]ItemPrice {
	want := map[string]ItemPrice{}
	for k, v := range cat.Systems {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.Switches {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.NICs {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.Transceivers {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.Cables {
		want[k] = ItemPrice{v.PriceBaseUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.SideSwitches {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.SideNICs {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.SideLinks {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	for k, v := range cat.SideServers {
		want[k] = ItemPrice{v.PriceUSD, v.Source.Price, v.Pricing}
	}
	return want
}

// TestFabricNames checks the fabrics' display names against the names
// their standards bodies publish (IBTA: InfiniBand; IBTA Annex A17:
// RoCEv2). Mutation caught: the names swapped or the long and short
// forms mixed up.
func TestFabricNames(t *testing.T) {
	for _, c := range []struct {
		f           Fabric
		name, short string
	}{
		{InfiniBand, "InfiniBand", "IB"},
		{Ethernet, "Ethernet (RoCEv2)", "RoCE"},
	} {
		if c.f.Name() != c.name || c.f.Short() != c.short {
			t.Errorf("%s: %q, %q; want %q, %q", c.f, c.f.Name(), c.f.Short(), c.name, c.short)
		}
	}
}
