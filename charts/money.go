package charts

import (
	"math"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"

	"gonum.org/v1/plot"
)

// money is how a chart writes one quantity of US$ (total fabric cost,
// cost per GPU, a market's revenue): in one scale, chosen once for the
// chart from the amounts it draws and writes, so a tick, a bar's value, a
// legend entry, the title and the footnote never say "$2B" beside
// "$940.10M". Amounts are written with textfmt.MoneyScale.Format, ticks
// in the same scale without trailing zeros ("$0.5B", "$1,250M").
type money struct{ textfmt.MoneyScale }

// moneyFor picks the scale of a quantity from every amount of it the
// chart shows (textfmt.MoneyScaleFor: from the largest).
func moneyFor(usd ...float64) money { return money{textfmt.MoneyScaleFor(usd...)} }

// wholeDollars writes amounts to the dollar ("$11,308"): the scale of
// amounts per GPU, as the summary and the report write them.
var wholeDollars = money{textfmt.MoneyScale{Div: 1}}

// text writes an amount in the scale.
func (m money) text(v float64) string { return m.Format(v) }

// tick writes an axis value in the scale, with as few decimals as it
// needs and thousands separators: "$0", "$2.5M", "$1,250M", "$15,000".
func (m money) tick(v float64) string {
	if m.Div <= 1 || m.Suffix == "" {
		return textfmt.USDExact(v)
	}
	if v == 0 {
		return "$0"
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	x := math.Round(v/m.Div*1e6) / 1e6
	whole, frac := math.Modf(x)
	s := textfmt.Int(int(whole))
	if frac != 0 {
		f := strconv.FormatFloat(frac, 'f', -1, 64) // "0.25"
		s += strings.TrimPrefix(f, "0")
	}
	return sign + "$" + s + m.Suffix
}

// Ticks implements plot.Ticker: round values in the scale.
func (m money) Ticks(min, max float64) []plot.Tick {
	return relabel(niceTicks(min, max), m.tick)
}
