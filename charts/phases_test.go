package charts

import (
	"errors"
	"testing"

	"fabricplan/planner/phases"
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
	for _, key := range []string{phases.StrategyGrow, phases.StrategyFinal} {
		s, _ := fig.Series(key + " cumulative spend")
		// Each phase is laid out in its own hall, the last as the plan
		// (PlanPhases): a strategy spends the final plan's cost plus
		// what it retired on the way (growing, cables whose run changes
		// length as the hall grows).
		want := in.Phases.Final.Cost.Total
		for _, st := range in.Phases.Strategy(key).Steps {
			want += st.RetiredUSD
		}
		if last := s.Values[len(s.Values)-1]; !near(last, want) || s.Values[0] >= last {
			t.Errorf("%s = %v, want rising to the final plan's cost and what it retired, %v", key, s.Values, want)
		}
	}
	if _, err := Phases(Input{Plan: in.Plan}); !errors.Is(err, ErrMissingInput) {
		t.Errorf("no phased plan: err = %v, want missing input", err)
	}
}
