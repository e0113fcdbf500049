package model

import (
	"fmt"
	"strconv"
	"strings"

	"fabricplan/planner"
)

// GroupHall is the inputs section of the data-hall layout.
const GroupHall = "Data hall"

// Choice labels of the hall's placement inputs.
const (
	HallDefault = "default"
	hallOn      = "facility.layout"
)

// hallField is one numeric [facility] input: its key, label and where
// it lives in planner.Facility.
type hallField struct {
	key, label string
	float      func(*planner.Facility) *float64
	integer    func(*planner.Facility) *int
}

var hallFields = []hallField{
	{key: "rack_kw", label: "Rack power budget (kW)", float: func(f *planner.Facility) *float64 { return &f.RackKW }},
	{key: "racks_per_row", label: "Racks per row", integer: func(f *planner.Facility) *int { return &f.RacksPerRow }},
	{key: "rack_units", label: "Rack height (U)", integer: func(f *planner.Facility) *int { return &f.RackUnits }},
	{key: "reserved_units", label: "Units reserved per rack", integer: func(f *planner.Facility) *int { return &f.ReservedUnits }},
	{key: "rack_width_m", label: "Rack width (m)", float: func(f *planner.Facility) *float64 { return &f.RackWidthM }},
	{key: "rack_depth_m", label: "Rack depth (m)", float: func(f *planner.Facility) *float64 { return &f.RackDepthM }},
	{key: "cold_aisle_m", label: "Cold aisle (m)", float: func(f *planner.Facility) *float64 { return &f.ColdAisleM }},
	{key: "hot_aisle_m", label: "Hot aisle (m)", float: func(f *planner.Facility) *float64 { return &f.HotAisleM }},
	{key: "tray_height_m", label: "Cable tray height (m)", float: func(f *planner.Facility) *float64 { return &f.TrayHeightM }},
	{key: "slack_m", label: "Slack per run between racks (m)", float: func(f *planner.Facility) *float64 { return &f.SlackM }},
	{key: "rack_slack_m", label: "Slack per link in a rack (m)", float: func(f *planner.Facility) *float64 { return &f.RackSlackM }},
	{key: "typical_pct", label: "Typical power (% of peak)", float: func(f *planner.Facility) *float64 { return &f.TypicalPct }},
	{key: "server_kw", label: "Custom server power (kW)", float: func(f *planner.Facility) *float64 { return &f.ServerKW }},
	{key: "server_units", label: "Custom server height (U)", integer: func(f *planner.Facility) *int { return &f.ServerUnits }},
}

func init() {
	fields = append(fields,
		Field{Key: hallOn, Label: "Lay out in a data hall (lengths and media per link)", Kind: Toggle, Group: GroupHall},
		Field{Key: "facility.leaf_placement", Label: "Leaf racks", Kind: Choice, Group: GroupHall},
		Field{Key: "facility.row_order", Label: "Spine and core rows", Kind: Choice, Group: GroupHall})
	for _, h := range hallFields {
		fields = append(fields, Field{Key: "facility." + h.key, Label: h.label, Kind: Text, Group: GroupHall})
	}
}

func hallFieldOf(key string) (hallField, bool) {
	for _, h := range hallFields {
		if h.key == key {
			return h, true
		}
	}
	return hallField{}, false
}

// applyFacility sets one [facility] input; any value but the toggle off
// lays the plan out in a hall. Blank takes the data default.
func (m *Model) applyFacility(s *planner.Scenario, key, text string) error {
	if key == "layout" {
		switch text {
		case "true":
			if s.Facility == nil {
				s.Facility = &planner.Facility{}
			}
			if s.Facility.Layout == planner.LayoutFlat {
				s.Facility.Layout = ""
			}
		case "false":
			s.Facility = nil
		default:
			return fmt.Errorf("%q is not on or off", text)
		}
		return nil
	}
	f := planner.Facility{}
	if s.Facility != nil {
		f = *s.Facility
	}
	defer func() { s.Facility = &f }()
	switch key {
	case "leaf_placement", "row_order":
		v := text
		if v == HallDefault {
			v = ""
		}
		if key == "leaf_placement" {
			f.LeafPlacement = v
		} else {
			f.RowOrder = v
		}
		return nil
	}
	h, ok := hallFieldOf(key)
	if !ok {
		return fmt.Errorf("no input %q", "facility."+key)
	}
	if h.integer != nil {
		n := 0
		if text != "" {
			v, err := strconv.Atoi(strings.ReplaceAll(text, ",", ""))
			if err != nil {
				return fmt.Errorf("%q is not a whole number", text)
			}
			n = v
		}
		*h.integer(&f) = n
		return nil
	}
	v := 0.0
	if text != "" {
		x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(text), " m"), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", text)
		}
		v = x
	}
	*h.float(&f) = v
	return nil
}

// facilityText is the text a [facility] input shows.
func facilityText(s planner.Scenario, key string) string {
	f := s.Facility
	switch key {
	case "layout":
		return strconv.FormatBool(f != nil && f.Layout != planner.LayoutFlat)
	case "leaf_placement", "row_order":
		v := ""
		if f != nil {
			v = f.LeafPlacement
			if key == "row_order" {
				v = f.RowOrder
			}
		}
		if v == "" {
			return HallDefault
		}
		return v
	}
	h, ok := hallFieldOf(key)
	if !ok || f == nil {
		return ""
	}
	if h.integer != nil {
		if n := *h.integer(f); n != 0 {
			return strconv.Itoa(n)
		}
		return ""
	}
	if v := *h.float(f); v != 0 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// facilityHint is the data default an empty [facility] input takes.
func (m *Model) facilityHint(key string) (string, bool) {
	d := m.cat.Facility
	h, ok := hallFieldOf(key)
	if !ok || d == nil {
		return "", false
	}
	def := d.Defaults
	if h.integer != nil {
		return "data default: " + strconv.Itoa(*h.integer(&def)), true
	}
	return "data default: " + strconv.FormatFloat(*h.float(&def), 'f', -1, 64), true
}

// facilityOptions lists the choices of the placement inputs.
func facilityOptions(key string) ([]string, bool) {
	switch key {
	case "facility.leaf_placement":
		return append([]string{HallDefault}, planner.LeafPlacements...), true
	case "facility.row_order":
		return append([]string{HallDefault}, planner.RowOrders...), true
	}
	return nil, false
}
