package planner

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/textfmt"
)

// Positions of a plan's figure against a published band.
const (
	BandBelow  = "below"
	BandWithin = "within"
	BandAbove  = "above"
)

// SanityCheck puts one of the plan's cost figures beside the published
// analyst band for it (data/prices.toml), with a note saying why when
// the plan falls outside.
type SanityCheck struct {
	What     string  `json:"what"`
	Value    float64 `json:"value"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Band     string  `json:"band"`
	Position string  `json:"position"` // below, within or above
	Note     string  `json:"note,omitempty"`
	Source   string  `json:"source"`
	// Basis is the price basis the plan's figure is on and the share of
	// its cost that no dated source prices (RuleWords).
	Basis string `json:"basis"`
}

// Words is the check in a line: "$4,690 per GPU without NICs, above the
// analyst band $1,700-$4,400 (two-tier era...): why".
func (c SanityCheck) Words(format func(float64) string) string {
	s := fmt.Sprintf("%s %s, %s the analyst band %s-%s (%s)", c.What, format(c.Value), c.Position, format(c.Low), format(c.High), c.Band)
	if c.Note != "" {
		s += ": " + c.Note
	}
	return s
}

// Sanity checks the plan's network cost per GPU (switches, optics and
// cables; without NICs, as the published figures count it) and the
// fabric's share of cluster capex against the bands of cat.Prices;
// nil without price data.
func (p *Plan) Sanity(cat *Catalog) []SanityCheck {
	d := cat.Prices
	if d == nil || p.GPUs == 0 {
		return nil
	}
	var out []SanityCheck
	basis := p.Cost.Basis + " basis"
	if w := p.RuleWords(cat); w != "" {
		basis += "; " + w
	}
	if w := p.VolumeRuleWords(); w != "" {
		basis += "; " + w
	}
	defer func() {
		for i := range out {
			out[i].Basis = basis
		}
	}()
	if b := d.Band(p.GPUs); b != nil {
		c := SanityCheck{What: "network cost per GPU without NICs", Value: (p.Cost.Total - p.Cost.NICs) / float64(p.GPUsBought()),
			Low: b.LowUSD, High: b.HighUSD, Band: b.Name, Source: b.Source}
		c.Position = position(c.Value, c.Low, c.High)
		c.Note = p.perGPUWhy(c.Position)
		out = append(out, c)
	}
	if sh := d.CapexShare; p.Cost.FabricShare > 0 {
		c := SanityCheck{What: "fabric share of cluster capex", Value: p.Cost.FabricShare, Low: sh.Low, High: sh.High,
			Band: "all networking of AI clusters", Source: sh.Source}
		c.Position = position(c.Value, c.Low, c.High)
		if c.Position == BandBelow {
			c.Note = "the published shares count all networking (front end, storage, NVLink in some); this plan counts the back end only"
		} else if c.Position == BandAbove {
			c.Note = p.perGPUWhy(BandAbove)
		}
		out = append(out, c)
	}
	return out
}

// RuleWords says how much of the plan's cost is priced by a stated rule
// rather than a dated source (catalog parts whose price grade is
// "estimate", neither overridden nor quoted), and which parts: "$675.0k
// (15%) of the cost priced by stated rules, no dated source: qm8700";
// "" when none is.
func (p *Plan) RuleWords(cat *Catalog) string {
	var usd float64
	var keys []string
	for _, l := range p.BOM {
		key, _, _ := strings.Cut(l.Key, "/") // a chassis part is priced by its switch's rule
		if _, over := p.Scenario.Prices[l.Key]; over || l.Quote != nil || l.TotalUSD == 0 {
			continue
		}
		if ip, ok := cat.ItemPrice(key); ok && ip.Pricing.Grade == GradeEstimate {
			usd += l.TotalUSD
			if !slices.Contains(keys, key) {
				keys = append(keys, key)
			}
		}
	}
	if usd == 0 || p.Cost.Total <= 0 {
		return ""
	}
	return fmt.Sprintf("%s (%.0f%%) of the cost priced by stated rules, no dated source: %s",
		textfmt.USD(usd), 100*usd/p.Cost.Total, strings.Join(keys, ", "))
}

// VolumeRuleWords says, on the volume basis, how much of the plan's cost
// is priced by the volume discount rule (street less a stated discount,
// an estimate) because no dated source gives the part's volume price, and
// which parts: "$1.2M (40%) at street less the volume discount rule, no
// volume source: sn5600, cx8-800"; "" on another basis or when none is.
func (p *Plan) VolumeRuleWords() string {
	if p.Cost.Basis != BasisVolume || p.Cost.Total <= 0 {
		return ""
	}
	var usd float64
	var keys []string
	for _, l := range p.BOM {
		if !l.VolumeRule || l.TotalUSD == 0 {
			continue
		}
		usd += l.TotalUSD
		if key, _, _ := strings.Cut(l.Key, "/"); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	if usd == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%.0f%%) at street less the volume discount rule, no volume source: %s",
		textfmt.USD(usd), 100*usd/p.Cost.Total, strings.Join(keys, ", "))
}

func position(v, lo, hi float64) string {
	switch {
	case v < lo:
		return BandBelow
	case v > hi:
		return BandAbove
	}
	return BandWithin
}

// perGPUWhy names what in the plan puts its cost outside a band.
func (p *Plan) perGPUWhy(pos string) string {
	switch pos {
	case BandAbove:
		if why := p.aboveWhy(); len(why) > 0 {
			return strings.Join(why, "; ")
		}
		return "the plan buys more or dearer parts per GPU than the sources' fabrics"
	case BandBelow:
		if why := p.belowWhy(); len(why) > 0 {
			return strings.Join(why, "; ")
		}
		return "the plan buys fewer or cheaper parts per GPU than the sources' fabrics"
	}
	return ""
}

// aboveWhy is what puts the plan's cost per GPU above a band: the price
// basis, optics or switches that dominate, faster NICs, or else its
// switch tiers.
func (p *Plan) aboveWhy() []string {
	net := p.Cost.Total - p.Cost.NICs
	var why []string
	if p.Cost.Basis == BasisList {
		why = append(why, "branded optics at the vendor-list premium (list basis)")
	}
	if net > 0 && p.Cost.Transceivers/net >= 0.4 && p.Cost.Basis != BasisVolume {
		why = append(why, fmt.Sprintf("optics are %.0f%% of it, at single-unit retail prices where the sources assume volume prices", 100*p.Cost.Transceivers/net))
	}
	if net > 0 && p.Cost.Switches/net >= 0.4 {
		why = append(why, p.switchShareWords(net))
	}
	if g := p.Scenario.Network.NICGbps; g > 400 {
		why = append(why, fmt.Sprintf("%dG per GPU against the sources' 400G fabrics", g))
	}
	if len(why) == 0 && p.Tiers >= 3 && p.GPUs > 0 {
		why = append(why, fmt.Sprintf("%d switch tiers: %s switches, one per %.1f GPUs", p.Tiers, textfmt.Int(p.TotalSwitches()), float64(p.GPUs)/float64(max(p.TotalSwitches(), 1))))
	}
	return why
}

// belowWhy is what puts the plan's cost per GPU below a band.
func (p *Plan) belowWhy() []string {
	net := p.Cost.Total - p.Cost.NICs
	var why []string
	if d, u, _ := LeafRatio(p.Scenario.Network.Oversubscription); d > u {
		why = append(why, "oversubscribed leaves ("+p.Scenario.Network.Oversubscription+") need fewer uplinks than the sources' non-blocking fabrics")
	}
	if p.Tiers == 1 {
		why = append(why, "one switch tier")
	}
	if net > 0 && p.Cost.Transceivers/net < 0.2 {
		why = append(why, "mostly copper links instead of optics")
	}
	return why
}

// switchShareWords says what share of net the switches take and at what
// price: one price each, or their average where the tiers run different
// models (one price would read as every tier's).
func (p *Plan) switchShareWords(net float64) string {
	each := "at %s each"
	if p.MixedSwitches() {
		each = "averaging %s a switch"
	}
	return fmt.Sprintf("switches are %.0f%% of it (%s "+each+")", 100*p.Cost.Switches/net, p.SwitchesText(),
		textfmt.USDExact(p.Cost.Switches/float64(max(p.TotalSwitches(), 1))))
}
