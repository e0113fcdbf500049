// Package cputime reads the CPU time this process has used, so
// benchmarks on a shared machine can report what the work costs and not
// only the wall time, which also counts the waits for a core.
package cputime

import "time"

// Used is the CPU time this process has used, user and system, over all
// its goroutines; 0 where the platform does not report it.
func Used() time.Duration { return used() }
