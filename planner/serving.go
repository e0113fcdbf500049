package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/perf"
	"fabricplan/planner/serve"
)

// kind is the scenario's workload kind: serve.KindTraining unless its
// [workload] names another.
func (s *Scenario) kind() string {
	if s.Workload != nil && s.Workload.Kind != "" {
		return s.Workload.Kind
	}
	return serve.KindTraining
}

// validateServing checks workload.kind and the [inference] and [rl]
// tables against it.
func (s *Scenario) validateServing() []error {
	var errs []error
	k := s.kind()
	switch k {
	case serve.KindTraining, serve.KindInference, serve.KindRL:
	default:
		return []error{fielderr.New("workload.kind", `write "training", "inference" or "rl"`, "unknown kind %q", k)}
	}
	tables := []struct {
		name, kind string
		given      bool
		check      func() []error
	}{
		{"inference", serve.KindInference, s.Inference != nil, func() []error { return s.Inference.Validate("inference") }},
		{"rl", serve.KindRL, s.RL != nil, func() []error { return s.RL.Validate("rl") }},
	}
	for _, t := range tables {
		switch {
		case t.given && k != t.kind:
			errs = append(errs, fielderr.New(t.name, fmt.Sprintf("write kind = %q in [workload], or remove [%s]", t.kind, t.name),
				"[%s] is read only for kind %q", t.name, t.kind))
		case t.given:
			errs = append(errs, t.check()...)
		case k == t.kind:
			errs = append(errs, fielderr.New(t.name, fmt.Sprintf("add an [%s] table (see data/scenarios/%s-*.toml)", t.name, t.name),
				"kind %q needs its [%s] table", k, t.name))
		}
	}
	return append(errs, s.servingPoolErrors()...)
}

// servingPoolErrors checks that a decode instance fits its pool. Pools
// larger than the cluster are not errors: a sweep or a phase plans the
// scenario at fewer GPUs, and the model scales the pools to fit.
func (s *Scenario) servingPoolErrors() []error {
	in := s.Inference
	if in == nil {
		return nil
	}
	if w := max(in.DecodeEP, 1) * max(in.DecodeTP, 1); in.DecodeGPUs > 0 && w > in.DecodeGPUs {
		return []error{fielderr.New("inference.decode_ep", fmt.Sprintf("give decode_ep x decode_tp of %d or fewer, or a larger decode pool", in.DecodeGPUs),
			"one decode instance of %d GPUs does not fit the %d-GPU decode pool", w, in.DecodeGPUs)}
	}
	return nil
}

// estimateServing fills p.Inference or p.RL for a scenario of that kind,
// on the plan's back end with data/inference.toml's constants.
func (p *Plan) estimateServing(cat *Catalog) {
	s := &p.Scenario
	if cat.Serve == nil || cat.JCT == nil || s.Workload == nil || s.kind() == serve.KindTraining {
		return
	}
	w := *s.Workload
	gpu := p.servingGPU(cat.JCT, w.GPU)
	if gpu == nil {
		return
	}
	c := p.servingCluster(gpu, cat.JCT)
	m := serve.ResolveModel(w, cat.JCT)
	switch {
	case s.Inference != nil:
		p.Inference = serve.Estimate(*s.Inference, m, &c, cat.JCT, cat.Serve)
	case s.RL != nil:
		p.RL = serve.EstimateRL(*s.RL, m.ParamsB, &c, cat.JCT, cat.Serve)
	}
}

// servingGPU is the GPU the plan serves on: its system's (or the
// variant of it key names), else key's.
func (p *Plan) servingGPU(d *perf.JCTData, key string) *perf.GPUSpec {
	return d.GPUs[p.jobGPU(key, d)]
}

// servingCluster is the plan as the serving model reads it: its back end
// as the JCT model sees it, its NVLink domain, its capex (compute and
// back end), its power (systems and back end; 0 for custom servers,
// whose power the catalog does not know) and its front end's NIC
// bandwidth per server when it has a separate one.
func (p *Plan) servingCluster(gpu *perf.GPUSpec, d *perf.JCTData) serve.Cluster {
	c := serve.Cluster{Net: p.perfNetwork(), GPU: gpu, CapexUSD: p.Cost.Total + p.Cost.ComputeUSD}
	c.NVLinkDomain = perf.NVLinkDomain(p.System.domain(), gpu, p.Scenario.Cluster.GPUsPerServer)
	if p.System != nil && p.System.Watts > 0 {
		c.PowerW = float64(p.Systems)*p.System.Watts + p.Power.Total
	}
	if p.Networks != nil {
		if fe := p.Networks.Net(NetFrontEnd); fe != nil && fe.Kind == NetSeparate {
			c.FrontEndGbpsPerServer = float64(fe.PortsPerServer * fe.PortGbps)
		}
	}
	return c
}
