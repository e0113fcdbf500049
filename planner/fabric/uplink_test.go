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
// Mutations caught: uplinks counted by port (1:1 = as many uplinks as
// down ports: 128 each), spines sized on the 400G radix (288 ports: 2
// spines), the leaf split ignoring that an 800G port takes two 400G
// ports' lanes (144 + 144 on 288).
func TestMixedSpeedHandCount(t *testing.T) {
	cases := []struct {
		name                                  string
		k, upRadix                            int
		wantDown, wantUp                      int
		wantLeaves, wantSpines, wantLeafSpine int
	}{
		{"800G uplinks", 2, 144, 144, 72, 8, 4, 512},
		{"400G uplinks", 1, 288, 144, 144, 8, 4, 1024},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, u := MixedLeafPorts(288, tc.k, 1, 1)
			if d != tc.wantDown || u != tc.wantUp {
				t.Fatalf("leaf split %d down, %d up; want %d, %d", d, u, tc.wantDown, tc.wantUp)
			}
			spec := Spec{Servers: 128, Rails: 8, Radix: 288, Down: d, Up: u, RatioD: 1, RatioU: 1,
				RailOptimized: true, UpRadix: tc.upRadix, UpScale: tc.k}
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
