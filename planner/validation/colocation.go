package validation

import (
	"fmt"

	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// KindColocationSlowdown is a validation point's kind for how much longer
// a job's step takes with the fabric's other traffic than alone: the
// scenario's step over the same step without the "other jobs on shared
// uplinks" and "background load" effects (another job given as jobs = N
// of the same shape, or as the share of the uplinks it holds). Metric
// "added" gives the share of the step the sharing adds (the slowdown
// less 1), which a tolerance can judge where the ratio sits near 1.
const KindColocationSlowdown = "colocation_slowdown"

// colocationSlowdown is the model's step with the scenario's other jobs
// and background load over its step without them (1 where they share no
// link), or that less 1 for metric "added".
func (p Point) colocationSlowdown(cat *planner.Catalog) (float64, error) {
	j, err := p.stepOn(cat, "", "")
	if err != nil {
		return 0, err
	}
	shared := 0.0
	for _, e := range j.Effects {
		if e.Name == perf.EffectOtherJobs || e.Name == perf.EffectBackdrop {
			shared += e.DeltaS
		}
	}
	slowdown := j.Planned.StepS / (j.Planned.StepS - shared)
	if p.Metric == "added" {
		return slowdown - 1, nil
	}
	return slowdown, nil
}

// KindColocationBusBW is a validation point's kind for one job's
// all-reduce bus bandwidth (GB/s) while jobs equal jobs loop at once on
// a two-tier fabric of leaves with leaf_down server ports and leaf_up
// uplinks, every job spread over the leaves, statically routed (ECMP)
// where routing = "static".
const KindColocationBusBW = "colocation_busbw"

// colocationBusBW is the model's bus bandwidth for a co-location point.
func (p Point) colocationBusBW(d *perf.JCTData) (float64, error) {
	gpu := d.GPUs[p.GPU]
	if gpu == nil {
		return 0, fmt.Errorf("unknown GPU %q", p.GPU)
	}
	return perf.ColocatedAllReduceBusBW(d, perf.ColocationProbe{GPU: gpu, GPUsPerServer: p.GPUsPerServer, NICsPerServer: p.NICsPerServer,
		NICGbps: p.NICGbps, Fabric: perf.Fabric(p.Fabric), LeafDown: p.LeafDown, LeafUp: p.LeafUp, Jobs: p.Jobs, Ranks: p.Ranks,
		Channels: p.Channels, QueuePairs: p.QueuePairs, Bytes: p.Bytes, Static: p.Routing == "static"}), nil
}

// colocationBusBWComplete says whether a co-location bus bandwidth point
// has its jobs, ranks, servers, NICs, leaves and routing in range.
func (p *Point) colocationBusBWComplete() bool {
	return p.Jobs >= 2 && p.Jobs <= 1024 && p.Ranks >= 2 && p.Ranks <= 1<<20 && p.serversComplete() &&
		inRange(float64(p.LeafDown), 2, 1024) && inRange(float64(p.LeafUp), 1, 1024) && p.Channels >= 0 && p.Channels <= 64 &&
		inRange(p.QueuePairs, 0, 1024) && inRange(p.Bytes, 0, 1<<40) && (p.Routing == "" || p.Routing == "static" || p.Routing == "adaptive")
}

// serversComplete says whether the point's servers, their NICs and the
// NICs' speed are in range.
func (p *Point) serversComplete() bool {
	return inRange(float64(p.GPUsPerServer), 1, 1024) && inRange(float64(p.NICsPerServer), 1, 1024) && p.NICGbps > 0 && p.NICGbps <= 1e5
}
