package planner

import (
	"fmt"
	"slices"

	"fabricplan/internal/textfmt"
)

// HallFigures are a laid-out plan's facility figures.
type HallFigures struct {
	Racks       int            `json:"racks"`
	RacksByKind map[string]int `json:"racks_by_kind"`
	Rows        int            `json:"rows"`
	AreaM2      float64        `json:"area_m2"`
	// NodesPerRack is the servers (or trays) a compute rack holds.
	NodesPerRack int `json:"nodes_per_rack"`
	// RackKWBudget is the facility's budget; RackKWMax and
	// RackKWTypicalMax the hungriest rack's peak and typical draw;
	// RowKWMax the hungriest row's peak.
	RackKWBudget     float64 `json:"rack_kw_budget"`
	RackKWMax        float64 `json:"rack_kw_max"`
	RackKWTypicalMax float64 `json:"rack_kw_typical_max"`
	RowKWMax         float64 `json:"row_kw_max"`
	// RacksOverBudget counts racks whose peak exceeds the budget;
	// OverBudget names the first few.
	RacksOverBudget int      `json:"racks_over_budget"`
	OverBudget      []string `json:"over_budget,omitempty"`
	LiquidRacks     int      `json:"liquid_cooled_racks"`
	AirRacks        int      `json:"air_cooled_racks"`
	// CableKM and CableKg are the cable length and weight by medium.
	CableKM map[Medium]float64 `json:"cable_km"`
	CableKg map[Medium]float64 `json:"cable_kg"`
	// Longest is each tier's longest link against its medium's reach.
	Longest []TierLongest `json:"longest"`
	// Bins count the links by length sold, all tiers.
	Bins []LengthBin `json:"length_bins"`
}

// TierLongest is the longest link of a tier, its medium and how far
// that medium reaches.
type TierLongest struct {
	Tier   string  `json:"tier"`
	Metres float64 `json:"length_m"`
	RunM   float64 `json:"run_m"`
	Medium Medium  `json:"medium"`
	ReachM int     `json:"reach_m"`
	From   string  `json:"from_rack"`
	To     string  `json:"to_rack"`
}

// LengthBin counts links whose length sold is above the previous bin's
// bound and at most UpToM (0: beyond the last bound).
type LengthBin struct {
	UpToM float64 `json:"up_to_m"`
	Links int     `json:"links"`
}

// lengthBounds are the length bins' upper bounds, metres.
var lengthBounds = []float64{1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500}

// maxOverBudgetNames caps the racks named over budget.
const maxOverBudgetNames = 5

// rackFigures sums the racks, rows, floor, power and cooling.
func (h *Hall) rackFigures() {
	f := &h.Figures
	f.Racks, f.Rows, f.AreaM2, f.NodesPerRack = len(h.Racks), len(h.Rows), h.AreaM2, h.nodesPerRack
	f.RackKWBudget = h.Facility.RackKW
	f.RacksByKind = map[string]int{}
	for _, r := range h.Racks {
		f.RacksByKind[r.Kind]++
		f.RackKWMax = max(f.RackKWMax, r.PeakKW)
		f.RackKWTypicalMax = max(f.RackKWTypicalMax, r.TypicalKW)
		if r.PeakKW > h.Facility.RackKW+1e-9 {
			f.RacksOverBudget++
			if len(f.OverBudget) < maxOverBudgetNames {
				f.OverBudget = append(f.OverBudget, fmt.Sprintf("%s (%.1f kW)", r.Name, r.PeakKW))
			}
		}
		if r.Cooling == "liquid" {
			f.LiquidRacks++
		} else {
			f.AirRacks++
		}
	}
	for _, r := range h.Rows {
		f.RowKWMax = max(f.RowKWMax, r.PeakKW)
	}
}

// cableFigures sums cable length and weight by medium, the longest link
// of each tier and the length bins.
func (h *Hall) cableFigures(p *Plan, t *linkTally, groups []cableGroup) {
	f := &h.Figures
	k := h.Constants
	f.CableKM, f.CableKg = map[Medium]float64{}, map[Medium]float64{}
	f.Bins = make([]LengthBin, len(lengthBounds)+1)
	for i, b := range lengthBounds {
		f.Bins[i].UpToM = b
	}
	for _, g := range groups {
		n := float64(t.cables[g])
		f.CableKM[g.medium] += n * g.metres / 1000
		perM := k.FibreKgPerM
		if g.medium == DAC || g.medium == ACC {
			perM = k.CopperKgPerM
		}
		f.CableKg[g.medium] += n * g.metres * perM
		i, _ := slices.BinarySearch(lengthBounds, g.metres)
		f.Bins[i].Links += t.cables[g]
	}
	f.Longest = f.Longest[:0]
	for i := range p.LinkTiers {
		c := t.longest[tierIndex(p.LinkTiers[i].Name)]
		if c.Tier == "" {
			continue
		}
		reach := p.reachOf(c)
		f.Longest = append(f.Longest, TierLongest{Tier: c.Tier, Metres: c.Metres, RunM: c.RunM, Medium: c.Medium, ReachM: reach, From: c.ARack, To: c.BRack})
	}
}

// reachOf is how far the medium of link c reaches: the cable's reach,
// or for optics the shorter of the fibre's and its modules'.
func (p *Plan) reachOf(c CableRun) int {
	cat := p.media.cat
	if c.Medium != Optics && c.Medium != Multimode {
		return cat.Cables[string(c.Medium)].Reach(c.Gbps)
	}
	r := cat.Cables[c.Part].Reach(c.Gbps)
	for _, k := range []string{c.AModule, c.BModule} {
		if m := cat.Transceivers[k]; m != nil {
			r = min(r, m.ReachM)
		}
	}
	return r
}

// hallNotes are the plan notes a layout adds: racks over budget.
func (h *Hall) hallNotes() []string {
	f := h.Figures
	if f.RacksOverBudget == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s over the %g kW rack budget (facility.rack_kw): %s; the hungriest draws %.1f kW",
		textfmt.Plural(f.RacksOverBudget, "rack"), f.RackKWBudget, textfmt.JoinAnd(f.OverBudget), f.RackKWMax)}
}

// wireUS is the propagation delay, in microseconds, of the cables on a
// path up through every tier and down again: twice each tier's mean
// link length at the facility's ns per metre (5 ns/m, data/facility.toml).
// 0 without a hall layout.
func (p *Plan) wireUS() float64 {
	if p.Hall == nil {
		return 0
	}
	metres := 0.0
	for _, t := range p.LinkTiers {
		n, sum := 0, 0.0
		for _, r := range t.Runs {
			n += r.Links
			sum += float64(r.Links) * r.Metres
		}
		if n > 0 {
			metres += 2 * sum / float64(n)
		}
	}
	return metres * p.Hall.Constants.PropagationNsPerM / 1000
}
