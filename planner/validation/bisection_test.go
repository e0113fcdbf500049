package validation

import (
	"math"
	"testing"

	"fabricplan/planner"
)

// A bisection share point needs its servers, NIC speed and servers per
// leaf, and runs the model's static-routing share: with 2 servers per
// leaf the flow meets its leaf's other flow with probability 1/2 at each
// of the 2 hashed stages, 1/4 + 3/4 x 1/2 = 0.625 by hand. Mutations
// caught: a point without leaf_down (or with one server per leaf)
// accepted, the kind not dispatched to its probe (unknown kind), the
// probe's fabric or sizes not passed through.
func TestBisectionSharePoint(t *testing.T) {
	base := Point{Name: "p", Source: "s", Published: 0.6, Series: "s", Kind: KindBisectionShare,
		Fabric: planner.InfiniBand, NICGbps: 20, Ranks: 566, LeafDown: 12}
	for _, c := range []struct {
		name   string
		change func(*Point)
		ok     bool
	}{
		{"complete", func(*Point) {}, true},
		{"no leaf size", func(p *Point) { p.LeafDown = 0 }, false},
		{"one server per leaf", func(p *Point) { p.LeafDown = 1 }, false},
		{"one server", func(p *Point) { p.Ranks = 1 }, false},
		{"no NIC speed", func(p *Point) { p.NICGbps = 0 }, false},
	} {
		p := base
		c.change(&p)
		if err := p.check(0); (err == nil) != c.ok {
			t.Errorf("%s: check %v, want ok %v", c.name, err, c.ok)
		}
	}
	two := base
	two.LeafDown, two.Ranks, two.Fabric = 2, 77, planner.Ethernet
	got, err := two.model(testCatalog(t))
	if err != nil || math.Abs(got-0.625) > 1e-9 {
		t.Errorf("2 per leaf: %.4f (%v), want 0.625", got, err)
	}
}
