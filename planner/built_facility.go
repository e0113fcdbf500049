// Code generated from data/facility.toml by go generate ./planner; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package planner

import (
	"fabricplan/internal/builtdoc"
	"fabricplan/planner/hall"
)

func init() {
	builtFacilityData = &builtdoc.Doc[FacilityData]{
		SHA256: "70f6b277cd969d0ff889ad2e0a01aa387386c28535dca73d483162af29423f25",
		New: func() *FacilityData {
			return &FacilityData{
				Schema: 1,
				Defaults: hall.Facility{
					RackKW:        60,
					RackUnits:     42,
					ReservedUnits: 2,
					RacksPerRow:   20,
					RackWidthM:    0.6,
					RackDepthM:    1.1,
					ColdAisleM:    1.2,
					HotAisleM:     0.91,
					TrayHeightM:   2.4,
					SlackM:        2,
					RackSlackM:    0.5,
					TypicalPct:    80,
					LeafPlacement: "middle",
					RowOrder:      "network-middle",
					ServerKW:      10.2,
					ServerUnits:   8,
				},
				Constants: hall.Constants{
					UnitM:             0.04445,
					PropagationNsPerM: 5,
					CopperKgPerM:      0.045,
					FibreKgPerM:       0.009,
				},
				RackScale: RackScaleDefaults{
					SystemRackKW: true,
				},
			}
		},
	}
}
