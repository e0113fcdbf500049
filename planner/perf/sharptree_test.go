package perf

import "testing"

// TestSharpTree: in-network reduction needs every tier's switch model to
// reduce, since the aggregation tree spans the tiers a job crosses.
// Mutations caught: only the leaf's model checked (a non-capable spine or
// core kept SHARP on), an empty upper key (no such tier) read as a
// non-capable model, the upper keys checked but not the leaf's.
func TestSharpTree(t *testing.T) {
	c := InNetworkConstants{SHARPSwitches: []string{"qm9700", "q3400"}}
	for _, tc := range []struct {
		name  string
		leaf  string
		upper [2]string
		want  bool
	}{
		{"two tiers, one capable model", "qm9700", [2]string{"qm9700", ""}, true},
		{"one tier", "q3400", [2]string{}, true},
		{"capable leaf, capable spine and core of another model", "qm9700", [2]string{"q3400", "q3400"}, true},
		{"capable leaf under a spine without SHARP", "qm9700", [2]string{"edge-x", ""}, false},
		{"capable leaf and spine under a core without SHARP", "qm9700", [2]string{"qm9700", "edge-x"}, false},
		{"leaf without SHARP under capable spines", "edge-x", [2]string{"qm9700", "qm9700"}, false},
	} {
		n := Network{SHARP: true, SwitchKey: tc.leaf, UpperSwitchKeys: tc.upper}
		if got := c.sharpTree(n); got != tc.want {
			t.Errorf("%s: sharpTree = %v, want %v", tc.name, got, tc.want)
		}
	}
}
