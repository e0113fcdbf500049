package planner

import "fabricplan/planner/perf"

// The JCT, memory and compute model lives in planner/perf; callers name
// its types there. What follows are the facade's own uses of it.

// precisions lists every GEMM precision a workload may name.
var precisions = perf.PrecisionNames()

// validPrecision says whether p is a precision a workload may name.
func validPrecision(p string) bool { return perf.ValidPrecision(p) }

// maxBatchTokens is the largest global batch the model times.
const maxBatchTokens = perf.MaxBatchTokens

// nvlinkDomain is the GPUs one NVLink domain holds (perf.NVLinkDomain).
func nvlinkDomain(systemDomain int, gpu *perf.GPUSpec, gpusPerServer int) int {
	return perf.NVLinkDomain(systemDomain, gpu, gpusPerServer)
}
