package charts

import (
	"time"

	"fabricplan/internal/cputime"
)

// cpuTime is the CPU time this process has used (internal/cputime).
func cpuTime() time.Duration { return cputime.Used() }
