package planner

import "fabricplan/internal/textfmt"

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
