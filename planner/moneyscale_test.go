package planner

import (
	"fmt"
	"io/fs"
	"regexp"
	"testing"

	"fabricplan/data"
)

// A view's scale comes from the largest amount the view shows, not only
// the plan's total: the whole cluster's network spend in the summary.
// Hand case: a $0.95M fabric beside a $1.2M network spend is written in
// M. Mutation caught: the summary's scale taken from the fabric's total
// alone (thousands beside a $1.2M table row). (The search's scale:
// planner/explore's TestSearchMoneyScale.)
func TestViewMoneyScales(t *testing.T) {
	p := &Plan{Cost: Money{Total: 950_000, HighUSD: 990_000}}
	if got := p.MoneyScale().Suffix; got != "k" {
		t.Errorf("fabric alone: scale %q, want k", got)
	}
	p.Networks = &Networks{Total: Increment{CostUSD: 1_200_000}}
	if got := p.MoneyScale().Format(p.Cost.Total); got != "$0.950M" {
		t.Errorf("with a $1.2M network spend: %s, want $0.950M", got)
	}
}

// scaledAmount is a US$ amount written with a scale letter ("$0.156M",
// "$98.2k"); whole-dollar amounts (per GPU, per part) carry none.
var scaledAmount = regexp.MustCompile(`\$-?[0-9][0-9.,]*([kMB])\b`)

// The planner's own sentences shown beside the plan's amounts (the
// cheaper-design and packed-leaves notes, the spares line) write their
// amounts in the plan's one scale, which by hand is the scale of its
// largest amount: B from $1B, M from $1M, k from $10k, across the fabric's
// total, its high price and the whole cluster's network spend. Every
// example scenario and two odd sizes are checked. Mutation caught: a
// note formatted on its own ("$156.4k" of spares beside "$4.56M" cards),
// the packed-leaves note written before the side networks set the scale.
func TestNotesWriteAmountsInThePlansScale(t *testing.T) {
	cat := testCatalog(t)
	type tc struct {
		name string
		s    Scenario
	}
	var cases []tc
	files, err := fs.Glob(data.FS, "scenarios/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := data.FS.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ScenarioFromData(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cases = append(cases, tc{f, s})
	}
	for _, g := range []int{24, 1000, 16384} {
		// Spares of 2% of switches and 1% of optics: a line with an
		// amount far below the plan's total.
		sw, opt := 2.0, 1.0
		s := NewScenario()
		s.Cluster.GPUs = g
		s.Reliability = &ReliabilityInputs{SpareSwitchesPct: &sw, SpareOpticsPct: &opt}
		cases = append(cases, tc{fmt.Sprintf("default at %d GPUs with spares", g), s})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Build(c.s, cat)
			if err != nil {
				t.Fatalf("does not plan: %v", err)
			}
			p.FindCheaper(cat)
			top := max(p.Cost.Total, p.Cost.HighUSD)
			if p.Networks != nil {
				top = max(top, p.Networks.Total.CostUSD)
			}
			want := ""
			switch {
			case top >= 1e9:
				want = "B"
			case top >= 1e6:
				want = "M"
			case top >= 1e4:
				want = "k"
			}
			for _, text := range append(append([]string(nil), p.Notes...), p.SparesText()) {
				for _, m := range scaledAmount.FindAllStringSubmatch(text, -1) {
					if m[1] != want {
						t.Errorf("%q is not in the plan's scale %q: %s", m[0], want, text)
					}
				}
			}
		})
	}
}
