package perf

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// Traffic class names.
const (
	ClassTP = "tensor parallel"
	ClassDP = "data parallel"
	ClassPP = "pipeline parallel"
	ClassEP = "expert parallel"
	ClassCP = "context parallel"
)

// Transport is how collectives move between servers.
type Transport int

// Transports: RDMA over the planned fabric, or NCCL's TCP socket fallback
// over the same links.
const (
	RDMA Transport = iota
	TCP
)

func (t Transport) String() string {
	if t == TCP {
		return "TCP/IP"
	}
	return "RDMA"
}

// TrafficClass is one kind of communication in a training step.
type TrafficClass struct {
	Name string
	// Ranks is the group size; 32 bits, so that it and the two bools
	// below share a word (a JCT holds ten classes and stays in its size
	// class with the Workload's Architecture pointer, TestJCTSizeClass).
	Ranks         int32
	CrossesFabric bool    // some of it leaves the NVLink domain
	CrossesTier   bool    // some of it crosses the tier above the leaves
	BusBWGBs      float64 // bus bandwidth of one collective, GB/s
	Algorithm     string  // NCCL algorithm that ran: ring, tree, pat; "" for sends and all-to-all
	Protocol      string  // NCCL protocol that ran: LL, LL128 or Simple
	TimeS         float64 // per step, before overlap
	ExposedS      float64 // per step, not hidden behind compute
}

// StepTime is the JCT model's answer for one transport.
type StepTime struct {
	Transport Transport
	ComputeS  float64
	BubbleS   float64
	// BubbleCommS is the part of the bubble that is tensor- and expert-
	// parallel communication on the pipeline's critical path.
	BubbleCommS float64
	Classes     []TrafficClass
	StepS       float64
	TokensPerS  float64
	MFU         float64 // model FLOPs / (step time x GPUs x peak)
	Days        float64 // for the workload's token budget
	// BusBWGBs is the data-parallel collective's bus bandwidth (the class
	// that crosses the fabric in nearly every job), GB/s, of the
	// algorithm and protocol that ran (BusBWAlgo, BusBWProto).
	BusBWGBs              float64
	BusBWAlgo, BusBWProto string
}

// ExposedCommS sums the exposed communication of every class.
func (s *StepTime) ExposedCommS() float64 {
	t := 0.0
	for i := range s.Classes { // by index: a class is 88 bytes to copy
		t += s.Classes[i].ExposedS
	}
	return t
}

// JCT is the job-completion-time estimate of a plan: the step on the
// planned RDMA fabric, the same step over TCP/IP on the same links, and
// the gain = baseline step / planned step.
type JCT struct {
	Workload     Workload // resolved: preset values filled in
	ModelName    string
	GPU          *GPUSpec
	DP           int
	Microbatches int
	IdleGPUs     int // GPUs left over when gpus is not a multiple of tp x pp
	Memory       MemoryUse
	Planned      StepTime
	// Effects breaks the planned step down by fabric effect.
	Effects  []Effect
	Baseline StepTime
	Gain     float64
	// Fix is, for a job that does not fit in memory, the change that fits
	// at the least step time (nil when the job fits or no change does).
	Fix *MemoryFix
	// classes holds the traffic classes of Planned (the first
	// maxClasses) and Baseline (the rest): the estimate's one
	// allocation holds them.
	classes [2 * maxClasses]TrafficClass
	// effects holds Effects, in the same allocation.
	effects [maxEffects]Effect
	// Findings are what a planner should know about the estimate: memory
	// over or tight, a pipeline short of micro-batches.
	Findings []string
	// locals remembers the estimate's all-reduces inside one NVLink
	// domain while it is made, in the same allocation; last, as it holds
	// no pointer past its first field.
	locals localMemo
}

// FitsMemory says whether the job runs in its GPUs' memory (tight
// included).
func (j *JCT) FitsMemory() bool { return j.Memory.Fits() }

// JCTReport is the JSON form of a JCT estimate.
type JCTReport struct {
	Model         string        `json:"model"`
	GPU           string        `json:"gpu"`
	StepS         float64       `json:"step_s"`
	BaselineStepS float64       `json:"baseline_step_s"`
	Baseline      string        `json:"baseline"`
	Gain          float64       `json:"gain"`
	BusBWGBs      float64       `json:"busbw_gbs"`
	BusBWAlgo     string        `json:"busbw_algorithm,omitempty"`
	BusBWProto    string        `json:"busbw_protocol,omitempty"`
	BaselineBusBW float64       `json:"baseline_busbw_gbs"`
	ComputeS      float64       `json:"compute_s"`
	BubbleS       float64       `json:"bubble_s"`
	ExposedCommS  float64       `json:"exposed_comm_s"`
	TokensPerS    float64       `json:"tokens_per_s"`
	MFU           float64       `json:"mfu"`
	Days          float64       `json:"days"`
	BaselineDays  float64       `json:"baseline_days"`
	DP            int           `json:"dp"`
	Microbatches  int           `json:"microbatches"`
	Memory        MemoryUse     `json:"memory"`
	Classes       []ClassReport `json:"classes"`
	Effects       []Effect      `json:"effects"`
	// MemoryFix is the cheapest change that fits, for a job that does not.
	MemoryFix *MemoryFixReport `json:"memory_fix,omitempty"`
	Findings  []string         `json:"findings"`
}

// MemoryFixReport is a memory fix in JSON: the change and the job timed
// with it.
type MemoryFixReport struct {
	Change   string  `json:"change"`
	StepS    float64 `json:"step_s"`
	Gain     float64 `json:"gain"`
	Days     float64 `json:"days"`
	MemoryGB float64 `json:"memory_gb"`
}

// ClassReport is one traffic class in JSON.
type ClassReport struct {
	Name          string  `json:"name"`
	Ranks         int     `json:"ranks"`
	CrossesFabric bool    `json:"crosses_fabric"`
	CrossesTier   bool    `json:"crosses_tier"`
	BusBWGBs      float64 `json:"busbw_gbs"`
	Algorithm     string  `json:"algorithm,omitempty"`
	Protocol      string  `json:"protocol,omitempty"`
	TimeS         float64 `json:"time_s"`
	ExposedS      float64 `json:"exposed_s"`
	BaselineS     float64 `json:"baseline_exposed_s"`
}

// Report returns the JSON form.
func (j *JCT) Report() JCTReport {
	r := JCTReport{
		Model: j.ModelName, GPU: j.GPU.Name,
		StepS: j.Planned.StepS, BaselineStepS: j.Baseline.StepS, Baseline: "TCP/IP on the same fabric", Gain: j.Gain,
		BusBWGBs: j.Planned.BusBWGBs, BusBWAlgo: j.Planned.BusBWAlgo, BusBWProto: j.Planned.BusBWProto, BaselineBusBW: j.Baseline.BusBWGBs,
		ComputeS: j.Planned.ComputeS, BubbleS: j.Planned.BubbleS, ExposedCommS: j.Planned.ExposedCommS(),
		TokensPerS: j.Planned.TokensPerS, MFU: j.Planned.MFU, Days: j.Planned.Days, BaselineDays: j.Baseline.Days,
		DP: j.DP, Microbatches: j.Microbatches, Memory: j.Memory, Effects: j.Effects, Findings: j.Findings,
	}
	if r.Findings == nil {
		r.Findings = []string{}
	}
	if f := j.Fix; f != nil {
		r.MemoryFix = &MemoryFixReport{Change: f.Change, StepS: f.JCT.Planned.StepS, Gain: f.JCT.Gain, Days: f.JCT.Planned.Days, MemoryGB: f.JCT.Memory.TotalGB}
	}
	for i, c := range j.Planned.Classes {
		r.Classes = append(r.Classes, ClassReport{Name: c.Name, Ranks: int(c.Ranks), CrossesFabric: c.CrossesFabric, CrossesTier: c.CrossesTier,
			BusBWGBs: c.BusBWGBs, Algorithm: c.Algorithm, Protocol: c.Protocol, TimeS: c.TimeS, ExposedS: c.ExposedS, BaselineS: j.Baseline.Classes[i].ExposedS})
	}
	return r
}

// fabricView is what the JCT model needs to know of a plan and of how
// the job sits on it.
type fabricView struct {
	gpusPerServer  int
	nicsPerServer  int
	nicGbps        float64
	fabric         Fabric
	static         bool    // static routing: flows hashed (ECMP) or pinned by the subnet manager
	spray          bool    // packets sprayed over every path (adaptive, named in the breakdown)
	oversub        float64 // D/U at the leaf
	spineRatio     float64 // D/U at the spine (three tiers; 1 below)
	serversPerPod  int     // servers under one pod's spines (three tiers)
	serversPerUnit int     // servers under one leaf group
	tiers          int
	planes         int
	nvlinkDomain   int // the system's NVLink domain; 0: the GPU preset's
	// A failure what-if: the fraction of the worst server's back-end
	// bandwidth lost, and of the capacity above its leaf group.
	bwLost, upLost float64

	// The job on the fabric.
	spread bool    // servers scattered: every inter-domain group crosses the tier above the leaves
	jobs   int     // jobs of this shape sharing the cluster
	qps    float64 // RDMA queue pairs (flows) per connection
	// othersBusy is the fraction of a step the other jobs' traffic
	// crosses the tier above the leaves; negative: solve for it (they
	// run the same job).
	othersBusy float64
	ideal      bool // the back end made ideal: as fast as NVLink, no latency, oversubscription or collisions
	epOnNVLink bool // expert-parallel traffic kept inside the NVLink domain
	// wireUS is the propagation delay of the cables on the longest path
	// (laid-out plans only; see Plan.wireUS).
	wireUS float64

	// Static routing's collision model (fabricmodel.go).
	maxActiveQueuePairs float64 // queue pairs per connection carrying data at once
	channels            float64 // NCCL connections per network peer
	stages              float64 // hashed links met per tier crossed
	jobUplinks          float64 // the job's leaf uplinks: links its crossing flows hash onto
	// leafDown and leafUp are a leaf's ports as built (0: derive them
	// from the leaf group and ratio).
	leafDown, leafUp int
	maxLoads         *maxLoadMemo // shared by the copies one estimate makes
	locals           *localMemo   // likewise; set by Estimate alone (nil: none)
	jobServers       int
	// Sharing: background load per tier (fraction of the uplinks' capacity
	// other traffic holds) and whether other jobs cross in phase.
	bgLeaf, bgSpine float64
	aligned         bool
	// In-network reduction: SHARP on the switches, and a forced
	// all-reduce algorithm ("" picks the fastest).
	sharp     bool
	noNVLS    bool // NVLink SHARP made unavailable (for the breakdown)
	algorithm string
	// Planes and styles (dualplane_flows.go): a leaf's uplink speed over
	// its down ports', the balanced crossing efficiency, static hashing's
	// polarization at the second stage, and a rail-only fabric's rails.
	upSpeedRatio, crossEff, polarization float64
	railOnly                             bool
	rails                                int
}

// ecmp reports whether flows leaving a leaf group are hashed onto uplinks
// (RoCE with static ECMP) rather than spread packet by packet.
func (fv *fabricView) ecmp() bool {
	return fv.static && fv.tiers >= 2
}

// crossLoad is the fraction of a leaf's down ports sending across the
// tier above it while this job does: all of them for a job alone or
// packed into its own leaves; for jobs spread over shared leaves, this
// job's 1/jobs plus the others' share times the time they are busy.
func (fv *fabricView) crossLoad() float64 {
	if !fv.spread || fv.jobs <= 1 {
		return 1
	}
	busy := min(max(fv.othersBusy, 0), 1)
	return (1 + float64(fv.jobs-1)*busy) / float64(fv.jobs)
}

// crossOversub is the oversubscription traffic leaving a leaf group
// meets: the leaf's D/U times the share of its ports busy, worsened by
// uplink capacity lost to a failure.
func (fv *fabricView) crossOversub() float64 {
	return fv.oversub * fv.crossLoad() / (1 - fv.upLost) / (1 - fv.bgLeaf)
}

// view is the network alone, no job on it yet.
func (n *Network) view() fabricView {
	return fabricView{
		gpusPerServer: n.GPUsPerServer, nicsPerServer: n.NICsPerServer,
		nicGbps: n.NICGbps, fabric: n.Fabric, static: n.Static, spray: n.Spray,
		oversub: n.Oversub, serversPerUnit: n.ServersPerUnit, tiers: n.Tiers, planes: n.Planes,
		nvlinkDomain: n.NVLinkDomain, jobs: 1, qps: 1, othersBusy: -1, wireUS: n.WireUS,
		spineRatio: n.SpineRatio, serversPerPod: n.ServersPerPod,
		maxActiveQueuePairs: 1, stages: 1, channels: 1, leafDown: n.LeafDown, leafUp: n.LeafUp, sharp: n.SHARP,
		upSpeedRatio: n.UpSpeedRatio, railOnly: n.RailOnly, rails: n.Rails,
	}
}

// jobView is the network with the resolved workload w placed on it.
func (n *Network) jobView(w *Workload, d *JCTData) fabricView {
	var fv fabricView
	n.placeInto(&fv, w, d)
	return fv
}

// placeInto writes jobView's view into fv (an estimate's, in place:
// returned, the view was copied twice).
func (n *Network) placeInto(fv *fabricView, w *Workload, d *JCTData) {
	*fv = n.view()
	fv.spread = w.Placement == PlaceSpread
	fv.jobs = max(w.Jobs, 1)
	fv.qps = float64(w.QueuePairs)
	if fv.qps == 0 {
		fv.qps = d.ECMP.QueuePairs
	}
	fv.maxActiveQueuePairs, fv.stages, fv.channels = d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
	fv.crossEff, fv.polarization = d.Crossing.Efficiency, d.ECMP.Polarization
	if w.Polarization != nil {
		fv.polarization = *w.Polarization
	}
	if fv.static {
		fv.maxLoads = new(maxLoadMemo)
	}
	fv.sharp = fv.sharp && d.InNetwork.sharpTree(*n)
	fv.bgLeaf, fv.bgSpine = w.BackgroundLeaf, w.BackgroundSpine
	fv.aligned = w.Phase == PhaseAligned
	fv.algorithm = w.Algorithm
	fv.setJobSize(max(n.GPUs/fv.jobs, 1), n.ServerPorts)
}

// setJobSize records the job's servers and the leaf uplinks its
// crossing flows are hashed onto.
func (fv *fabricView) setJobSize(gpus, serverPorts int) {
	fv.jobServers = fabric.CeilDiv(gpus, max(fv.gpusPerServer, 1))
	// Uplinks faster than the ports are fewer for the same bandwidth.
	fv.jobUplinks = max(1, float64(fv.jobServers*max(serverPorts, 1))/fv.oversub/fv.upRatio())
}

// nvlinkDomain is the GPUs one NVLink domain holds: the system's
// (systemDomain, 0 for custom servers), else the GPU preset's domain cut
// to the GPUs of one server, since NVLink does not leave the chassis.
func nvlinkDomain(systemDomain int, gpu *GPUSpec, gpusPerServer int) int {
	if systemDomain > 0 {
		return systemDomain
	}
	d := max(gpu.NVLinkDomain, 1)
	if gpusPerServer > 0 {
		d = min(d, gpusPerServer)
	}
	return d
}

// ErrNoJCT marks a workload that cannot run on the plan's GPUs.
var ErrNoJCT = errors.New("workload does not fit")

// resolveWorkload fills preset values into w.
func resolveWorkload(w Workload, d *JCTData) (Workload, *ModelSpec, *GPUSpec, error) {
	m, gpu, err := resolveInPlace(&w, d)
	return w, m, gpu, err
}

// resolveInPlace is resolveWorkload filling *w itself (an estimate's
// resolution is written where it is kept, not copied there).
func resolveInPlace(w *Workload, d *JCTData) (*ModelSpec, *GPUSpec, error) {
	gpu := d.GPUs[w.GPU]
	if gpu == nil {
		return nil, nil, fielderr.New("workload.gpu", "use one of "+textfmt.KeyList(d.GPUs), "unknown GPU %q", w.GPU)
	}
	if w.Framework != "" && d.Frameworks[w.Framework] == nil {
		return nil, nil, fielderr.New("workload.framework", `leave it out or use one of `+textfmt.KeyList(d.Frameworks), "unknown training stack %q", w.Framework)
	}
	m := d.Models[w.Model]
	if m == nil {
		m = &ModelSpec{Key: "custom", Name: "custom model"}
	}
	fillPresets(w, m)
	fillOverlaps(w, d)
	fillVPP(w)
	if w.ParamsB <= 0 || w.Layers <= 0 || w.Hidden <= 0 || w.SeqLen <= 0 {
		return nil, nil, fielderr.New("workload.model", "give params_b, layers, hidden and seq_len", "the model's shape is incomplete")
	}
	var runs [4]string // every precision: no allocation
	if !slices.Contains(gpu.appendPrecisions(runs[:0]), precisionOrBF16(w.Precision)) {
		return nil, nil, fielderr.New("workload.precision", fmt.Sprintf("use one of %v on %s", gpu.Precisions(), gpu.Name),
			"%s has no %s tensor cores", gpu.Name, w.Precision)
	}
	if err := checkShapeFit(w); err != nil {
		return nil, nil, err
	}
	return m, gpu, nil
}

// checkShapeFit checks what a resolved workload's parallelism and
// recomputation ask of its model's shape: cp divides the sequence, KV
// heads divide the query heads, no more layers recompute than it has,
// and its architecture holds together (checkArchitecture).
func checkShapeFit(w *Workload) error {
	if w.SeqLen%w.cp() != 0 {
		return fielderr.New("workload.cp", fmt.Sprintf("use a cp that divides seq_len (%d)", w.SeqLen), "cp %d does not divide the sequence", w.cp())
	}
	if w.KVHeads > 0 && w.Heads > 0 && (w.KVHeads > w.Heads || w.Heads%w.KVHeads != 0) {
		return fielderr.New("workload.kv_heads", fmt.Sprintf("give a divisor of the model's %d heads", w.Heads), "%d KV heads for %d query heads", w.KVHeads, w.Heads)
	}
	if int(w.RecomputeLayers) > w.Layers {
		return fielderr.New("workload.recompute_layers", fmt.Sprintf("give at most the model's %d layers", w.Layers), "%d layers recomputed of %d", w.RecomputeLayers, w.Layers)
	}
	return checkArchitecture(w)
}

// fillPresets fills the model shape w leaves at zero from the preset m.
func fillPresets(w *Workload, m *ModelSpec) {
	fill := func(v *float64, preset float64) {
		if *v == 0 {
			*v = preset
		}
	}
	filli := func(v *int, preset int) {
		if *v == 0 {
			*v = preset
		}
	}
	fill(&w.ParamsB, m.ParamsB)
	fill(&w.ActiveParamsB, m.ActiveParamsB)
	if w.ActiveParamsB == 0 {
		w.ActiveParamsB = w.ParamsB
	}
	filli(&w.Layers, m.Layers)
	filli(&w.Hidden, m.Hidden)
	filli(&w.SeqLen, m.SeqLen)
	filli(&w.Vocab, m.Vocab)
	filli(&w.Experts, m.Experts)
	filli(&w.TopK, m.TopK)
	filli(&w.Heads, m.Heads)
	filli(&w.KVHeads, m.KVHeads)
	filli(&w.RouteNodes, m.RouteNodes)
}

// fillOverlaps fills the overlaps w leaves unset from its training
// stack's ([frameworks]) where it names one, else from the data's
// [overlap] defaults; context parallelism's always from [overlap].
func fillOverlaps(w *Workload, d *JCTData) {
	o := d.Overlap
	if f := d.framework(w); f != nil {
		o.DP, o.PP, o.TP, o.EP = f.OverlapDP, f.OverlapPP, f.OverlapTP, f.OverlapEP
	}
	var defs *[5]float64 // one allocation holds every overlap the defaults fill
	ov := func(v **float64, i int, def float64) {
		if *v == nil {
			if defs == nil {
				defs = new([5]float64)
			}
			defs[i] = def
			*v = &defs[i]
			w.defaulted |= 1 << i
		}
	}
	ov(&w.OverlapDP, 0, o.DP)
	ov(&w.OverlapPP, 1, o.PP)
	ov(&w.OverlapTP, 2, o.TP)
	ov(&w.OverlapEP, 3, o.EP)
	ov(&w.OverlapCP, 4, o.CP)
}

// Estimate times one training step of w on job's network, over RDMA
// and over TCP/IP on the same links, computing what parts asks for. A
// job that does not fit in the GPUs' memory is a finding, not an error:
// it is timed as entered (as if the memory were there), its Memory says
// by how much it is over, and with parts.Fix, Fix holds the change that
// fits at the least step time, timed.
func Estimate(job Job, in Workload, d *JCTData, parts Parts) (*JCT, error) {
	r := parts.Memo.resolve(&in, d)
	if r.err != nil {
		return nil, r.err
	}
	// w is the resolution's, shared with the memo's other callers: read,
	// never written (a copy of it was three of an estimate's copies).
	w, m, gpu := &r.w, r.m, r.gpu
	n := &job.Network
	jobs := max(w.Jobs, 1)
	gpus := n.GPUs / jobs // each job's share
	if mp := w.modelParallel(); mp > gpus {
		if jobs > 1 {
			return nil, fmt.Errorf("%w: %w", ErrNoJCT, fielderr.New("workload.jobs", "run fewer jobs at once, lower tp x cp x pp or plan more GPUs",
				"tp %d x cp %d x pp %d = %d GPUs, each of %d jobs has %d", w.TP, w.cp(), w.PP, mp, jobs, gpus))
		}
		return nil, fmt.Errorf("%w: %w", ErrNoJCT, fielderr.New("workload.pp", "lower tp x cp x pp or plan more GPUs",
			"tp %d x cp %d x pp %d = %d GPUs, the cluster has %d", w.TP, w.cp(), w.PP, mp, gpus))
	}
	if w.Layers%w.PP != 0 && w.PP > w.Layers {
		return nil, fielderr.New("workload.pp", "use at most one stage per layer", "%d stages for %d layers", w.PP, w.Layers)
	}
	dp := gpus / w.modelParallel()
	if !w.expertsFold(dp) {
		// A stage's tp x cp x dp GPUs hold whole expert-parallel groups
		// (ep x etp): the data-parallel ranks that do not fill one stay
		// idle, as GPUs past a multiple of tp x cp x pp do.
		folded := w.FoldedDP(dp)
		if folded < 1 {
			return nil, fmt.Errorf("%w: %w", ErrNoJCT, fielderr.New("workload.ep", w.epFix(dp),
				"ep %d x etp %d does not divide tp %d x cp %d x dp %d, nor any fewer data-parallel ranks", w.EP, w.etp(), w.TP, w.cp(), dp))
		}
		dp = folded
	}
	if err := checkBatch(w, dp); err != nil {
		return nil, err
	}
	micro := microbatches(w, dp)
	mem := parts.Memo.memoryUse(r, gpu, d, dp)
	j := &JCT{Workload: *w, ModelName: m.Name, GPU: gpu, DP: dp, Microbatches: micro, IdleGPUs: n.GPUs - jobs*dp*w.modelParallel(), Memory: mem}
	j.Workload.computeEff = 0 // the compute efficiency is the steps' alone: a caller may change the workload and time it again
	if m.Key == "custom" {
		j.ModelName = fmt.Sprintf("custom %.0fB", w.ParamsB)
	}
	var fv fabricView
	n.placeInto(&fv, w, d)
	if fv.sharing() {
		// This estimate's alone: not in jobView, whose views outlive it.
		// Only for jobs solved for others sharing their leaves, whose
		// every step is timed whole: otherwise the baseline and the
		// effects copy the planned step's classes inside the NVLink
		// domain, and remembering them cost more than it saved.
		j.locals.d, fv.locals = d, &j.locals
	}
	// The steps below read the compute efficiency the resolution worked
	// out once (w.computeEff).
	reach := j.timeSteps(w, gpu, d, &fv, dp, micro)
	j.Gain = j.Baseline.StepS / j.Planned.StepS
	if parts.Fix && !mem.Fits() {
		j.Fix = cheapestMemoryFix(job, j.Workload, gpu, d, gpus, parts.Detail)
	}
	if parts.Detail {
		j.Effects = j.stepEffects(w, gpu, d, &fv, dp, micro, reach)
		j.Findings = j.findings(timeFullPipeline(w, gpu, d, &fv, dp, micro))
		if job.PlanFindings != nil {
			j.Findings = append(j.Findings, job.PlanFindings(gpu, j.Planned.Classes)...)
		}
	}
	return j, nil
}

// stepEffects is the breakdown of j's planned step: its fabric effects,
// then an MoE layer's parts; nil when there are none.
func (j *JCT) stepEffects(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, reach stepReach) []Effect {
	out := fabricEffects(w, gpu, d, fv, dp, micro, &j.Planned, reach, j.effects[:0])
	if out == nil {
		out = j.effects[:0]
	}
	if out = moeEffects(w, gpu, d, &j.Planned, out); len(out) == 0 {
		return nil // no effect: none listed
	}
	return out
}

// timeSteps times j's planned step and its TCP/IP baseline, each into
// its place, and returns the planned step's classes' reach.
func (j *JCT) timeSteps(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int) stepReach {
	j.Planned.Classes, j.Baseline.Classes = j.classes[:0:maxClasses], j.classes[maxClasses:maxClasses]
	stepTimeInto(&j.Planned, w, gpu, d, fv, dp, micro, RDMA)
	reach := reachOf(&j.Planned)
	if fv.othersBusy < 0 && fv.sharing() { // solved for the other jobs: nothing to copy
		stepTimeInto(&j.Baseline, w, gpu, d, fv, dp, micro, TCP)
		return reach
	}
	// TCP/IP reaches only the classes that leave the NVLink domain (a
	// group inside one crosses no network): the others, and the compute,
	// are the planned step's.
	stepInto(&j.Baseline, w, gpu, d, fv, dp, micro, TCP, &stepReuse{from: &j.Planned, reach: reach.leaves})
	return reach
}

// stepTime is the JCT model proper (research/jct-modelling.md A4):
// step = compute + pipeline bubble + sum over traffic classes of the
// communication not hidden behind compute. Jobs spread over shared
// leaves load each other's uplinks for the time they spend crossing
// them; that time is solved for by iteration, from the worst case (the
// others always busy). classes holds the step's traffic classes (nil:
// new ones), for a caller that times many steps and keeps none. w and
// fv are read, never changed (pointers: a step is timed many times per
// estimate, and copying them was a fifth of its cost).
func stepTime(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, tr Transport, classes []TrafficClass) StepTime {
	st := StepTime{Classes: classBuffer(classes)}
	stepTimeInto(&st, w, gpu, d, fv, dp, micro, tr)
	return st
}

// stepTimeInto is stepTime written into st, its classes into st.Classes,
// which must have room for every class (classBuffer). Written in place,
// a step is not copied on its way to where it is kept (returned, it was
// copied once or twice).
func stepTimeInto(st *StepTime, w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, tr Transport) {
	if fv.othersBusy >= 0 || !fv.spread || fv.jobs <= 1 {
		stepInto(st, w, gpu, d, fv, dp, micro, tr, nil)
		return
	}
	shared := *fv
	shared.othersBusy = 1
	stepInto(st, w, gpu, d, &shared, dp, micro, tr, nil)
	if shared.aligned { // the others cross whenever this job does
		return
	}
	for range 4 {
		shared.othersBusy = st.crossingS() / st.StepS
		stepInto(st, w, gpu, d, &shared, dp, micro, tr, nil)
	}
}

// crossingS is the time per step the job's traffic crosses the tier above
// the leaves, hidden or not: its uplinks are busy all that time.
func (s *StepTime) crossingS() float64 {
	t := 0.0
	for i := range s.Classes {
		if c := &s.Classes[i]; c.CrossesTier {
			t += c.TimeS
		}
	}
	return t
}

// gradientSync times one data-parallel gradient exchange over group g
// of a shard's gradients and parameters (bytes): an all-reduce, or with
// a sharded optimizer (ZeRO stage zs) a reduce-scatter and all-gathers.
func gradientSync(net *netModel, zs int, gradBytes, paramBytes float64, g *commGroup) collTime {
	if zs <= 0 {
		return net.allReduce(gradBytes, g)
	}
	// ZeRO-3 gathers the weights again for the backward pass.
	gathers := 1.0
	if zs == 3 {
		gathers = 2
	}
	var t collTime
	agS := net.reduceScatterPair(gradBytes, paramBytes, g, &t)
	t.time += gathers * agS
	t.gatherS = gathers * agS
	return t
}

// stepEfficiency is the compute efficiency of w's step: the one the
// workload gives, else the one solved for it, else the one its GEMM
// shapes reach on gpu.
func stepEfficiency(w *Workload, gpu *GPUSpec, d *JCTData) float64 {
	eff := w.ComputeEfficiency
	if eff == 0 {
		eff = w.computeEff
	}
	if eff == 0 {
		eff = computeEfficiency(w, gpu, d)
	}
	return eff
}

// stepOnce times one step with the others' crossing time as fv gives it;
// classes, w and fv as for stepTime.
func stepOnce(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, tr Transport, classes []TrafficClass) StepTime {
	return stepOnceFrom(w, gpu, d, fv, dp, micro, tr, classes, nil)
}

// stepReuse is a step timed before (from), of the same workload, GPU,
// data and size, on a view that differs from the one being timed only in
// what can reach the classes of reach: the other classes, and the
// compute, are copied from it, not timed again.
type stepReuse struct {
	from  *StepTime
	reach classSet
}

// computeS is the compute time of a step of w on gpu of hwFLOPs on GPUs
// of peakFLOPS in all: r's step's, timed for the same workload, GPU,
// data and size (nil: worked out).
func (r *stepReuse) computeS(w *Workload, gpu *GPUSpec, d *JCTData, hwFLOPs, peakFLOPS float64) float64 {
	if r != nil {
		return r.from.ComputeS
	}
	return hwFLOPs / (peakFLOPS * stepEfficiency(w, gpu, d))
}

// class is the class at place i of classOrder in r's step when r says
// the change cannot reach it (nil: time it). By place, not name: a step
// timed afresh asks for each class, and placing a name was most of it.
// at is where the step being timed puts it: the same place in r's step,
// timed for the same workload and size (the same classes, in order),
// which is looked at first.
func (r *stepReuse) class(i, at int) *TrafficClass {
	if r == nil || r.reach&(1<<i) != 0 {
		return nil
	}
	if at < len(r.from.Classes) && r.from.Classes[at].Name == classOrder[i] {
		return &r.from.Classes[at]
	}
	for k := range r.from.Classes {
		if c := &r.from.Classes[k]; c.Name == classOrder[i] {
			return c
		}
	}
	return nil
}

// The places of the classes in classOrder.
const (
	tpAt = iota
	dpAt
	ppAt
	cpAt
	epAt
)

// stepOnceFrom is stepOnce, the classes r says are unchanged copied from
// its step (nil: every class timed).
func stepOnceFrom(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, tr Transport, classes []TrafficClass, r *stepReuse) StepTime {
	st := StepTime{Classes: classBuffer(classes)}
	stepInto(&st, w, gpu, d, fv, dp, micro, tr, r)
	return st
}

// stepInto is stepOnceFrom written into st, every field set, its classes
// into st.Classes, which must have room for every class (classBuffer)
// and not be r's step's. It never stores a slice into st but st.Classes
// resliced: a slice stored through st would leak its caller's buffer
// (StepSeconds's, the effects' timer's) to the heap.
func stepInto(st *StepTime, w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, tr Transport, r *stepReuse) {
	c := &d.Collective
	usedGPUs := float64(dp * w.modelParallel())
	tokens := float64(w.GlobalBatchTokens)

	// Compute: model FLOPs per token 6N + 12·L·h·s (PaLM, appendix B),
	// the score products' term from the heads' widths where the workload
	// gives them (attentionFLOPsPerToken); recomputation replays the
	// forward pass (x4/3 with every layer, a third of the recomputed
	// layers' share with some), selective recomputation the forward
	// FLOPs of its modules (recomputedFLOPsPerToken).
	flopsPerToken := 6*w.ActiveParamsB*1e9 + 12*float64(w.Layers*w.Hidden*w.SeqLen)
	if w.Architecture != nil {
		flopsPerToken = 6*w.ActiveParamsB*1e9 + float64(w.Layers)*w.attentionFLOPsPerToken()
	}
	modelFLOPs := flopsPerToken * tokens
	hwFLOPs := modelFLOPs
	hwFLOPs *= 1 + w.recomputeShare()/3
	if w.Architecture != nil {
		hwFLOPs += w.recomputedFLOPsPerToken() * tokens
	}
	peak := gpu.PeakTFLOPS * 1e12
	st.Classes = st.Classes[:0]
	st.Transport, st.BubbleS, st.BubbleCommS, st.StepS = tr, 0, 0, 0
	st.BusBWGBs, st.BusBWAlgo, st.BusBWProto = 0, "", ""
	st.ComputeS = r.computeS(w, gpu, d, hwFLOPs, usedGPUs*peak)

	var net netModel
	net.init(fv, gpu, d, tr)
	net.fv = fv
	layersPerStage := float64(w.Layers) / float64(w.PP)
	passes := 4 + 2*w.recomputeShare() // collectives per layer and micro-batch: 2 forward, 2 backward, 2 more in a replayed forward
	actBytes := float64(w.MicroBatch) * w.localSeq() * float64(w.Hidden) * c.ActivationBytes
	var critical classSet // the places of the classes on the pipeline's critical path (finish)
	dpIndex := -1         // the data-parallel class's place in st.Classes

	// Each class is copied from r's step or timed into its place in
	// st.Classes (a class built and then appended was copied twice).
	// Tensor parallel: Megatron's all-reduces (or reduce-scatter +
	// all-gather with sequence parallelism: the same volume) per layer.
	if w.TP > 1 {
		if kc := r.class(tpAt, len(st.Classes)); kc != nil {
			*st.addClass() = *kc
		} else {
			var g commGroup
			net.groupInto(&g, w.TP, 1, false)
			one := net.allReduce(actBytes, &g)
			n := passes * layersPerStage * float64(micro) * tpBlocks(w)
			net.classInto(st.addClass(), ClassTP, &g, &one, n, *w.OverlapTP)
		}
		critical |= 1 << (len(st.Classes) - 1)
	}
	// Data parallel: gradient reduce over dp ranks (stride tp), reduce-
	// scatter + all-gather with a sharded optimizer.
	if dp > 1 {
		dpIndex = len(st.Classes)
		if kc := r.class(dpAt, dpIndex); kc != nil {
			*st.addClass() = *kc
			st.BusBWGBs, st.BusBWAlgo, st.BusBWProto = r.from.BusBWGBs, r.from.BusBWAlgo, r.from.BusBWProto
		} else {
			shard := w.ParamsB * 1e9 / float64(w.TP*w.PP*w.EP)
			// Megatron reduces gradients over the data- and context-parallel
			// ranks together (stride tp).
			var g commGroup
			net.groupInto(&g, dp*w.cp(), w.TP, false)
			zs := w.zeroStage()
			t := gradientSync(&net, zs, shard*c.GradBytes, shard*c.ParamBytes, &g)
			cl := st.addClass()
			net.classInto(cl, ClassDP, &g, &t, 1, *w.OverlapDP)
			reduceW, gatherW := gradientWindows(d, w.recomputeShare(), zs, st.ComputeS, micro)
			exposeGradientSync(cl, t.gatherS, reduceW, gatherW)
			st.BusBWGBs, st.BusBWAlgo, st.BusBWProto = t.busbw, t.algo, t.proto
		}
	}
	// Pipeline parallel: one activation send forward and one gradient
	// send backward per micro-batch and virtual stage; each TP rank sends
	// its 1/tp slice (Megatron's scatter-gather).
	if w.PP > 1 {
		if kc := r.class(ppAt, len(st.Classes)); kc != nil {
			*st.addClass() = *kc
		} else {
			var g commGroup
			net.groupInto(&g, 2, w.TP*w.cp()*dp, false)
			one := net.p2p(actBytes/float64(w.TP), &g)
			n := 2 * float64(micro*w.VPP)
			net.classInto(st.addClass(), ClassPP, &g, &one, n, *w.OverlapPP)
		}
	}
	// Context parallel: each GPU's K and V (kv_heads/heads of h wide)
	// go round the cp ring, cp-1 sends per layer forward and twice that
	// backward (K and V again, then their gradients), one more forward
	// with recomputation (Megatron-Core's ring attention).
	if cp := w.cp(); cp > 1 {
		if kc := r.class(cpAt, len(st.Classes)); kc != nil {
			*st.addClass() = *kc
		} else {
			var g commGroup
			net.groupInto(&g, cp, w.TP, false)
			kv := 2 * actBytes * w.kvShare() / float64(w.TP)
			one := net.p2p(kv, &g)
			n := (passes - 1) * float64(cp-1) * layersPerStage * float64(micro)
			net.classInto(st.addClass(), ClassCP, &g, &one, n, *w.OverlapCP)
		}
		critical |= 1 << (len(st.Classes) - 1)
	}
	// Expert parallel: all-to-all dispatch and combine of each token's
	// top-k copies, forward and backward, in every MoE layer.
	if w.EP > 1 && w.Experts > 1 {
		if kc := r.class(epAt, len(st.Classes)); kc != nil {
			*st.addClass() = *kc
		} else {
			var g commGroup
			net.groupInto(&g, w.EP, w.etp(), true) // ranks etp apart: Megatron orders the expert ranks etp, ep, expert dp
			if fv.epOnNVLink {
				g = commGroup{ranks: w.EP, perNode: w.EP, nodes: 1, local: true}
			}
			bytes := actBytes / float64(w.TP) * float64(max(w.TopK, 1))
			one := net.allToAllRouted(bytes, &g, moeRouting{topK: w.TopK, nodes: w.RouteNodes})
			n := passes * layersPerStage * float64(micro)
			net.classInto(st.addClass(), ClassEP, &g, &one, n, *w.OverlapEP)
		}
		critical |= 1 << (len(st.Classes) - 1)
	}
	st.finish(w, micro, critical, dpIndex)
	st.TokensPerS = tokens / st.StepS
	st.MFU = modelFLOPs / (st.StepS * usedGPUs * peak)
	st.Days = w.TokensTotal / st.TokensPerS / 86400
}

// tpBlocks is the share of a layer's two blocks (attention, MLP) that
// run tensor-parallel collectives: both, but in an MoE layer whose
// experts are not tensor-parallel (etp 1) only attention: the expert
// block takes its sequence-parallel slice of the tokens straight into
// the expert all-to-all, with no all-gather or reduce-scatter over the
// tensor group (Megatron-Core MoE token dispatcher: its gather over the
// expert tensor group is skipped when that group is one GPU; Liu et al.,
// MoE Parallel Folding, arXiv 2504.14960, section 3).
func tpBlocks(w *Workload) float64 {
	if w.etp() == 1 && expertWidth(w) > 0 {
		return 0.5
	}
	return 1
}

// addClass makes room for one more class at the end of s.Classes and
// returns it, for a class to be timed into its place. The room is
// there: classBuffer gives a step room for every class. (Grown by
// append, the classes would leak to the heap through s, and with them
// every caller's buffer: StepSeconds's, the effects' timer.)
func (s *StepTime) addClass() *TrafficClass {
	n := len(s.Classes)
	s.Classes = s.Classes[:n+1]
	return &s.Classes[n]
}

// finish works out the step from its classes in one pass over them:
// each class's hidden time capped at the compute (limitOverlap's rule,
// but for the data-parallel class at place dpIndex, which
// exposeGradientSync set), the pipeline bubble of w's step over micro
// micro-batches, (pp-1)/(vpp·m) of a stage's time per step, which holds
// its compute and the tensor-, context- and expert-parallel collectives
// on its critical path (Narayanan et al. SC21, eq. 2), the classes at
// the places critical holds (by place, not by name: comparing each
// class's name cost more than the sum), and the step: compute, bubble
// and every class's exposed time (ExposedCommS), summed in class order
// as three passes summed them.
func (s *StepTime) finish(w *Workload, micro int, critical classSet, dpIndex int) {
	frac := 0.0
	if w.PP > 1 {
		frac = float64(w.PP-1) / float64(w.VPP*micro)
	} else {
		critical = 0 // no bubble
	}
	// Summed in locals, not through s: its stores to the classes would
	// make each sum a load and a store.
	compute, bubbleComm, exposed := s.ComputeS, 0.0, 0.0
	classes := s.Classes
	bit := classSet(1) // 1 << i, walked (a shift by a variable is tested for its width)
	for i := range classes {
		c := &classes[i]
		e := c.ExposedS
		if i != dpIndex && c.TimeS > 0 {
			e = max(e, c.TimeS-compute)
			c.ExposedS = e
		}
		if critical&bit != 0 {
			bubbleComm += frac * e
		}
		exposed += e
		bit <<= 1
	}
	s.BubbleCommS = bubbleComm
	if w.PP > 1 {
		s.BubbleS = frac*compute + bubbleComm
	}
	s.StepS = compute + s.BubbleS + exposed
}

// maxClasses is the traffic classes a step can have: tensor, data,
// pipeline, context and expert parallel.
const maxClasses = 5

// classBuffer is classes emptied for a step's traffic classes, or new
// room for them when nil or short of room for every class (addClass).
func classBuffer(classes []TrafficClass) []TrafficClass {
	if cap(classes) < maxClasses {
		return make([]TrafficClass, 0, maxClasses)
	}
	return classes[:0]
}

// netModel holds a fabric's bandwidths and latencies for one transport.
type netModel struct {
	fv         *fabricView // read only
	d          *JCTData
	nvlinkGBs  float64 // effective one-way NVLink bandwidth per GPU
	nodeGBs    float64 // effective back-end bandwidth of one server
	domain     int     // GPUs in one NVLink domain
	netHopUS   float64
	intraHopUS float64
	netExtraUS float64     // added to every network hop: the TCP stack's latency
	ideal      bool        // no network latency at all
	protos     []*Protocol // LL, LL128, Simple
	// nvlinkRawGBs is the one-way NVLink line rate per GPU, nvlsEff the
	// GPU's NVLink SHARP efficiency (0: none), nicEff the achieved share
	// of NIC line rate the back-end bandwidths carry.
	nvlinkRawGBs, nvlsEff, nicEff float64
	// nvlsTreeGBs is NCCL's NVLS tree ceiling per channel on 2 domains
	// and on more (NCCL's graph units).
	nvlsTreeGBs [2]float64
	// perSwitchUS is one switch's latency; a group pays it per switch on
	// its path (1 under one leaf, 3 across spines, 5 across the core).
	perSwitchUS float64
}

// newNetModel is the network model of fv for tr on gpu.
func newNetModel(fv fabricView, gpu *GPUSpec, d *JCTData, tr Transport) netModel {
	return netModelOn(&fv, gpu, d, tr)
}

// netModelOn is newNetModel reading fv in place, which must not change
// while the model is in use.
func netModelOn(fv *fabricView, gpu *GPUSpec, d *JCTData, tr Transport) netModel {
	var m netModel
	m.init(fv, gpu, d, tr)
	m.fv = fv
	return m
}

// init makes m the model of fv for tr on gpu, every field set but m.fv,
// which its caller sets to fv (a step builds its model in place:
// returned, it was copied; stored here, fv would leak to the heap).
func (m *netModel) init(fv *fabricView, gpu *GPUSpec, d *JCTData, tr Transport) {
	perNIC := fv.nicGbps / 8 // GB/s
	switch {
	case tr == TCP:
		perNIC = min(perNIC*d.TCP.LineRateFraction, d.TCP.CapGBsPerNIC)
	case fv.fabric == InfiniBand:
		perNIC *= d.Efficiency.InfiniBand
	default:
		perNIC *= d.Efficiency.RoCEAdaptive
	}
	if fv.ideal { // every GPU's share of the back end as fast as its NVLink
		perNIC = gpu.NVLinkGBs * d.Efficiency.NVLink * float64(fv.gpusPerServer) / float64(max(fv.nicsPerServer, 1))
	}
	m.d, m.protos = d, d.protocols
	m.nvlinkGBs = gpu.NVLinkGBs * d.Efficiency.NVLink
	m.nodeGBs = perNIC * float64(fv.nicsPerServer) * (1 - fv.bwLost)
	m.domain = nvlinkDomain(fv.nvlinkDomain, gpu, fv.gpusPerServer)
	m.netHopUS, m.intraHopUS, m.netExtraUS = d.Collective.NetHopUS, d.Collective.NVLinkHopUS, 0
	m.perSwitchUS, m.ideal = d.switchHopUS(fv.fabric), false
	m.nvlinkRawGBs, m.nvlsEff, m.nicEff = gpu.NVLinkGBs, gpu.NVLSEfficiency, 1
	m.nvlsTreeGBs = gpu.NVLSTreeChannelGBs
	if fv.noNVLS {
		m.nvlsEff = 0
	}
	if fv.nicGbps > 0 && !fv.ideal {
		m.nicEff = perNIC / (fv.nicGbps / 8)
	}
	if tr == TCP {
		m.netExtraUS = d.TCP.ExtraLatencyUS
		m.netHopUS += m.netExtraUS
	}
	if fv.ideal {
		m.netHopUS, m.perSwitchUS, m.ideal = 0, 0, true
	}
}

// commGroup is one communicator as laid out on the cluster: Megatron
// orders ranks tensor-parallel first, then data-parallel, then pipeline.
type commGroup struct {
	ranks     int
	perNode   int     // members sharing one NVLink domain
	nodes     int     // NVLink domains spanned
	netGBs    float64 // back-end bandwidth this group gets per domain
	crossesSU bool    // spans more than one leaf group (oversubscription applies)
	local     bool    // stays inside one NVLink domain
	// crossesCore: it also spans pods (three tiers), crossing the core.
	crossesCore bool
	// switchUS is the switches' latency on its path, wires included.
	switchUS float64
	// share is the fraction of its NIC bandwidth a crossing port gets
	// (1 when it stays under its leaves).
	share float64
	// servers spanned, and netGBs before share: NCCL's tree, whose
	// edges leave a leaf group or pod more often than a ring's, takes
	// its own share of them (treeGroup).
	servers int
	baseGBs float64
}

// treeGroup is *gp as NCCL's tree sees it, charged its own crossing share
// (treeCrossing) where that share costs more than the ring's; counted
// only for the groups that all-reduce, so the others pay nothing for it.
func (m *netModel) treeGroup(gp *commGroup) commGroup {
	g := *gp
	if !g.crossesSU || m.fv.spread || !m.fv.fracMatters() {
		return g // the ring's share: every edge crosses, or any share fits
	}
	tf, tcf := m.treeCrossing(&g, m.fv.serversPerUnit), 0.0
	if g.crossesCore {
		tcf = m.treeCrossing(&g, m.fv.podServers())
	}
	g.share = m.fv.hashedShare(tf, tcf)
	g.netGBs = g.baseGBs * g.share
	return g
}

// group lays out a communicator of ranks members spaced stride GPUs apart.
// Members in one NVLink domain reduce over NVLink first; every GPU of a
// server belongs to one such group at a time, so a group gets its share
// perNode/gpusPerServer of the server's back-end bandwidth.
func (m *netModel) group(ranks, stride int) commGroup {
	return m.groupOf(ranks, stride, false)
}

// allToAllGroup is group for an all-to-all, whose every port sends to
// every other domain, so more of its bytes leave a leaf group than a
// ring's (allToAllCrossing).
func (m *netModel) allToAllGroup(ranks, stride int) commGroup {
	return m.groupOf(ranks, stride, true)
}

func (m *netModel) groupOf(ranks, stride int, allToAll bool) (g commGroup) {
	m.groupInto(&g, ranks, stride, allToAll)
	return g
}

// groupInto is groupOf written into g, which must be zero: a step lays
// out its groups in place (returned, a group was copied twice a class).
func (m *netModel) groupInto(g *commGroup, ranks, stride int, allToAll bool) {
	g.ranks = ranks
	span := ranks * stride
	if span <= m.domain {
		g.perNode, g.nodes, g.local = ranks, 1, true
		return
	}
	g.perNode = min(ranks, max(1, m.domain/stride))
	g.nodes = ceilDiv(ranks, g.perNode)
	g.netGBs = m.nodeGBs * float64(g.perNode) / float64(m.fv.gpusPerServer)
	if m.domain > m.fv.gpusPerServer && m.fv.nicsPerServer > 0 { // rack-scale: the NICs its channels cross by
		g.netGBs = min(g.netGBs, m.d.RackScale.NetChannels*m.nodeGBs/float64(m.fv.nicsPerServer))
	}
	g.share, g.switchUS = 1, m.perSwitchUS+m.fv.wireUS
	if m.ideal {
		g.switchUS = 0
	}
	servers := ceilDiv(span, m.fv.gpusPerServer)
	if m.fv.tiers >= 2 && (m.fv.spread || servers > m.fv.serversPerUnit) {
		g.crossesSU = true
		g.crossesCore = m.fv.tiers >= 3 && (m.fv.spread || servers > m.fv.podServers())
		g.switchUS += 2 * m.perSwitchUS
		if g.crossesCore {
			g.switchUS += 2 * m.perSwitchUS
		}
		frac, coreFrac := m.crossing(g.nodes, servers, m.fv.serversPerUnit, allToAll), 0.0
		if g.crossesCore {
			coreFrac = m.crossing(g.nodes, servers, m.fv.podServers(), allToAll)
		}
		g.share = m.fv.hashedShare(frac, coreFrac)
		g.servers, g.baseGBs = servers, g.netGBs
		g.netGBs *= g.share
	}
}

// ceilDiv is a/b rounded up, for a >= 0 and b > 0 (fabric.CeilDiv's
// answer there), divided unsigned: a signed division tests for b = -1
// first, and a step lays out each group with two or three of them.
func ceilDiv(a, b int) int { return int((uint(a) + uint(b) - 1) / uint(b)) }

// podServers is the servers under one pod's spines; a pod of unknown
// size (a front end's third tier, which sidenet sizes without pods) is
// taken as one leaf group, so what leaves a leaf group is charged at the
// core too: an upper bound, never one pod per server (which charged a
// packed ring on a three-tier front end as if spread).
func (fv *fabricView) podServers() int {
	if fv.serversPerPod > 0 {
		return fv.serversPerPod
	}
	return fv.serversPerUnit
}

// treeCrossing is crossing for NCCL's tree: the share of its double
// binary tree's edges that join two groups of perGroup servers (leaf
// groups or pods), the nodes packed in order; all of them spread.
func (m *netModel) treeCrossing(g *commGroup, perGroup int) float64 {
	if m.fv.spread || g.nodes <= 1 {
		return 1
	}
	k := max(1, g.nodes*max(perGroup, 1)/max(g.servers, 1))
	return treeCrossing(g.nodes, k)
}

// crossing is the share of a crossing group's traffic that leaves its
// groups of perGroup servers (a leaf group, or a pod): all of it for a
// spread job. For a packed one, a ring leaves on one edge per group its
// nodes fill (NCCL orders its rings by the topology, so neighbours share
// a leaf): groups/nodes of its edges. An all-to-all sends each of the
// n-1 other domains an equal part, n-k of them outside its group of k:
// (n-k)/(n-1) of its bytes.
func (m *netModel) crossing(nodes, servers, perGroup int, allToAll bool) float64 {
	n := float64(max(nodes, 1))
	if m.fv.spread || n <= 1 {
		return 1
	}
	if !allToAll {
		return min(1, float64(ceilDiv(servers, max(perGroup, 1)))/n)
	}
	k := min(n, n*float64(max(perGroup, 1))/float64(max(servers, 1)))
	return max(0, n-k) / (n - 1)
}

type collTime struct {
	time  float64 // seconds
	busbw float64 // GB/s, of the algorithm and protocol that ran
	algo  string  // NCCL algorithm: ring, tree or pat; "" for point-to-point and all-to-all
	proto string  // NCCL protocol: LL, LL128 or Simple
	// gatherS is the part of time that is a sharded optimizer's
	// parameter all-gathers (gradientSync).
	gatherS float64
}

const us = 1e-6

// bwTime is the bandwidth term of a collective: NCCL's rings pass every
// byte over each rank's outgoing link, NVLink inside a domain and the back
// end between domains, so the slower of the two sets the bus bandwidth
// (busbw = min(server NIC share, NVLink); research A1.2).
func (m *netModel) bwTime(bytes float64, g *commGroup, factor func(n int) float64) (float64, float64) {
	busbw := m.nvlinkGBs
	if !g.local {
		busbw = min(busbw, g.netGBs)
	}
	return factor(g.ranks) * bytes / (busbw * 1e9), busbw
}

func arFactor(n int) float64 { return 2 * float64(n-1) / float64(n) }
func rsFactor(n int) float64 { return float64(n-1) / float64(n) }

func (m *netModel) allToAll(bytes float64, g *commGroup) collTime {
	return m.allToAllRouted(bytes, g, moeRouting{})
}

// moeRouting is how an expert-parallel all-to-all spreads a token's
// copies: topK experts, and with node-limited routing (nodes > 0) at most
// that many destination nodes, each sent one copy over the back end and
// fanned out over NVLink (DeepSeek-V3's routing, DeepEP's forwarding).
type moeRouting struct {
	topK, nodes int
}

// remoteCopies is the expected copies of one token that leave its NVLink
// domain over n domains: with node-limited routing, one per distinct
// remote destination domain, min(M, n(1-(1-1/n)^k)) destinations (k
// experts spread evenly), each remote with probability (n-1)/n; without,
// every copy whose expert lives in another domain, k(ranks-perNode)/ranks.
func (r moeRouting) remoteCopies(g *commGroup) float64 {
	k := float64(max(r.topK, 1))
	if r.nodes <= 0 {
		return k * float64(g.ranks-g.perNode) / float64(g.ranks)
	}
	n := float64(g.nodes)
	dest := min(float64(r.nodes), n*(1-math.Pow(1-1/n, k)))
	return dest * (n - 1) / n
}

// remotePeers is the peers across the back end one GPU exchanges with:
// every remote rank for NCCL's all-to-all (a send and a receive each);
// the same-rail GPU of each destination domain with node forwarding.
func (r moeRouting) remotePeers(g *commGroup) int {
	if r.nodes <= 0 {
		return g.ranks - g.perNode
	}
	return min(r.nodes, g.nodes-1)
}

// allToAllRouted times an all-to-all of bytes per GPU (all of a token's
// copies) routed by r: the copies that leave the NVLink domain share the
// server's back end, the rest go over NVLink; the latency is one network
// crossing plus a per-peer cost for each remote peer (data/jct.toml
// [collective] alltoall_peer_us). Its bus bandwidth is the logical one,
// (n-1)/n of all copies over the time, as DeepEP reports it.
func (m *netModel) allToAllRouted(bytes float64, g *commGroup, r moeRouting) collTime {
	c := &m.d.Collective
	if g.local {
		t := rsFactor(g.ranks) * bytes / (m.nvlinkGBs * 1e9)
		return collTime{time: (c.BaseLatencyUS+m.intraHopUS)*us + t, busbw: m.nvlinkGBs, proto: ProtoSimple}
	}
	k := float64(max(r.topK, 1))
	remote := r.remoteCopies(g) / k // share of the bytes leaving the domain
	perGPU := m.perGPUGBs(g)
	inter := remote * bytes / (perGPU * 1e9)
	local := float64(g.perNode) / float64(g.ranks) // copies fanned out or kept inside the domain
	if r.nodes > 0 {
		local = 1 // every copy crosses NVLink once, after forwarding or directly
	}
	// Rail-only: copies for another rail cross NVLink first to the NIC
	// on the destination's rail (PXN), one more NVLink hop.
	fwd := m.fv.railOnlyForwarding()
	if r.nodes <= 0 {
		local += fwd * remote
	}
	intra := local * bytes / (m.nvlinkGBs * 1e9)
	t := max(inter, intra)
	lat := c.BaseLatencyUS + m.netHopUS + g.switchUS + float64(r.remotePeers(g))*c.AllToAllPeerUS
	if fwd > 0 {
		lat += m.intraHopUS
	}
	return collTime{time: lat*us + t, busbw: rsFactor(g.ranks) * bytes / t / 1e9, proto: ProtoSimple}
}

func (m *netModel) p2p(bytes float64, g *commGroup) collTime {
	c := &m.d.Collective
	if g.local {
		return collTime{time: (c.BaseLatencyUS+m.intraHopUS)*us + bytes/(m.nvlinkGBs*1e9), busbw: m.nvlinkGBs, proto: ProtoSimple}
	}
	perGPU := m.perGPUGBs(g) // every GPU of the server sends its slice at once
	return collTime{time: (c.BaseLatencyUS+m.netHopUS+g.switchUS)*us + bytes/(perGPU*1e9), busbw: perGPU, proto: ProtoSimple}
}

// perGPUGBs is one GPU's share of its server's back-end bandwidth.
func (m *netModel) perGPUGBs(g *commGroup) float64 {
	b := m.nodeGBs / float64(m.fv.gpusPerServer)
	if g.crossesSU {
		b *= g.share
	}
	return b
}

// classInto writes into c the traffic class of count collectives timed
// as one, of which overlap is hidden behind compute; every field is set.
func (m *netModel) classInto(c *TrafficClass, name string, g *commGroup, one *collTime, count, overlap float64) {
	t := one.time * count
	c.Name, c.Ranks, c.CrossesFabric, c.CrossesTier = name, int32(g.ranks), !g.local, g.crossesSU
	c.BusBWGBs, c.Algorithm, c.Protocol = one.busbw, one.algo, one.proto
	c.TimeS, c.ExposedS = t, t*(1-overlap)
}
