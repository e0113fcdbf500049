package fabric

import "testing"

// TestMinSpines: Spec.MinSpines floors the spines of a two-tier plane
// and of each three-tier pod, by hand, leaves and links unchanged. 125
// servers of 8 rails on 64-port leaves (32 down, 32 up) are 3 units and
// 29 servers: 32 leaves, 1,000 uplinks, 16 spines of 64 ports (a full
// leaf's 32 links, 2 to each). Floors of 16 or less change nothing; 32
// gives 32 (one link to each); 20 gives 20, near-balanced (strict
// balance would take 32, more than a unit's 4 spines over 20). Three
// tiers in pods of one unit (8 leaves under 32-down spines): a full
// pod's 256 uplinks on 8 spines; a floor of 16 gives 16 a pod. Mutation
// caught: the floor not passed to chooseUpper (16, 16 and 8 a pod);
// checked.
func TestMinSpines(t *testing.T) {
	base := Spec{Servers: 125, Rails: 8, Radix: 64, Down: 32, Up: 32, RatioD: 1, RatioU: 1, RailOptimized: true}
	for _, tc := range []struct {
		name         string
		tiers, pod   int
		min          int
		spinesPerPod int
		wiring       string
	}{
		{"no floor", 0, 0, 0, 16, WiringBalanced},
		{"floor below the need", 0, 0, 16, 16, WiringBalanced},
		{"32", 0, 0, 32, 32, WiringBalanced},
		{"20", 0, 0, 20, 20, WiringNear},
		{"three tiers, 16 a pod", 3, 8, 16, 16, WiringBalanced},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			s.Tiers, s.PodLeaves, s.MinSpines = tc.tiers, tc.pod, tc.min
			p, err := Size(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Layout.Pods[0].Spines; got != tc.spinesPerPod {
				t.Errorf("spines of the first pod: %d, want %d", got, tc.spinesPerPod)
			}
			if p.SpineWiring != tc.wiring {
				t.Errorf("wiring %s, want %s", p.SpineWiring, tc.wiring)
			}
			if CountSwitches(p.LeafLoads) != 32 || p.LeafSpine != 1000 {
				t.Errorf("%d leaves, %d uplinks; want 32 and 1,000", CountSwitches(p.LeafLoads), p.LeafSpine)
			}
		})
	}
}
