package planner

import (
	"fmt"
	"testing"

	"fabricplan/internal/textfmt"
)

// offGridSizes are GPU counts off the power-of-two grid: every count to
// 600, then primes and odd steps to 40,000.
func offGridSizes() []int {
	var out []int
	for g := 1; g <= 600; g++ {
		out = append(out, g)
	}
	for g := 601; g < 40_000; g += g/53 + 7 {
		out = append(out, g)
	}
	return out
}

type offGridConfig struct {
	name string
	set  func(s *Scenario)
}

// offGridConfigs pairs each fabric with every system whose NIC speed the
// fabric's switch has ports for, at a lane rate both run.
func offGridConfigs(cat *Catalog) []offGridConfig {
	var out []offGridConfig
	fabrics := []struct {
		offGridConfig
		sw string
	}{
		{offGridConfig{"ib400-qm9700", func(s *Scenario) { s.Network.Switch = "qm9700" }}, "qm9700"},
		{offGridConfig{"eth400-sn5600", func(s *Scenario) { s.Network.Fabric, s.Network.Switch = Ethernet, "sn5600" }}, "sn5600"},
		{offGridConfig{"ib800-q3400", func(s *Scenario) { s.Network.NICGbps, s.Network.Switch = 800, "q3400" }}, "q3400"},
	}
	systems := []string{"custom", "dgx-h100", "hgx-h100", "dgx-b300", "gb200-nvl72", "gb300-nvl72"}
	for _, f := range fabrics {
		for _, sys := range systems {
			if sk := cat.Systems[sys]; sk != nil && (cat.Switches[f.sw].Radix(cat.NICs[sk.NIC].Gbps) == 0 || SharedLane(cat.NICs[sk.NIC].LaneGbps, cat.Switches[f.sw].LaneGbps) == 0) {
				continue
			}
			f, sys := f, sys
			out = append(out, offGridConfig{f.name + "/" + sys, func(s *Scenario) {
				f.set(s)
				s.Cluster.System = sys
			}})
			if sk := cat.Systems[sys]; sk != nil && sk.RackNodes > 0 {
				out = append(out, offGridConfig{f.name + "/" + sys + "/packed", func(s *Scenario) {
					f.set(s)
					s.Cluster.System, s.Network.LeafAlignment = sys, AlignPacked
				}})
			}
		}
	}
	return out
}

// Properties of the fabric off the reference grid, for every system,
// fabric and ratio:
//   - the leaf split is the asked ratio exactly (mutation caught: up =
//     ceil(radix·U/(D+U)), which built 42/22 for 2:1 on 64 ports);
//   - a higher ratio never costs more (mutation caught: spines rounded up
//     to a divisor of a prime uplink count, 43 spines at 2:1);
//   - spines and cores stay within one scalable unit's worth of their
//     lower bound plus one per pod or core-group kind, and spine-core
//     links never exceed leaf-spine links (mutations caught: cores
//     rounded up per core group, 64 for 48 at 3,000 DGX H100 GPUs;
//     spines raised to one link per core);
//   - one more node adds at most one scalable unit of switches, with its
//     share of spines and cores, at the same tier count (mutation caught:
//     core 512 -> 1,024 for 8 more GPUs).
func TestOffGridProperties(t *testing.T) {
	cat := testCatalog(t)
	sizes := offGridSizes()
	for _, cfg := range offGridConfigs(cat) {
		t.Run(cfg.name, func(t *testing.T) {
			prev := map[string]*Plan{}
			built := 0
			defer func() {
				if built < len(sizes) {
					t.Errorf("only %d of %d sizes x ratios planned", built, 3*len(sizes))
				}
			}()
			for _, g := range sizes {
				plans := map[string]*Plan{}
				for _, ratio := range []string{"1:1", "2:1", "3:1"} {
					s := NewScenario()
					cfg.set(&s)
					s.Cluster.GPUs, s.Network.Oversubscription = g, ratio
					// Switch counts and costs by ratio, thousands of
					// sizes: one length per tier (the hall's per-link
					// lengths have their own tests in hall_test.go).
					p, err := Build(s.FlatLinks(), cat)
					if err != nil {
						continue // past three tiers
					}
					plans[ratio] = p
					built++
					checkRatioBuilt(t, g, ratio, p)
					checkLanesJoin(t, cat, g, p)
					checkNearLowerBound(t, g, p)
					if q := prev[ratio]; q != nil && q.Tiers == p.Tiers && p.Servers == q.Servers+p.System.nodesEach() {
						checkOneUnitMore(t, q, p)
					}
					prev[ratio] = p
				}
				for _, pair := range [][2]string{{"2:1", "1:1"}, {"3:1", "2:1"}} {
					hi, lo := plans[pair[0]], plans[pair[1]]
					if hi != nil && lo != nil && hi.Cost.Total > lo.Cost.Total+1e-6 {
						t.Errorf("%d GPUs: %s costs %s, more than %s at %s (%d vs %d switches)", g, pair[0], textfmt.USD(hi.Cost.Total),
							pair[1], textfmt.USD(lo.Cost.Total), hi.TotalSwitches(), lo.TotalSwitches())
					}
				}
			}
		})
	}
}

// nodesEach is how many nodes one more system adds (1 for servers).
func (s *System) nodesEach() int {
	if s == nil {
		return 1
	}
	return s.Nodes
}

func checkRatioBuilt(t *testing.T, gpus int, ratio string, p *Plan) {
	t.Helper()
	if p.Tiers < 2 {
		return
	}
	d, u, _ := Ratio(ratio)
	leaf := p.SwitchTiers[0]
	// The fullest leaf defines the split; a partial leaf has fewer down
	// ports and never fewer uplinks than its share.
	if leaf.DownPorts*u > leaf.UpPorts*d {
		t.Fatalf("%d GPUs at %s: a leaf has %d down and %d up ports, more oversubscribed than asked", gpus, ratio, leaf.DownPorts, leaf.UpPorts)
	}
	k := leaf.Radix / (d + u)
	want := k * d
	if p.Unit.LeafAlignment == AlignRack {
		// Rack-aligned: whole racks of one rail, the rest empty.
		want = k * d / p.System.RackNodes * p.System.RackNodes
	}
	if full := p.Servers >= want; full && p.Scenario.Network.RailOptimized && leaf.DownPorts != want {
		t.Fatalf("%d GPUs at %s: full leaf has %d down ports, want %d (%d x %d, %s)", gpus, ratio, leaf.DownPorts, want, k, d, p.Unit.LeafAlignment)
	}
}

func checkNearLowerBound(t *testing.T, gpus int, p *Plan) {
	t.Helper()
	P := p.Planes
	radix := p.SwitchTiers[0].Radix
	lpg := p.RailsPerPlane
	if !p.Scenario.Network.RailOptimized {
		lpg = 1
	}
	up := p.SwitchTiers[0].UpPorts
	// One scalable unit's worth of upper switches: what the uplinks of a
	// unit (never counted below 8 leaves, NVIDIA's SU) need.
	unitWorth := func(perSwitch int) int { return ceilDiv(max(lpg, 8)*up, perSwitch) }
	bound := func(tier string, links, perSwitch, limit int) {
		got := p.Switches(tier) / P
		if tier == TierSpine {
			// The spines the system's reference design adds by keeping
			// strict balance at any count (the Quantum-X800 SuperPODs:
			// TestQuantumX800StrictSpines) are its rule, not slack.
			got -= p.StrictSpines / P
		}
		lb := ceilDiv(links/P, perSwitch)
		if got > lb+limit {
			t.Fatalf("%d GPUs: %d %s switches per plane; lower bound %d, at most %d more allowed (headroom %+v)", gpus, got, tier, lb, limit, p.Headroom)
		}
	}
	switch p.Tiers {
	case 2:
		bound(TierSpine, p.Links.LeafSpine, radix, unitWorth(radix))
	case 3:
		// Each pod rounds up once and may add a unit's worth for balance;
		// core groups round up once per kind.
		bound(TierSpine, p.Links.LeafSpine, radix/2, p.Pods*(1+unitWorth(radix/2)))
		bound(TierCore, p.Links.SpineCore, radix, coreKinds+unitWorth(radix))
		if p.Links.SpineCore > p.Links.LeafSpine {
			t.Fatalf("%d GPUs: %d spine-core links exceed %d leaf-spine links", gpus, p.Links.SpineCore, p.Links.LeafSpine)
		}
	}
}

func checkOneUnitMore(t *testing.T, a, b *Plan) {
	t.Helper()
	radix := a.SwitchTiers[0].Radix
	lpg := a.RailsPerPlane
	if !a.Scenario.Network.RailOptimized {
		lpg = 1
	}
	// One unit's leaves, their uplinks' worth of spines and those spines'
	// worth of cores, each rounded up, and a balance flip of half a tier
	// group at most.
	unit := lpg + ceilDiv(lpg*radix/2, radix)*2 + 2
	// The new system's leaves sit in one pod, or with pods by rail
	// (NVIDIA's GB200 SuperPOD) in one pod per rail, each of which may
	// flip its balance.
	touched := 1
	if pods, _, _, _ := a.Layout(); len(pods) > 0 && pods[0].ByRail {
		touched = lpg
	}
	flip := touched * (a.Switches(TierSpine)/a.Planes/max(a.Pods, 1) + 1) / 2
	if a.Tiers == 3 {
		flip += (a.Switches(TierCore)/a.Planes)/max(a.Switches(TierSpine)/a.Planes/max(a.Pods, 1), 1)/2 + 1
	}
	// Spines a reference design adds for strict balance at any count
	// (Plan.StrictSpines) are its rule: only the rest must stay smooth.
	strict := func(p *Plan, tier string) int {
		if tier == TierSpine {
			return p.StrictSpines
		}
		return 0
	}
	if d := (b.TotalSwitches() - b.StrictSpines - a.TotalSwitches() + a.StrictSpines) / a.Planes; d > unit+flip {
		t.Fatalf("%d -> %d GPUs (one more system): %s switches per plane, more than a unit (%d) and a balance flip (%d)",
			a.GPUs, b.GPUs, fmt.Sprint(d), unit, flip)
	}
	// And tier by tier: a tier never jumps while another shrinks to
	// hide it. Cores: a unit's uplinks' worth, the strict-balance
	// allowance (another unit's worth) and one rounding per core-group
	// kind (mutation caught: 16 more cores for one DGX at 4,360 GPUs,
	// cores rounded up per group).
	for _, tier := range []string{TierLeaf, TierSpine, TierCore} {
		if d := (b.Switches(tier) - strict(b, tier) - a.Switches(tier) + strict(a, tier)) / a.Planes; d > unit+flip {
			t.Fatalf("%d -> %d GPUs (one more system): %d more %s switches per plane, more than a unit (%d) and a balance flip (%d)",
				a.GPUs, b.GPUs, d, tier, unit, flip)
		}
	}
	if a.Tiers == 3 {
		up := a.SwitchTiers[0].UpPorts
		limit := 2*ceilDiv(max(lpg, 8)*up, radix) + coreKinds
		if d := (b.Switches(TierCore) - a.Switches(TierCore)) / a.Planes; d > limit {
			t.Fatalf("%d -> %d GPUs (one more system): %d more cores per plane, more than %d", a.GPUs, b.GPUs, d, limit)
		}
	}
}
