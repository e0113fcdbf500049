package charts

import (
	"strings"
	"testing"
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
