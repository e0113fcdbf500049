package serve

import (
	"math"

	"fabricplan/planner/perf"
)

// Unit conversions (not model constants).
const (
	bitsPerByte   = 8
	gigaF         = 1e9
	teraF         = 1e12
	microsecond   = 1e-6
	secondsPerDay = 86400
	daysPerYear   = 365.25
	wattsPerKW    = 1000
	secondsPerHr  = 3600
)

// defaultTP is an instance's GPUs when the scenario gives none: one
// 8-GPU server, the width serving stacks default to.
const defaultTP = 8

// Model is the served model's shape: a data/jct.toml preset with the
// [workload] table's overrides.
type Model struct {
	Name                   string
	ParamsB, ActiveParamsB float64
	Layers, Hidden         int
	Heads, KVHeads         int
	Experts, TopK          int
}

// ResolveModel is w's model: its preset with every non-zero field of w
// over it; a model with no KV heads has one per query head.
func ResolveModel(w perf.Workload, d *perf.JCTData) Model {
	var m Model
	if p := d.Model(w.Model); p != nil {
		m = Model{Name: p.Name, ParamsB: p.ParamsB, ActiveParamsB: p.ActiveParamsB, Layers: p.Layers, Hidden: p.Hidden,
			Heads: p.Heads, KVHeads: p.KVHeads, Experts: p.Experts, TopK: p.TopK}
	}
	if m.Name == "" {
		m.Name = w.Model
	}
	over := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	over(&m.Layers, w.Layers)
	over(&m.Hidden, w.Hidden)
	over(&m.Heads, w.Heads)
	over(&m.KVHeads, w.KVHeads)
	over(&m.Experts, w.Experts)
	over(&m.TopK, w.TopK)
	if w.ParamsB > 0 {
		m.ParamsB = w.ParamsB
	}
	if w.ActiveParamsB > 0 {
		m.ActiveParamsB = w.ActiveParamsB
	}
	if m.ActiveParamsB <= 0 {
		m.ActiveParamsB = m.ParamsB
	}
	if m.KVHeads <= 0 {
		m.KVHeads = m.Heads
	}
	return m
}

// moe says whether m routes tokens to experts.
func (m Model) moe() bool { return m.Experts > 1 && m.TopK > 0 && m.TopK < m.Experts }

// expertParams is the routed experts' parameters of all layers, from the
// total and active counts: total = shared + experts, active = shared +
// experts x top_k / experts [derived]; 0 for a dense model.
func (m Model) expertParams() float64 {
	if !m.moe() {
		return 0
	}
	routed := float64(m.TopK) / float64(m.Experts)
	return math.Max(0, (m.ParamsB-m.ActiveParamsB)/(1-routed)) * gigaF
}

// bytesPer is one element's bytes in precision p ("" is BF16).
func bytesPer(p string) float64 {
	switch p {
	case PrecisionFP8:
		return 1
	case PrecisionFP4:
		return 0.5
	}
	return 2
}

// KVBytesPerToken is the KV cache one token adds: with multi-head latent
// attention (latent > 0) one latent of latent elements per layer, else
// K and V (2) per layer, KV head and head element; in precision kvPrec.
func KVBytesPerToken(m Model, latent, headDim int, kvPrec string) float64 {
	b := bytesPer(kvPrec)
	if latent > 0 {
		return float64(m.Layers) * float64(latent) * b
	}
	if headDim <= 0 && m.Heads > 0 {
		headDim = m.Hidden / m.Heads
	}
	return 2 * float64(m.Layers) * float64(m.KVHeads) * float64(headDim) * b
}

// peakTFLOPS is g's dense peak in precision p, falling back to the next
// wider format the GPU has.
func peakTFLOPS(g *perf.GPUSpec, p string) float64 {
	switch {
	case p == PrecisionFP4 && g.FP4TFLOPS > 0:
		return g.FP4TFLOPS
	case (p == PrecisionFP4 || p == PrecisionFP8) && g.FP8TFLOPS > 0:
		return g.FP8TFLOPS
	}
	return g.PeakTFLOPS
}

// Transport is how a transfer moves.
type Transport int

// Transports of a KV move or a weight sync.
const (
	NVLink   Transport = iota // inside one NVLink domain
	RDMA                      // GPUDirect RDMA over the back end
	TCP                       // TCP over the back end's links
	FrontEnd                  // TCP over the front end's NICs
)

// Cluster is what the model reads of a plan beside its back end: the
// GPU, the cluster's cost and power, and the front end.
type Cluster struct {
	Net perf.Network
	GPU *perf.GPUSpec
	// NVLinkDomain is the GPUs one NVLink domain holds.
	NVLinkDomain int
	// CapexUSD is the whole cluster's price (compute and back end);
	// PowerW its IT power at full load (0: unknown).
	CapexUSD float64
	PowerW   float64
	// FrontEndGbpsPerServer is the front end's NIC bandwidth per server
	// (0: no separate front end).
	FrontEndGbpsPerServer float64
}

// gbsPerGPU is the back end's RDMA bandwidth one GPU has, GB/s: its
// server's NICs shared by its GPUs at the fabric's efficiency.
func (c *Cluster) gbsPerGPU(jd *perf.JCTData) float64 {
	n := c.Net
	return float64(n.NICsPerServer) * n.NICGbps / bitsPerByte / float64(max(n.GPUsPerServer, 1)) * fabricEff(n.Fabric, jd)
}

// fabricEff is the RDMA efficiency of the fabric (data/jct.toml
// [efficiency]).
func fabricEff(f perf.Fabric, jd *perf.JCTData) float64 {
	if f == perf.Ethernet {
		return jd.Efficiency.RoCEAdaptive
	}
	return jd.Efficiency.InfiniBand
}

// crossDerate is how much slower a group of gpus' traffic runs when it
// leaves its leaf group: the share of its servers beyond one leaf group
// meets the leaf's ratio (1 while it stays under one leaf group).
func (c *Cluster) crossDerate(gpus int) float64 {
	n := c.Net
	servers := ceilDiv(gpus, max(n.GPUsPerServer, 1))
	if n.ServersPerUnit <= 0 || servers <= n.ServersPerUnit || n.Oversub <= 1 {
		return 1
	}
	cross := 1 - float64(n.ServersPerUnit)/float64(servers)
	return math.Max(1, cross*n.Oversub)
}

// ceilDiv is a / b rounded up, for positive b.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
