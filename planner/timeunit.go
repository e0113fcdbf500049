package planner

import "fabricplan/internal/textfmt"

// TimeUnit is the unit a search's times are written in, everywhere they
// are shown: chosen from its target and the times on its Pareto front.
func (r *SearchResult) TimeUnit() textfmt.DurationUnit {
	days := []float64{r.Target}
	for _, d := range r.Front {
		days = append(days, d.Days)
	}
	return textfmt.DurationUnitFor(days...)
}

// MoneyScale is the scale a search's costs are written in, everywhere
// they are shown (status line, table, chart): chosen from every design's
// cost and the budget.
func (r *SearchResult) MoneyScale() textfmt.MoneyScale {
	usd := []float64{r.Budget}
	for _, d := range r.Designs {
		usd = append(usd, d.CostUSD)
	}
	return textfmt.MoneyScaleFor(usd...)
}

// MoneyScale is the scale a plan's amounts are written in wherever they
// are shown together (the summary's cards and BOM, the report's pages):
// chosen from its dearest totals, the fabric at every part's high price
// and the whole cluster's network spend. Amounts per GPU are written to
// the dollar beside it (textfmt.USDExact).
func (p *Plan) MoneyScale() textfmt.MoneyScale {
	usd := []float64{p.Cost.Total, p.Cost.HighUSD}
	if p.Networks != nil {
		usd = append(usd, p.Networks.Total.CostUSD)
	}
	return textfmt.MoneyScaleFor(usd...)
}
