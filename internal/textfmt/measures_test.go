package textfmt

import "testing"

// Oversub writes down/up ratios as an engineer writes them: 2:1, 1.33:1
// (4:3), 1.07:1 (HPN's 16:15), and below one the other way round, 1:2
// for a leaf with twice the uplinks (Meta's rack switches), 1:1.5 for
// 2:3. Mutation caught: "0.5:1" for an under-subscribed leaf.
func TestOversub(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want string
	}{
		{0, "-"}, {1, "1:1"}, {2, "2:1"}, {4.0 / 3, "1.33:1"}, {16.0 / 15, "1.07:1"}, {6.857142857, "6.86:1"},
		{0.5, "1:2"}, {2.0 / 3, "1:1.5"}, {0.25, "1:4"},
	} {
		if got := Oversub(tc.r); got != tc.want {
			t.Errorf("Oversub(%v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
