package planner

import (
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
	"fabricplan/planner/resilience"
)

// analyseResilience fills p.Resilience from rel with the scenario's
// overrides; the step times need p.JCT and the JCT constants d.
func (p *Plan) analyseResilience(rel *resilience.Reliability, d *perf.JCTData) {
	if rel == nil {
		return
	}
	p.Resilience = resilience.Analyse(p.resilienceInput(*rel, d))
}

// resilienceInput is what the failure what-if reads of p (see
// resilience.Input): its parts per tier, rel with the scenario's
// overrides, the spares the bill buys and the job its JCT estimate timed
// with d.
func (p *Plan) resilienceInput(rel resilience.Reliability, d *perf.JCTData) resilience.Input {
	s := &p.Scenario
	in := resilience.Input{Reliability: s.Reliability.apply(rel), PortFailover: p.Planes > 1,
		Ethernet: s.Network.Fabric == Ethernet, StaticRouting: s.Network.routing() == RouteStatic,
		GPUs: p.GPUs, GPUsPerServer: s.Cluster.GPUsPerServer, Servers: p.Servers,
		Systems: p.Systems, NVLinkDomain: p.System.domain(), NICs: p.NICs, NICsPerServer: s.Network.NICsPerServer,
		ServerPorts: p.ServerPorts, Planes: p.Planes, Pods: p.Pods,
		RailOptimized: s.Network.RailOptimized, RailsPerPlane: p.RailsPerPlane}
	if s.Reliability != nil && s.Reliability.PortFailover != nil {
		in.PortFailover = *s.Reliability.PortFailover
	}
	var buf [4]int
	spareLines := p.spareSwitchLines(buf[:0])
	in.Tiers = len(p.SwitchTiers)
	for i, dst := range []*resilience.SwitchTier{&in.Leaf, &in.Spine, &in.Core}[:in.Tiers] {
		t := &p.SwitchTiers[i]
		spares, parts, perYear := p.switchSpares(t.Name, in.Reliability.Rates.Switch, spareLines)
		*dst = resilience.SwitchTier{Switches: t.Switches, DownPorts: t.DownPorts, UpPorts: t.UpPorts,
			PerYear: perYear, Spares: spares, Parts: parts}
	}
	linkTier := func(name string) resilience.LinkTier {
		lt := resilience.LinkTier{Links: *p.Links.of(name)}
		if t := p.linkTier(name); t != nil && t.optical() {
			lt.Spares = *p.Spares.Optics.of(name)
		}
		return lt
	}
	in.ServerLeaf, in.LeafSpine, in.SpineCore = linkTier("server_leaf"), linkTier("leaf_spine"), linkTier("spine_core")
	in.Serving = p.servingPools()
	if j := p.JCT; j != nil && !in.Serving.Serves() { // a serving cluster times no training step
		in.Job, in.HasJob = resilience.Job{Network: p.perfNetwork(), Workload: j.Workload, GPU: j.GPU, Data: d,
			DP: j.DP, Microbatches: j.Microbatches, StepS: j.Planned.StepS, Days: j.Planned.Days}, true
	}
	return in
}

// defaultServingTP is an instance's tensor parallelism when the
// scenario gives none (serve.Inference: 0 is 8 for TP).
const defaultServingTP = 8

// servingPools is the serving pools of an inference plan as the
// what-if sees them (zero for training and RL): each pool's GPUs and one
// instance's, prefill_tp wide, decode_ep x decode_tp.
func (p *Plan) servingPools() resilience.Serving {
	r, in := p.Inference, p.Scenario.Inference
	if r == nil || in == nil {
		return resilience.Serving{}
	}
	pre, dec := in.PrefillTP, max(1, r.Decode.EP)*max(1, in.DecodeTP)
	if pre <= 0 {
		pre = defaultServingTP
	}
	if r.Decode.EP <= 1 && in.DecodeTP <= 0 {
		dec = defaultServingTP
	}
	return resilience.Serving{PrefillGPUs: r.PrefillGPUs, PrefillWidth: pre, DecodeGPUs: r.DecodeGPUs, DecodeWidth: dec}
}

// linkTier returns the plan's link tier called name, or nil.
func (p *Plan) linkTier(name string) *LinkTier {
	for i := range p.LinkTiers {
		if p.LinkTiers[i].Name == name {
			return &p.LinkTiers[i]
		}
	}
	return nil
}

// SparesText states the spares the plan buys and what they do to repair
// and restart times, in a sentence or three.
func (p *Plan) SparesText() string {
	r := p.Resilience
	if r == nil {
		return ""
	}
	rec := r.Inputs.Recovery
	if p.Spares.Switches == 0 && p.Spares.Optics.Total == 0 {
		return fmt.Sprintf("No spares: a failed switch or optic stays down %s until a replacement arrives (set spare_switches_pct and spare_optics_pct in [reliability]).",
			textfmt.Hours(rec.RepairHours))
	}
	msg := "Spares: " + p.sparesBought() + "."
	// Parts that come back alike are said together; switches of every
	// tier draw on one pool.
	type effect struct{ back, cover string }
	var order []effect
	names := map[effect][]string{}
	for _, c := range r.Cases {
		name := c.Name
		if c.Component == resilience.FailLeaf || c.Component == resilience.FailSpine || c.Component == resilience.FailCore {
			name = "switch"
		}
		e := effect{textfmt.Hours(c.RepairHours), formatPct(c.SpareCover)}
		if c.SpareCover == 0 || slices.Contains(names[e], name) {
			continue
		}
		if names[e] == nil {
			order = append(order, e)
		}
		names[e] = append(names[e], name)
	}
	for _, e := range order {
		msg += fmt.Sprintf(" A failed %s is back in %s on average, not %s (a spare on the shelf for %s of failures).",
			textfmt.JoinAnd(names[e]), e.back, textfmt.Hours(rec.RepairHours), e.cover)
	}
	return msg + fmt.Sprintf(" Restarts still take %.0f min: the job restarts without the GPUs a failure cuts off, and spares bring them back sooner.", rec.RestartMin)
}

// SparesLine is SparesText in a table cell: what the spares are, cost
// and do.
func (p *Plan) SparesLine() string {
	r := p.Resilience
	if r == nil {
		return ""
	}
	repair := textfmt.Hours(r.Inputs.Recovery.RepairHours)
	if p.Spares.Switches == 0 && p.Spares.Optics.Total == 0 {
		return "none: a failed switch or optic is down " + repair
	}
	lo, hi := math.Inf(1), 0.0
	for _, c := range r.Cases {
		if c.SpareCover > 0 {
			lo, hi = min(lo, c.RepairHours), max(hi, c.RepairHours)
		}
	}
	if hi == 0 {
		return p.sparesBought() + ": no failing part of this plan draws on them"
	}
	back := textfmt.Hours(lo)
	if textfmt.Hours(hi) != back {
		back += " to " + textfmt.Hours(hi)
	}
	return fmt.Sprintf("%s: failed parts back in %s, not %s", p.sparesBought(), back, repair)
}

// sparesBought is "6 switches and 130 optics, $0.156M" (in the plan's
// money scale).
func (p *Plan) sparesBought() string {
	var bought []string
	if n := p.Spares.Switches; n > 0 {
		bought = append(bought, textfmt.Plural(n, "switch"))
	}
	if n := p.Spares.Optics.Total; n > 0 {
		bought = append(bought, textfmt.Plural(n, "optic"))
	}
	return textfmt.JoinAnd(bought) + ", " + p.MoneyScale().Format(p.Spares.USD) // the plan's scale, as the amounts beside it
}

// formatPct prints a fraction as a percentage, with more digits near 100%.
func formatPct(f float64) string {
	switch {
	case f >= 0.9995:
		return "over 99.9%"
	case f >= 0.99:
		return fmt.Sprintf("%.1f%%", 100*f)
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}
