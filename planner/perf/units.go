package perf

import "fabricplan/internal/textfmt"

// TimeUnit is the unit a plan's job times (planned and baseline) are
// written in together.
func (j *JCT) TimeUnit() textfmt.DurationUnit {
	return textfmt.DurationUnitFor(j.Planned.Days, j.Baseline.Days)
}
