// Package phases plans a phased build-out two ways: built for the final
// size (the final plan's fabric, each phase cabling the part its GPUs
// need) and grown as you go (each phase its own fabric, re-cabled from
// the one before). It sits above the planner facade: it builds every
// phase with the planner and compares phases by their links through
// (*planner.Plan).WalkLinks; the planner never imports it. The input
// types, planner.Phase and planner.Growth, stay in the planner with the
// Scenario that holds them.
package phases
