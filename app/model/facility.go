package model

import (
	"strconv"
	"strings"

	"fabricplan/planner"
)

// facilityHint is the data default an empty [facility] number takes:
// the planner's own reading of the data file's defaults.
func (m *Model) facilityHint(key string) (string, bool) {
	f, ok := planner.FieldByKey("facility." + key)
	if !ok || m.cat.Facility == nil || (f.Kind != planner.FieldNumber && f.Kind != planner.FieldCount) {
		return "", false
	}
	def := m.cat.Facility.Defaults
	if v := f.Get(&planner.Scenario{Facility: &def}); v != "" {
		return "data default: " + v, true
	}
	return "", false
}

// reliabilityDefault is the data file's value a [reliability] override
// replaces, in cat's reliability data (set).
func reliabilityDefault(cat *planner.Catalog, key string) (float64, bool) {
	base := cat.Reliability
	by := map[string]float64{
		"spare_switches_pct":      base.Spares.SwitchesPct,
		"spare_optics_pct":        base.Spares.OpticsPct,
		"swap_hours":              base.Recovery.SwapHours,
		"repair_hours":            base.Recovery.RepairHours,
		"restart_min":             base.Recovery.RestartMin,
		"checkpoint_interval_min": base.Recovery.CheckpointInterval,
	}
	v, ok := by[strings.TrimPrefix(key, "reliability.")]
	return v, ok
}

// reliabilityHint is the data default an empty [reliability] input
// takes, in words where 0 means none or the optimum.
func (m *Model) reliabilityHint(key string) (string, bool) {
	r, ok := strings.CutPrefix(key, "reliability.")
	if !ok || m.cat.Reliability == nil {
		return "", false
	}
	def, ok := reliabilityDefault(m.cat, r)
	switch {
	case !ok:
		return "", false
	case def == 0 && strings.HasPrefix(r, "spare_"):
		return "none (data default)", true
	case def == 0 && r == "checkpoint_interval_min":
		return "optimum (data default)", true
	}
	return "data default: " + strconv.FormatFloat(def, 'f', -1, 64), true
}
