package planner

import (
	"fmt"
	"testing"
)

// walkScenarios are plans of every style the walk wires: ratios, both
// fabrics, leaves holding whole servers, two planes, the shipped
// systems (NVL72 racks with their own leaves) and three tiers.
func walkScenarios() []Scenario {
	var out []Scenario
	add := func(gpus int, edit func(s *Scenario)) {
		s := NewScenario()
		s.Cluster.GPUs = gpus
		edit(&s)
		out = append(out, s)
	}
	for _, ratio := range []string{"1:1", "2:1", "5:3"} {
		add(3000, func(s *Scenario) { s.Network.Oversubscription, s.Network.Switch = ratio, "qm9700" })
		add(2900, func(s *Scenario) {
			s.Network.Oversubscription, s.Network.Fabric, s.Network.Switch = ratio, Ethernet, "tomahawk5"
		})
	}
	add(2500, func(s *Scenario) { s.Network.RailOptimized = false; s.Network.Oversubscription = "2:1" })
	add(3000, func(s *Scenario) {
		s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes = Ethernet, 800, 2, 2
	})
	for _, sys := range []string{"dgx-h100", "dgx-b300", "gb200-nvl72", "gb300-nvl72"} {
		add(2300, func(s *Scenario) { s.Cluster.System = sys })
		add(2300, func(s *Scenario) {
			s.Cluster.System, s.Network.Fabric, s.Network.Oversubscription = sys, Ethernet, "2:1"
		})
	}
	add(1500, func(s *Scenario) { s.Network.Tiers = 3; s.Network.Switch = "qm9700" })
	return out
}

// TestWalkLinks holds the one walk of a plan's links to the plan: per
// tier as many links as the plan's Links figures; no port of a device
// used twice (a leaf's server ports and uplinks, a spine's down ports
// and uplinks counted together); and the cable map's names one to one
// with the walk's numbers, so whatever compares plans by numbers (the
// phases) compares their cable maps. Mutations caught (each tried: the
// test fails): an upper switch's port counter not advanced (every
// uplink to a spine lands on its port 0), uplinks numbered from port 0
// instead of the cage after the down links, and a leaf named without
// its rail.
func TestWalkLinks(t *testing.T) {
	cat := testCatalog(t)
	for _, s := range walkScenarios() {
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%d GPUs %s %s %d planes %d tiers", p.GPUs, s.Cluster.System, s.Network.Fabric, p.Planes, p.Tiers)
		var links []Link
		var count [LinkTierCount]int
		used := map[string]bool{}
		use := func(end string) {
			if used[end] {
				t.Fatalf("%s: %s carries two links", what, end)
			}
			used[end] = true
		}
		_ = p.WalkLinks(func(l *Link) error {
			links = append(links, *l)
			count[l.Tier]++
			lower, upper := linkEndNames(l)
			use(lower)
			use(upper)
			return nil
		})
		if want := [LinkTierCount]int{p.Links.ServerLeaf, p.Links.LeafSpine, p.Links.SpineCore}; count != want || len(links) != p.Links.Total {
			t.Fatalf("%s: walked %v links (%d), plan %v (%d)", what, count, len(links), want, p.Links.Total)
		}
		names := map[string]string{}
		bind := func(a, b string) {
			if prev, ok := names[a]; ok && prev != b {
				t.Fatalf("%s: %s is both %s and %s", what, a, prev, b)
			}
			names[a] = b
		}
		i := 0
		_ = p.WalkCables(func(c *CableRun) error {
			l := &links[i]
			i++
			if linkTierNames[l.Tier] != c.Tier || l.Plane != c.Plane || l.Rail != c.Rail {
				t.Fatalf("%s: link %d: tier %s plane %d rail %d, cable map %s plane %d rail %d", what, i, linkTierNames[l.Tier], l.Plane, l.Rail, c.Tier, c.Plane, c.Rail)
			}
			lower, upper := linkEndNames(l)
			bind(lower, c.ADevice+" "+c.APort)
			bind(upper, c.BDevice+" "+c.BPort)
			bind("name "+c.ADevice+" "+c.APort, lower)
			bind("name "+c.BDevice+" "+c.BPort, upper)
			return nil
		})
		if i != len(links) {
			t.Fatalf("%s: the cable map has %d links, the walk %d", what, i, len(links))
		}
	}
}

// linkEndNames names a link's two ends, device and port, by the walk's
// numbers: a switch by tier, plane, (pod) and index.
func linkEndNames(l *Link) (lower, upper string) {
	switch l.Tier {
	case LinkServerLeaf:
		return fmt.Sprintf("server %d port %d", l.Lower.Device, l.Lower.Port), fmt.Sprintf("leaf %d/%d port %d", l.Plane, l.Upper.Device, l.Upper.Port)
	case LinkLeafSpine:
		return fmt.Sprintf("leaf %d/%d port %d", l.Plane, l.Lower.Device, l.Lower.Port), fmt.Sprintf("spine %d/%d/%d port %d", l.Plane, l.Pod, l.Upper.Device, l.Upper.Port)
	}
	return fmt.Sprintf("spine %d/%d/%d port %d", l.Plane, l.Pod, l.Lower.Device, l.Lower.Port), fmt.Sprintf("core %d/%d port %d", l.Plane, l.Upper.Device, l.Upper.Port)
}
