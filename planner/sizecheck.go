package planner

import "fabricplan/internal/fielderr"

// GPUCountCheck is Scenario.Validate split for scenarios that differ
// from base only in the GPU count (a sweep's points): what does not read
// the count (the system's key, fixedChecks) is checked once, here; the
// check it returns runs the cluster and phase checks that do, at a
// count. A count fails, with the same text, exactly when Validate of
// base at that count (as a build validates it, after withStyle) would.
// Each call of the check returns its own copies of the shared findings.
// Pass the check as BuildOptions.Check.
// Exported for planner/explore.
func GPUCountCheck(base Scenario, cat *Catalog) func(gpus int) error {
	return newSweepCheck(base, cat).validate
}

// sweepCheck is GPUCountCheck's state: the shared findings and the base
// the per-count checks run on.
type sweepCheck struct {
	sys   error    // validateSystem's first finding: Validate's only one
	ws    Scenario // the base with its system applied, as Validate checks it
	fixed fixedChecks
}

// newSweepCheck checks what base's sweep points share, as build
// validates them (after withStyle).
func newSweepCheck(base Scenario, cat *Catalog) *sweepCheck {
	s := base.Clone()
	s.Network = s.Network.withStyle()
	c := &sweepCheck{}
	if errs := s.validateSystem(cat); len(errs) > 0 {
		c.sys = errs[0]
		return c
	}
	c.ws = s.WithSystem(cat)
	c.ws.Network = c.ws.Network.withStyle()
	c.fixed = c.ws.fixedChecks(cat)
	return c
}

// validate is s.Validate for a point of the sweep: the base at gpus
// GPUs. Each point gets its own copies of the shared findings: a caller
// may edit a row's field errors (the CLI names the flag that set a
// field).
func (c *sweepCheck) validate(gpus int) error {
	if c.sys != nil {
		return copyFieldErr(c.sys)
	}
	c.ws.Cluster.GPUs = gpus // all that WithSystem and withStyle leave of a point and the base differ in
	return c.ws.validateWith(fixedChecks{mid: copyFieldErrs(c.fixed.mid), tail: copyFieldErrs(c.fixed.tail)})
}

// copyFieldErrs copies errs, each field error afresh; nil stays nil.
func copyFieldErrs(errs []error) []error {
	if len(errs) == 0 {
		return nil
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = copyFieldErr(e)
	}
	return out
}

// copyFieldErr is e, a *fielderr.FieldError copied afresh.
func copyFieldErr(e error) error {
	if fe, ok := e.(*fielderr.FieldError); ok {
		c := *fe
		return &c
	}
	return e
}
