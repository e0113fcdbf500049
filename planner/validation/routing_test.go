package validation

import (
	"math"
	"testing"

	"fabricplan/planner"
)

// A routing gain point needs what its kind reads, and the model's gain
// is adaptive over static: above 1 where static routing hashes crossing
// flows, 1 where the job stays under one leaf group (no hashing), and
// no higher with queue pairs past the 4 a connection keeps busy (the
// GB300 measurement: 8 gave nothing over 4). By hand, one 4-GPU tray
// pair inside a 32-tray leaf group: 8 GPUs never cross the leaf, gain
// exactly 1. Mutations caught: a point without qps range checks
// accepted, the ratio inverted (static over adaptive, below 1), queue
// pairs past the active cap counted.
func TestRoutingGainPoint(t *testing.T) {
	d := testCatalog(t).JCT
	base := Point{Name: "p", Source: "s", Published: 1.7, Series: "s", Kind: KindRoutingGain,
		GPU: "gb300", GPUsPerServer: 4, NICsPerServer: 4, NICGbps: 800, Fabric: planner.Ethernet, NVLinkDomain: 72, Ranks: 288, QueuePairs: 4}
	for _, c := range []struct {
		name   string
		change func(*Point)
		ok     bool
	}{
		{"complete", func(*Point) {}, true},
		{"no GPU", func(p *Point) { p.GPU = "" }, false},
		{"one rank", func(p *Point) { p.Ranks = 1 }, false},
		{"qps past 1024", func(p *Point) { p.QueuePairs = 2048 }, false},
		{"no NIC speed", func(p *Point) { p.NICGbps = 0 }, false},
	} {
		p := base
		c.change(&p)
		if err := p.check(0); (err == nil) != c.ok {
			t.Errorf("%s: check %v, want ok %v", c.name, err, c.ok)
		}
	}
	four, err := base.routingGain(d)
	if err != nil || !(four > 1) {
		t.Fatalf("gain %.3f (%v), want above 1", four, err)
	}
	eight := base
	eight.QueuePairs = 8
	if got, _ := eight.routingGain(d); math.Abs(got-four) > 1e-9 {
		t.Errorf("8 QPs: gain %.4f, want %.4f as with 4", got, four)
	}
	small := base
	small.Ranks, small.NVLinkDomain = 8, 4
	if got, _ := small.routingGain(d); math.Abs(got-1) > 1e-9 {
		t.Errorf("8 GPUs under one leaf: gain %.4f, want 1", got)
	}
	if _, err := (Point{Kind: KindRoutingGain, GPU: "no-such"}).routingGain(d); err == nil {
		t.Error("unknown GPU: no error")
	}
}
