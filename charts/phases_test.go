package charts

import (
	"errors"
	"testing"
)

// TestPhasesChartData: the phases chart draws each strategy's spend to
// date and links moved per phase. For 1,024 GPUs in eight-GPU servers on
// QM9700 (units of 32 servers = 256 GPUs), the default phases are 1, 2
// and 4 units; grown as you go, 8 x (32 - 4 x 4) = 128 then 16 x (32 - 8
// x 2) = 256 leaf uplinks move; built for the final size none do, and
// both end on the final plan's cost. Catches the strategies' series
// swapped, moves drawn for the final size, or spend per phase drawn
// instead of spend to date.
func TestPhasesChartData(t *testing.T) {
	in := inputs(t)["default"]
	fig, err := Phases(in)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]float64{
		"grow links moved":       {0, 128, 256},
		"final_size links moved": {0, 0, 0},
	} {
		s, ok := fig.Series(name)
		if !ok || len(s.Values) != len(want) {
			t.Fatalf("%s: %v", name, s.Values)
		}
		for i := range want {
			if s.Values[i] != want[i] {
				t.Errorf("%s = %v, want %v", name, s.Values, want)
				break
			}
		}
	}
	for _, name := range []string{"grow cumulative spend", "final_size cumulative spend"} {
		s, _ := fig.Series(name)
		// Phases are priced at flat lengths (PlanPhases), their final
		// phase as the phased plan's Final, not as the hall-laid plan.
		want := in.Phases.Final.Cost.Total
		if last := s.Values[len(s.Values)-1]; !near(last, want) || s.Values[0] >= last {
			t.Errorf("%s = %v, want rising to the final plan's %v", name, s.Values, want)
		}
	}
	if _, err := Phases(Input{Plan: in.Plan}); !errors.Is(err, ErrMissingInput) {
		t.Errorf("no phased plan: err = %v, want missing input", err)
	}
}
