package textfmt

import (
	"fmt"
	"math"
	"strings"
)

// KM writes a cable length in km: two decimals below 100 km,
// whole kilometres with thousands separators above.
func KM(km float64) string {
	if km < 100 {
		return fmt.Sprintf("%.2f", km)
	}
	return Int(int(km + 0.5))
}

// Oversub writes a down/up ratio as "2:1" or "1.33:1" ("-" without
// uplinks); below 1, more up than down, as "1:2" (an under-subscribed
// leaf), not "0.5:1".
func Oversub(r float64) string {
	if r == 0 {
		return "-"
	}
	if r < 1 {
		return "1:" + strings.TrimSuffix(fmt.Sprintf("%.4g", math.Round(100/r)/100), ".0")
	}
	return strings.TrimSuffix(fmt.Sprintf("%.4g", math.Round(r*100)/100), ".0") + ":1"
}

// Hours prints a duration in hours as Duration does, and
// "never" for +Inf (no interruptions).
func Hours(h float64) string {
	if math.IsInf(h, 1) {
		return "never"
	}
	return Duration(h / 24)
}
