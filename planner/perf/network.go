package perf

import (
	"slices"
)

// Fabric is the back-end network technology as the model reads it: its
// efficiencies and switch latencies are keyed by it.
type Fabric string

// The two RDMA fabrics (the planner's scenario values).
const (
	InfiniBand Fabric = "infiniband"
	Ethernet   Fabric = "ethernet"
)

// Network is what the JCT model sees of a plan's back-end network as
// built. The planner fills it in from the plan; the model reads nothing
// else of it.
type Network struct {
	GPUs          int // in the cluster
	GPUsPerServer int
	NICsPerServer int
	ServerPorts   int // back-end ports per server, every plane
	NICGbps       float64
	Fabric        Fabric
	// Static is static routing: flows hashed (ECMP) or pinned by the
	// subnet manager.
	Static bool
	// Spray is per-packet spraying over every path (load_balancing =
	// "spray"): routed as adaptive (Static false); the breakdown names it.
	Spray          bool
	Oversub        float64 // D/U at the leaf
	SpineRatio     float64 // D/U at the spine (three tiers; 1 below)
	ServersPerPod  int     // servers under one pod's spines (three tiers)
	ServersPerUnit int     // servers under one leaf group
	Tiers          int
	Planes         int
	NVLinkDomain   int // the system's NVLink domain; 0: the GPU preset's
	// WireUS is the propagation delay of the cables on the longest path
	// (laid-out plans; 0 otherwise).
	WireUS float64
	// LeafDown and LeafUp are a leaf's ports as built (0: derive them
	// from the leaf group and ratio).
	LeafDown, LeafUp int
	// SHARP says in-network reduction is on (InfiniBand with a switch);
	// the model runs it where data/jct.toml lists SwitchKey, the leaf's
	// model, and every model of UpperSwitchKeys (the spine's and the
	// core's where the fabric has them, "" otherwise) as capable: a
	// reduction tree spans every tier the job crosses.
	SHARP           bool
	SwitchKey       string
	UpperSwitchKeys [2]string
	// UpSpeedRatio is a leaf's uplink speed over its down ports' (0 or
	// 1: the same); RailOnly says each rail is its own network, of Rails
	// rails (server ports per plane).
	UpSpeedRatio float64
	RailOnly     bool
	Rails        int
}

// Job is an estimate's setting beside the workload: the network, and the
// plan's own findings on the planned step's traffic classes (nil: none).
type Job struct {
	Network      Network
	PlanFindings func(gpu *GPUSpec, classes []TrafficClass) []string
}

// Parts says what a JCT estimate holds beyond its planned and baseline
// steps and memory verdict.
type Parts struct {
	Fix    bool // for a job over memory, the cheapest change that fits (JCT.Fix)
	Detail bool // the breakdown by fabric effect (JCT.Effects) and the findings (JCT.Findings)
	// Memo, when set, keeps what depends on the workload alone across
	// the estimates of a sweep or search.
	Memo *WorkloadMemo
}

// View is a network with a job placed on it: what one step timing reads.
type View struct{ fv fabricView }

// Place puts the resolved workload w (JCT.Workload) on n.
func (n Network) Place(w Workload, d *JCTData) View { return View{n.jobView(&w, d)} }

// WithLoss is v with a failure: the fraction bwLost of the worst
// server's back-end bandwidth lost, and upLost of the capacity above its
// leaf group.
func (v View) WithLoss(bwLost, upLost float64) View {
	v.fv.bwLost, v.fv.upLost = bwLost, upLost
	return v
}

// FrontEnd is a front-end network as sized: its ports per server at
// their speed, and its leaves' down and up ports, spines and cores (0
// spines: one tier).
type FrontEnd struct {
	Ports, Gbps   int
	Down, Up      int
	Spines, Cores int
}

// OnFrontEnd is v moved onto the front end fe: its ports per server at
// its speed, hashed (ECMP) Ethernet, its leaf ratio and the servers under
// one leaf pair; the job placed as on the back end.
func (v View) OnFrontEnd(fe FrontEnd) View {
	fv := v.fv
	fv.nicsPerServer, fv.nicGbps = fe.Ports, float64(fe.Gbps)
	fv.fabric, fv.static, fv.planes, fv.sharp = Ethernet, true, 1, false
	fv.bwLost, fv.upLost, fv.ideal = 0, 0, false
	fv.tiers, fv.oversub = 1, 1
	fv.serversPerUnit = max(1, 2*fe.Down/fe.Ports)
	if fe.Spines > 0 {
		fv.tiers = 2
		fv.oversub = float64(fe.Down) / float64(max(fe.Up, 1))
	}
	if fe.Cores > 0 {
		fv.tiers = 3
	}
	// Nothing of the back end's shape carries over: its leaves' ports as
	// built, its spines' ratio and pods, its uplink speed and rails (a
	// Meta-style back end of 2-server ToRs under 7:1 spines made the
	// front end's hashed ring 100 times slower than its links), and the
	// job's uplinks are counted again on the front end's ports and ratio.
	fv.leafDown, fv.leafUp = 0, 0
	if fe.Spines > 0 {
		fv.leafDown, fv.leafUp = fe.Down, fe.Up
	}
	fv.spineRatio, fv.serversPerPod, fv.upSpeedRatio = 1, 0, 0
	fv.railOnly, fv.rails = false, fe.Ports
	fv.setJobSize(fv.jobServers*max(fv.gpusPerServer, 1), fe.Ports)
	return View{fv}
}

// TimeStep times one training step of the resolved workload w on v
// with dp data-parallel ranks of micro micro-batches each, over tr.
func TimeStep(w Workload, gpu *GPUSpec, d *JCTData, v View, dp, micro int, tr Transport) StepTime {
	return stepTime(&w, gpu, d, &v.fv, dp, micro, tr, nil)
}

// StepSeconds is TimeStep's step time alone: the step's traffic classes
// are kept on the stack, so a caller timing many steps (a failure
// what-if per lost part) allocates nothing.
func StepSeconds(w Workload, gpu *GPUSpec, d *JCTData, v View, dp, micro int, tr Transport) float64 {
	var classes [maxClasses]TrafficClass
	return stepTime(&w, gpu, d, &v.fv, dp, micro, tr, classes[:0]).StepS
}

// WithComputeEfficiency is the resolved workload w with the compute
// efficiency its GEMM shapes reach on gpu worked out once, for timing it
// many ways (unchanged when w gives its own).
func WithComputeEfficiency(w Workload, gpu *GPUSpec, d *JCTData) Workload {
	if w.ComputeEfficiency == 0 {
		w.computeEff = computeEfficiency(&w, gpu, d)
	}
	return w
}

// Microbatches is the micro-batches each of dp data-parallel ranks runs
// per step.
func Microbatches(w Workload, dp int) int { return microbatches(&w, dp) }

// ModelParallel is the GPUs one model replica spans: tp x cp x pp.
func (w Workload) ModelParallel() int { return w.modelParallel() }

// Model is the preset named key, or nil (custom, unknown or no data).
func (d *JCTData) Model(key string) *ModelSpec {
	if d == nil {
		return nil
	}
	return d.Models[key]
}

// SHARPCapable says whether data/jct.toml lists switch key as one that
// aggregates in the network.
func (c InNetworkConstants) SHARPCapable(key string) bool { return c.sharpCapable(key) }

func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }

// PrecisionNames lists every GEMM precision a workload may name.
func PrecisionNames() []string { return slices.Clone(precisions) }

// ValidPrecision says whether p is a precision a workload may name (""
// is BF16).
func ValidPrecision(p string) bool { return validPrecision(p) }

// MaxBatchTokens is the largest global batch, in tokens, the model times
// (no product it forms overflows below it).
const MaxBatchTokens = maxBatchTokens

// NVLinkDomain is the GPUs one NVLink domain holds: the system's
// (systemDomain, 0 for custom servers), else the GPU preset's domain cut
// to the GPUs of one server.
func NVLinkDomain(systemDomain int, gpu *GPUSpec, gpusPerServer int) int {
	return nvlinkDomain(systemDomain, gpu, gpusPerServer)
}

// Ideal is v with the back end made ideal: as fast as NVLink, with no
// latency, oversubscription or collisions (the breakdown's back-end
// effect is the step's time over this one's).
func (v View) Ideal() View {
	v.fv.ideal = true
	return v
}
