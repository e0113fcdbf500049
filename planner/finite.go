package planner

import "fabricplan/planner/perf"

// The typed finiteness walk: every float of a plan's cost, power and JCT
// estimate that the reflective walk (nonFinite) reaches, read by name.
// Every plan is checked, and the reflective walk was a tenth of a
// re-plan's instructions; it still names the figure of a plan this walk
// fails. TestFiniteWalkCoversFloats sets each float the reflective walk
// reaches to NaN in turn and fails when this walk misses one (a float
// field added to one of these types and not walked here).

// finitePlan reports whether every float of p's cost, power and JCT
// estimate is finite.
func finitePlan(p *Plan) bool {
	return finiteMoney(&p.Cost) && finiteWatts(&p.Power) && (p.JCT == nil || finiteJCT(p.JCT))
}

// finiteAll reports whether every one of xs is finite: x - x is 0 for
// a finite x and NaN for an infinite one or NaN.
func finiteAll(xs ...float64) bool {
	s := 0.0
	for _, x := range xs {
		s += x - x
	}
	return s == 0
}

func finiteMoney(m *Money) bool {
	if !finiteAll(m.NICs, m.Switches, m.Transceivers, m.Cables, m.Total, m.PerGPU, m.FabricShare, m.LowUSD, m.HighUSD, m.ComputeUSD) {
		return false
	}
	for i := range m.Drivers {
		if d := &m.Drivers[i]; !finiteAll(d.SwingUSD, d.LowUSD, d.HighUSD) {
			return false
		}
	}
	return true
}

func finiteWatts(w *Watts) bool {
	return finiteAll(w.NICs, w.Switches, w.Transceivers, w.Cables, w.Total)
}

// finiteJCT walks the estimate itself: its workload, memory, planned
// and baseline steps, effects and gain (not the GPU, a catalog entry, nor
// the memory fix's own estimate, as nonFinite).
func finiteJCT(j *perf.JCT) bool {
	if !finiteWorkload(&j.Workload) || !finiteMemory(&j.Memory) || !finiteStep(&j.Planned) || !finiteStep(&j.Baseline) || !finiteAll(j.Gain) {
		return false
	}
	for i := range j.Effects {
		if !finiteAll(j.Effects[i].DeltaS) {
			return false
		}
	}
	return true
}

func finiteWorkload(w *perf.Workload) bool {
	if !finiteAll(w.ParamsB, w.ActiveParamsB, w.TokensTotal, w.ComputeEfficiency, w.BackgroundLeaf, w.BackgroundSpine) {
		return false
	}
	for _, f := range optionalFigures(w) {
		if *f != nil && !finiteAll(**f) {
			return false
		}
	}
	return true
}

func finiteMemory(m *perf.MemoryUse) bool {
	return finiteAll(m.WeightsGB, m.GradientsGB, m.OptimizerGB, m.ActivationsGB, m.ReserveGB, m.TotalGB, m.HBMGB, m.TightGB)
}

func finiteStep(s *perf.StepTime) bool {
	if !finiteAll(s.ComputeS, s.BubbleS, s.BubbleCommS, s.StepS, s.TokensPerS, s.MFU, s.Days, s.BusBWGBs) {
		return false
	}
	for i := range s.Classes {
		if c := &s.Classes[i]; !finiteAll(c.BusBWGBs, c.TimeS, c.ExposedS) {
			return false
		}
	}
	return true
}
