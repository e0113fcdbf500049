// Package validation checks the JCT model against published measurements
// and runs. data/validation.toml holds the points: each names its
// source, its series (the source table it comes from), whether it was
// used to fit a constant and what the model leaves out; Parse classes
// each as fitted, neighbour or independent, and Run times every point on
// the model with a catalog's constants: whole runs through
// planner.Build, single collectives, all-to-alls, routing and
// co-location effects through planner/perf's probes. data/runs holds
// published training runs never fitted, split dev and held-out;
// LoadRuns maps each to a scenario, listing what the model cannot take,
// and TimeRuns times them. Tolerances are fixed by kind (Tolerance), and
// the Ratchet (data/validation-ratchet.toml) fails when an error grows.
// `fabricplan validate` prints the results. It imports the planner and
// perf; the planner never imports it.
package validation
