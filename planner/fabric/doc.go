// Package fabric sizes one plane of a back-end fabric in pure integers:
// given a Spec (nodes, rails, the switch's ports at the server and the
// uplink speed, the leaf's down:up split, the tiers and pod shape asked),
// Size returns the Plane: switches of each tier by ports in use, links
// per tier, pods, the wiring rule each tier follows (balanced or
// near-balanced), the headroom a reference design adds beyond the
// minimal counts, and the Layout (pod runs and core groups) from which
// the cable map and diagrams are walked.
//
// It imports nothing of Fabric Planner's own packages: the planner reads
// the scenario, the catalog and the switch to build the Spec, and turns
// the Plane into a Plan (all planes, BOM, cost, power).
package fabric
