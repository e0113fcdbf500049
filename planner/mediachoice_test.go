package planner

import "testing"

// TestMediaMemo plans the same 4,096-GPU Tomahawk 6 fabric with its
// leaf-spine links 2 m, 50 m and 2 m long again, then 2 m with a DAC
// priced at $1M: a 2 m run takes a DAC (the cheapest medium that
// reaches; copper reaches a few metres), 50 m transceivers and fibre
// (no copper reaches), and a $1M DAC loses to the next copper, an active
// copper cable (ACC); one after another, as a memo of the choice would
// be asked. Mutations caught: a choice that ignores the length (50 m
// given the 2 m DAC, which the BOM then refuses as beyond its reach),
// or the price overrides (the $1M DAC kept).
func TestMediaChoice(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		metres float64
		prices map[string]float64
		want   Medium
	}{
		{2, nil, DAC},
		{50, nil, Optics},
		{2, nil, DAC},
		{2, map[string]float64{string(DAC): 1e6}, ACC},
	} {
		s := NewScenario()
		s.Cluster.GPUs = 4096
		s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g"
		s.Network.Media.LeafSpineM = tc.metres
		s.Prices = tc.prices
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%g m, prices %v: %v", tc.metres, tc.prices, err)
		}
		if got := p.LinkTiers[1].Medium; got != tc.want {
			t.Errorf("%g m, prices %v: leaf-spine medium %q, want %q", tc.metres, tc.prices, got, tc.want)
		}
	}
}
