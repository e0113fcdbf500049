package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"fabricplan/charts"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// rackIndex is the index of the rack named name in p's hall.
func rackIndex(t *testing.T, p *planner.Plan, name string) int {
	t.Helper()
	for i, r := range p.Hall.Racks {
		if r.Name == name {
			return i
		}
	}
	t.Fatalf("no rack %s", name)
	return -1
}

// tapPos is where rack shows in the Layout tab's floor plan: the middle
// of its click target, from image fractions to the view's points.
func tapPos(t *testing.T, lt *layoutTab, rack int) fyne.Position {
	t.Helper()
	at, shown := lt.view.imageRect()
	for _, g := range lt.view.targets {
		if g.Name == charts.TargetRack && g.Index == rack {
			return at.Add(fyne.NewPos(shown.Width*float32(g.X0+g.X1)/2, shown.Height*float32(g.Y0+g.Y1)/2))
		}
	}
	t.Fatalf("rack %d has no click target", rack)
	return fyne.Position{}
}

// Clicking a rack of the floor plan lists where its links go. The
// default plan (1,024 GPUs of 8-GPU servers, 5 to a compute rack, an
// SU of 32 servers on 8 rail leaves, the leaves in the middle of the
// row) puts servers 1-5 in R1-01: 5 servers x 8 rails = 40 server-leaf
// links, all to their SU's leaves in the row's leaf rack, R1-08. The
// leaf rack R1-08 holds 16 leaves (2 SUs): 2 SUs x 32 servers x 8 =
// 512 server links down and 16 x 32 = 512 uplinks to the spine rack.
// Then, between a tap and its result, a new plan arrives (leaves at the
// end of the row): the list and the ringed rack must follow the new
// plan, never show R1-08 again. Mutations caught: a tap mapped to the
// wrong rack (the image's offset or scale ignored), far ends counted
// from one end of the links only (the leaf rack listing no server
// links), the walk's result kept after a newer plan (stale far ends),
// the selection dropped by a new plan, the chart not ringing the rack.
func TestLayoutRackClick(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabLayout)
	u.WaitIdle()
	lt := u.layout
	p := u.m.Plan()
	if p.Hall == nil || lt.view.fig == nil || lt.view.fig.Name != "floorplan" {
		t.Fatal("no floor plan drawn")
	}
	r101 := rackIndex(t, p, "R1-01")
	lt.hoverRack(tapPos(t, lt, r101), true)
	if !strings.HasPrefix(lt.hover.Text, "R1-01: compute rack") {
		t.Errorf("hover over R1-01 says %q", lt.hover.Text)
	}
	lt.hoverRack(fyne.NewPos(1, 1), true)
	if lt.hover.Text != rackHint {
		t.Errorf("hover off the racks says %q", lt.hover.Text)
	}

	lt.tapRack(tapPos(t, lt, r101))
	u.WaitIdle()
	rv := lt.rack
	if !rv.panel.Visible() || !lt.side.Visible() || !strings.HasPrefix(rv.header.Text, "Rack R1-01: compute rack, row 1, position 1; 5 nodes") {
		t.Fatalf("after a tap on R1-01: panel %v, header %q", rv.panel.Visible(), rv.header.Text)
	}
	if len(rv.rows) != 1 || !strings.HasPrefix(rv.rows[0][0], "Server-leaf to R1-08 (leaf rack, row 1): 40 links") {
		t.Fatalf("R1-01 far ends %q, want 40 server-leaf links to R1-08", rv.rows)
	}
	if s, ok := lt.view.fig.Series("rack R1-01 links by far rack"); !ok || len(s.Values) != 1 || s.Values[0] != 40 {
		t.Errorf("the floor plan does not ring R1-01 with its 40 links: %+v", s)
	}

	lt.tapRack(tapPos(t, lt, rackIndex(t, p, "R1-08")))
	u.WaitIdle()
	down, up := 0, 0
	for _, e := range rv.ends {
		switch {
		case e.Tier == "server_leaf" && !e.Lower:
			down += e.Links
		case e.Tier == "leaf_spine" && e.Lower && p.Hall.Racks[e.Far].Kind == hall.RackSpine:
			up += e.Links
		default:
			t.Errorf("R1-08: unexpected end %+v", e)
		}
	}
	if down != 512 || up != 512 {
		t.Errorf("R1-08: %d links down, %d up; want 512 and 512", down, up)
	}

	// The transition: select R1-01, then a new plan lands before the
	// walk is waited for.
	lt.tapRack(tapPos(t, lt, r101))
	u.edit("facility.leaf_placement", hall.PlaceEnd)
	u.WaitIdle()
	q := u.m.Plan()
	if q == p || q.Hall == nil {
		t.Fatal("no new plan")
	}
	leaf := ""
	for _, r := range q.Hall.Racks {
		if r.Row == 0 && r.Kind == hall.RackLeaf {
			leaf = r.Name
		}
	}
	if leaf == "" || leaf == "R1-08" {
		t.Fatalf("leaves at the end of the row: row 1's leaf rack is %q", leaf)
	}
	if rv.plan != q || rv.name != "R1-01" || len(rv.rows) != 1 || !strings.Contains(rv.rows[0][0], "to "+leaf+" ") {
		t.Fatalf("after the new plan: rack %q of the newest plan %v, rows %q; want R1-01's 40 links to %s", rv.name, rv.plan == q, rv.rows, leaf)
	}
	s, ok := lt.view.fig.Series("rack R1-01 links by far rack")
	if !ok || len(s.Labels) != 1 || s.Labels[0] != "server-leaf "+leaf {
		t.Errorf("the floor plan rings R1-01 with %+v, want its links to %s", s, leaf)
	}

	// Clear drops the ring and the panel.
	rv.clear()
	u.WaitIdle()
	if rv.panel.Visible() || lt.side.Visible() {
		t.Error("cleared, the panel still shows")
	}
	if _, ok := lt.view.fig.Series("rack R1-01 links by far rack"); ok {
		t.Error("cleared, the floor plan still rings R1-01")
	}
}
