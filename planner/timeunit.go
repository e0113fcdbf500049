package planner

import (
	"math"
	"strconv"
)

// DurationUnit is the unit a view writes every job time in: chosen once
// for the view from the size of its times (DurationUnitFor), so a status
// line, a table and a chart of one view never say "0.28 days" beside
// "6.6 hours".
type DurationUnit struct {
	Name     string  // "hours"
	Days     float64 // the unit's length in days
	Decimals int     // decimals written
}

// The units job times are written in.
var (
	UnitMinutes = DurationUnit{"minutes", 1.0 / (24 * 60), 1}
	UnitHours   = DurationUnit{"hours", 1.0 / 24, 1}
	UnitDays    = DurationUnit{"days", 1, 2}
	UnitWeeks   = DurationUnit{"weeks", 7, 1}
)

// DurationUnitFor is the one rule that picks the unit of job times, given
// in days, from the largest of them: minutes below an hour, hours below
// two days, days up to 60, weeks beyond. Times that are not finite and
// positive are passed over; none leaves days.
func DurationUnitFor(days ...float64) DurationUnit {
	top := math.Inf(-1)
	for _, d := range days {
		if d >= 0 && !math.IsInf(d, 0) {
			top = math.Max(top, d)
		}
	}
	switch {
	case math.IsInf(top, -1):
		return UnitDays
	case top < 1.0/24:
		return UnitMinutes
	case top < 2:
		return UnitHours
	case top <= 60:
		return UnitDays
	}
	return UnitWeeks
}

// In converts days into the unit.
func (u DurationUnit) In(days float64) float64 { return days / u.Days }

// Format writes a time given in days in the unit ("6.6 hours"); a time
// that is not finite and non-negative is "–".
func (u DurationUnit) Format(days float64) string {
	if math.IsNaN(days) || math.IsInf(days, 0) || days < 0 {
		return "–"
	}
	return strconv.FormatFloat(u.In(days), 'f', u.Decimals, 64) + " " + u.Name
}

// TimeUnit is the unit a search's times are written in, everywhere they
// are shown: chosen from its target and the times on its Pareto front.
func (r *SearchResult) TimeUnit() DurationUnit {
	days := []float64{r.Target}
	for _, d := range r.Front {
		days = append(days, d.Days)
	}
	return DurationUnitFor(days...)
}

// MoneyScale is the scale a search's costs are written in, everywhere
// they are shown (status line, table, chart): chosen from every design's
// cost and the budget.
func (r *SearchResult) MoneyScale() MoneyScale {
	usd := []float64{r.Budget}
	for _, d := range r.Designs {
		usd = append(usd, d.CostUSD)
	}
	return MoneyScaleFor(usd...)
}

// MoneyScale is the scale a plan's amounts are written in wherever they
// are shown together (the summary's cards and BOM, the report's pages):
// chosen from its dearest totals, the fabric at every part's high price
// and the whole cluster's network spend. Amounts per GPU are written to
// the dollar beside it (FormatUSDExact).
func (p *Plan) MoneyScale() MoneyScale {
	usd := []float64{p.Cost.Total, p.Cost.HighUSD}
	if p.Networks != nil {
		usd = append(usd, p.Networks.Total.CostUSD)
	}
	return MoneyScaleFor(usd...)
}

// TimeUnit is the unit a plan's job times (planned and baseline) are
// written in together.
func (j *JCT) TimeUnit() DurationUnit { return DurationUnitFor(j.Planned.Days, j.Baseline.Days) }

// WithFailuresUnit is the unit for the planned job time and the time
// counting failures (g) written together.
func (j *JCT) WithFailuresUnit(g Goodput) DurationUnit {
	return DurationUnitFor(j.Planned.Days, g.JCTDays)
}

// MoneyScale is the scale a group of US$ amounts shown together is
// written in ("$4.56M, $0.648M"), chosen once for the group from its
// largest amount, as DurationUnit is for times.
type MoneyScale struct {
	Suffix string  // "M"
	Div    float64 // 1e6
}

// MoneyScaleFor picks the scale of amounts shown together from the
// largest: billions from $1B, millions from $1M, thousands from $10k (as
// FormatUSD writes a single amount), else whole dollars.
func MoneyScaleFor(usd ...float64) MoneyScale {
	top := 0.0
	for _, v := range usd {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			top = math.Max(top, math.Abs(v))
		}
	}
	switch {
	case top >= 1e9:
		return MoneyScale{"B", 1e9}
	case top >= 1e6:
		return MoneyScale{"M", 1e6}
	case top >= 1e4:
		return MoneyScale{"k", 1e3}
	}
	return MoneyScale{"", 1}
}

// Format writes v in the scale: two decimals from one unit up, three
// below it (so an amount a scale smaller than the largest keeps three
// figures: $0.648M), whole dollars without a scale.
func (m MoneyScale) Format(v float64) string {
	if m.Div == 1 || m.Suffix == "" {
		return FormatUSDExact(v)
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	x := v / m.Div
	dec := 2
	if x < 1 {
		dec = 3
	}
	if m.Suffix == "k" {
		dec = 1
	}
	return sign + "$" + strconv.FormatFloat(x, 'f', dec, 64) + m.Suffix
}
