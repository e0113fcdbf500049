package planner

import "fabricplan/planner/perf"

// The JCT, memory and compute model lives in planner/perf; these names
// keep the planner's API whole for the window, the charts and the CLI.
type (
	// Workload is the training job the JCT model times.
	Workload = perf.Workload
	// JCTData holds the JCT model's constants and presets (data/jct.toml).
	JCTData = perf.JCTData
	// GPUSpec is one GPU preset.
	GPUSpec = perf.GPUSpec
	// ModelSpec is one model preset.
	ModelSpec = perf.ModelSpec
	// MemoryConstants are the memory model's bytes per parameter and per
	// activation element.
	MemoryConstants = perf.MemoryConstants
	// InNetworkConstants are the in-network reduction's constants.
	InNetworkConstants = perf.InNetworkConstants
	// Protocol is one NCCL protocol's constants.
	Protocol = perf.Protocol
	// JCT is the job-completion-time estimate of a plan.
	JCT = perf.JCT
	// JCTReport is the JSON form of a JCT estimate.
	JCTReport = perf.JCTReport
	// ClassReport is one traffic class in JSON.
	ClassReport = perf.ClassReport
	// MemoryFixReport is a memory fix in JSON.
	MemoryFixReport = perf.MemoryFixReport
	// MemoryFix is the change that makes a job fit in memory, timed.
	MemoryFix = perf.MemoryFix
	// MemoryUse is what one GPU holds while training.
	MemoryUse = perf.MemoryUse
	// StepTime is the JCT model's answer for one transport.
	StepTime = perf.StepTime
	// TrafficClass is one kind of communication in a training step.
	TrafficClass = perf.TrafficClass
	// Transport is how collectives move between servers.
	Transport = perf.Transport
	// Effect is one fabric effect's share of the planned step.
	Effect = perf.Effect
	// BreakdownRow is one row of the step's breakdown.
	BreakdownRow = perf.BreakdownRow
)

// Transports: RDMA over the planned fabric, or NCCL's TCP socket
// fallback over the same links.
const (
	RDMA = perf.RDMA
	TCP  = perf.TCP
)

// Traffic class names.
const (
	ClassTP = perf.ClassTP
	ClassDP = perf.ClassDP
	ClassPP = perf.ClassPP
	ClassEP = perf.ClassEP
	ClassCP = perf.ClassCP
)

// Memory statuses (MemoryUse.Status).
const (
	MemoryFits  = perf.MemoryFits
	MemoryTight = perf.MemoryTight
	MemoryOver  = perf.MemoryOver
)

// NCCL protocols and algorithms.
const (
	ProtoLL      = perf.ProtoLL
	ProtoLL128   = perf.ProtoLL128
	ProtoSimple  = perf.ProtoSimple
	AlgoRing     = perf.AlgoRing
	AlgoTree     = perf.AlgoTree
	AlgoPAT      = perf.AlgoPAT
	AlgoNVLS     = perf.AlgoNVLS
	AlgoNVLSTree = perf.AlgoNVLSTree
	AlgoSHARP    = perf.AlgoSHARP
)

// Algorithms lists the values of Workload.Algorithm ("" lets the model
// pick the fastest).
var Algorithms = perf.Algorithms

// Precisions a workload's GEMMs may run in.
const (
	PrecisionBF16  = perf.PrecisionBF16
	PrecisionFP8   = perf.PrecisionFP8
	PrecisionMXFP8 = perf.PrecisionMXFP8
	PrecisionFP4   = perf.PrecisionFP4
)

// Placements of a job's servers and phases of jobs sharing links.
const (
	PlacePacked  = perf.PlacePacked
	PlaceSpread  = perf.PlaceSpread
	PhaseRandom  = perf.PhaseRandom
	PhaseAligned = perf.PhaseAligned
)

// Fabric effects of the step's breakdown (Effect.Name).
const (
	EffectBackEnd   = perf.EffectBackEnd
	EffectOversub   = perf.EffectOversub
	EffectECMP      = perf.EffectECMP
	EffectBackdrop  = perf.EffectBackdrop
	EffectInNetwork = perf.EffectInNetwork
	EffectSpread    = perf.EffectSpread
	EffectOtherJobs = perf.EffectOtherJobs
	EffectExperts   = perf.EffectExperts
	EffectNVLink    = perf.EffectNVLink
	EffectCritical  = perf.EffectCritical
	EffectCrossing  = perf.EffectCrossing
)

// ErrNoMemory marks a workload that does not fit in the GPUs' memory on
// any design a search tries.
var ErrNoMemory = perf.ErrNoMemory

// errNoJCT marks a workload that cannot run on the plan's GPUs.
var errNoJCT = perf.ErrNoJCT

// NewWorkload returns the default job (perf.NewWorkload).
func NewWorkload() Workload { return perf.NewWorkload() }

// ParseJCTData decodes and checks data/jct.toml.
func ParseJCTData(src []byte) (*JCTData, error) { return perf.ParseJCTData(src) }

// precisions lists every GEMM precision a workload may name.
var precisions = perf.PrecisionNames()

// validPrecision says whether p is a precision a workload may name.
func validPrecision(p string) bool { return perf.ValidPrecision(p) }

// maxBatchTokens is the largest global batch the model times.
const maxBatchTokens = perf.MaxBatchTokens

// nvlinkDomain is the GPUs one NVLink domain holds (perf.NVLinkDomain).
func nvlinkDomain(systemDomain int, gpu *GPUSpec, gpusPerServer int) int {
	return perf.NVLinkDomain(systemDomain, gpu, gpusPerServer)
}
