package planner

import (
	"math"
	"testing"

	"fabricplan/planner/hall"
)

// walkUpper visits the same links as the cable map's walk, in the same
// order, with the same run, cages and racks: the bill's survey and count
// walk with it, the cable map with cableWalk, and both must see one
// fabric. Over the counted designs (every system, fabric, ratio, plane
// count, two and three tiers, odd sizes). Mutations caught: a spine's
// place taken without its pod's first spine (the spine-core runs
// differ), a leaf numbered without its plane's offset (every plane
// after the first).
func TestWalkUpperMatchesCableWalk(t *testing.T) {
	cat := testCatalog(t)
	type visit struct {
		t              int8
		run            float64
		ca, cb, ra, rb int32
	}
	for name, s := range countedCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil || p.Hall == nil || p.media == nil || p.media.sets == nil {
				t.Logf("no laid-out plan (%v): nothing to walk", err)
				return
			}
			sets := p.media.sets
			var want []visit
			w := newCableWalkOn(p, p.media)
			w.visit = func(t8 int8, run float64, ca, cb, ra, rb int32) error {
				want = append(want, visit{t8, run, ca, cb, ra, rb})
				return nil
			}
			if err := p.walkLinks(false, w.link); err != nil {
				t.Fatal(err)
			}
			i := 0
			err = p.walkUpper(sets, func(t8 int8, run float64, ca, cb, ra, rb int32) error {
				got := visit{t8, run, ca, cb, ra, rb}
				if i < len(want) && got != want[i] {
					t.Fatalf("link %d: %+v, the cable walk's %+v", i, got, want[i])
				}
				i++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if i != len(want) {
				t.Errorf("%d links visited, the cable walk's %d", i, len(want))
			}
		})
	}
}

// The upper walk measures a run from each switch's rack centre and
// drop, found once (runEnd), and must give hall.Run's very bits: between
// racks, and inside one (two spines or two cores of a rack; a leaf and
// a spine sharing one), over the counted designs. Mutations caught: the
// rack's slack taken for the hall's inside a rack, the horizontal legs
// summed before the drops are added (another rounding).
func TestUpperRunIsHallRun(t *testing.T) {
	cat := testCatalog(t)
	inside := 0
	for name, s := range countedCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil || p.Hall == nil || p.media == nil || p.media.sets == nil {
				t.Logf("no laid-out plan (%v): nothing to measure", err)
				return
			}
			h := p.Hall
			u := p.newUpperWalk(p.media.sets, nil)
			var places [3][]hall.Place
			for plane := 1; plane <= p.Planes; plane++ {
				for g := range h.LeavesPerPlane() {
					places[0] = append(places[0], h.LeafPlace(plane, g))
				}
				for j := range h.SpinesPerPlane() {
					places[1] = append(places[1], h.SpinePlace(plane, 0, j))
				}
				for i := range h.CoresPerPlane() {
					places[2] = append(places[2], h.CorePlace(plane, i))
				}
			}
			const most = 64 // ends of a tier measured, spread over it
			for ta := range places {
				for tb := ta; tb < len(places); tb++ {
					na, nb := len(places[ta]), len(places[tb])
					for i := 0; i < na; i += max(1, na/most) {
						for j := 0; j < nb; j += max(1, nb/most) {
							a, b := places[ta][i], places[tb][j]
							got, want := u.run(&u.ends[ta][i], &u.ends[tb][j]), h.Run(a, b)
							if math.Float64bits(got) != math.Float64bits(want) {
								t.Fatalf("tier %d end %d to tier %d end %d: run %v, the hall's %v", ta, i, tb, j, got, want)
							}
							if a.Rack == b.Rack && a.H != b.H {
								inside++
							}
						}
					}
				}
			}
		})
	}
	if inside == 0 {
		t.Error("no run inside one rack measured")
	}
}
