// Code generated from data/prices.toml by go generate ./planner; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package planner

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtPriceData = &builtdoc.Doc[PriceData]{
		SHA256: "faab2e70ba2ec2586b7b8a31b24433708b526d88090609cdb2f6029b561b3967",
		New: func() *PriceData {
			return &PriceData{
				Schema:       1,
				DefaultBasis: "street",
				ListPremium: Premium{
					Factor: 1.5,
					Range:  [2]float64{1.3, 2.22},
					Source: "Ascent Optics 'OSFP NVIDIA InfiniBand' blog (2026-05-14): third-party optics 55% below NVIDIA list (2.22x); LuxOptx 800G TCO blog (undated): OEM premium 30-50%",
					AsOf:   "2026-05",
				},
				PerGPU: []GPUBand{{
					Name:    "400G fabrics up to 16,384 GPUs",
					MaxGPUs: 16384,
					LowUSD:  1700,
					HighUSD: 4400,
					Source:  "yobitel 'InfiniBand NDR' KB (2026): 1,024-GPU NDR fat tree, switches $0.55-0.75M + optics $1.2-1.6M = $1.7k-2.3k per GPU; DeepSeek-V3 ISCA'25 (arXiv 2505.09343, May 2025): two-layer multi-plane fat tree $72M for 16,384 endpoints = $4.39k; the Aug-2024 'H100 Freakonomics' sheet's $1.9k-4.2k lies inside",
				}, {
					Name:    "400G fabrics over 16,384 GPUs",
					MinGPUs: 16385,
					LowUSD:  5800,
					HighUSD: 7500,
					Source:  "DeepSeek-V3 ISCA'25 (arXiv 2505.09343, May 2025): Dragonfly $5.8k and three-layer fat tree $7.5k per endpoint; the Aug-2024 'H100 Freakonomics' sheet's $6.6k at 32,768+ GPUs lies inside",
				}},
				CapexShare: ShareBand{
					Low:    0.13,
					High:   0.23,
					Source: "Bernstein (S. Rasgon, late Oct 2025): networking ~13% of a GB200 NVL72 AI data centre's capex; Morgan Stanley (post of 2026-05-08): 19-23% of a 1 GW build; Epoch AI 19% and American Compute ~20% lie inside. Scope differs: these count all networking (front end, NVLink in some), a plan counts the back end only",
				},
				Volume: Premium{
					Factor: 0.75,
					Range:  [2]float64{0.7, 0.9},
					Source: "LuxOptx '800G Optical Module Cost Analysis: TCO Optimization for AI Data Centers' blog (undated): 'Volume Discounts: 10-20% discount for orders >1000 units, 20-30% for >5000 units'; street x 0.70-0.90, the point 0.75 the middle of the >5,000-unit band; an optics figure applied to every part without a volume price of its own",
					AsOf:   "undated",
				},
				VolumePrices: []VolumePrice{{
					Part:      "osfp-400x2",
					USD:       380,
					RangeUSD:  [2]float64{350, 450},
					Condition: "analyst estimate",
					Grade:     "two-source",
					Date:      "2026-02",
					Source:    "txrjy.com '800G和1.6T光模块调研纪要' (2026-02-02, industry expert-call notes): 800G DR $380-400 EML, $350-360 silicon photonics; mffb.com.cn 800G/1.6T notes (undated, on 2026 shipments): $350-380 silicon photonics, $420-450 EML",
				}, {
					Part:      "osfp-400x2-500m",
					USD:       380,
					RangeUSD:  [2]float64{350, 450},
					Condition: "analyst estimate",
					Grade:     "two-source",
					Date:      "2026-02",
					Source:    "as osfp-400x2 (the 500 m 2 x DR4 is the same DR-class 800G module): txrjy.com '800G和1.6T光模块调研纪要' (2026-02-02): 800G DR $380-400 EML, $350-360 silicon photonics; mffb.com.cn (undated): $350-380 silicon photonics, $420-450 EML",
				}, {
					Part:      "osfp-800x1-dr8",
					USD:       380,
					RangeUSD:  [2]float64{350, 450},
					Condition: "analyst estimate",
					Grade:     "two-source",
					Date:      "2026-02",
					Source:    "as osfp-400x2 (an 800G DR8 of 8 x 100G lanes): txrjy.com '800G和1.6T光模块调研纪要' (2026-02-02): 800G DR $380-400 EML, $350-360 silicon photonics; mffb.com.cn (undated): $350-380 silicon photonics, $420-450 EML",
				}, {
					Part:      "osfp-800x2",
					USD:       1200,
					RangeUSD:  [2]float64{900, 1300},
					Condition: "analyst estimate",
					Grade:     "two-source",
					Date:      "2026-02",
					Source:    "txrjy.com '800G和1.6T光模块调研纪要' (2026-02-02): 1.6T DR $1,200-1,300 EML, $1,100-1,200 silicon photonics; mffb.com.cn (undated): $900 silicon photonics, $1,000-1,100 EML; icxsoft.com (2025-10-05): NVIDIA pushing 1.6T from about $1,500 toward $1,000",
				}, {
					Part:      "osfp-1600x1",
					USD:       1200,
					RangeUSD:  [2]float64{900, 1300},
					Condition: "analyst estimate",
					Grade:     "two-source",
					Date:      "2026-02",
					Source:    "as osfp-800x2 (a 1.6T DR8 of 8 x 200G lanes): txrjy.com (2026-02-02): 1.6T DR $1,200-1,300 EML, $1,100-1,200 silicon photonics; mffb.com.cn (undated): $900-1,100",
				}},
			}
		},
	}
}
