package planner

import (
	"testing"

	"fabricplan/planner/fabric"
)

// TestSwitchEndModulesPerTier: the switch-end modules counted for each
// tier a plan has equal the count of every tier with every cage looked
// up afresh (endModulesAfresh, switchEndModules as it was before it
// skipped the tiers a plan lacks), for the shipped scenarios and their
// variants (memoScenarios) and a sweep's sizes on a Tomahawk 6 at 100G
// lanes (one, two and three tiers, and uplinks at 800G from 400G
// ports). Mutations caught: a tier left uncounted that the plan has
// (the second or the third).
func TestSwitchEndModulesPerTier(t *testing.T) {
	cat := testCatalog(t)
	var plans []*Plan
	for _, ms := range memoScenarios(t) {
		p, err := Build(ms.s, cat)
		if err != nil {
			continue
		}
		plans = append(plans, p)
	}
	s := NewScenario()
	s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g"
	for _, g := range []int{16, 256, 4096, 65536, 1000000} {
		s.Cluster.GPUs = g
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%d GPUs: %v", g, err)
		}
		plans = append(plans, p)
	}
	// Uplinks at 800G from 400G server ports: a Tomahawk 6 cage takes two
	// 400G links but one 800G.
	s.Cluster.GPUs, s.Network.UplinkGbps = 16384, 800
	p, err := Build(s, cat)
	if err != nil {
		t.Fatalf("uplinks at 800G: %v", err)
	}
	plans = append(plans, p)
	tiers := map[int]bool{}
	for _, p := range plans {
		pl := fabric.Plane{}
		for i, loads := range p.tierLoads {
			switch i {
			case 0:
				pl.LeafLoads = loads
			case 1:
				pl.SpineLoads = loads
			case 2:
				pl.CoreLoads = loads
			}
		}
		got, want := p.switchEndModules(pl, p.Planes), endModulesAfresh(p, pl, p.Planes)
		for i := range p.LinkTiers {
			if got[i] != want[i] {
				t.Errorf("%s, %d GPUs, %s: switch-end modules %v, want %v", p.Switch.Key, p.GPUs, p.LinkTiers[i].Name, got[i], want[i])
			}
		}
		tiers[len(p.LinkTiers)] = true
	}
	if !tiers[1] || !tiers[2] || !tiers[3] {
		t.Errorf("plans of one, two and three tiers: %v", tiers)
	}
}

// endModulesAfresh is switchEndModules as it was: every tier counted,
// every cage looked up.
func endModulesAfresh(p *Plan, pl fabric.Plane, planes int) [3][2]int {
	gu, gc := p.TierGbps("leaf_spine"), p.TierGbps("spine_core")
	c := p.Switch.LinksPerCage(p.PortGbps)
	lu, su := p.Switch.LinksPerCage(gu), p.SwitchOf(TierSpine).LinksPerCage(gu)
	sc, cc := p.SwitchOf(TierSpine).LinksPerCage(gc), p.SwitchOf(TierCore).LinksPerCage(gc)
	// The count per tier is cageModules's; what changed is which tiers
	// switchEndModules counts, so the reference counts all three.
	mods := func(loads []fabric.Load, down bool, perCage int) int {
		return cageModules(loads, down, perCage, planes)
	}
	return [3][2]int{
		{0, mods(pl.LeafLoads, true, c)},
		{mods(pl.LeafLoads, false, lu), mods(pl.SpineLoads, true, su)},
		{mods(pl.SpineLoads, false, sc), mods(pl.CoreLoads, true, cc)},
	}
}
