package planner

import "fabricplan/planner/perf"

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
func (p ValidationPoint) colocationSlowdown(cat *Catalog) (float64, error) {
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
