package fabric

import "strconv"

// The tiers of a plane, bottom up, as Headroom and the plan name them.
const (
	TierLeaf  = "leaf"
	TierSpine = "spine"
	TierCore  = "core"
)

// groupDigits writes n with commas between groups of three digits
// (16384 -> "16,384"), as the rest of the app writes counts. The sizer
// imports nothing of ours, so it cannot call internal/textfmt;
// TestGroupDigits holds it to the same output.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
