package planner

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/textfmt"
)

// Every catalog part names its price's condition, grade and date; a part
// without one is refused, naming the part and the key. Mutations caught:
// a loader that skips the check for one category, or an error that does
// not say which part.
func TestCatalogRequiresPriceProvenance(t *testing.T) {
	src, err := data.FS.ReadFile("catalog.toml")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	for _, tc := range []struct {
		name, entry, line, want string
	}{
		{"switch grade", "[switches.sn5600]", `price_grade = "single-source"`, "switch sn5600: missing price_grade"},
		{"switch condition", "[switches.qm9700]", `price_condition = "street"`, "switch qm9700: missing price_condition"},
		{"nic date", "[nics.cx7-400]", `price_date = "2026-09"`, "nic cx7-400: price_date"},
		{"transceiver grade", "[transceivers.osfp-400x2]", `price_grade = "two-source"`, "transceiver osfp-400x2: missing price_grade"},
		{"cable condition", "[cables.dac]", `price_condition = "street"`, "cable dac: missing price_condition"},
		{"system grade", "[systems.dgx-h100]", `price_grade = "two-source"`, "system dgx-h100: missing price_grade"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := strings.Index(doc, tc.entry)
			j := strings.Index(doc[i:], tc.line+"\n")
			if i < 0 || j < 0 {
				t.Fatalf("%s has no %s", tc.entry, tc.line)
			}
			broken := doc[:i+j] + doc[i+j+len(tc.line)+1:]
			_, err := ParseCatalog([]byte(broken))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	bad := strings.Replace(doc, `price_grade = "single-source"`, `price_grade = "good"`, 1)
	if _, err := ParseCatalog([]byte(bad)); err == nil || !strings.Contains(err.Error(), `price_grade "good"`) {
		t.Errorf("unknown grade: %v", err)
	}
	// A conversion that does not give the USD range is caught: EUR 89 at
	// 1.17 is $104, not the $60 a wrong rate of 0.67 would give.
	bad = strings.Replace(doc, "usd_per = 1.17", "usd_per = 0.67", 1)
	if _, err := ParseCatalog([]byte(bad)); err == nil || !strings.Contains(err.Error(), "cable dac: price_fx EUR") {
		t.Errorf("wrong exchange rate: %v", err)
	}
}

// Switches of equal capacity no longer share one price scaled from a
// single anchor: two switches of the same capacity price alike only when
// the same source says so. The case: at 1,024 GPUs, QM9700,
// SN5600 and Tomahawk 5 all cost exactly $4.56M. Mutation caught: any
// return to a $/Gb/s derivation (equal capacity, equal price, different
// sources).
func TestEqualCapacitySwitchesDoNotTie(t *testing.T) {
	cat := testCatalog(t)
	keys := cat.SwitchKeys()
	for i, a := range keys {
		for _, b := range keys[i+1:] {
			sa, sb := cat.Switches[a], cat.Switches[b]
			if capacityGbps(sa) != capacityGbps(sb) || sa.PriceUSD != sb.PriceUSD {
				continue
			}
			if sa.Source.Price != sb.Source.Price {
				t.Errorf("%s and %s: both %s for %d Gb/s from different sources:\n  %s\n  %s", a, b,
					textfmt.USDExact(sa.PriceUSD), capacityGbps(sa), sa.Source.Price, sb.Source.Price)
			}
		}
	}
	// The Ethernet plans of the issue: SN5600 (Sesterce default $120k)
	// and Tomahawk 5 (Sesterce V5 800GbE default $150k, LuxOptx's low
	// end): 30,000 x the switch count apart at equal counts.
	var costs []float64
	for _, sw := range []string{"sn5600", "tomahawk5"} {
		s := NewScenario()
		s.Network.Fabric, s.Network.Switch = Ethernet, sw
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		costs = append(costs, p.Cost.Switches)
		if sw == "tomahawk5" && p.Cost.Switches-costs[0] != 30000*float64(p.TotalSwitches()) {
			t.Errorf("tomahawk5 switches %s vs sn5600 %s, want $30,000 x %d more", textfmt.USD(p.Cost.Switches), textfmt.USD(costs[0]), p.TotalSwitches())
		}
	}
}

func capacityGbps(s *Switch) int {
	best := 0
	for _, g := range s.Speeds() {
		best = max(best, g*s.Radix(g))
	}
	return best
}

// The 51.2T and 102.4T Ethernet switches are priced from a dated figure,
// and a derived price says so with its arithmetic. Tomahawk 5: Sesterce's
// V5 calculator (repository HEAD 2025-10-05) prices a 64 x 800GbE
// "Ethernet RoCEv2" switch at $150,000 and LuxOptx (undated, another
// author) puts a generic 64 x 800G switch at $150k-250k: two sources, one
// dated, so "two-source", 2025-10. Tomahawk 6 (both SerDes parts): no
// source prices a 102.4T box, so the dated figure per 800G port, by hand
// $150,000 / 64 = $2,343.75, times the 128 800G ports of 102.4 Tb/s =
// $300,000, graded an estimate and dated 2025-10, the month of the figure
// it scales. Mutations caught: a Tomahawk price left "undated" or dated
// other than its figure, the derived price graded as if a source named
// it, its source line without the arithmetic.
func TestWideEthernetPricesFromDatedFigures(t *testing.T) {
	cat := testCatalog(t)
	const perPort = 150000.0 / 64 // Sesterce V5, 64 x 800GbE, 2025-10-05
	for _, tc := range []struct {
		key, grade, cond, date, says string
		usd                          float64
	}{
		{"tomahawk5", GradeTwoSource, CondTool, "2025-10", "2025-10-05", 64 * perPort},
		{"tomahawk6", GradeEstimate, CondEstimate, "2025-10", "$150,000 / 64 = $2,343.75 per 800G port x 128", 128 * perPort},
		{"tomahawk6-100g", GradeEstimate, CondEstimate, "2025-10", "$150,000 / 64 = $2,343.75 per 800G port x 128", 128 * perPort},
	} {
		sw := cat.Switches[tc.key]
		if sw == nil {
			t.Errorf("switch %s missing", tc.key)
			continue
		}
		if sw.PriceUSD != tc.usd || sw.Pricing.Date != tc.date || sw.Pricing.Grade != tc.grade || sw.Pricing.Condition != tc.cond {
			t.Errorf("%s: %s, %s, %s, %s; want %s, %s, %s, %s", tc.key, textfmt.USDExact(sw.PriceUSD), sw.Pricing.Date, sw.Pricing.Grade,
				sw.Pricing.Condition, textfmt.USDExact(tc.usd), tc.date, tc.grade, tc.cond)
		}
		if !strings.Contains(sw.Source.Price, tc.says) {
			t.Errorf("%s: source %q does not give %q", tc.key, sw.Source.Price, tc.says)
		}
	}
}

// Every grade the catalog uses agrees with its price source: a
// single-source range is labelled so and an estimate says it is one.
// Hand-picked cases from research/prices.md: the QM9700 has one dated
// source (the Aug-2024 sheet), the ConnectX-7 two retailers, the Q3400
// only a tool default, the Tomahawk 6 nothing. Mutation caught: grades
// copied across entries.
func TestPriceGrades(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		grade, cond string
		p           Pricing
		part        string
	}{
		{GradeSingleSource, CondStreet, cat.Switches["qm9700"].Pricing, "qm9700"},
		{GradeTwoSource, CondStreet, cat.NICs["cx7-400"].Pricing, "cx7-400"},
		{GradeSingleSource, CondTool, cat.Switches["q3400"].Pricing, "q3400"},
		{GradeEstimate, CondEstimate, cat.Switches["tomahawk6"].Pricing, "tomahawk6"},
		{GradeSingleSource, CondStreet, cat.Cables["dac"].Pricing, "dac"},
	} {
		if tc.p.Grade != tc.grade || tc.p.Condition != tc.cond {
			t.Errorf("%s: %s, want %s, %s", tc.part, tc.p.Label(), tc.cond, tc.grade)
		}
	}
	if got := cat.Cables["dac"].Pricing.Label(); !strings.Contains(got, "from EUR 89-149 at 1.17 USD/EUR (2025-09)") {
		t.Errorf("dac label %q names no conversion", got)
	}
	for k, s := range cat.Switches {
		if s.Pricing.Grade == GradeEstimate && !strings.HasPrefix(s.Source.Price, "estimate") && s.Pricing.Condition != CondAnalyst {
			t.Errorf("%s: graded an estimate, but its source line does not say so: %s", k, s.Source.Price)
		}
	}
}
