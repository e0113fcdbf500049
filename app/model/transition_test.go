package model

import "testing"

// These tests act between an edit and its result (state Planning), where
// the window spends the debounce and the plan's time after every edit.

// A pin made while the new inputs are being planned pins the new inputs'
// plan under its name, never the plan still on screen. Mutation caught:
// PinCurrent taking m.plan without checking it is for the current
// generation (it pinned the 1,024-GPU plan as "2,000 GPUs").
func TestPinWhilePlanningPinsTheNewInputs(t *testing.T) {
	for _, tc := range []struct {
		name, key, text string
		gpus            int
	}{
		{"gpus", "cluster.gpus", "2,000", 2000},
		{"ratio", "network.oversubscription", "2:1", 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testModel(t)
			settle(t, m)
			shown := m.Plan()
			mustSet(t, m, tc.key, tc.text)
			if st := m.State(); st.Status != Planning {
				t.Fatalf("state %v between the edit and its plan, want Planning", st.Status)
			}
			if err := m.PinCurrent("new"); err != nil {
				t.Fatal(err)
			}
			pin := m.Pins()[0]
			if pin.Plan == shown || pin.Plan.GPUs != tc.gpus || pin.Plan.Scenario.Network.Oversubscription != m.Scenario().Network.Oversubscription {
				t.Errorf("pin %q holds a plan of %d GPUs (%s), want the new inputs' (%d GPUs, %s)", pin.Name,
					pin.Plan.GPUs, pin.Plan.Scenario.Network.Oversubscription, tc.gpus, m.Scenario().Network.Oversubscription)
			}
		})
	}
}

// A planner error belongs to the inputs it was found for: once they are
// edited, the new inputs are Planning, without the old problem, until
// their own result comes in. Mutation caught: State showing planErr
// whatever generation it came from (the "3 planes" problem stayed on
// screen for 1 plane).
func TestPlannerErrorOfEarlierInputsIsNotShown(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	mustSet(t, m, "network.planes", "3") // 8 ports do not split over 3 planes
	settle(t, m)
	if st := m.State(); st.Status != Stale || len(st.Problems) == 0 {
		t.Fatalf("state %+v, want stale with the planes problem", st)
	}
	mustSet(t, m, "network.planes", "2")
	st := m.State()
	if st.Status != Planning || len(st.Problems) != 0 || st.Banner(m.Plan()) != "" {
		t.Fatalf("state %+v banner %q after fixing the input, want Planning with no problem", st, st.Banner(m.Plan()))
	}
	settle(t, m)
	if st := m.State(); st.Status != Current || m.Plan().Scenario.Network.Planes != 2 {
		t.Errorf("state %v, plan of %d planes; want current, 2", st.Status, m.Plan().Scenario.Network.Planes)
	}
}

// Undo restores the field's text and drops its parse error. Mutation
// caught: jump keeping m.typed / m.typedErr (the field kept "lots" and
// the plan stayed stale after Undo).
func TestUndoRestoresTextAndClearsTheError(t *testing.T) {
	m := testModel(t)
	mustSet(t, m, "cluster.gpus", "2048")
	mustSet(t, m, "network.oversubscription", "2:1")
	if _, err := m.Set("cluster.gpus", "lots"); err == nil {
		t.Fatal(`"lots" GPUs parsed`)
	}
	if !m.Undo() {
		t.Fatal("nothing to undo")
	}
	if got := m.Text("cluster.gpus"); got != "2048" {
		t.Errorf("GPUs shows %q after Undo, want the scenario's 2048", got)
	}
	if st := m.State(); st.Status == Stale || len(st.Problems) != 0 {
		t.Errorf("state %+v after Undo, want the parse error gone", st)
	}
	if s := m.Scenario(); s.Network.Oversubscription != "1:1" {
		t.Errorf("Undo restored %s, want 1:1", s.Network.Oversubscription)
	}
}

// The undo history keeps the newest maxUndo steps: past the cap the
// oldest goes. Worked by hand: from 1,024 GPUs, N = maxUndo + 10 designs
// of 2,001 ... 2,000+N GPUs stack 1,024 and designs 1 ... N-1; keeping
// the newest maxUndo leaves designs 10 ... N-1, so the first Undo gives
// design N-1 and the last design 10. Mutation caught: the cap dropping
// the newest step (m.undo[:maxUndo]), which undid to 1,024 and lost the
// last edit.
func TestUndoCapDropsTheOldest(t *testing.T) {
	m := testModel(t)
	n := maxUndo + 10
	for i := 1; i <= n; i++ {
		s := m.Scenario()
		s.Cluster.GPUs = 2000 + i
		m.Replace(s)
	}
	if !m.Undo() || m.Scenario().Cluster.GPUs != 2000+n-1 {
		t.Fatalf("first undo gives %d GPUs, want %d", m.Scenario().Cluster.GPUs, 2000+n-1)
	}
	steps := 1
	for m.Undo() {
		steps++
	}
	if steps != maxUndo || m.Scenario().Cluster.GPUs != 2010 {
		t.Errorf("%d undo steps ending at %d GPUs, want %d ending at 2010", steps, m.Scenario().Cluster.GPUs, maxUndo)
	}
}

// The plan state walks None → Planning → Current → Planning → Stale →
// Planning → Current as edits and results interleave; a result that
// arrives for replaced inputs changes nothing. Mutations caught: Apply
// taking an older generation's result; State calling inputs Current
// while their plan is being made.
func TestPlanStateTransitions(t *testing.T) {
	m := testModel(t)
	type step struct {
		name string
		act  func()
		want Status
	}
	var old Result
	steps := []step{
		{"opened", func() {}, None},
		{"planned", func() { settle(t, m) }, Current},
		{"edited", func() {
			mustSet(t, m, "cluster.gpus", "3000")
			old = Evaluate(m.Gen(), m.Scenario(), m.Catalog())
		}, Planning},
		{"edited again before the result", func() { mustSet(t, m, "cluster.gpus", "5000") }, Planning},
		{"older result arrives", func() {
			if m.Apply(old) {
				t.Error("the 3,000-GPU result was applied to 5,000-GPU inputs")
			}
		}, Planning},
		{"result of the shown inputs", func() { settle(t, m) }, Current},
		{"typed text that does not parse", func() { m.Set("cluster.gpus", "5k0") }, Stale},
		{"fixed", func() { mustSet(t, m, "cluster.gpus", "6k") }, Planning},
		{"planned", func() { settle(t, m) }, Current},
	}
	for _, s := range steps {
		s.act()
		if got := m.State().Status; got != s.want {
			t.Fatalf("%s: state %v, want %v", s.name, got, s.want)
		}
	}
	if p := m.Plan(); p.GPUs != 6000 || m.Text("cluster.gpus") != "6000" { // k is a thousand
		t.Errorf("plan of %d GPUs, field %q; want 6000", p.GPUs, m.Text("cluster.gpus"))
	}
}
