package planner

import "slices"

// Designs compared with a plan (another switch, the packed alignment,
// two tiers, the design search's candidates) are sized and priced at one
// length per tier first (FlatLinks): a hall walk per candidate would
// cost seconds at 100,000 GPUs. Only the candidates that beat the plan
// there are laid out in the hall, the cheapest first, and each must
// beat the plan's hall-laid cost too.

// flatUSD is what p costs at one length per tier: its own cost without
// a hall, else the cost of the same design priced flat (the base the
// candidates' flat costs are compared with).
func (p *Plan) flatUSD(cat *Catalog) float64 {
	if p.Hall == nil {
		return p.Cost.Total
	}
	flat, err := buildWith(p.Scenario.resolvedFlat(), cat, p.NIC, p.Switch)
	if err != nil {
		return p.Cost.Total
	}
	return flat.Cost.Total
}

// designOption is a design to compare: its scenario and switch.
type designOption struct {
	s  Scenario
	sw *Switch
}

// cheapestBelow returns the cheapest of the options (see better) that
// costs under limit times p's cost, priced as p is (in the hall when p
// has one); nil when none does.
func (p *Plan) cheapestBelow(cat *Catalog, options []designOption, limit float64) *Plan {
	flatBase := p.flatUSD(cat) * limit
	type fit struct {
		flat *Plan
		o    designOption
	}
	var fits []fit
	for _, o := range options {
		s := o.s
		if p.Hall != nil {
			s = s.resolvedFlat()
		}
		alt, err := buildWith(s, cat, p.NIC, o.sw)
		if err != nil || alt.Cost.Total >= flatBase {
			continue
		}
		fits = append(fits, fit{alt, o})
	}
	slices.SortStableFunc(fits, func(a, b fit) int { return comparePlans(a.flat, b.flat) })
	if p.Hall == nil {
		if len(fits) == 0 {
			return nil
		}
		return fits[0].flat
	}
	for _, f := range fits {
		alt, err := buildWith(f.o.s, cat, p.NIC, f.o.sw)
		if err == nil && alt.Hall != nil && alt.Cost.Total < p.Cost.Total*limit {
			return alt
		}
	}
	return nil
}
