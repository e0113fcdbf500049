package planner

import "fabricplan/internal/textfmt"

// TimeUnit is the unit a search's times are written in, everywhere they
// are shown: chosen from its target and the times on its Pareto front.
func (r *SearchResult) TimeUnit() textfmt.DurationUnit {
	days := []float64{r.Target}
	for _, d := range r.Front {
		days = append(days, d.Days)
	}
	return textfmt.DurationUnitFor(days...)
}

// TimeUnit is the unit a plan's job times (planned and baseline) are
// written in together.
func (j *JCT) TimeUnit() textfmt.DurationUnit {
	return textfmt.DurationUnitFor(j.Planned.Days, j.Baseline.Days)
}

// WithFailuresUnit is the unit for the planned job time and the time
// counting failures (g) written together.
func (j *JCT) WithFailuresUnit(g Goodput) textfmt.DurationUnit {
	return textfmt.DurationUnitFor(j.Planned.Days, g.JCTDays)
}
