package planner

import (
	"testing"
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
