package explore

import (
	"testing"

	"fabricplan/planner"
)

// A sweep's rows and a search's designs keep their plans' figures, not
// their halls (planner.Plan.FiguresOnly), yet say how they were priced
// as their plans were built: a walked size stays "hall", a counted one
// "hall, counted (approx.)", and its cost, switches and links are the
// built plan's. Mutations caught: Priced read from the released plan
// (every laid-out row "flat"), the released plan's cost or links not
// the built one's.
func TestSweepRowsKeepHowTheyWerePriced(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(4096)
	for _, tc := range []struct {
		pricing, want string
	}{{PricingHall, PricedHall}, {PricingCounted, PricedCounted}, {PricingFlat, PricedFlat}} {
		for _, r := range SweepWith(s, cat, []int{2051, 40003}, SweepOptions{Pricing: tc.pricing}) {
			if r.Err != nil {
				t.Fatalf("%s, %d GPUs: %v", tc.pricing, r.GPUs, r.Err)
			}
			want := tc.want
			if tc.pricing == PricingCounted && r.Plan.Links.LeafSpine+r.Plan.Links.SpineCore <= 8192 {
				want = PricedHall // a small fabric's upper links are walked, not counted
			}
			if got := r.Priced(); got != want {
				t.Errorf("%s, %d GPUs: priced %q, want %q", tc.pricing, r.GPUs, got, want)
			}
			if r.Plan.Hall != nil {
				t.Errorf("%s, %d GPUs: the row keeps its hall", tc.pricing, r.GPUs)
			}
			sized := s
			sized.Cluster.GPUs = r.GPUs
			switch tc.pricing {
			case PricingCounted:
				sized = sized.CountedLinks()
			case PricingFlat:
				sized = sized.FlatLinks()
			}
			p, err := planner.Build(sized, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Cost.Total != r.Plan.Cost.Total || p.Links != r.Plan.Links || p.TotalSwitches() != r.Plan.TotalSwitches() {
				t.Errorf("%s, %d GPUs: $%.0f, %+v, %d switches; built: $%.0f, %+v, %d", tc.pricing, r.GPUs,
					r.Plan.Cost.Total, r.Plan.Links, r.Plan.TotalSwitches(), p.Cost.Total, p.Links, p.TotalSwitches())
			}
		}
	}
}
