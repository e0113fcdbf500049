package charts

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
)

// TestLabelsNameEachTiersSwitch: the cost chart's footnote and the scale
// chart's switch name say every tier's model where the spines run
// another than the leaves (the Meta scenario's Arista 7808R3 chassis
// over Tomahawk 6 ToRs), and the leaf's alone where every tier runs it;
// a bar's label (room for one key) names the leaf's.
// Mutation caught: labels reading only the leaf's model (p.Switch.Key),
// which drew a chassis-spine design as a fixed-switch one.
func TestLabelsNameEachTiersSwitch(t *testing.T) {
	cat := catalog(t)
	src, err := data.FS.ReadFile("scenarios/meta-roce-24k.toml")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := planner.ScenarioFromData(src)
	if err != nil {
		t.Fatal(err)
	}
	meta.Cluster.GPUs = 7001 // off the pod grid
	plain := planner.NewScenario()
	plain.Cluster.GPUs = 1000
	for _, c := range []struct {
		name             string
		s                planner.Scenario
		bar, label, foot string
	}{
		{"meta", meta, "tomahawk6-100g", "tomahawk6-100g + arista-7808r3", "leaf tomahawk6-100g, spine arista-7808r3, core arista-7808r3"},
		{"plain", plain, "qm9700", "qm9700", "qm9700"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := planner.Build(c.s, cat)
			if err != nil {
				t.Fatal(err)
			}
			vs := []planner.Variant{{Label: "as asked", Plan: p}}
			if l := variantLabels(vs)[0]; !strings.HasSuffix(l, "\n"+c.bar) {
				t.Errorf("label %q, want it to end in %q", l, c.bar)
			}
			if f := variantFootnote(vs); !strings.Contains(f, ", "+c.foot+", ") {
				t.Errorf("footnote %q lacks %q", f, c.foot)
			}
			if got := switchName([]planner.SweepRow{{GPUs: p.GPUs, Plan: p}}); got != c.label {
				t.Errorf("scale chart switch %q, want %q", got, c.label)
			}
		})
	}
}
