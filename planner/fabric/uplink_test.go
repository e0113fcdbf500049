package fabric

import (
	"fmt"
	"testing"
)

// TestMixedSpeedHandCount sizes 1,024 GPUs (128 servers of 8 rails) of
// 400G NIC ports on Q3400 leaves with 800G uplinks at 1:1, worked by
// hand. Q3400: 144 x 800G, split 2 x 400G = 288 x 400G. A leaf: m =
// 288 / (2 x (1+1)) = 72, so 144 x 400G down and 72 x 800G up (57.6
// Tb/s each way, all 288 lanes' worth). 128 servers fill one partial
// unit: 8 rail leaves of 128 down, each needing 128 x 400 / 800 = 64
// uplinks; 8 x 64 = 512 links at 800G over 144-port spines: ceil(512 /
// 144) = 4 spines, 16 links from each leaf to each (balanced). At 400G
// uplinks the same leaves need 128 uplinks each, 1,024 links over
// 288-port spines: 4 spines again, twice the links.
// Slower uplinks, QM9700-like (64 x 400G or 128 x 200G): 400G server
// ports and 200G uplinks weigh 2:1, m = 64 / (1 x 2) = 32, so a leaf is
// 32 x 400G down and 64 x 200G up (12.8 Tb/s each way). 128 servers are
// 4 full units of 8 rail leaves: 32 leaves x 64 = 2,048 links at 200G
// over 128-port spines: 16 spines, 4 links from each leaf to each. At
// 400G uplinks: 32 down, 32 up, 1,024 links over 64-port spines, 16
// spines.
// Mutations caught: uplinks counted by port (1:1 = as many uplinks as
// down ports: 128 each), spines sized on the 400G radix (288 ports: 2
// spines), the leaf split ignoring that an 800G port takes two 400G
// ports' lanes (144 + 144 on 288), and slower uplinks counted by port
// (32 down, 32 up at 200G: a 2:1 leaf sold as 1:1).
func TestMixedSpeedHandCount(t *testing.T) {
	cases := []struct {
		name                                  string
		w                                     Weights
		radix, upRadix                        int
		wantDown, wantUp                      int
		wantLeaves, wantSpines, wantLeafSpine int
	}{
		{"800G uplinks", Weights{1, 2}, 288, 144, 144, 72, 8, 4, 512},
		{"400G uplinks", Weights{1, 1}, 288, 288, 144, 144, 8, 4, 1024},
		{"200G uplinks below 400G ports", Weights{2, 1}, 64, 128, 32, 64, 32, 16, 2048},
		{"400G uplinks on 64 ports", Weights{1, 1}, 64, 64, 32, 32, 32, 16, 1024},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, u := SplitPorts(tc.radix, tc.w, 1, 1)
			if d != tc.wantDown || u != tc.wantUp {
				t.Fatalf("leaf split %d down, %d up; want %d, %d", d, u, tc.wantDown, tc.wantUp)
			}
			spec := Spec{Servers: 128, Rails: 8, Radix: tc.radix, Down: d, Up: u, RatioD: 1, RatioU: 1,
				RailOptimized: true, UpRadix: tc.upRadix, LeafW: tc.w}
			pl, err := Size(spec)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(pl.Tiers, CountSwitches(pl.LeafLoads), CountSwitches(pl.SpineLoads), pl.LeafSpine, pl.ServerLeaf)
			want := fmt.Sprint(2, tc.wantLeaves, tc.wantSpines, tc.wantLeafSpine, 1024)
			if got != want {
				t.Errorf("tiers, leaves, spines, leaf-spine links, server links = %s, want %s", got, want)
			}
		})
	}
}

// TestSplitPortsByBandwidth splits switches by hand. 64 x 400G (128 x
// 200G) at 1:1 with 200G uplinks: weights 2:1, m = 64 / (1 x 2) = 32,
// so 32 x 400G down, 64 x 200G up (12.8 Tb/s each way). 144 x 800G at
// 1:1 with 400G uplinks: weights 2:1, m = 72: 72 down, 144 up. 256 x
// 200G at 3:1 with 800G uplinks: weights 1:4, m = 256 / (4 x 4) = 16:
// 192 x 200G down (38.4 Tb/s), 16 x 800G up (12.8 Tb/s), 3:1. A spine
// of 288 x 400G with 800G core uplinks at 7:1: weights 1:2, m = 288 /
// (2 x 8) = 18: 252 x 400G down (100.8 Tb/s), 18 x 800G up (14.4 Tb/s),
// 7:1, all 115.2 Tb/s of lanes.
// Mutations caught: up ports counted at the down speed (64 x 200G seen
// as 32), the weights swapped (128 x 400G down on a 64-port switch),
// the ratio applied to ports rather than Gb/s (3:1 as 192 down, 64 up).
func TestSplitPortsByBandwidth(t *testing.T) {
	cases := []struct {
		name             string
		radix            int
		downG, upG       int
		d, u             int
		wantDown, wantUp int
	}{
		{"400G down, 200G up, 1:1", 64, 400, 200, 1, 1, 32, 64},
		{"800G down, 400G up, 1:1", 144, 800, 400, 1, 1, 72, 144},
		{"200G down, 800G up, 3:1", 256, 200, 800, 3, 1, 192, 16},
		{"400G down, 800G up, 7:1", 288, 400, 800, 7, 1, 252, 18},
		{"same speed, 1:1", 64, 400, 400, 1, 1, 32, 32},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := WeightsOf(tc.downG, tc.upG)
			d, u := SplitPorts(tc.radix, w, tc.d, tc.u)
			if d != tc.wantDown || u != tc.wantUp {
				t.Fatalf("split %d down, %d up; want %d, %d", d, u, tc.wantDown, tc.wantUp)
			}
			if d*tc.downG*tc.u != u*tc.upG*tc.d {
				t.Errorf("%d x %dG : %d x %dG is not %d:%d in bandwidth", d, tc.downG, u, tc.upG, tc.d, tc.u)
			}
			if lanes := d*tc.downG + u*tc.upG; lanes > tc.radix*tc.downG {
				t.Errorf("%d Gb/s of ports on a %d Gb/s switch", lanes, tc.radix*tc.downG)
			}
		})
	}
}

// TestCoreSpeedHandCount sizes one three-tier plane by hand with faster
// spine-to-core ports. A 51.2T switch: 256 x 200G, 128 x 400G. 32,768
// servers of one 200G port (top-of-rack, one leaf a unit): leaves 128
// down, 128 up; 256 leaves. A spine at 200G down and 400G up (weights
// 1:2) splits m = 256 / (2 x 2) = 64: 128 x 200G down, 64 x 400G up. A
// pod is 128 leaves under 128 spines (one link from each leaf to each),
// so 2 pods, 256 spines; each spine sends ceil(128 x 200 / 400) = 64
// links Up: 16,384 spine-core links at 400G. Core group j takes spine j
// of both pods, 2 x 64 = 128 links, one 128-port core: 128 cores. At
// one speed: spines 128 down, 128 up, 32,768 spine-core links over
// 256-port cores, again 1 core a group, 128 cores.
// Mutations caught: the core sized at the uplink-speed radix (256
// ports: 64 cores at 400G), spines sending as many links up as they
// take down (32,768 at 400G: 2:1 under-subscribed, twice the optics),
// the spine split by ports (128 + 128 at mixed speeds on 256 lanes).
func TestCoreSpeedHandCount(t *testing.T) {
	cases := []struct {
		name                            string
		coreRadix                       int
		spineW                          Weights
		leaves, spines, cores           int
		leafSpine, spineCore, spineDown int
	}{
		{"400G cores", 128, Weights{1, 2}, 256, 256, 128, 32768, 16384, 128},
		{"200G cores", 0, Weights{}, 256, 256, 128, 32768, 32768, 128},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec{Servers: 32768, Rails: 1, Radix: 256, Down: 128, Up: 128, RatioD: 1, RatioU: 1,
				Tiers: 3, UpRadix: 256, CoreRadixAt: tc.coreRadix, SpineW: tc.spineW}
			pl, err := Size(spec)
			if err != nil {
				t.Fatal(err)
			}
			sd, _ := spec.SpinePorts()
			got := fmt.Sprint(pl.Tiers, CountSwitches(pl.LeafLoads), CountSwitches(pl.SpineLoads), CountSwitches(pl.CoreLoads), pl.LeafSpine, pl.SpineCore, sd)
			want := fmt.Sprint(3, tc.leaves, tc.spines, tc.cores, tc.leafSpine, tc.spineCore, tc.spineDown)
			if got != want {
				t.Errorf("tiers, leaves, spines, cores, leaf-spine, spine-core links, spine down ports = %s, want %s", got, want)
			}
		})
	}
}
