package data

import (
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
