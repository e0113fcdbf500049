package planner

import "fabricplan/planner/perf"

// KindColocationSlowdown is a validation point's kind for how much longer
// a job's step takes with the scenario's other jobs running on the
// fabric than with their share of it idle: the scenario's step over the
// same step without the "other jobs on shared uplinks" effect.
const KindColocationSlowdown = "colocation_slowdown"

// colocationSlowdown is the model's step with the scenario's other jobs
// over its step with them idle (1 where they share no link).
func (p ValidationPoint) colocationSlowdown(cat *Catalog) (float64, error) {
	j, err := p.stepOn(cat, "", "")
	if err != nil {
		return 0, err
	}
	shared := 0.0
	for _, e := range j.Effects {
		if e.Name == perf.EffectOtherJobs {
			shared = e.DeltaS
		}
	}
	return j.Planned.StepS / (j.Planned.StepS - shared), nil
}
