package perf

import "sync"

// lastEstimate remembers what the last estimate made without a
// WorkloadMemo worked out of its workload alone: the workload resolved
// (presets, overlaps, compute efficiency) and its memory per GPU at one
// data-parallel size. The window estimates the same job again after
// every edit of the fabric, and a caller timing one job on several plans
// asks the same; a sweep or a search brings its own memo. One answer of
// each, under a lock: bounded, and safe for concurrent use. The
// resolution's key is its inputs whole: the workload as given (its
// optional figures by pointer, as resolving reads them) and the data.
// The memory's key is the resolution it sizes, by pointer (a resolution
// is made once and never changed, so the pointer stands for its
// workload, which was compared a second time), the GPU, the data and
// the size. A workload that does not resolve is not remembered.
var lastEstimate lastWorkload

type lastWorkload struct {
	mu sync.Mutex
	// The last resolution: its data and workload as given.
	d  *JCTData
	in Workload
	r  *resolved
	// The last memory figure: its resolution, GPU, data and size.
	memR   *resolved
	memGPU *GPUSpec
	memD   *JCTData
	memDP  int
	mem    MemoryUse
}

// resolve is resolveOnce, the last answer remembered; the answer is
// shared and must not be changed.
func (c *lastWorkload) resolve(w *Workload, d *JCTData) *resolved {
	c.mu.Lock()
	if c.d == d && d != nil && c.in == *w {
		r := c.r
		c.mu.Unlock()
		return r
	}
	c.mu.Unlock()
	r := resolveOnce(*w, d)
	if r.err != nil {
		return &r // a fresh error each time: callers rewrite a field error's field and line in place
	}
	c.mu.Lock()
	c.d, c.in, c.r = d, *w, &r
	c.mu.Unlock()
	return &r
}

// memoryUse is memoryUse of r's workload, the last answer remembered.
func (c *lastWorkload) memoryUse(r *resolved, gpu *GPUSpec, d *JCTData, dp int) MemoryUse {
	c.mu.Lock()
	if c.memR == r && c.memD == d && d != nil && c.memGPU == gpu && c.memDP == dp {
		m := c.mem
		c.mu.Unlock()
		return m
	}
	c.mu.Unlock()
	m := memoryUse(r.w, gpu, d, dp)
	c.mu.Lock()
	c.memR, c.memD, c.memGPU, c.memDP, c.mem = r, d, gpu, dp, m
	c.mu.Unlock()
	return m
}
