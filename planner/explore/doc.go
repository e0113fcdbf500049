// Package explore looks at many plans of one scenario: the design search
// (Search: every design the catalog allows for the scenario's GPU count
// and workload, its Pareto front of cost against job time, priced in the
// data hall where the scenario is laid out there), the sweep over
// cluster sizes (Sweep, ScaleSizes, TierSteps) and the comparison of
// design styles (CompareStyles).
//
// It stands above the planner facade: it builds each plan through
// planner.BuildWith, asking only for what it reads, and reads nothing of
// a plan that the app could not. The planner never imports it.
package explore
