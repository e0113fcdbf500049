// Package resilience is the failure what-if and goodput model: what each
// kind of part of a fabric cuts off when it fails, what a training job
// then does (continues, restarts without the GPUs cut off, or stops),
// how fast it trains meanwhile, how long the part stays down with and
// without spares on the shelf, and what the interruptions, restarts and
// checkpoints leave of the job's wall-clock time (ETTR, after Kokolis et
// al., HPCA'25).
//
// It sits below the planner's facade and never imports it: the facade
// fills an Input, a plain struct of the plan's part counts per tier, the
// failure rates and recovery times (Reliability, data/reliability.toml
// with a scenario's overrides), the spares bought and the job as its JCT
// estimate resolved it, and keeps what Analyse returns in
// Plan.Resilience. Steps with a part lost are timed with planner/perf.
// Nothing is remembered from one analysis to the next.
package resilience
