package planner

import (
	"reflect"
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

// Every catalog map whose parts declare a price (they embed Provenance)
// is one kind of pricedKinds, and every kind is one such map. Mutation
// caught: a priced kind left out of the table (say side links): its
// prices go unchecked at load and its keys unknown to [prices] and to
// quotes.
func TestPricedKindsCoverTheCatalog(t *testing.T) {
	cat := testCatalog(t)
	provenance := reflect.TypeFor[Provenance]()
	ct := reflect.TypeFor[Catalog]()
	kinds := 0
	for i := range ct.NumField() {
		f := ct.Field(i)
		if f.Type.Kind() != reflect.Map || f.Type.Elem().Kind() != reflect.Pointer {
			continue
		}
		if pf, ok := f.Type.Elem().Elem().FieldByName("Provenance"); !ok || pf.Type != provenance {
			continue
		}
		kinds++
		m := reflect.ValueOf(cat).Elem().Field(i)
		if m.Len() == 0 {
			t.Errorf("Catalog.%s is empty: this test cannot find its kind", f.Name)
			continue
		}
		key := m.MapKeys()[0]
		part := m.MapIndex(key).Interface()
		found := 0
		for _, kind := range pricedKinds {
			if p, ok := kind.find(cat, key.String()); ok && p == part {
				found++
			}
		}
		if found != 1 {
			t.Errorf("Catalog.%s (its part %s) is in %d kinds of pricedKinds, want 1", f.Name, key, found)
		}
	}
	if kinds != len(pricedKinds) {
		t.Errorf("the catalog holds %d kinds of priced part, pricedKinds %d", kinds, len(pricedKinds))
	}
}

// Both readers of the table read every kind in it: for one part of each
// kind, the catalog's check refuses it without a price grade, naming the
// kind and key, and ItemPrice gives its price. A kind added to the table
// is so read by both. Mutation caught: the check or ItemPrice walking
// only some of the kinds (the last, side servers, left out: a side
// server without provenance loads, its key unknown to [prices]).
func TestPricedKindsReadByBoth(t *testing.T) {
	cat := testCatalog(t)
	if err := cat.checkPrices(); err != nil {
		t.Fatalf("the catalog as shipped: %v", err)
	}
	for _, kind := range pricedKinds {
		var key string
		var part priced
		for k, p := range kind.parts(cat) {
			if key == "" || k < key {
				key, part = k, p
			}
		}
		if part == nil {
			t.Errorf("%s: no part in the catalog to test with", kind.what)
			continue
		}
		pv := part.provenance()
		grade := pv.Grade
		pv.Grade = ""
		err := cat.checkPrices()
		pv.Grade = grade
		if want := kind.what + " " + key + ": missing price_grade"; err == nil || err.Error() != want+"; give one of "+quoteList(grades) {
			t.Errorf("%s %s without a grade: %v, want %q", kind.what, key, err, want)
		}
		got, ok := cat.ItemPrice(key)
		if !ok || got.USD != part.unitPrice().PriceUSD || got.Pricing != pv.Pricing {
			t.Errorf("%s %s: ItemPrice %+v, %v; want its price $%g", kind.what, key, got, ok, part.unitPrice().PriceUSD)
		}
	}
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
