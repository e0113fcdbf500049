package validation

import (
	"fabricplan/planner/perf"
)

// KindBisectionShare is a validation point's kind for the mean bandwidth
// per flow of a random bisection (every one-NIC server sending to one
// under another leaf) with static routing, over its bandwidth with
// adaptive routing: the effective bisection bandwidth of a statically
// routed fat tree.
const KindBisectionShare = "bisection_share"

// bisectionShare is the model's static-routing share of the point's
// random bisection: ranks servers, leaf_down of them per leaf.
func (p Point) bisectionShare(d *perf.JCTData) float64 {
	return perf.BisectionShare(d, perf.BisectionProbe{Fabric: perf.Fabric(p.Fabric), NICGbps: p.NICGbps, Servers: p.Ranks, LeafDown: p.LeafDown})
}

// bisectionComplete says whether a bisection point has its servers, NIC
// speed and servers per leaf in range.
func (p *Point) bisectionComplete() bool {
	return p.Ranks >= 2 && p.Ranks <= 1<<20 && p.NICGbps > 0 && p.NICGbps <= 1e5 && inRange(float64(p.LeafDown), 2, 1024)
}
