package planner

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestAlternativesPlanWhatTheyName: every alternative that plans is
// labelled with the fabric and NIC speed of its own plan, and a speed
// the scenario's system fixes otherwise is listed as not planned, naming
// network.nic_gbps. A DGX H100 (ConnectX-7, 400G) has no 800G variant and
// a GB300 NVL72 tray (ConnectX-8, 800G) no 400G one; custom servers at
// 1,000 and 3,000 GPUs (off the power-of-two grid) plan both speeds.
// Mutation caught: the speed variant built as it was, which planned the
// system's own NICs and drew a 400G fabric under an "800G" label (the
// Meta scenario's cost chart showed "RoCE 800G" over "RoCE 400G").
func TestAlternativesPlanWhatTheyName(t *testing.T) {
	cat := testCatalog(t)
	custom := func(gpus int) Scenario { return flatIB(gpus) }
	for _, tc := range []struct {
		name      string
		s         Scenario
		refused   string // the label of the variant refused, "" for none
		fixedGbps int
	}{
		{"meta-roce-24k", scenarioFile(t, "meta-roce-24k"), "RoCE 800G", 400},
		{"gb300-nvl72-4k", scenarioFile(t, "gb300-nvl72-4k"), "IB 400G", 800},
		{"dgx-h100-superpod-4su", scenarioFile(t, "dgx-h100-superpod-4su"), "IB 800G", 400},
		{"custom 1,000 GPUs", custom(1000), "", 0},
		{"custom 3,000 GPUs", custom(3000), "", 0},
	} {
		vs, err := Alternatives(tc.s, cat)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(vs) != 3 {
			t.Fatalf("%s: %d variants, want this plan and two alternatives", tc.name, len(vs))
		}
		for _, v := range vs[1:] {
			if v.Label == tc.refused {
				var fe *fielderr.FieldError
				if v.Err == nil || !errors.As(v.Err, &fe) || fe.Field != "network.nic_gbps" {
					t.Errorf("%s: %s: err %v, want a network.nic_gbps refusal", tc.name, v.Label, v.Err)
				} else if want := fmt.Sprintf("at %dG", tc.fixedGbps); !strings.Contains(v.Err.Error(), want) {
					t.Errorf("%s: %s: %q does not say %q", tc.name, v.Label, v.Err, want)
				}
				continue
			}
			if v.Err != nil {
				// It may not plan for its own reason (Meta's 3,072-GPU pods
				// do not fit an InfiniBand spine), but never for the speed.
				if strings.Contains(v.Err.Error(), "fixes its NICs") {
					t.Errorf("%s: %s refused for its speed: %v", tc.name, v.Label, v.Err)
				}
				continue
			}
			n := v.Plan.Scenario.Network
			if want := fmt.Sprintf("%s %dG", n.Fabric.Short(), n.NICGbps); v.Label != want {
				t.Errorf("%s: variant labelled %q plans %q", tc.name, v.Label, want)
			}
		}
	}
}
