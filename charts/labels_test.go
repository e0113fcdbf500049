package charts

import (
	"testing"

	"gonum.org/v1/plot/vg"
)

// Segments cross only where both pass through one point inside each;
// hand-drawn cases. Mutation caught: counting segments that only share
// an end, or parallel ones, as crossing (every leader from one point
// would then block the next).
func TestSegmentsCross(t *testing.T) {
	p := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name       string
		a, b, c, d vg.Point
		want       bool
	}{
		{"an X", p(0, 0), p(10, 10), p(0, 10), p(10, 0), true},
		{"sharing an end", p(0, 0), p(10, 10), p(10, 10), p(20, 0), false},
		{"parallel", p(0, 0), p(10, 0), p(0, 5), p(10, 5), false},
		{"apart on one line", p(0, 0), p(4, 4), p(6, 6), p(10, 10), false},
		{"a T that stops short", p(0, 0), p(10, 0), p(5, 1), p(5, 10), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := segmentsCross(tc.a, tc.b, tc.c, tc.d); got != tc.want {
				t.Errorf("cross = %v, want %v", got, tc.want)
			}
		})
	}
}

// Five names for five points a few points apart (a cluster the search
// chart draws at 100k GPUs) are placed inside the page, none over
// another, and their leaders cross no other leader. Mutation caught: a
// placer that only steps names up and down on the side of their point
// (the names' leaders crossed and names collided at 100k GPUs).
func TestPlaceLabelsKeepsNamesApart(t *testing.T) {
	page := vg.Rectangle{Max: vg.Point{X: 300, Y: 200}}
	var placed []vg.Rectangle
	var leaders [][2]vg.Point
	overlaps := func(r vg.Rectangle) bool {
		for _, q := range placed {
			if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
				return true
			}
		}
		return false
	}
	crosses := func(a, b vg.Point) bool {
		for _, s := range leaders {
			if segmentsCross(a, b, s[0], s[1]) {
				return true
			}
		}
		return false
	}
	for i := range 5 {
		at := vg.Point{X: 250 + vg.Length(i)*3, Y: 100 - vg.Length(i)*4} // near the right edge
		box, end, ok := placeLabel(at, 90, 12, 7, page, overlaps, crosses, nil)
		if !ok {
			t.Fatalf("name %d found no place on a page with room", i)
		}
		if box.Min.X < page.Min.X || box.Max.X > page.Max.X || box.Min.Y < page.Min.Y || box.Max.Y > page.Max.Y {
			t.Errorf("name %d at %v leaves the page", i, box)
		}
		if overlaps(box) {
			t.Errorf("name %d at %v covers another", i, box)
		}
		if end != at && crosses(at, end) {
			t.Errorf("name %d's leader crosses another", i)
		}
		placed = append(placed, box)
		if end != at {
			leaders = append(leaders, [2]vg.Point{at, end})
		}
	}
}
