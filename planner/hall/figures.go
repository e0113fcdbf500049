package hall

import (
	"fmt"
	"slices"

	"fabricplan/internal/textfmt"
)

// Figures are a laid-out plan's facility figures: the racks, rows,
// floor, power and cooling the layout sums, and the cables the planner
// measures in it (see AddCables).
type Figures struct {
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
	// CableKM and CableKg are the cable length and weight by medium
	// (the planner's medium names).
	CableKM map[string]float64 `json:"cable_km"`
	CableKg map[string]float64 `json:"cable_kg"`
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
	Medium string  `json:"medium"`
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
	h.startFigures()
	for i := range h.Racks {
		h.addRackFigures(&h.Racks[i])
	}
	h.Figures.Racks = len(h.Racks)
	h.endFigures()
}

// startFigures starts the figures before the racks are added
// (addRackFigures).
func (h *Hall) startFigures() {
	f := &h.Figures
	f.NodesPerRack, f.RackKWBudget = h.nodesPerRack, h.Facility.RackKW
	f.RacksByKind = map[string]int{}
	h.kindRacks = [len(rackKinds)]int{}
}

// rackKinds are the kinds of rack, in the order kindRacks counts them.
var rackKinds = [...]string{RackCompute, RackLeaf, RackSpine, RackCore}

// addRackFigures adds rack r, its draw set, to the figures (a rack over
// budget by its name, from its row and slot if it has none yet).
func (h *Hall) addRackFigures(r *Rack) {
	f := &h.Figures
	if i := slices.Index(rackKinds[:], r.Kind); i >= 0 {
		h.kindRacks[i]++ // a hall's thousands of racks skip the map
	} else {
		f.RacksByKind[r.Kind]++
	}
	h.addDraw(r.PeakKW, r.TypicalKW, r.Cooling, 1, func(int) string {
		if r.Name != "" {
			return r.Name
		}
		return rackName(r.Row+1, r.Slot+1)
	})
}

// addDraw adds k racks of one draw (peak and typical kW) and cooling to
// the figures: the highest draws, the racks over budget (the j-th named
// name(j), while names are kept) and the racks by cooling.
func (h *Hall) addDraw(peak, typical float64, cooling string, k int, name func(j int) string) {
	f := &h.Figures
	f.RackKWMax = max(f.RackKWMax, peak)
	f.RackKWTypicalMax = max(f.RackKWTypicalMax, typical)
	if peak > h.Facility.RackKW+1e-9 {
		f.RacksOverBudget += k
		for j := 0; j < k && len(f.OverBudget) < maxOverBudgetNames; j++ {
			f.OverBudget = append(f.OverBudget, fmt.Sprintf("%s (%.1f kW)", name(j), peak))
		}
	}
	if cooling == "liquid" {
		f.LiquidRacks += k
	} else {
		f.AirRacks += k
	}
}

// endFigures ends the figures once every rack is added and the floor
// laid out: the rows, their draw and the floor's area.
func (h *Hall) endFigures() {
	f := &h.Figures
	f.Rows, f.AreaM2 = len(h.Rows), h.AreaM2
	for i, n := range h.kindRacks {
		if n > 0 {
			f.RacksByKind[rackKinds[i]] = n
		}
	}
	for _, r := range h.Rows {
		f.RowKWMax = max(f.RowKWMax, r.PeakKW)
	}
}

// Cables are links of one medium and one length sold.
type Cables struct {
	Medium string  // the planner's medium name
	Copper bool    // copper (DAC, ACC), weighed as copper; else fibre
	Metres float64 // the length sold
	Links  int
}

// AddCables sums the cable length and weight of groups by medium (at
// the constants' kg per metre of copper or fibre) and counts their
// links by length sold, in the bins up to 1, 2, 3, 5, 10, 20, 30, 50,
// 100, 200 and 500 m and beyond.
func (h *Hall) AddCables(groups []Cables) {
	f := &h.Figures
	k := h.Constants
	f.CableKM, f.CableKg = map[string]float64{}, map[string]float64{}
	f.Bins = make([]LengthBin, len(lengthBounds)+1)
	for i, b := range lengthBounds {
		f.Bins[i].UpToM = b
	}
	for _, g := range groups {
		n := float64(g.Links)
		f.CableKM[g.Medium] += n * g.Metres / 1000
		perM := k.FibreKgPerM
		if g.Copper {
			perM = k.CopperKgPerM
		}
		f.CableKg[g.Medium] += n * g.Metres * perM
		i, _ := slices.BinarySearch(lengthBounds, g.Metres)
		f.Bins[i].Links += g.Links
	}
}

// Notes are the plan notes a layout adds: racks over budget.
func (h *Hall) Notes() []string {
	f := h.Figures
	if f.RacksOverBudget == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s over the %g kW rack budget (facility.rack_kw): %s; the hungriest draws %.1f kW",
		textfmt.Plural(f.RacksOverBudget, "rack"), f.RackKWBudget, textfmt.JoinAnd(f.OverBudget), f.RackKWMax)}
}
