package model

import (
	"slices"
	"strings"
	"testing"

	"fabricplan/planner"
)

// TestTierSwitchAutoInWindow: the spine and core switch lists offer
// auto, choosing it writes "auto" to the scenario, the plan names the
// model auto chose, and the field shows auto again, not a catalog key.
// Mutations caught: the window's spine list without auto, its label
// written to the file instead of "auto", the plan left on the leaf's
// spine model.
func TestTierSwitchAutoInWindow(t *testing.T) {
	m := testModel(t)
	mustSet(t, m, "cluster.gpus", "2999")
	mustSet(t, m, "network.fabric", FabricEthernet)
	mustSet(t, m, "network.switch", "tomahawk5")
	for _, key := range []string{"network.spine_switch", "network.core_switch"} {
		if !slices.Contains(m.Options(key), SwitchAuto) {
			t.Errorf("%s offers %q, no %q", key, m.Options(key), SwitchAuto)
		}
	}
	mustSet(t, m, "network.spine_switch", SwitchAuto)
	if got := m.Scenario().Network.SpineSwitch; got != planner.Auto {
		t.Fatalf("scenario spine_switch %q, want %q", got, planner.Auto)
	}
	settle(t, m)
	p := m.Plan()
	if p == nil {
		t.Fatal("no plan")
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "spine switch auto: "+p.SwitchOf(planner.TierSpine).Key) {
		t.Errorf("plan notes %q do not name the spine auto chose", p.Notes)
	}
	if got := m.Text("network.spine_switch"); got != SwitchAuto {
		t.Errorf("field shows %q, want %q", got, SwitchAuto)
	}
}
