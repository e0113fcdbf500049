package model

import (
	"strings"
	"testing"
)

// The data-hall inputs: the default scenario is laid out; switching the
// layout off prices flat (layout = "flat") and on lays it out again; a number typed sets the [facility] field and a blank
// returns it to the data default the hint names; text that is not a
// number is reported in the words of the label and leaves the plan
// stale; a value out of the planner's range is refused with the range
// and shown as a problem on that input. Catches: a hall input that never reaches the scenario,
// a blank that stores 0 as a value shown, the toggle left on after
// "off", an error on the wrong input.
func TestHallInputs(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	if m.Plan().Hall == nil || m.Text("facility.layout") != "true" {
		t.Fatal("the default scenario is not laid out (the hall is the default)")
	}
	mustSet(t, m, "facility.layout", "false")
	settle(t, m)
	if m.Plan().Hall != nil || m.Scenario().Facility == nil || m.Scenario().Facility.Layout != "flat" {
		t.Fatal(`layout off: the plan keeps a hall, or the file would not say layout = "flat"`)
	}
	mustSet(t, m, "facility.layout", "true")
	settle(t, m)
	if m.Plan().Hall == nil {
		t.Fatal("layout on: plan has no hall")
	}
	if h := m.Hint("facility.rack_kw"); h != "data default: 60" {
		t.Errorf("hint %q", h)
	}
	mustSet(t, m, "facility.rack_kw", "40.8")
	mustSet(t, m, "facility.leaf_placement", "end")
	settle(t, m)
	if got := m.Plan().Hall.Figures; got.RackKWBudget != 40.8 || got.NodesPerRack != 4 {
		t.Errorf("rack budget %g, %d nodes a rack; want 40.8 and 4", got.RackKWBudget, got.NodesPerRack)
	}
	if m.Text("facility.rack_kw") != "40.8" || m.Text("facility.leaf_placement") != "end" {
		t.Errorf("texts %q %q", m.Text("facility.rack_kw"), m.Text("facility.leaf_placement"))
	}
	mustSet(t, m, "facility.rack_kw", "")
	if m.Text("facility.rack_kw") != "" || m.Scenario().Facility.RackKW != 0 {
		t.Errorf("blank kept %q", m.Text("facility.rack_kw"))
	}
	if _, err := m.Set("facility.racks_per_row", "ten"); err == nil || !strings.HasPrefix(err.Error(), "Racks per row: ") {
		t.Errorf("error %v", err)
	}
	if st := m.State(); st.Status != Stale {
		t.Errorf("state %v after a typing error, want stale", st.Status)
	}
	// Out of the planner's range (2 to 200 racks a row): refused as typed,
	// with the range, and shown as the input's problem.
	if _, err := m.Set("facility.racks_per_row", "1"); err == nil || !strings.Contains(err.Error(), "from 2 to 200") {
		t.Errorf("1 rack per row: error %v, want the range 2 to 200", err)
	}
	settle(t, m)
	st := m.State()
	found := false
	for _, p := range st.Problems {
		found = found || p.Key == "facility.racks_per_row"
	}
	if !found {
		t.Errorf("1 rack per row: problems %+v, want one on facility.racks_per_row", st.Problems)
	}
	mustSet(t, m, "facility.racks_per_row", "")
	mustSet(t, m, "facility.layout", "false")
	settle(t, m)
	if m.Plan().Hall != nil || m.Scenario().Facility.Layout != "flat" {
		t.Error("layout off: the plan still has a hall")
	}
}
