// Package planner is Fabric Planner's engine: it reads scenarios and the
// hardware catalog, sizes the back-end fabric (switches per tier, links,
// cables, transceivers), prices it, estimates its power and the job
// completion time of a training run on it. It is pure Go: no GUI, no
// plotting, and no file I/O beyond decoding.
//
// The design search, the sweep over sizes and the style comparison are
// planner/explore's, above the planner: they build plans through
// BuildWith, asking only for what they read, and the planner never
// imports them.
//
// The JCT, memory and compute model is planner/perf; the planner fills
// its view of the plan (perf.Network), and callers name the model's
// types (perf.Workload, perf.JCT, perf.JCTData ...) there.
//
// Sizing one plane is planner/fabric's (pure integers, no scenario or
// catalog); the planner builds its fabric.Spec from the scenario and
// the switch, and multiplies the Plane it returns by the planes.
//
// The failure what-if and goodput are planner/resilience's, on a plain
// input the planner fills from a plan (resilienceplan.go); it never
// imports the planner, and Plan.Resilience holds what it returns.
//
// The JCT model's check against published points is planner/validation
// and the 650 Group market tables are planner/market: both read the
// planner's exported API or nothing of it, and the planner imports
// neither. Vendor quotes files are planner/quotes' (the planner keeps
// its Quote and Quotes as aliases: a scenario carries its quotes and a
// BOM line the quote it is priced at).
package planner
