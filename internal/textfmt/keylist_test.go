package textfmt

import "testing"

// KeyList sorts the keys whatever the map's order and whatever the
// values. Catches: keys in map order (the fix's text changing from run
// to run), values listed instead of keys.
func TestKeyList(t *testing.T) {
	cases := []struct {
		m    map[string]int
		want string
	}{
		{map[string]int{}, "[]"},
		{map[string]int{"h100": 3}, "[h100]"},
		{map[string]int{"mi300x": 1, "b200": 2, "h100": 3, "gb200": 4}, "[b200 gb200 h100 mi300x]"},
	}
	for _, c := range cases {
		for range 5 { // map order varies between ranges
			if got := KeyList(c.m); got != c.want {
				t.Errorf("KeyList(%v) = %q, want %q", c.m, got, c.want)
			}
		}
	}
}
