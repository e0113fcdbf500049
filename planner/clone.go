package planner

import (
	"fabricplan/planner/perf"
	"reflect"
	"slices"
)

// Clone returns a deep copy of s: its workload, the workload's optional
// overlaps and polarization, its reliability overrides and its price overrides are copied, so editing the copy never
// changes s. The loaded quotes are shared: they are read-only, and the
// memos key them by identity. A Scenario is a value: every edit in the app makes a new one
// with Clone, and background work (plans, search, report) keeps its own.
func (s Scenario) Clone() Scenario {
	out := s
	if s.Workload != nil {
		w := *s.Workload
		for _, p := range optionalFigures(&w) {
			if *p != nil {
				v := **p
				*p = &v
			}
		}
		w.Architecture = w.Architecture.Clone()
		out.Workload = &w
	}
	if s.Reliability != nil {
		r := *s.Reliability
		for _, p := range []**float64{&r.GPUPerYear, &r.HostPerYear, &r.NICPerYear, &r.LinkPerYear, &r.SwitchPerYear,
			&r.RestartMin, &r.CheckpointWriteS, &r.CheckpointStallS, &r.CheckpointIntervalMin, &r.RepairHours,
			&r.SwapHours, &r.SpareSwitchesPct, &r.SpareOpticsPct} {
			if *p != nil {
				v := **p
				*p = &v
			}
		}
		if r.PortFailover != nil {
			v := *r.PortFailover
			r.PortFailover = &v
		}
		out.Reliability = &r
	}
	if s.Networks != nil {
		n := *s.Networks
		out.Networks = &n
	}
	if s.Storage != nil {
		st := *s.Storage
		out.Storage = &st
	}
	out.Inference, out.RL = clonePtr(s.Inference), clonePtr(s.RL)
	out.Phases = slices.Clone(s.Phases)
	if s.Growth != nil {
		g := *s.Growth
		out.Growth = &g
	}
	if s.Facility != nil {
		f := *s.Facility
		out.Facility = &f
	}
	if s.Prices != nil {
		out.Prices = make(map[string]float64, len(s.Prices))
		for k, v := range s.Prices {
			out.Prices[k] = v
		}
	}
	return out
}

// Equal reports whether s and o are the same inputs: equal fields, with
// an empty price table the same as none.
func (s Scenario) Equal(o Scenario) bool {
	if len(s.Prices) == 0 && len(o.Prices) == 0 {
		s.Prices, o.Prices = nil, nil
	}
	return reflect.DeepEqual(s, o)
}

// optionalFigures is the places of w's optional figures, the pointers a
// copy must not share and a key must read by value (Clone, the job
// memo's key, the finiteness check).
func optionalFigures(w *perf.Workload) [6]**float64 {
	return [...]**float64{&w.Polarization, &w.OverlapDP, &w.OverlapPP, &w.OverlapTP, &w.OverlapEP, &w.OverlapCP}
}

// clonePtr is a pointer to a copy of *p (nil for nil), for the tables
// whose fields are all values.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
