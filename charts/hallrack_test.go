package charts

import (
	"errors"
	"image/color"
	"math"
	"testing"

	"fabricplan/planner"
)

// The floor plan records one click target per rack, where it draws the
// rack: a target's centre is the rack's centre on the floor at one
// scale in both directions (the plan is to scale), racks one pitch
// apart (0.6 m, data/facility.toml) are that scale apart, and the
// pixel at a target's centre has the rack's own colour. Drawn for a
// file, no targets are kept. Mutations caught: targets from a copy of
// the geometry that forgot the centring offset or flipped the hall's
// length (y), a target per colour path instead of per rack, targets in
// the wrong rack's order (Index).
func TestFloorPlanRackTargets(t *testing.T) {
	in := hallInput(t, "dgx-h100", 1024)
	h := in.Plan.Hall
	fig, err := FloorPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	size := Size{900, 600, 96}
	img, targets, err := fig.ImageTargets(size, Theme{})
	if err != nil {
		t.Fatal(err)
	}
	W, H := float64(img.Bounds().Dx()), float64(img.Bounds().Dy())
	at := map[int]Target{}
	for _, g := range targets {
		if g.Name != TargetRack {
			continue
		}
		if _, dup := at[g.Index]; dup {
			t.Fatalf("rack %d has two targets", g.Index)
		}
		at[g.Index] = g
	}
	if len(at) != len(h.Racks) {
		t.Fatalf("%d rack targets, %d racks", len(at), len(h.Racks))
	}
	centre := func(i int) (x, y float64) {
		g := at[i]
		return (g.X0 + g.X1) / 2 * W, (g.Y0 + g.Y1) / 2 * H
	}
	// Pixels per metre, from the first rack and the one farthest from it.
	x0, y0 := centre(0)
	far := 0
	for i, r := range h.Racks {
		if math.Abs(r.X-h.Racks[0].X) > math.Abs(h.Racks[far].X-h.Racks[0].X) {
			far = i
		}
	}
	xf, _ := centre(far)
	scale := (xf - x0) / (h.Racks[far].X - h.Racks[0].X)
	// Racks 0.6 m apart are 0.6 m x scale apart.
	pitch := 0.6 * scale
	for i, r := range h.Racks {
		x, y := centre(i)
		wantX := x0 + (r.X-h.Racks[0].X)*scale
		wantY := y0 + (r.Y-h.Racks[0].Y)*scale // the hall's length runs down the page
		if math.Abs(x-wantX) > 1 || math.Abs(y-wantY) > 1 {
			t.Errorf("rack %s: target centre (%.1f, %.1f), want (%.1f, %.1f)", r.Name, x, y, wantX, wantY)
		}
		if w := (at[i].X1 - at[i].X0) * W; math.Abs(w-pitch) > 1 {
			t.Errorf("rack %s: target %.1f px wide, one 0.6 m pitch is %.1f px", r.Name, w, pitch)
		}
		want := color.RGBAModel.Convert(rackColour(r, h.Facility.RackKW)).(color.RGBA)
		got := color.RGBAModel.Convert(img.At(int(x), int(y))).(color.RGBA)
		if diff(got.R, want.R) > 2 || diff(got.G, want.G) > 2 || diff(got.B, want.B) > 2 {
			t.Errorf("rack %s: pixel at its target %v, its colour %v", r.Name, got, want)
		}
	}
	// A file keeps no targets.
	if _, err := fig.Bytes("png", size); err != nil {
		t.Fatal(err)
	}
}

func diff(a, b uint8) int { return int(math.Abs(float64(a) - float64(b))) }

// The floor plan with a rack selected rings it and lists its far ends
// as data; a name the hall lacks is a missing input naming the racks.
// Hand count (DGX H100, 1,024 GPUs; the default 60 kW budget over a
// DGX H100's 10.2 kW peak is 5 to a rack, 40U of the 40 free): rack
// R1-01 holds servers 1-5 of SU 1, 5 x 8 rails = 40 server-leaf links
// to the SU's leaves. Mutations caught: the selection's links not drawn from the
// given far ends, a bad name drawn as no selection without a word.
func TestFloorPlanSelectedRack(t *testing.T) {
	in := hallInput(t, "dgx-h100", 1024)
	in.Rack = "R1-01"
	fig, err := FloorPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := fig.Series("rack R1-01 links by far rack")
	if !ok {
		t.Fatal("no selection series")
	}
	sum := 0.0
	for _, v := range s.Values {
		sum += v
	}
	if sum != 40 {
		t.Errorf("R1-01 links %g (%v), want 5 servers x 8 = 40", sum, s.Labels)
	}
	if _, err := fig.Bytes("png", DefaultSize); err != nil {
		t.Fatal(err)
	}
	// Given far ends are drawn as given (the window's walk, not another).
	in.RackEnds = []planner.RackEnd{{Tier: "server_leaf", Far: 1, Lower: true, Links: 7}}
	fig, err = FloorPlan(in)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := fig.Series("rack R1-01 links by far rack"); len(s.Values) != 1 || s.Values[0] != 7 {
		t.Errorf("given far ends not drawn: %+v", s)
	}
	in.Rack, in.RackEnds = "R99-99", nil
	if _, err := FloorPlan(in); !errors.Is(err, ErrMissingInput) {
		t.Errorf("rack R99-99: err %v, want missing input", err)
	}
}
