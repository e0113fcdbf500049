// Code generated from data/reliability.toml by go generate ./planner/resilience; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package resilience

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtReliability = &builtdoc.Doc[Reliability]{
		SHA256: "0054b95a805ef4c61031bde5527866cc4ed51f2204c55555111f081c15761839",
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
					CheckpointStallS: 6.3,
					RepairHours:      24,
					SwapHours:        2,
					RecableMin:       10,
				},
			}
		},
	}
}
