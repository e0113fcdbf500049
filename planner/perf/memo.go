package perf

import "sync"

// WorkloadMemo remembers, across the estimates of one sweep or search,
// what depends on the workload alone and not on the fabric: its presets
// filled in, the compute efficiency its GEMM shapes reach, and its
// memory per GPU at each data-parallel size. It is safe for concurrent
// use; a nil memo remembers nothing (one estimate's own figures are
// worked out in microseconds). It serves one JCTData, which must
// not change while the memo is in use (another JCTData bypasses it).
type WorkloadMemo struct {
	mu       sync.Mutex
	d        *JCTData
	resolved map[Workload]*resolved
	// memory is by resolution (one per workload as given, never
	// changed: its pointer stands for it), then dp.
	memory map[*resolved]map[int]MemoryUse
	// lastIn and lastOut are the workload resolved last and its answer,
	// lastMemR and lastMem the resolution whose memory was asked last
	// and its answers: a sweep asks about one workload at every size,
	// and comparing a workload costs less than hashing it (about 350
	// bytes).
	lastIn   Workload
	lastOut  *resolved
	lastMemR *resolved
	lastMem  map[int]MemoryUse
}

// resolved is one workload as given, resolved against the data. The
// memos hand it out by pointer, shared: it is never changed once made.
type resolved struct {
	// w is the workload resolved, its compute efficiency (computeEff)
	// worked out when it gives none, for the steps to read.
	w   Workload
	m   *ModelSpec
	gpu *GPUSpec
	err error
}

// resolve is resolveWorkload with the compute efficiency, remembered;
// the answer is shared and must not be changed.
func (c *WorkloadMemo) resolve(w *Workload, d *JCTData) *resolved {
	if c == nil || !c.serves(d) {
		r := &resolved{w: *w}
		r.finish(d)
		return r
	}
	c.mu.Lock()
	if c.lastOut != nil && c.lastIn == *w {
		r := c.lastOut
		c.mu.Unlock()
		return r
	}
	r, ok := c.resolved[*w]
	c.mu.Unlock()
	if ok {
		return r
	}
	fresh := resolved{w: *w}
	fresh.finish(d)
	if fresh.err != nil {
		// An error is never remembered: its caller may rewrite its
		// field (the CLI names a file's line in it), which the next
		// estimate would show.
		return &fresh
	}
	c.mu.Lock()
	if r, ok = c.resolved[*w]; !ok { // another goroutine's, when it came first: one resolution a workload
		r = &fresh
		c.resolved[*w] = r
	}
	c.lastIn, c.lastOut = *w, r
	c.mu.Unlock()
	return r
}

// memoryUse is memoryUse of r's workload on gpu, remembered by r and dp
// (gpu is r's).
func (c *WorkloadMemo) memoryUse(r *resolved, gpu *GPUSpec, d *JCTData, dp int) MemoryUse {
	if c == nil || !c.serves(d) {
		return memoryUse(r.w, gpu, d, dp)
	}
	c.mu.Lock()
	byDP := c.lastMem
	if byDP == nil || c.lastMemR != r {
		if byDP = c.memory[r]; byDP == nil {
			byDP = map[int]MemoryUse{}
			c.memory[r] = byDP
		}
		c.lastMemR, c.lastMem = r, byDP
	}
	m, ok := byDP[dp]
	c.mu.Unlock()
	if ok {
		return m
	}
	m = memoryUse(r.w, gpu, d, dp)
	c.mu.Lock()
	byDP[dp] = m
	c.mu.Unlock()
	return m
}

// serves says whether the memo holds answers for d, taking d as its data
// on first use.
func (c *WorkloadMemo) serves(d *JCTData) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.d == nil {
		c.d, c.resolved, c.memory = d, map[Workload]*resolved{}, map[*resolved]map[int]MemoryUse{}
	}
	return c.d == d
}

// finish resolves r.w, the workload as given, against d in place and
// works out its compute efficiency.
func (r *resolved) finish(d *JCTData) {
	r.m, r.gpu, r.err = resolveInPlace(&r.w, d)
	if r.err == nil && r.w.ComputeEfficiency == 0 {
		r.w.computeEff = computeEfficiency(&r.w, r.gpu, d)
	}
}
