package charts

import (
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
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
		{"meta", meta, "tomahawk4", "tomahawk4 + arista-7808r3", "leaf tomahawk4, spine arista-7808r3, core arista-7808r3"},
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
			if got := switchName([]explore.SweepRow{{GPUs: p.GPUs, Plan: p}}); got != c.label {
				t.Errorf("scale chart switch %q, want %q", got, c.label)
			}
		})
	}
}

// TestPortsChartCountsBoughtCards: the ports chart counts a chassis's
// installed ports as its bought cards' ports. The Meta scenario at 7,001
// GPUs, by hand: 7,008 NIC ports (876 DGX H100 x 8) + 438 ToRs x 64 +
// the BOM's 7800R3A-36D cards x 36.
// Mutation caught: the chart counting every slot of a chassis (288
// ports each) while the plan counts the cards bought.
func TestPortsChartCountsBoughtCards(t *testing.T) {
	cat := catalog(t)
	src, err := data.FS.ReadFile("scenarios/meta-roce-24k.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := planner.ScenarioFromData(src)
	if err != nil {
		t.Fatal(err)
	}
	s.Cluster.GPUs = 7001
	p, err := planner.Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	cards := 0
	for _, l := range p.BOM {
		if l.Key == "arista-7808r3/card" && !l.Spare {
			cards += l.Qty
		}
	}
	fig, err := Ports(Input{Plan: p})
	if err != nil {
		t.Fatal(err)
	}
	want := textfmt.Int(7008+438*64+cards*36) + " back-end ports" // Tomahawk 4 ToRs, 64 x 400G
	if title := fig.Panels[0][0].Title.Text; !strings.Contains(title, want) {
		t.Errorf("title %q, want %q", title, want)
	}
}
