package model

import (
	"testing"
)

// The Compare tab says how sure each cost difference is: an InfiniBand
// pin against the current RoCE plan at 1,024 GPUs is cheaper in every
// draw (the switches' sourced ranges, 48 x $35k-50k against 24 x
// $120k-250k, do not overlap and the other parts are shared), and a pin
// of the very same plan is a tie at 0.5. The price basis is a choice:
// list moves the plan's cost and says so. Mutations caught: the row
// missing, measured against the wrong column, a basis choice ignored.
func TestCompareCostVerdictAndBasis(t *testing.T) {
	m := testModel(t)
	settle(t, m)
	if err := m.PinCurrent("IB"); err != nil {
		t.Fatal(err)
	}
	mustSet(t, m, "network.fabric", FabricEthernet)
	mustSet(t, m, "network.switch", "sn5600")
	settle(t, m)
	if err := m.PinCurrent("RoCE"); err != nil {
		t.Fatal(err)
	}
	c := m.Compare()
	var row *CompareRow
	for i := range c.Rows {
		if c.Rows[i].Name == CostVsRow {
			row = &c.Rows[i]
		}
	}
	if row == nil {
		t.Fatalf("no %q row in %+v", CostVsRow, c.Rows)
	}
	want := []string{"cheaper (P 1.00)", "tie (P 0.50)", "–"}
	for i, w := range want {
		if row.Cells[i] != w {
			t.Errorf("column %s: %q, want %q", c.Columns[i], row.Cells[i], w)
		}
	}
	street := m.Plan().Cost.Total
	if got := m.Text("pricing.basis"); got != BasisStreet {
		t.Errorf("default basis shown as %q", got)
	}
	mustSet(t, m, "pricing.basis", BasisList)
	settle(t, m)
	if m.Scenario().Pricing.Basis != "list" || m.Plan().Cost.Basis != "list" || !(m.Plan().Cost.Total > street) {
		t.Errorf("list basis: scenario %q, plan %q, cost %.0f vs street %.0f", m.Scenario().Pricing.Basis, m.Plan().Cost.Basis, m.Plan().Cost.Total, street)
	}
	// The volume basis has a label of its own and prices below street.
	// Mutation caught: a basis missing from basisLabels (the choice shows
	// the raw key and the current label is blank).
	mustSet(t, m, "pricing.basis", BasisVolume)
	settle(t, m)
	if m.Text("pricing.basis") != BasisVolume || m.Plan().Cost.Basis != "volume" || !(m.Plan().Cost.Total < street) {
		t.Errorf("volume basis: shown %q, plan %q, cost %.0f vs street %.0f", m.Text("pricing.basis"), m.Plan().Cost.Basis, m.Plan().Cost.Total, street)
	}
	if _, err := m.Set("pricing.basis", "wholesale"); err == nil {
		t.Error("an unknown basis was accepted")
	}
}
