package textfmt

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

// MoneyScale is the scale a group of US$ amounts shown together is
// written in ("$4.56M, $0.648M"), chosen once for the group from its
// largest amount, as DurationUnit is for times.
type MoneyScale struct {
	Suffix string  // "M"
	Div    float64 // 1e6
}

// MoneyScaleFor picks the scale of amounts shown together from the
// largest: billions from $1B, millions from $1M, thousands from $10k (as
// USD writes a single amount), else whole dollars.
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
// figures: $0.648M), whole dollars without a scale. A non-zero amount
// that would round to zero in the scale is written "<$0.001B".
func (m MoneyScale) Format(v float64) string {
	if m.Div == 1 || m.Suffix == "" {
		return USDExact(v)
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
	if least := math.Pow(10, -float64(dec)); x > 0 && x < least/2 {
		// Too small to show in the scale: never written as a zero it is not.
		return sign + "<$" + strconv.FormatFloat(least, 'f', dec, 64) + m.Suffix
	}
	return sign + "$" + strconv.FormatFloat(x, 'f', dec, 64) + m.Suffix
}
