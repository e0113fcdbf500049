package charts

import (
	"strings"
	"testing"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// The cost chart's alternatives say how sure the ranking is: the default
// QM9700 plan against SN5600 RoCE and Q3400 XDR, whose switch ranges lie
// wholly above ($2.88M-6.0M and $3.78M-5.4M against $1.68M-2.4M,
// research/prices.md) with the other parts shared or dearer, is cheaper
// in every draw. Mutation caught: the probability taken the wrong way
// round (0% of draws).
func TestCostChartCertainty(t *testing.T) {
	fig, err := Cost(inputs(t)["default"])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cheaper than RoCE 400G (cheaper in 100% of draws)", "cheaper than IB 800G (cheaper in 100% of draws)", "street basis"} {
		if !strings.Contains(fig.Footnote, want) {
			t.Errorf("footnote lacks %q:\n%s", want, fig.Footnote)
		}
	}
}

// The cost chart's title and its bar write one value for cost per GPU:
// the plan's cost over the GPUs bought (whole racks or servers), so at
// 4,000 GB300 GPUs (56 racks, 4,032 bought) and 1,020 DGX H100 GPUs
// (128 servers, 1,024 bought) the figure appears in the title and over
// the bar, and the cost over the GPUs asked appears nowhere. Likewise
// power: the title's total and per-GPU watts are the bars'. Mutation
// caught: bars divided by the GPUs asked while the title divides by the
// GPUs bought ("$13,572 per GPU" over a "$13,589" bar, the old code).
func TestCostChartOneValuePerFigure(t *testing.T) {
	for _, tc := range []struct {
		name, src     string
		asked, bought int
	}{
		{"gb300 4,000", "[cluster]\nsystem = \"gb300-nvl72\"\ngpus = 4000\n[network]\nfabric = \"infiniband\"\nswitch = \"q3400\"\n", 4000, 4032},
		{"dgx-h100 1,020", "[cluster]\nsystem = \"dgx-h100\"\ngpus = 1020\n", 1020, 1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenariofile.Parse([]byte("schema = 1\n" + tc.src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := planner.Build(s, catalog(t))
			if err != nil {
				t.Fatal(err)
			}
			if p.GPUs != tc.asked || p.GPUsBought() != tc.bought {
				t.Fatalf("plan has %d GPUs, %d bought: want %d, %d", p.GPUs, p.GPUsBought(), tc.asked, tc.bought)
			}
			for _, c := range []struct {
				chart     func(Input) (*Figure, error)
				want, not string
			}{
				{Cost, textfmt.USDExact(p.Cost.Total / float64(tc.bought)), textfmt.USDExact(p.Cost.Total / float64(tc.asked))},
				{Power, textfmt.Watts(p.Power.Total / float64(tc.asked)), ""},
				{Power, textfmt.Watts(p.Power.Total), ""},
			} {
				fig, err := c.chart(Input{Plan: p})
				if err != nil {
					t.Fatal(err)
				}
				b, err := fig.Bytes("svg", DefaultSize)
				if err != nil {
					t.Fatal(err)
				}
				svg := string(b)
				if n := strings.Count(svg, c.want); n < 2 {
					t.Errorf("%s: %q appears %d times, want the title and the bar", fig.Name, c.want, n)
				}
				if c.not != "" && c.not != c.want && strings.Contains(svg, c.not) {
					t.Errorf("%s: %q (over the GPUs asked) is drawn", fig.Name, c.not)
				}
			}
		})
	}
}
