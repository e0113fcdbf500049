package data

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// yearMonth is a source's date as prices.toml writes it: 2026-02.
var yearMonth = regexp.MustCompile(`^20\d\d-(0[1-9]|1[0-2])$`)

// Every volume price in prices.toml has a dated source: a price_date of
// YYYY-MM (not "undated"), and a source line that names a document and
// prints the same date, so a reader can find it. Mutations caught: a
// volume price marked "undated"; a source line without its date (the
// price_date then unchecked against it); a volume price with no source.
func TestVolumePricesHaveDatedSources(t *testing.T) {
	var doc struct {
		VolumePrice []struct {
			Part   string `toml:"part"`
			Date   string `toml:"price_date"`
			Source string `toml:"source"`
		} `toml:"volume_price"`
	}
	if _, err := toml.DecodeFS(FS, "prices.toml", &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.VolumePrice) == 0 {
		t.Fatal("no volume_price in prices.toml: the test no longer reaches the volume basis's sources")
	}
	for _, v := range doc.VolumePrice {
		switch {
		case !yearMonth.MatchString(v.Date):
			t.Errorf("volume_price %s: price_date %q, want the source's YYYY-MM", v.Part, v.Date)
		case !strings.Contains(v.Source, v.Date):
			t.Errorf("volume_price %s: source %q does not print its date %s", v.Part, v.Source, v.Date)
		case !strings.Contains(v.Source, "."):
			t.Errorf("volume_price %s: source %q names no document (a site or title)", v.Part, v.Source)
		}
	}
}

// The parts issue #46's volume work added carry a dated price source: a
// price_date of YYYY-MM whose year the price source line prints, and a
// source for their ports. Mutations caught: a new part priced "undated";
// a price line that does not say where its figure is dated; a part with
// no ports source.
func TestNewPartsHaveDatedSources(t *testing.T) {
	var doc struct {
		Switches map[string]struct {
			Date   string         `toml:"price_date"`
			Source map[string]any `toml:"source"`
		} `toml:"switches"`
	}
	if _, err := toml.DecodeFS(FS, "catalog.toml", &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"sn5610"} {
		sw, ok := doc.Switches[key]
		switch {
		case !ok:
			t.Errorf("switch %s: not in the catalog", key)
		case !yearMonth.MatchString(sw.Date):
			t.Errorf("switch %s: price_date %q, want the source's YYYY-MM", key, sw.Date)
		case !strings.Contains(fmt.Sprint(sw.Source["price"]), sw.Date[:4]):
			t.Errorf("switch %s: price source %q does not print its year %s", key, sw.Source["price"], sw.Date[:4])
		case sw.Source["ports"] == nil:
			t.Errorf("switch %s: no ports source", key)
		}
	}
}
