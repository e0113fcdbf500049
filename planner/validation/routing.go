package validation

import (
	"fmt"

	"fabricplan/planner/perf"
)

// KindRoutingGain is a validation point's kind for adaptive routing's
// all-reduce bus bandwidth over static routing's on a given server,
// NIC and job size (ranks GPUs packed, qps queue pairs per connection).
const KindRoutingGain = "routing_gain"

// routingGain is the model's adaptive-over-static all-reduce bandwidth
// for the point's servers, NICs, NVLink domain, ranks and queue pairs,
// on a non-blocking two-tier fabric of the point's fabric.
func (p Point) routingGain(d *perf.JCTData) (float64, error) {
	gpu := d.GPUs[p.GPU]
	if gpu == nil {
		return 0, fmt.Errorf("unknown GPU %q", p.GPU)
	}
	return perf.RoutingGain(d, perf.RoutingProbe{GPU: gpu, GPUsPerServer: p.GPUsPerServer, NICsPerServer: p.NICsPerServer,
		NICGbps: p.NICGbps, Fabric: perf.Fabric(p.Fabric), NVLinkDomain: p.NVLinkDomain, Ranks: p.Ranks,
		QueuePairs: p.QueuePairs, Bytes: p.Bytes}), nil
}

// routingGainComplete says whether a routing gain point has its servers,
// NICs, GPU, ranks and queue pairs in range.
func (p *Point) routingGainComplete() bool {
	return p.GPU != "" && p.Ranks >= 2 && p.Ranks <= 1<<20 && inRange(float64(p.GPUsPerServer), 1, 1024) &&
		inRange(float64(p.NICsPerServer), 1, 1024) && p.NICGbps > 0 && p.NICGbps <= 1e5 &&
		p.NVLinkDomain >= 0 && p.NVLinkDomain <= 1<<20 && inRange(p.QueuePairs, 0, 1024) && inRange(p.Bytes, 0, 1<<40)
}
