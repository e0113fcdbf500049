package hall

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
)

// Facility is a scenario's [facility] table: the data hall the cluster
// stands in. Every field left out (or 0, or "") takes the default of
// data/facility.toml, where each names its source.
type Facility struct {
	// Layout is "hall" (the default: every link measured in the hall)
	// or "flat" (no hall: each tier's links at one length, 20/50/150 m
	// unless network.media gives them).
	Layout string `toml:"layout,omitempty" json:"layout,omitempty"`
	// RackKW is the power budget of one rack, kW.
	RackKW float64 `toml:"rack_kw,omitempty" json:"rack_kw,omitempty"`
	// RackUnits is a rack's height in U; ReservedUnits of them are kept
	// for patch panels and the management switch.
	RackUnits     int `toml:"rack_units,omitempty" json:"rack_units,omitempty"`
	ReservedUnits int `toml:"reserved_units,omitempty" json:"reserved_units,omitempty"`
	// RacksPerRow caps a row, network racks included.
	RacksPerRow int     `toml:"racks_per_row,omitempty" json:"racks_per_row,omitempty"`
	RackWidthM  float64 `toml:"rack_width_m,omitempty" json:"rack_width_m,omitempty"`
	RackDepthM  float64 `toml:"rack_depth_m,omitempty" json:"rack_depth_m,omitempty"`
	ColdAisleM  float64 `toml:"cold_aisle_m,omitempty" json:"cold_aisle_m,omitempty"`
	HotAisleM   float64 `toml:"hot_aisle_m,omitempty" json:"hot_aisle_m,omitempty"`
	// TrayHeightM is the overhead cable tray's height above the floor.
	TrayHeightM float64 `toml:"tray_height_m,omitempty" json:"tray_height_m,omitempty"`
	// SlackM is added to every run between racks, RackSlackM to a link
	// inside one rack.
	SlackM     float64 `toml:"slack_m,omitempty" json:"slack_m,omitempty"`
	RackSlackM float64 `toml:"rack_slack_m,omitempty" json:"rack_slack_m,omitempty"`
	// TypicalPct is typical power as a share of peak, per cent.
	TypicalPct float64 `toml:"typical_pct,omitempty" json:"typical_pct,omitempty"`
	// LeafPlacement is "middle" or "end" (leaf racks in each row) or
	// "tor" (leaves in the compute racks); "" takes "tor" for a fabric
	// that is not rail-optimized, else the default.
	LeafPlacement string `toml:"leaf_placement,omitempty" json:"leaf_placement,omitempty"`
	// RowOrder places the spine and core rows: "network-middle",
	// "network-first" or "network-last".
	RowOrder string `toml:"row_order,omitempty" json:"row_order,omitempty"`
	// ServerKW and ServerUnits describe a custom server (no catalog
	// system): its peak power and height.
	ServerKW    float64 `toml:"server_kw,omitempty" json:"server_kw,omitempty"`
	ServerUnits int     `toml:"server_units,omitempty" json:"server_units,omitempty"`
}

// Leaf placements and row orders a [facility] table may name.
const (
	PlaceMiddle   = "middle"
	PlaceEnd      = "end"
	PlaceToR      = "tor"
	RowsNetMiddle = "network-middle"
	RowsNetFirst  = "network-first"
	RowsNetLast   = "network-last"
	LayoutHall    = "hall"
	LayoutFlat    = "flat"
)

// LeafPlacements and RowOrders list the choices, default first.
var (
	LeafPlacements = []string{PlaceMiddle, PlaceEnd, PlaceToR}
	RowOrders      = []string{RowsNetMiddle, RowsNetFirst, RowsNetLast}
	Layouts        = []string{LayoutHall, LayoutFlat}
)

// Constants are the hall model's physical constants (data/facility.toml).
type Constants struct {
	UnitM             float64 `toml:"unit_m" json:"unit_m"`
	PropagationNsPerM float64 `toml:"propagation_ns_per_m" json:"propagation_ns_per_m"`
	CopperKgPerM      float64 `toml:"copper_kg_per_m" json:"copper_kg_per_m"`
	FibreKgPerM       float64 `toml:"fibre_kg_per_m" json:"fibre_kg_per_m"`
}

// Resolve fills every field f leaves out from the defaults d; inRack
// (the design puts each leaf in its servers' rack) makes a blank leaf
// placement "tor". A nil f takes every default.
func (f *Facility) Resolve(d Facility, inRack bool) Facility {
	out := d
	if f == nil {
		f = &Facility{}
	}
	if inRack {
		out.LeafPlacement = PlaceToR
	}
	out.Layout = LayoutHall
	if f.Layout != "" {
		out.Layout = f.Layout
	}
	setF := func(dst *float64, v float64) {
		if v != 0 {
			*dst = v
		}
	}
	setI := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	setF(&out.RackKW, f.RackKW)
	setI(&out.RackUnits, f.RackUnits)
	setI(&out.ReservedUnits, f.ReservedUnits)
	setI(&out.RacksPerRow, f.RacksPerRow)
	setF(&out.RackWidthM, f.RackWidthM)
	setF(&out.RackDepthM, f.RackDepthM)
	setF(&out.ColdAisleM, f.ColdAisleM)
	setF(&out.HotAisleM, f.HotAisleM)
	setF(&out.TrayHeightM, f.TrayHeightM)
	setF(&out.SlackM, f.SlackM)
	setF(&out.RackSlackM, f.RackSlackM)
	setF(&out.TypicalPct, f.TypicalPct)
	setF(&out.ServerKW, f.ServerKW)
	setI(&out.ServerUnits, f.ServerUnits)
	if f.LeafPlacement != "" {
		out.LeafPlacement = f.LeafPlacement
	}
	if f.RowOrder != "" {
		out.RowOrder = f.RowOrder
	}
	return out
}

// Number is one numeric [facility] field: its key in the table, its
// value, the range it may take (0 takes the default) and its unit.
type Number struct {
	Key    string
	Value  float64
	Lo, Hi float64
	Unit   string
}

// Numbers lists f's numeric fields with their limits, in the table's
// order.
func (f *Facility) Numbers() []Number {
	return []Number{
		{"rack_kw", f.RackKW, 1, 2000, "kW"},
		{"rack_units", float64(f.RackUnits), 10, 60, "U"},
		{"reserved_units", float64(f.ReservedUnits), 0, 30, "U"},
		{"racks_per_row", float64(f.RacksPerRow), 2, 200, "racks"},
		{"rack_width_m", f.RackWidthM, 0.3, 2, "m"},
		{"rack_depth_m", f.RackDepthM, 0.5, 3, "m"},
		{"cold_aisle_m", f.ColdAisleM, 0.5, 10, "m"},
		{"hot_aisle_m", f.HotAisleM, 0.5, 10, "m"},
		{"tray_height_m", f.TrayHeightM, 1, 10, "m"},
		{"slack_m", f.SlackM, 0, 50, "m"},
		{"rack_slack_m", f.RackSlackM, 0, 10, "m"},
		{"typical_pct", f.TypicalPct, 1, 100, "%"},
		{"server_kw", f.ServerKW, 0.1, 200, "kW"},
		{"server_units", float64(f.ServerUnits), 1, 60, "U"},
	}
}

// Validate checks the fields a [facility] table sets (0 and "" take the
// default), naming each bad one and its fix; a nil f has none.
func (f *Facility) Validate() []error {
	if f == nil {
		return nil
	}
	var errs []error
	for _, n := range f.Numbers() {
		if n.Value == 0 {
			continue
		}
		if !(n.Value >= n.Lo && n.Value <= n.Hi) { // NaN fails
			errs = append(errs, fielderr.New("facility."+n.Key, fmt.Sprintf("give %g to %g %s, or leave it out for the default", n.Lo, n.Hi, n.Unit),
				"%g %s is out of range", n.Value, n.Unit))
		}
	}
	if f.LeafPlacement != "" && !slices.Contains(LeafPlacements, f.LeafPlacement) {
		errs = append(errs, fielderr.New("facility.leaf_placement", `write "`+strings.Join(LeafPlacements, `", "`)+`"`, "unknown placement %q", f.LeafPlacement))
	}
	if f.Layout != "" && !slices.Contains(Layouts, f.Layout) {
		errs = append(errs, fielderr.New("facility.layout", `write "hall" (links measured in the hall) or "flat" (one length per tier)`, "unknown layout %q", f.Layout))
	}
	if f.RowOrder != "" && !slices.Contains(RowOrders, f.RowOrder) {
		errs = append(errs, fielderr.New("facility.row_order", `write "`+strings.Join(RowOrders, `", "`)+`"`, "unknown row order %q", f.RowOrder))
	}
	if f.RackUnits > 0 && f.ReservedUnits >= f.RackUnits {
		errs = append(errs, fielderr.New("facility.reserved_units", fmt.Sprintf("keep fewer than the rack's %d U", f.RackUnits), "%d U reserved leaves no room", f.ReservedUnits))
	}
	return errs
}
