package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The Layout tab: the default plan is laid out (the hall is the
// default); with the layout switched off (layout = "flat") the tab says
// so and offers to lay it out; the button lays it out (the toggle in the inputs follows), the
// figures and the floor plan show, picking another picture draws it,
// and a budget typed in the inputs changes the figures. Catches: the
// button not reaching the scenario, a tab left stale after an edit, the
// picker ignored, the inputs' toggle out of step with the tab, a tier
// picked for its runs not drawn on the floor plan.
func TestLayoutTab(t *testing.T) {
	u := newTestUI(t)
	u.WaitIdle()
	u.SelectTab(TabLayout)
	u.WaitIdle()
	lt := u.layout
	if u.m.Plan().Hall == nil || lt.enable.Visible() {
		t.Fatal("the default plan is not laid out")
	}
	u.edit("facility.layout", "false")
	u.WaitIdle()
	if !strings.Contains(lt.figures.Text, "No data-hall layout") || !lt.enable.Visible() {
		t.Fatalf("no-hall text %q, button shown %v", lt.figures.Text, lt.enable.Visible())
	}
	test.Tap(lt.enable)
	u.WaitIdle()
	if u.m.Plan().Hall == nil || lt.enable.Visible() {
		t.Fatal("after the button: no hall, or the button still shown")
	}
	if toggle := u.inputs.byKey["facility.layout"]; toggle == nil || u.m.Text("facility.layout") != "true" {
		t.Fatal("the inputs' layout toggle is not on")
	}
	if lt.view.fig == nil || lt.view.fig.Name != "floorplan" || !strings.Contains(lt.figures.Text, "racks") {
		t.Fatalf("floor plan not drawn: %v %q", lt.view.message.Text, lt.figures.Text)
	}
	// A tier picked for its runs draws them on the floor plan (the
	// transition: the plain floor plan, then the one with the runs).
	lt.runs.pick.SetSelected("Leaf-spine")
	u.WaitIdle()
	if lt.view.fig == nil || lt.view.fig.Name != "floorplan" {
		t.Fatal("picking a tier's runs lost the floor plan")
	}
	if _, ok := lt.view.fig.Series("leaf_spine links per rack pair"); !ok {
		t.Error("the floor plan does not draw the picked tier's runs")
	}
	lt.pick.SetSelected("Cable lengths")
	u.WaitIdle()
	if lt.view.fig == nil || lt.view.fig.Name != "cablelengths" {
		t.Fatal("picking cable lengths did not draw them")
	}
	typeIn(u, "facility.rack_kw", "30")
	u.WaitIdle()
	if !strings.Contains(lt.figures.Text, "budget 30 kW") {
		t.Errorf("after a 30 kW budget: %q", lt.figures.Text)
	}
}
