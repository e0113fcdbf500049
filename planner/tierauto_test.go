package planner

import (
	"math"
	"strings"
	"testing"
)

// TestTierSwitchAuto: spine_switch (and core_switch) "auto" follow the
// leaf's auto rule, the cheapest plan of the switches that fit: its plan
// costs what the cheapest of the same scenario with each candidate named
// costs, and names that model, over both fabrics, two and three tiers and
// sizes off the grid. The candidates are listed by hand: every switch of
// the fabric with ports at the tier's speed (400G Ethernet: Tomahawk 3,
// 4 and 5, SN4700, SN5400, SN5600, both Tomahawk 6 options and the
// 7808R3 chassis; 400G InfiniBand: QM9700 and Q3400).
// Mutations caught: "auto" read as the leaf's model, the first candidate
// taken, the cheapest switch price taken instead of the cheapest plan,
// chassis left out of a spine's candidates, the cores left on the
// leaf's model under core auto.
func TestTierSwitchAuto(t *testing.T) {
	cat := testCatalog(t)
	meta := scenarioFile(t, "meta-roce-24k")
	meta = flatLengths(meta)
	meta.Cluster.GPUs = 7001
	// By key: of equal plans (SN4700 and Tomahawk 3 are one price and
	// shape) the first key wins, as in auto.
	eth := []string{"arista-7808r3", "sn4700", "sn5400", "sn5600", "tomahawk3", "tomahawk4", "tomahawk5", "tomahawk6", "tomahawk6-100g"}
	roce := flatLengths(NewScenario())
	roce.Cluster.GPUs, roce.Network.Fabric, roce.Network.Switch = 2999, Ethernet, "tomahawk5"
	ib := flatIB(1500)
	for _, c := range []struct {
		name  string
		s     Scenario
		tier  string
		cands []string
	}{
		{"meta spines 7,001", meta, TierSpine, eth},
		{"RoCE 2 tiers 2,999", roce, TierSpine, eth},
		{"IB 2 tiers 1,500", ib, TierSpine, []string{"qm9700", "q3400"}},
		{"meta cores 7,001", meta, TierCore, eth},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := func(s *Scenario, k string) {
				if c.tier == TierSpine {
					s.Network.SpineSwitch = k
				} else {
					s.Network.CoreSwitch = k
				}
			}
			best, bestKey := math.Inf(1), ""
			for _, k := range c.cands {
				s := c.s
				set(&s, k)
				if p, err := Build(s, cat); err == nil && p.Cost.Total < best {
					best, bestKey = p.Cost.Total, k
				}
			}
			if bestKey == "" {
				t.Fatal("no candidate builds")
			}
			s := c.s
			set(&s, Auto)
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Cost.Total != best || p.SwitchOf(c.tier).Key != bestKey {
				t.Errorf("auto: %s at $%.0f, want %s at $%.0f", p.SwitchOf(c.tier).Key, p.Cost.Total, bestKey, best)
			}
			if !strings.Contains(strings.Join(p.Notes, "\n"), c.tier+" switch auto: "+bestKey) {
				t.Errorf("no note says auto chose %s: %q", bestKey, p.Notes)
			}
		})
	}
}
