// Code generated from data/reliability.toml by go generate ./planner/resilience; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package resilience

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtReliability = &builtdoc.Doc[Reliability]{
		SHA256: "b6ec16a9e3c502241cb27483cbe0a8a3c0900888da765b7ca7118cc004d2bf8e",
		New: func() *Reliability {
			return &Reliability{
				Rates: FailureRates{
					GPU:    0.1106,
					Host:   0.3597,
					NIC:    0.00289,
					Link:   0.00684,
					Switch: 0.00612,
				},
				Recovery: Recovery{
					RestartMin:       5,
					CheckpointWriteS: 30,
					RepairHours:      24,
					SwapHours:        2,
					RecableMin:       10,
				},
			}
		},
	}
}
