package planner

import (
	"fmt"
	"slices"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
)

// Price bases: how a plan prices the parts a catalog marks list_premium.
const (
	// BasisStreet prices every part as the catalog lists it: third-party
	// optics and retail prices.
	BasisStreet = "street"
	// BasisList multiplies the parts marked list_premium (third-party
	// optics) by the branded vendor premium.
	BasisList = "list"
	// BasisVolume prices every part as a hyperscale buyer pays: the
	// part's volume price (data/prices.toml [[volume_price]]) where a
	// dated source gives one, else street less the volume discount rule.
	BasisVolume = "volume"
)

// bases lists the price bases a scenario or the price data may name.
var bases = []string{BasisStreet, BasisList, BasisVolume}

// PriceData holds the price bases and the analyst bands of
// data/prices.toml.
type PriceData struct {
	Schema       int       `toml:"schema" json:"-"`
	DefaultBasis string    `toml:"default_basis" json:"default_basis"`
	ListPremium  Premium   `toml:"list_premium" json:"list_premium"`
	PerGPU       []GPUBand `toml:"per_gpu" json:"per_gpu"`
	CapexShare   ShareBand `toml:"capex_share" json:"capex_share"`
	// Volume is the volume basis's discount rule for parts no volume
	// price names; VolumePrices are the parts' own volume prices.
	Volume       Premium       `toml:"volume" json:"volume"`
	VolumePrices []VolumePrice `toml:"volume_price" json:"volume_prices"`
}

// VolumePrice is what a hyperscale buyer pays for one unit of a catalog
// part (an ASP or a volume quote a dated public source gives), with its
// range and provenance, on the volume basis.
type VolumePrice struct {
	Part      string     `toml:"part" json:"part"`
	USD       float64    `toml:"price_usd" json:"price_usd"`
	RangeUSD  [2]float64 `toml:"price_range_usd" json:"price_range_usd"`
	Condition string     `toml:"price_condition" json:"price_condition"`
	Grade     string     `toml:"price_grade" json:"price_grade"`
	Date      string     `toml:"price_date" json:"price_date"` // YYYY-MM of the source, or "undated"
	Source    string     `toml:"source" json:"source"`
}

// Premium is a price factor with its range and source.
type Premium struct {
	Factor float64    `toml:"factor" json:"factor"`
	Range  [2]float64 `toml:"range" json:"range"`
	Source string     `toml:"source" json:"source"`
	AsOf   string     `toml:"as_of" json:"as_of"`
}

// GPUBand is a published range of back-end network cost per GPU for
// clusters of MinGPUs to MaxGPUs GPUs (0: unbounded).
type GPUBand struct {
	Name    string  `toml:"name" json:"name"`
	MinGPUs int     `toml:"min_gpus" json:"min_gpus"`
	MaxGPUs int     `toml:"max_gpus" json:"max_gpus"`
	LowUSD  float64 `toml:"low_usd" json:"low_usd"`
	HighUSD float64 `toml:"high_usd" json:"high_usd"`
	Source  string  `toml:"source" json:"source"`
}

// ShareBand is a published range of the network's share of cluster
// capex, as fractions.
type ShareBand struct {
	Low    float64 `toml:"low" json:"low"`
	High   float64 `toml:"high" json:"high"`
	Source string  `toml:"source" json:"source"`
}

// ParsePriceData decodes and checks data/prices.toml (the shipped
// file's bytes decoded at build time, as ParseCatalog).
func ParsePriceData(src []byte) (*PriceData, error) {
	d, err := builtdoc.Decode(builtPriceData, src, decodePriceData)
	if err != nil {
		return nil, err
	}
	if err := d.checkConstants(); err != nil {
		return nil, err
	}
	if err := d.checkBands(); err != nil {
		return nil, err
	}
	if err := d.checkVolume(); err != nil {
		return nil, err
	}
	return d, nil
}

// builtPriceData is data/prices.toml decoded when the program was built
// (built_prices.go, rewritten by go generate); nil without that file,
// when the price data is decoded from its TOML.
var builtPriceData *builtdoc.Doc[PriceData]

// decodePriceData decodes a price data document without checking it.
func decodePriceData(src []byte) (*PriceData, error) {
	var d PriceData
	if err := datadoc.Decode("price data", src, &d, &d.Schema); err != nil {
		return nil, err
	}
	return &d, nil
}

// Band is the per-GPU band for a cluster of gpus GPUs, or nil.
func (d *PriceData) Band(gpus int) *GPUBand {
	if d == nil {
		return nil
	}
	for i, b := range d.PerGPU {
		if gpus >= b.MinGPUs && (b.MaxGPUs == 0 || gpus <= b.MaxGPUs) {
			return &d.PerGPU[i]
		}
	}
	return nil
}

// checkConstants checks the price basis, the list premium and the capex
// share, each with its source.
func (d *PriceData) checkConstants() error {
	switch p := d.ListPremium; {
	case !slices.Contains(bases, d.DefaultBasis):
		return fmt.Errorf("price data: default_basis %q; write one of %s", d.DefaultBasis, quoteList(bases))
	case !(p.Range[0] >= 1 && p.Range[0] <= p.Factor && p.Factor <= p.Range[1]) || p.Source == "":
		return fmt.Errorf("price data: list_premium factor %g must lie in its range %v (each at least 1) and name its source", p.Factor, p.Range)
	case !(d.CapexShare.Low > 0 && d.CapexShare.Low <= d.CapexShare.High && d.CapexShare.High < 1) || d.CapexShare.Source == "":
		return fmt.Errorf("price data: capex_share needs 0 < low <= high < 1 and a source")
	}
	return nil
}

// checkBands checks the per-GPU price bands.
func (d *PriceData) checkBands() error {
	for i, b := range d.PerGPU {
		if !(b.LowUSD > 0 && b.LowUSD <= b.HighUSD) || b.Source == "" || b.Name == "" || (b.MaxGPUs > 0 && b.MaxGPUs < b.MinGPUs) {
			return fmt.Errorf("price data: per_gpu band %d (%q) needs a name, 0 < low_usd <= high_usd, min_gpus <= max_gpus and a source", i+1, b.Name)
		}
	}
	return nil
}

// checkVolume checks the volume discount rule (a factor of at most 1 in
// its range, with a source) and every volume price: a part named once,
// 0 < low <= usd <= high, a condition, grade and date as a catalog
// price's, and a source.
func (d *PriceData) checkVolume() error {
	if v := d.Volume; !(v.Range[0] > 0 && v.Range[0] <= v.Factor && v.Factor <= v.Range[1] && v.Range[1] <= 1) || v.Source == "" {
		return fmt.Errorf("price data: volume factor %g must lie in its range %v (each above 0 and at most 1) and name its source", v.Factor, v.Range)
	}
	seen := map[string]bool{}
	for i, v := range d.VolumePrices {
		what := fmt.Sprintf("price data: volume_price %d (%q)", i+1, v.Part)
		switch {
		case v.Part == "" || seen[v.Part]:
			return fmt.Errorf("%s: name a catalog part, once", what)
		case !(v.RangeUSD[0] > 0 && v.RangeUSD[0] <= v.USD && v.USD <= v.RangeUSD[1]):
			return fmt.Errorf("%s: price_usd %g must lie in price_range_usd %v, above 0", what, v.USD, v.RangeUSD)
		case v.Source == "":
			return fmt.Errorf("%s: name the source", what)
		}
		pr := Pricing{Condition: v.Condition, Grade: v.Grade, Date: v.Date}
		if err := pr.check(what, v.RangeUSD[0], v.RangeUSD[1]); err != nil {
			return err
		}
		seen[v.Part] = true
	}
	return nil
}

// VolumeFor is the volume price of the part key names, or nil.
func (d *PriceData) VolumeFor(key string) *VolumePrice {
	if d == nil {
		return nil
	}
	for i := range d.VolumePrices {
		if d.VolumePrices[i].Part == key {
			return &d.VolumePrices[i]
		}
	}
	return nil
}

// volumePrice is a part's unit price on the volume basis: its own volume
// price, else the street price usd (range r) less the volume discount
// rule.
func (d *PriceData) volumePrice(key string, usd float64, r [2]float64) PartPrice {
	if v := d.VolumeFor(key); v != nil {
		return PartPrice{USD: v.USD, LowUSD: v.RangeUSD[0], HighUSD: v.RangeUSD[1], Volume: v}
	}
	f := d.Volume
	return PartPrice{USD: usd * f.Factor, LowUSD: r[0] * f.Range[0], HighUSD: r[1] * f.Range[1], VolumeRule: true}
}
