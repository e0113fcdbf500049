package planner

// FiguresOnly returns p without what only a view of its data hall reads:
// the hall's racks and the links' cage sets (some megabytes a design
// at 1,000,000 GPUs). Every figure stays: counts, bill, cost, power,
// the job's time and the hall's pricing of the links; p.Hall is nil, so
// the copy draws no floor, racks or cable map. A design search keeps
// the plans of every design it lays out and a sweep every size's, and
// they need the figures only (at 1,000,000 GPUs the report's peak fell
// from 285-314 MB to 212-251 MB).
// Exported for planner/explore.
func (p *Plan) FiguresOnly() *Plan {
	if p.Hall == nil && p.media == nil {
		return p // a plan priced flat holds nothing to let go
	}
	q := *p
	q.Hall, q.media = nil, nil
	return &q
}

// layoutBytesPerGPU is the memory a plan laid out in its hall allocates
// while it is built, per GPU: BenchmarkPlanCold's B/op at 100,000 GPUs
// (6.4 MB, 64 bytes a GPU) and 1,000,000 GPUs (47.1 MB), 2026-11-29,
// the larger per GPU.
const layoutBytesPerGPU = 64

// LayoutBytes is the memory laying out a plan of gpus GPUs in its hall
// allocates while it runs: the weight of one such build in
// workers.Memory.
// Exported for planner/explore.
func LayoutBytes(gpus int) int64 { return int64(max(gpus, 0)) * layoutBytesPerGPU }
