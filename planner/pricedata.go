package planner

import (
	"fmt"

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
)

// PriceData holds the price bases and the analyst bands of
// data/prices.toml.
type PriceData struct {
	Schema       int       `toml:"schema" json:"-"`
	DefaultBasis string    `toml:"default_basis" json:"default_basis"`
	ListPremium  Premium   `toml:"list_premium" json:"list_premium"`
	PerGPU       []GPUBand `toml:"per_gpu" json:"per_gpu"`
	CapexShare   ShareBand `toml:"capex_share" json:"capex_share"`
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

// ParsePriceData decodes and checks data/prices.toml.
func ParsePriceData(src []byte) (*PriceData, error) {
	var d PriceData
	if err := datadoc.Decode("price data", src, &d, &d.Schema); err != nil {
		return nil, err
	}
	if err := d.checkConstants(); err != nil {
		return nil, err
	}
	if err := d.checkBands(); err != nil {
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
	case d.DefaultBasis != BasisStreet && d.DefaultBasis != BasisList:
		return fmt.Errorf("price data: default_basis %q; write %q or %q", d.DefaultBasis, BasisStreet, BasisList)
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
