// Package validation checks the JCT model against published measurements
// and runs (data/validation.toml): each Point names its source, whether
// it was used to fit a constant and what the model leaves out, and Run
// times every point on the model with a catalog's constants: whole runs
// through planner.Build, single collectives, all-to-alls, routing and
// co-location effects through planner/perf's probes. `fabricplan
// validate` prints the results. It imports the planner and perf; the
// planner never imports it.
package validation
