package phases

import (
	"slices"
	"strings"
	"testing"
)

// TestColumns holds the phase table to what its readers publish: the
// CSV's header (fabricplan phases --csv, every column but the
// sentences, after the strategy) and the tables' headings (the Phases
// tab, and the text table in capitals), each key once. Catches a
// column dropped, added or moved in the one list (every writer would
// follow it silently).
func TestColumns(t *testing.T) {
	var keys, titles []string
	seen := map[string]bool{}
	for _, c := range Columns {
		if seen[c.Key] {
			t.Errorf("column %q listed twice", c.Key)
		}
		seen[c.Key] = true
		if c.Unit != UnitSentence {
			keys = append(keys, c.Key)
		}
		if c.Title != "" {
			titles = append(titles, c.Title)
		}
	}
	csv := "phase date gpus servers tiers leaf spine core switches_added links links_added links_moved transceivers_bought " +
		"cables_bought cost_added_usd cost_usd retired_usd power_w oversubscription ratio_holds step_s jct_days recable_hours"
	if got := strings.Join(keys, " "); got != csv {
		t.Errorf("CSV columns\n%s\nwant\n%s", got, csv)
	}
	want := []string{"Phase", "Date", "GPUs", "Tiers", "Leaf", "Spine", "Core", "+Switches", "Links", "+Links", "Moved",
		"Optics", "Cables", "Spend", "To date", "Power", "Ratio", "Step", "Re-cabling"}
	if !slices.Equal(titles, want) {
		t.Errorf("headings %q, want %q", titles, want)
	}
	st := PhaseStep{Phase: 2, GPUs: 512, Oversub: 1.5}
	for _, c := range Columns {
		f := c.Value(&st)
		switch c.Key {
		case "step_s", "jct_days", "recable_hours", "recabling":
			if !f.None {
				t.Errorf("%s: a step without a job time or moves has a value %+v", c.Key, f)
			}
		case "oversubscription":
			if f.V != 1.5 || !f.Over {
				t.Errorf("ratio %+v, want 1.5 over the asked one", f)
			}
		case "gpus":
			if f.V != 512 {
				t.Errorf("gpus %+v, want 512", f)
			}
		}
	}
}
