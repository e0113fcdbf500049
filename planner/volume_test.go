package planner

import (
	"strconv"
	"strings"
	"testing"
)

// Hand figures of the volume basis, from its sources (data/prices.toml),
// not from the code: 800G DR-class optics $380, range $350-450 (txrjy.com
// expert-call notes 2026-02-02: DR $380-400 EML, $350-360 silicon
// photonics; mffb.com.cn: up to $450 EML); every other part its street
// price x 0.75, range x 0.70-0.90 (LuxOptx: 20-30% off over 5,000 units,
// 10-20% over 1,000).
const (
	vol800GUSD, vol800GLow, vol800GHigh = 380.0, 350.0, 450.0
	volRule, volRuleLow, volRuleHigh    = 0.75, 0.70, 0.90
)

// street prices of the parts the scenarios below buy, as their sources
// give them (data/catalog.toml cites each): QM9700 $36,000 (Aug-2024
// sheet, FS variant), SN5600 $120,000 (Sesterce default 2025-09),
// ConnectX-7 $1,894 and ConnectX-8 $1,904 (retail, 2026-09), the MPO
// trunk $100 (LuxOptx midpoint of $50-150).
var volStreet = map[string]float64{"qm9700": 36000, "sn5600": 120000, "cx7-400": 1894, "cx8-800": 1904}

// On the volume basis every 800G DR-class module is priced inside its
// sourced range ($350-450, at $380) and marked as sourced, and every other
// part of the BOM at its street price less the stated rule and marked as
// the rule (an estimate), on InfiniBand and Ethernet, one and two planes,
// off the grid. The bands' basis names the rule's share. Mutations
// caught: the volume basis falling through to street (osfp-400x2 at
// $1,119); the rule left off parts without a volume price (SN5600 at
// $120,000); a volume price taken for a part it does not name; a rule
// line not flagged (VolumeRuleWords empty); cables skipping the basis
// (fiber at $100).
func TestVolumeBasisPricesOpticsInSourcedRange(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		s    Scenario
	}{
		{"NDR 1,016 GPUs", flatIB(1016)},
		{"NDR 3,000 GPUs, hall", ibScenario(3000)},
		{"800G RoCE 2 planes 2,504 GPUs", func() Scenario {
			s := NewScenario()
			s.Cluster.GPUs = 2504
			s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes, s.Network.Switch = Ethernet, 800, 2, 2, "sn5600"
			return flatLengths(s)
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			s.Pricing.Basis = BasisVolume
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Cost.Basis != BasisVolume {
				t.Fatalf("basis %q, want volume", p.Cost.Basis)
			}
			optics := 0
			for _, l := range p.BOM {
				switch street, ruled := volStreet[l.Key]; {
				case l.Key == "osfp-400x2" || l.Key == "osfp-400x2-500m" || l.Key == "osfp-800x1-dr8":
					optics++
					if l.UnitUSD != vol800GUSD || l.UnitLowUSD != vol800GLow || l.UnitHighUSD != vol800GHigh || l.VolumeRule {
						t.Errorf("%s: $%.2f ($%.2f-%.2f, rule %v), want the sourced $380 ($350-450)", l.Key, l.UnitUSD, l.UnitLowUSD, l.UnitHighUSD, l.VolumeRule)
					}
				case ruled:
					if !near(l.UnitUSD, street*volRule) || !l.VolumeRule || !l.Estimate {
						t.Errorf("%s: $%.2f (rule %v), want street $%.0f x 0.75 = $%.2f by the rule", l.Key, l.UnitUSD, l.VolumeRule, street, street*volRule)
					}
				case l.Category == CatCable:
					f := strings.Fields(l.Where)
					m, _ := strconv.ParseFloat(f[len(f)-2], 64)
					cb := cat.Cables[l.Key]
					want := (cb.PriceBaseUSD + cb.PricePerMUSD*m) * volRule
					if !near(l.UnitUSD, want) || !l.VolumeRule || !near(l.UnitLowUSD, want/volRule*cb.PriceRangeFactor[0]*volRuleLow) {
						t.Errorf("%s at %g m: $%.2f (low $%.2f, rule %v), want $%.2f by the rule", l.Key, m, l.UnitUSD, l.UnitLowUSD, l.VolumeRule, want)
					}
				default:
					if !l.VolumeRule {
						t.Errorf("%s: $%.2f, not priced by the rule though it has no volume price", l.Key, l.UnitUSD)
					}
				}
			}
			if optics == 0 {
				t.Fatal("no 800G DR-class module in the BOM: the test no longer reaches the sourced price")
			}
			if w := p.VolumeRuleWords(); !strings.Contains(w, "volume discount rule") || !strings.Contains(p.SanityBands[0].Basis, w) {
				t.Errorf("bands' basis %q does not state the rule's share %q", p.SanityBands[0].Basis, w)
			}
		})
	}
}

// A system on the volume basis is bought at its street price less the
// rule, with its NICs counted once: DGX B200 $379,273 (Delta Computer,
// 2024-12) x 0.75 = $284,454.75. Mutation caught: compute left at street
// while the fabric takes volume prices (the capex share then too low).
func TestVolumeBasisPricesSystems(t *testing.T) {
	cat := testCatalog(t)
	s := flatIB(1024)
	s.Cluster.System = "dgx-b200"
	s.Pricing.Basis = BasisVolume
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if usd, _ := p.ComputeUnitUSD(); !near(usd, 379273*volRule) {
		t.Errorf("DGX B200 at $%.2f on the volume basis, want $379,273 x 0.75 = $%.2f", usd, 379273*volRule)
	}
	s.Pricing.Basis = BasisStreet
	street, _ := Build(s, cat)
	if usd, _ := street.ComputeUnitUSD(); usd != 379273 {
		t.Errorf("DGX B200 at $%.2f on the street basis, want $379,273", usd)
	}
}

// The side networks are bought on the same basis as the back end: on the
// volume basis the out-of-band network and the management servers,
// whose parts have no volume price of their own, cost the street total
// less the rule (x 0.75), as a hand calculation over any street total
// gives. Mutation caught: the side networks priced at street on the
// volume basis (the whole cluster then mixes two bases).
func TestVolumeBasisPricesSideNetworks(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.System, s.Cluster.GPUs = "dgx-h100", 1016
	s.Network.Switch = "qm9700"
	street, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	s.Pricing.Basis = BasisVolume
	volume, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if street.Networks == nil || volume.Networks == nil {
		t.Fatal("no side networks sized")
	}
	for _, name := range []string{NetOOB, NetMgmt} {
		st, vo := street.Networks.Net(name), volume.Networks.Net(name)
		if st == nil || vo == nil || st.CostUSD <= 0 {
			t.Fatalf("%s: not sized (street %v, volume %v)", name, st, vo)
		}
		if !near(vo.CostUSD, st.CostUSD*volRule) {
			t.Errorf("%s: $%.2f on the volume basis, want street $%.2f x 0.75 = $%.2f", name, vo.CostUSD, st.CostUSD, st.CostUSD*volRule)
		}
	}
}

// A scenario's price overrides stay what the buyer pays on the volume
// basis. Mutation caught: the volume price replacing an override.
func TestVolumeBasisKeepsOverrides(t *testing.T) {
	cat := testCatalog(t)
	s := flatIB(1016)
	s.Pricing.Basis = BasisVolume
	s.Prices = map[string]float64{"osfp-400x2": 999, "qm9700": 30000}
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range p.BOM {
		if want, ok := s.Prices[l.Key]; ok && (l.UnitUSD != want || l.VolumeRule) {
			t.Errorf("%s: $%.2f (rule %v), want the override $%.0f", l.Key, l.UnitUSD, l.VolumeRule, want)
		}
	}
}

// A basis other than street, list or volume is an error naming
// pricing.basis, and the fix names all three. Mutations caught: "volume"
// rejected (left out of the accepted bases); a bad value accepted; a fix
// that does not offer volume.
func TestPriceBasisValues(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		basis string
		ok    bool
	}{{"", true}, {BasisStreet, true}, {BasisList, true}, {BasisVolume, true}, {"Volume", false}, {"hyperscale", false}, {"wholesale", false}} {
		s := flatIB(64)
		s.Pricing.Basis = tc.basis
		_, err := Build(s, cat)
		switch {
		case tc.ok && err != nil:
			t.Errorf("basis %q: %v", tc.basis, err)
		case !tc.ok && !namesField(err, "pricing.basis"):
			t.Errorf("basis %q: %v, want an error naming pricing.basis", tc.basis, err)
		case !tc.ok && !(strings.Contains(err.Error(), `"street"`) && strings.Contains(err.Error(), `"list"`) && strings.Contains(err.Error(), `"volume"`)):
			t.Errorf("basis %q: the fix %q does not offer street, list and volume", tc.basis, err)
		}
	}
}

// The price data refuses a volume rule or volume price it cannot stand
// behind. Mutations caught: a discount factor above 1 (a markup) or
// outside its range accepted; a volume price outside its own range, with
// no source or an unparseable date accepted.
func TestVolumePriceDataChecks(t *testing.T) {
	base := `schema = 1
default_basis = "street"
[list_premium]
factor = 1.5
range = [1.3, 2.22]
source = "s"
as_of = "2026-05"
[capex_share]
low = 0.13
high = 0.23
source = "s"
`
	rule := "[volume]\nfactor = 0.75\nrange = [0.7, 0.9]\nsource = \"s\"\nas_of = \"undated\"\n"
	price := "[[volume_price]]\npart = \"osfp-400x2\"\nprice_usd = %s\nprice_range_usd = [350, 450]\nprice_condition = \"analyst estimate\"\nprice_grade = \"two-source\"\nprice_date = \"%s\"\nsource = \"%s\"\n"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"good", base + rule + fill(price, "380", "2026-02", "txrjy"), ""},
		{"markup", base + strings.Replace(rule, "factor = 0.75\nrange = [0.7, 0.9]", "factor = 1.1\nrange = [0.9, 1.2]", 1), "volume factor"},
		{"factor outside range", base + strings.Replace(rule, "0.75", "0.6", 1), "volume factor"},
		{"no rule", base, "volume factor"},
		{"price outside range", base + rule + fill(price, "500", "2026-02", "txrjy"), "must lie in price_range_usd"},
		{"no source", base + rule + fill(price, "380", "2026-02", ""), "name the source"},
		{"bad date", base + rule + fill(price, "380", "Feb 2026", "txrjy"), "price_date"},
	} {
		_, err := ParsePriceData([]byte(tc.doc))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// fill puts usd, date and source into the volume_price template.
func fill(tmpl, usd, date, source string) string {
	return strings.NewReplacer("price_usd = %s", "price_usd = "+usd, "price_date = \"%s\"", "price_date = \""+date+"\"",
		"source = \"%s\"", "source = \""+source+"\"").Replace(tmpl)
}
