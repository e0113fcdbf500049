// Code generated from data/facility.toml by go generate ./planner; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package planner

import (
	"fabricplan/internal/builtdoc"
	"fabricplan/planner/hall"
)

func init() {
	builtFacilityData = &builtdoc.Doc[FacilityData]{
		SHA256: "1a730accebb32382df3227dd20e8c9443cb97c30ec18e07c76ff4b71770ed5e6",
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
			}
		},
	}
}
