package hall_test

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
)

// TestUnitStaysInOneBlock: a scalable unit longer than a row runs over
// several rows, and the hall sets its rows in blocks side by side; every
// compute rack of a unit must stand in the block of its unit's leaf rack.
// Catches the block break falling between two rows of one unit (as it
// did: 1M GPUs on Tomahawk 6 put a unit's last rows in the next block, a
// 249 m server-leaf run no medium reaches, and the plan fell back to flat
// lengths), and the network rows set between a unit's rows.
func TestUnitStaysInOneBlock(t *testing.T) {
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []int{100_000, 262_152, 1_000_000} {
		s := planner.NewScenario()
		s.Cluster.GPUs = g
		s.Network.Fabric, s.Network.Switch = planner.Ethernet, "tomahawk6-100g"
		p, err := planner.Build(s, cat)
		if err != nil || p.Hall == nil {
			t.Fatalf("%d GPUs: build: %v, hall %v", g, err, p != nil && p.Hall != nil)
		}
		h := p.Hall
		long := false
		for u := range h.Units() {
			leaf := h.Racks[h.UnitLeafRack(u)]
			racks := h.UnitRacks(u)
			long = long || h.Racks[racks[0]].Row != h.Racks[racks[len(racks)-1]].Row
			for _, c := range racks {
				rk := h.Racks[c]
				if h.Rows[rk.Row].X != h.Rows[leaf.Row].X {
					t.Fatalf("%d GPUs: unit %d's rack %s stands in another block than its leaf rack %s", g, u, rk.Name, leaf.Name)
				}
			}
		}
		if !long {
			t.Errorf("%d GPUs: no unit runs over two rows; the case does not test the block break", g)
		}
		for _, n := range p.Notes {
			if strings.Contains(n, "no hall layout") {
				t.Errorf("%d GPUs: %s", g, n)
			}
		}
	}
}
