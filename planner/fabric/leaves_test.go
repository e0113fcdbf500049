package fabric

import (
	"slices"
	"testing"
)

// Leaves yields a plane's leaves in wiring order with their plane
// index: consecutive without rail pods, rail by rail with them (two
// pods of two leaves, two leaves a unit, one unit a rail pod: pod 0
// holds rail 0's leaves 0 and 2, pod 1 rail 1's leaves 1 and 3, worked
// by hand from LeafOf's rule). Mutations caught: next not advanced (every
// leaf index 0), k not reset per pod, the loads of another run, a yield
// after the caller stopped.
func TestLayoutLeaves(t *testing.T) {
	pods := []PodRun{{Count: 2, Leaves: []Load{{Switches: 1, Down: 3, Up: 5}, {Switches: 1, Down: 7, Up: 9}}, Spines: 4}}
	for _, tc := range []struct {
		railPods int
		want     []int
	}{
		{0, []int{0, 1, 2, 3}},
		{1, []int{0, 2, 1, 3}},
	} {
		lay := Layout{Pods: pods, LeavesPerUnit: 2, RailPods: tc.railPods}
		var got, downs []int
		for g, ld := range lay.Leaves() {
			got, downs = append(got, g), append(downs, ld.Down)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(downs, []int{3, 7, 3, 7}) {
			t.Errorf("rail pods %d: leaves %v with downs %v, want %v with 3 7 3 7", tc.railPods, got, downs, tc.want)
		}
		n := 0
		for range lay.Leaves() {
			if n++; n == 3 {
				break
			}
		}
		if n != 3 {
			t.Errorf("rail pods %d: %d leaves after a break at 3", tc.railPods, n)
		}
	}
}
