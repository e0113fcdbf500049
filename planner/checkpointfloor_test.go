package planner

import (
	"math"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestCheckpointIntervalFloor: reliability.checkpoint_interval_min is 0
// (the optimum) or at least a second, and at most a week (10,080
// minutes). 0.66 minutes is the model's own optimum for the 100k XDR
// example (every 39 s) and must be accepted. Mutations caught: only the
// sign checked (1e-300 accepted: issue #48's 297-digit job times), 0
// refused (it means the optimum), a one-minute floor that refuses the
// model's own optimum, the floor itself refused, the field not named.
func TestCheckpointIntervalFloor(t *testing.T) {
	for _, tc := range []struct {
		min float64
		ok  bool
	}{
		{0, true}, {1.0 / 60, true}, {0.66, true}, {1, true}, {7.5, true}, {10080, true},
		{1e-300, false}, {0.5 / 60, false}, {-1, false}, {10081, false}, {math.NaN(), false}, {math.Inf(1), false},
	} {
		v := tc.min
		errs := (&ReliabilityInputs{CheckpointIntervalMin: &v}).validate()
		if tc.ok != (len(errs) == 0) {
			t.Errorf("%g minutes: errors %v, want ok %v", tc.min, errs, tc.ok)
			continue
		}
		for _, err := range errs {
			if fes := fielderr.FieldErrors(err); len(fes) != 1 || fes[0].Field != "reliability.checkpoint_interval_min" {
				t.Errorf("%g minutes: %v does not name the field", tc.min, err)
			}
		}
	}
}
