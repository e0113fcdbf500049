package fabric

import (
	"reflect"
	"sync"
	"testing"
)

// TestSizeConcurrent sizes specs that differ in one field each (tiers,
// spine ratio, pod shape, rail pods, uplink and core speeds) from eight
// goroutines at once, twice each, and holds every answer to a sizing of
// the same spec on one goroutine. Mutations caught: state shared between
// sizings (a memo or a scratch buffer: the race detector, go test
// -race, or another spec's plane), an error lost (a no-fit answered
// with a plane).
func TestSizeConcurrent(t *testing.T) {
	base := Spec{Servers: 700, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true}
	specs := []Spec{base}
	for _, edit := range []func(*Spec){
		func(s *Spec) { s.Tiers = 3 },
		func(s *Spec) { s.Tiers = 2 }, // does not fit: 700 x 8 ports exceed two tiers of 64
		func(s *Spec) { s.Tiers, s.SpineD, s.SpineU = 3, 3, 1 },
		func(s *Spec) { s.Tiers, s.PodLeaves = 3, 16 },
		func(s *Spec) { s.Tiers, s.PodLeaves, s.RailPods = 3, 16, true },
		func(s *Spec) { s.UpRadix, s.LeafW, s.Down, s.Up = 32, Weights{1, 2}, 32, 16 },
		func(s *Spec) { s.Tiers, s.CoreRadixAt, s.SpineW = 3, 32, Weights{1, 2} },
		func(s *Spec) { s.RailOptimized, s.Rails = false, 1 },
		func(s *Spec) { s.Servers = 701 },
	} {
		s := base
		edit(&s)
		specs = append(specs, s)
	}
	for n := 1; len(specs) < 40; n++ {
		s := base
		s.Servers = 1000 + n
		specs = append(specs, s)
	}
	type sizing struct {
		plane Plane
		err   error
	}
	want := make([]sizing, len(specs))
	for i, s := range specs {
		pl, err := size(s)
		want[i] = sizing{pl, err}
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pass := 0; pass < 2; pass++ {
				for k := range specs {
					i := (k + g*37) % len(specs) // each goroutine its own order
					pl, err := Size(specs[i])
					if !reflect.DeepEqual(pl, want[i].plane) || (err == nil) != (want[i].err == nil) {
						t.Errorf("spec %d %+v: Size gave %d tiers, err %v; sizing gives %d, %v", i, specs[i], pl.Tiers, err, want[i].plane.Tiers, want[i].err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if want[2].err == nil {
		t.Errorf("700 servers x 8 rails in two tiers of 64-port switches sized; the test needs a no-fit spec")
	}
}
