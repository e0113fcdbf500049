package planner

import (
	"errors"
	"fmt"
	"io/fs"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
	"fabricplan/planner/hall"
)

// facilityDataKey is the facility data's file in the data directory.
const facilityDataKey = "facility.toml"

// FacilityData is data/facility.toml: the defaults of every [facility]
// field and the constants.
type FacilityData struct {
	Schema    int            `toml:"schema" json:"schema"`
	Defaults  hall.Facility  `toml:"defaults" json:"defaults"`
	Constants hall.Constants `toml:"constants" json:"constants"`
	// RackScale is how the defaults follow a rack-scale system.
	RackScale RackScaleDefaults `toml:"rack_scale" json:"rack_scale"`
}

// RackScaleDefaults say how the hall's defaults follow a rack-scale
// system (data/facility.toml [rack_scale]).
type RackScaleDefaults struct {
	// SystemRackKW makes a rack-scale system's own rack peak the rack
	// budget where the scenario gives none.
	SystemRackKW bool `toml:"system_rack_kw" json:"system_rack_kw"`
}

// hallDefaults is the hall's defaults for s: data/facility.toml's, with
// a rack-scale system's own rack peak (its watts over its racks) as the
// rack budget where [rack_scale] asks for it. A scenario's own rack_kw
// overrides it as any default (hall.Facility.Resolve).
func (s *Scenario) hallDefaults(cat *Catalog) hall.Facility {
	d := cat.Facility.Defaults
	sys := s.system(cat)
	if !cat.Facility.RackScale.SystemRackKW || sys == nil || !sys.RackScale() || sys.RackNodes <= 0 || sys.Watts <= 0 {
		return d
	}
	racks := ceilDiv(sys.Nodes, sys.RackNodes)
	d.RackKW = sys.Watts / wattsPerKW / float64(racks)
	return d
}

// loadFacility reads facility.toml from fsys; nil without one.
func loadFacility(fsys fs.FS) (*FacilityData, error) {
	src, err := fs.ReadFile(fsys, facilityDataKey)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read facility data: %w", err)
	}
	return ParseFacilityData(src)
}

// ParseFacilityData decodes and checks data/facility.toml (the shipped
// file's bytes decoded at build time, as ParseCatalog).
func ParseFacilityData(src []byte) (*FacilityData, error) {
	d, err := builtdoc.Decode(builtFacilityData, src, decodeFacilityData)
	if err != nil {
		return nil, err
	}
	k := d.Constants
	if !(k.UnitM > 0 && k.PropagationNsPerM > 0 && k.CopperKgPerM > 0 && k.FibreKgPerM > 0) {
		return nil, errors.New("facility data: every constant must be positive")
	}
	full := d.Defaults
	if full.LeafPlacement == "" || full.RowOrder == "" {
		return nil, errors.New("facility data: defaults need leaf_placement and row_order")
	}
	if errs := full.Validate(); len(errs) > 0 {
		return nil, fmt.Errorf("facility data defaults: %w", errors.Join(errs...))
	}
	for _, v := range []float64{full.RackKW, float64(full.RackUnits), float64(full.RacksPerRow), full.RackWidthM, full.RackDepthM,
		full.ColdAisleM, full.HotAisleM, full.TrayHeightM, full.SlackM, full.RackSlackM, full.TypicalPct, full.ServerKW, float64(full.ServerUnits)} {
		if v <= 0 {
			return nil, errors.New("facility data: every default must be set")
		}
	}
	return d, nil
}

// builtFacilityData is data/facility.toml decoded when the program was
// built (built_facility.go, rewritten by go generate); nil without that
// file, when the facility data is decoded from its TOML.
var builtFacilityData *builtdoc.Doc[FacilityData]

// decodeFacilityData decodes a facility data document without checking
// it.
func decodeFacilityData(src []byte) (*FacilityData, error) {
	var d FacilityData
	if err := datadoc.Decode("facility data", src, &d, &d.Schema); err != nil {
		return nil, err
	}
	return &d, nil
}

// wattsPerKW converts the catalog's watts to the hall's kW.
const wattsPerKW = 1000
