package charts

import (
	"bytes"
	"strings"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// The inputs table's media cell: laid-out runs give their range of
// lengths sold and their media in order; one length prints once; no
// runs (no hall) print the scenario's medium and length. Catches: the
// scenario's 0 m printed for a laid-out plan, the range reversed, a
// medium repeated or lost, the wrong tier's runs read.
func TestTierMediaText(t *testing.T) {
	runs := func(rs ...planner.LinkRun) []planner.LinkTier {
		return []planner.LinkTier{{Name: "server_leaf", Runs: rs}, {Name: "leaf_spine", Runs: []planner.LinkRun{{Medium: planner.Optics, Metres: 50, Links: 1}}}}
	}
	for _, tc := range []struct {
		name  string
		tiers []planner.LinkTier
		want  string
	}{
		{"mixed", runs(planner.LinkRun{Medium: planner.ACC, Metres: 5, Links: 4}, planner.LinkRun{Medium: planner.AOC, Metres: 11, Links: 2},
			planner.LinkRun{Medium: planner.ACC, Metres: 3, Links: 1}), "3-11 m, ACC and AOC, laid out"},
		{"one length", runs(planner.LinkRun{Medium: planner.Multimode, Metres: 10, Links: 8}), "10 m, multimode optics, laid out"},
		{"three media", runs(planner.LinkRun{Medium: planner.DAC, Metres: 2, Links: 1}, planner.LinkRun{Medium: planner.ACC, Metres: 5, Links: 1},
			planner.LinkRun{Medium: planner.Optics, Metres: 30, Links: 1}), "2-30 m, DAC, ACC and single-mode optics, laid out"},
		{"no hall", []planner.LinkTier{{Name: "server_leaf"}}, "transceiver, 20 m"},
	} {
		p := &planner.Plan{LinkTiers: tc.tiers}
		if got := tierMediaText(p, "server_leaf", "transceiver", 20); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The report of one DGX H100 SU at 40.8 kW a rack, leaves at the end of
// the row: the server-leaf links run from 4.4 m (server 4 of the rack
// beside the leaf rack to leaf 1: (2.4 - 28 x 0.04445) + (2.4 - 39.5 x
// 0.04445) + 0.6 + 2 = 4.3996 m, sold 5 m) to 9.98 m (server 1 of the
// farthest rack to leaf 8, sold 10 m), so the inputs table reads
// "5-10 m", not the scenario's "0 m". Catches: the hall's lengths not
// reaching the report.
func TestReportInputsHallMedia(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.System, s.Cluster.GPUs = "dgx-h100", 256
	s.Facility = &hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceEnd}
	in := input(t, s, []int{256})
	var buf bytes.Buffer
	if err := WriteReport(&buf, in, catalog(t), nil); err != nil {
		t.Fatal(err)
	}
	text := squash(pdfText(t, buf.Bytes()))
	if !strings.Contains(text, "Server-leaf media 5-10 m,") || strings.Contains(text, ", 0 m") {
		i := strings.Index(text, "Server-leaf media")
		t.Errorf("inputs table: %q", text[max(0, i):min(len(text), i+120)])
	}
}
