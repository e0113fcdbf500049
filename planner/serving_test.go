package planner

import (
	"testing"

	"fabricplan/planner/serve"
)

// TestKindFieldAddsItsTable: the window's workload.kind choice adds the
// kind's table with its defaults and drops the other's, training drops
// both and writes no kind, each result validates, and a kind not listed
// is refused. Mutations caught: the kind set without its table (the
// scenario refused); training leaving kind = "training" written out; an
// inference table kept beside kind = "rl".
func TestKindFieldAddsItsTable(t *testing.T) {
	cat := testCatalog(t)
	f, ok := FieldByKey("workload.kind")
	if !ok {
		t.Fatal("no workload.kind field")
	}
	s := NewScenario()
	for _, tc := range []struct {
		kind          string
		inference, rl bool
		writtenKind   string
	}{
		{serve.KindInference, true, false, serve.KindInference},
		{serve.KindRL, false, true, serve.KindRL},
		{serve.KindTraining, false, false, ""},
	} {
		if err := f.Set(&s, tc.kind); err != nil {
			t.Fatalf("Set(%q): %v", tc.kind, err)
		}
		if got := f.Get(&s); got != tc.kind || (s.Inference != nil) != tc.inference || (s.RL != nil) != tc.rl || s.Workload.Kind != tc.writtenKind {
			t.Errorf("%s: Get %q, inference %v, rl %v, written kind %q", tc.kind, got, s.Inference, s.RL, s.Workload.Kind)
		}
		if tc.inference && (s.Inference.InputTokens != serve.DefaultInputTokens || s.Inference.OutputTokens != serve.DefaultOutputTokens) {
			t.Errorf("inference defaults %+v", *s.Inference)
		}
		if err := s.Validate(cat); err != nil {
			t.Errorf("%s: %v", tc.kind, err)
		}
	}
	if err := f.Set(&s, "serving"); err == nil {
		t.Error("an unknown kind is taken")
	}
}
