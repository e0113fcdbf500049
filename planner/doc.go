// Package planner is Fabric Planner's engine: it reads scenarios and the
// hardware catalog, sizes the back-end fabric (switches per tier, links,
// cables, transceivers), prices it, estimates its power and the job
// completion time of a training run on it, and searches and sweeps
// designs. It is pure Go: no GUI, no plotting, and no file I/O beyond
// decoding and the atomic scenario save.
package planner
