package sidenet

import "testing"

// TestSizeLeafSpine works the side-network rule by hand. In-band of the
// SuperPOD: 290 ports on SN4600C (64 x 100G), 2 ports to the leaf pair,
// 62 left at 15:1 = 58 down + 4 up: 5 leaves, paired 6; the ports spread
// 49, 49, 48, 48, 48, 48, each needing 4 uplinks: 24 on one spine pair;
// 6 ISL (RA-11333-001 Table 8: 6 ISL and 24 leaf-core cables). Storage
// (Table 8): 254 DGX ports at 4:3 (36 down, 27 up a full leaf) on 8
// leaves, spread 32 x 6 and 31 x 2, each cabling 24 uplinks (ceil(32 x
// 3/4) = ceil(31 x 3/4) = 24): 192; 48 storage ports at 1:1 (32/32) on 2
// leaves of 24, 24 up each: 48; 240 leaf-spine cables = Table 8's 494 NDR
// cables "DGX H100 systems to leaf, leaf to spine" less the 254 to the
// DGX; spines for the leaves' 8 x 27 + 2 x 32 = 280 uplink ports: 5,
// paired 6 (Table 7: 16 storage switches). Large: 10,000 ports at 1:1 on
// 64 ports, 62 usable: 31 down, 31 up, 323 leaves (paired 324); ports
// spread 31 x 280 + 30 x 44, cabling 10,000 uplinks of the 324 x 31 =
// 10,044 ports; that outgrows one spine's 64 leaves: 11 pods of 32
// leaves, 914 uplink ports a pod on 29 spines (paired 30) each, 330
// spines, 10,000 spine-core links, cores for 11 x 914 = 10,054 ports: 158.
// Mutations caught: no pairing, ISL ports used as down ports, ratio
// applied to the whole radix, no third tier, uplinks cabled for full
// leaves (storage 280, NVIDIA 240), spines sized for the cabled uplinks
// only (storage 4 spines, 14 switches).
func TestSizeLeafSpine(t *testing.T) {
	for _, tc := range []struct {
		name                               string
		groups                             []Group
		radix                              int
		eth                                bool
		leaves, spines, cores, uplinks, is int
	}{
		{"in-band", []Group{{290, 15, 1}}, 64, true, 6, 2, 0, 24, 6},
		{"storage", []Group{{254, 4, 3}, {48, 1, 1}}, 64, false, 10, 6, 0, 240, 0},
		{"one pair", []Group{{100, 3, 1}}, 64, true, 2, 0, 0, 0, 2},
		{"three tiers", []Group{{10000, 1, 1}}, 64, true, 324, 330, 158, 10000, 324},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SizeLeafSpine(tc.groups, tc.radix, tc.eth)
			if got.Leaves != tc.leaves || got.Spines != tc.spines || got.Cores != tc.cores || got.Uplinks != tc.uplinks || got.ISL != tc.is {
				t.Errorf("got %d leaves, %d spines, %d cores, %d uplinks, %d ISL; want %d, %d, %d, %d, %d",
					got.Leaves, got.Spines, got.Cores, got.Uplinks, got.ISL, tc.leaves, tc.spines, tc.cores, tc.uplinks, tc.is)
			}
		})
	}
}
