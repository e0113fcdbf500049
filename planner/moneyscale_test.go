package planner

import "testing"

// A view's scale comes from the largest amount the view shows, not only
// the plan's total: the whole cluster's network spend in the summary, the
// budget and the dearest design in a search. Hand cases: a $0.95M fabric
// beside a $1.2M network spend is written in M; a search whose designs
// top out at $940.10M under a $2B budget writes "$0.940B". Mutations
// caught: the summary's scale taken from the fabric's total alone
// (thousands beside a $1.2M table row), the budget left out of the
// search's scale ("$940.10M" beside a "$2B" budget line).
func TestViewMoneyScales(t *testing.T) {
	p := &Plan{Cost: Money{Total: 950_000, HighUSD: 990_000}}
	if got := p.MoneyScale().Suffix; got != "k" {
		t.Errorf("fabric alone: scale %q, want k", got)
	}
	p.Networks = &Networks{Total: Increment{CostUSD: 1_200_000}}
	if got := p.MoneyScale().Format(p.Cost.Total); got != "$0.950M" {
		t.Errorf("with a $1.2M network spend: %s, want $0.950M", got)
	}
	r := &SearchResult{Designs: []*Design{{CostUSD: 940.1e6}, {CostUSD: 300e6}}}
	if got := r.MoneyScale().Format(940.1e6); got != "$940.10M" {
		t.Errorf("no budget: %s, want $940.10M", got)
	}
	r.Budget = 2e9
	if got := r.MoneyScale().Format(940.1e6); got != "$0.940B" {
		t.Errorf("with a $2B budget: %s, want $0.940B", got)
	}
}
