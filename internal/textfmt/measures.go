package textfmt

import (
	"fmt"
	"math"
	"strconv"
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

// Interval writes a wall-clock interval given in seconds in the unit a
// planner reads it in: milliseconds below a second ("494.2 ms"), whole
// seconds below a minute ("43 s"), whole minutes below an hour ("38
// min"), hours to one decimal beyond ("2.5 hours"); a value that rounds
// up to the next unit is written in it (59.7 s is "1 min"). It is "–"
// for a value that is not finite and non-negative. Checkpoint intervals
// and write times are written with it wherever they are shown.
func Interval(s float64) string {
	var buf [32]byte
	return string(AppendInterval(buf[:0], s))
}

// AppendInterval appends s as Interval writes it to dst.
func AppendInterval(dst []byte, s float64) []byte {
	const minute, hour = 60.0, 3600.0
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0) || s < 0:
		return append(dst, "–"...)
	case s < 0.9995:
		return AppendSeconds(dst, s)
	case s < minute-0.5:
		return append(strconv.AppendFloat(dst, s, 'f', 0, 64), " s"...)
	case s < hour-minute/2:
		return append(strconv.AppendFloat(dst, s/minute, 'f', 0, 64), " min"...)
	}
	if h := strconv.AppendFloat(nil, s/hour, 'f', 1, 64); string(h) != "1.0" {
		return append(append(dst, h...), " hours"...)
	}
	return append(dst, "1 hour"...)
}
