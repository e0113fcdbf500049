package resilience

import (
	"math"

	"fabricplan/planner/perf"
)

// Behaviour is what a training job does when a part of the fabric fails.
type Behaviour string

// Behaviours of a job after a failure.
const (
	// Continues: the job keeps training on the paths that remain.
	Continues Behaviour = "continues"
	// Restarts: the job fails and restarts from its last checkpoint,
	// without the GPUs the failure cut off until they are repaired.
	Restarts Behaviour = "restarts"
	// Stops: the job cannot run until the part is repaired (every GPU
	// lost a path it cannot do without).
	Stops Behaviour = "stops"
)

// Failure components, as FailureCase.Component names them.
const (
	FailGPU        = "gpu"
	FailHost       = "server"
	FailRack       = "rack"
	FailNIC        = "nic"
	FailServerLink = "server_link"
	FailLeaf       = "leaf"
	FailSpine      = "spine"
	FailCore       = "core"
	FailLeafSpine  = "leaf_spine_link"
	FailSpineCore  = "spine_core_link"
	FailPlane      = "plane"
)

// FailureCase is the loss of one component of the plan: what it cuts
// off, what bandwidth is left, what the job does and how fast it then
// trains.
type FailureCase struct {
	Component string `json:"component"`
	Name      string `json:"name"`
	Count     int    `json:"count"` // such components in the plan
	// GPUsAffected have less back-end bandwidth (or none) while the part
	// is down; GPUsIdle are the GPUs the restarted job does not use: the
	// whole model replicas the lost servers (or racks of a rack-scale
	// system) break, so a tp 8 x pp 4 replica over four servers idles 32
	// GPUs when one server fails (the servers' own GPUs without a timed
	// job).
	GPUsAffected int `json:"gpus_affected"`
	GPUsIdle     int `json:"gpus_idle"`
	// Pool, PoolLeft and InstancesOut are, for a serving cluster, the
	// worst-hit pool ("prefill" or "decode"), the share of its GPUs still
	// serving and the instances the loss takes out (GPUsIdle their GPUs).
	Pool         string  `json:"serving_pool,omitempty"`
	PoolLeft     float64 `json:"serving_pool_left,omitempty"`
	InstancesOut int     `json:"serving_instances_out,omitempty"`
	// servingOut is the serving GPUs the loss takes out on average, the
	// lost GPUs in either pool in proportion to its GPUs.
	servingOut float64
	// unitGPUs is the GPUs of the repair units the job restarts without
	// (the failed servers or racks, which wait for repair); goodput counts
	// them as GPUs down.
	unitGPUs int
	// BandwidthLeft is the back-end bandwidth left to the worst-hit
	// server, and UplinkLeft the capacity left above the worst-hit
	// switch, as fractions of the intact fabric's.
	BandwidthLeft float64   `json:"bandwidth_left"`
	UplinkLeft    float64   `json:"uplink_left"`
	Behaviour     Behaviour `json:"behaviour"`
	Fatal         bool      `json:"interrupts_job"`
	// StepS is the step time of the plan's workload while the part is
	// down (on the GPUs left after a restart); 0 without a JCT estimate,
	// +Inf when too few GPUs are left to hold one model replica.
	StepS    float64 `json:"step_s"`
	Slowdown float64 `json:"slowdown"` // StepS over the intact step time
	// PerDay is how often this failure happens in the whole plan: Count
	// times the part's yearly rate over 365 (0 for what-ifs without a
	// rate of their own: planes, racks).
	PerDay float64 `json:"per_day"`
	// RepairHours is how long the part stays failed on average: the swap
	// time when a spare is on the shelf (SpareCover of the time), else
	// the repair time. The job runs degraded, or restarted without the
	// GPUs the part cut off, for that long.
	RepairHours float64 `json:"repair_hours"`
	SpareCover  float64 `json:"spare_cover"`
	Source      string  `json:"source"`
}

// Interruptions is one component class's share of job interruptions.
type Interruptions struct {
	Component string  `json:"component"`
	Count     int     `json:"count"`
	PerDay    float64 `json:"per_day"`
}

// Goodput is how much of a job's wall-clock time trains, given the
// interruptions the plan's parts cause and the checkpoint and restart
// times, after Kokolis et al. (HPCA'25): expected effective training time
// ratio ETTR = (1 - lambda (u0 + dt/2)) / (1 + w/dt), for interruption
// rate lambda, loss per interruption u0 (the restart and the checkpoint
// write in flight), checkpoint interval dt and the stall w of each save.
type Goodput struct {
	InterruptionsPerDay float64         `json:"interruptions_per_day"`
	MTBIHours           float64         `json:"mtbi_hours"` // mean time between interruptions; +Inf without any
	ByComponent         []Interruptions `json:"by_component"`
	// IntervalMin is the checkpoint interval used: the scenario's, or
	// the optimum. OptimalMin maximises ETTR; YoungMin is Young's
	// approximation sqrt(2 w / lambda), shown beside it.
	IntervalMin   float64 `json:"checkpoint_interval_min"`
	OptimalMin    float64 `json:"optimal_interval_min"`
	YoungMin      float64 `json:"young_interval_min"`
	ETTR          float64 `json:"ettr"`
	ETTRAtOptimum float64 `json:"ettr_at_optimum"`
	// WriteBound says the optimum is the checkpoint write's time: the
	// next save cannot start before the last has landed.
	WriteBound bool `json:"interval_bound_by_write"`
	// LossMin is what each interruption costs besides the work since the
	// last save: the restart and the save still being written.
	LossMin float64 `json:"loss_per_interruption_min"`
	// GPUsDown is how many GPUs are out at a time on average, restarted
	// without until their failed part is repaired: the sum over the
	// failures that restart the job of failures per hour x repair hours x
	// the GPUs of the repair units lost (the replicas they break idle
	// besides, as the step time without them counts).
	GPUsDown float64 `json:"gpus_down"`
	// DegradedSlowdown is the time-averaged step-time factor of running
	// with parts down until they are repaired. Failures the job survives
	// add failures per hour x repair hours x (slowdown - 1) each. GPUs
	// down train as the step time with GPUsDown GPUs left out,
	// interpolated between whole repair units (servers or racks); when
	// too few are left for a replica, the job waits (1 / (1 - the share
	// of time it cannot train)).
	DegradedSlowdown float64 `json:"degraded_slowdown"`
	// ServingGPUsOut is, for a serving cluster, the GPUs out of service
	// on average (failures per hour x repair hours x the instances' GPUs
	// each takes out) and ServingLeft the share of the serving GPUs left.
	ServingGPUsOut float64 `json:"serving_gpus_out,omitempty"`
	ServingLeft    float64 `json:"serving_left,omitempty"`
	// JCTDays is the job's expected completion time counting failures:
	// the planned JCT times DegradedSlowdown over ETTR (0 without a
	// JCT estimate, +Inf when the job cannot make progress).
	JCTDays float64 `json:"jct_days_with_failures"`
}

// Resilience is a plan's failure what-if and goodput (Analyse).
type Resilience struct {
	Inputs       Reliability   `json:"inputs"`
	PortFailover bool          `json:"port_failover"`
	Cases        []FailureCase `json:"cases"`
	Goodput      Goodput       `json:"goodput"`
	// Serving says the cluster serves (inference): failures take
	// instances out, nothing restarts from a checkpoint, and the goodput
	// is the serving capacity left, not a training time ratio.
	Serving bool `json:"serving,omitempty"`
}

// Input is what the failure what-if reads of a plan: its parts and how
// they connect, the failure rates and recovery times, the spares on the
// shelf and the training job to time. The planner's facade fills it from
// a Plan (planner/resilienceplan.go).
type Input struct {
	// Reliability is the failure rates, recovery times and spare
	// percentages, the scenario's overrides applied.
	Reliability Reliability
	// PortFailover says whether a GPU whose NIC port, link or leaf fails
	// keeps training on its other ports (NCCL port failover).
	PortFailover bool
	// Ethernet and StaticRouting say how the fabric survives a lost
	// switch or link above the leaves: InfiniBand reroutes, Ethernet with
	// adaptive routing moves its flows, Ethernet with static (ECMP)
	// routing fails the job.
	Ethernet, StaticRouting bool
	GPUs, GPUsPerServer     int
	Servers                 int
	// Systems is the plan's rack-scale systems and NVLinkDomain the
	// GPUs of one (0 without a system): a domain larger than a server
	// is the repair unit.
	Systems, NVLinkDomain int
	NICs, NICsPerServer   int
	ServerPorts           int // back-end ports per server, over every plane
	Planes, Pods          int
	// RailOptimized and RailsPerPlane say what a leaf holds: one port
	// of each server of its unit (rail-optimized), or all of a server's
	// RailsPerPlane ports in its plane.
	RailOptimized bool
	RailsPerPlane int
	// Tiers is the switch tiers the plan has: 1 (leaves), 2 (leaves and
	// spines) or 3 (and cores); Leaf, Spine and Core are those tiers
	// (beyond Tiers, unused).
	Tiers             int
	Leaf, Spine, Core SwitchTier
	// ServerLeaf, LeafSpine and SpineCore are the link tiers.
	ServerLeaf, LeafSpine, SpineCore LinkTier
	// Job is the training job whose step the what-if times again with a
	// part lost, when HasJob (the plan has a JCT estimate). Values, not
	// pointers, throughout: an input built and analysed stays on the
	// stack.
	Job    Job
	HasJob bool
	// Serving is the pools of a serving cluster (zero for training).
	Serving Serving
}

// SwitchTier is one tier of switches as the what-if sees it.
type SwitchTier struct {
	Switches int
	// DownPorts and UpPorts are one switch's ports toward the servers
	// and toward the tier above.
	DownPorts, UpPorts int
	// PerYear is a switch's failures a year: its model's, or the
	// reliability data's.
	PerYear float64
	// Spares is the spare switches of the tier's model on the shelf and
	// Parts the switches of that model in every tier, which share them.
	Spares, Parts int
}

// LinkTier is one tier of links as the what-if sees it.
type LinkTier struct {
	Links int
	// Spares is the spare optics of the tier on the shelf (0 when its
	// links are not optical: spare optics do not mend a copper cable).
	Spares int
}

// Job is a plan's training job as its JCT estimate resolved it.
type Job struct {
	// Network is the plan's back-end fabric as the JCT model sees it.
	Network  perf.Network
	Workload perf.Workload // the estimate's resolved workload
	GPU      *perf.GPUSpec
	// Data is the JCT constants (nil: no step is timed).
	Data *perf.JCTData
	// DP and Microbatches are the estimate's data-parallel replicas and
	// the micro-batches each runs per step.
	DP, Microbatches int
	// StepS is the planned step time and Days the planned JCT.
	StepS, Days float64
}

// Sources of each behaviour (../shared/research/reliability.md section 4).
const (
	srcPlainNCCL = "plain NCCL fails the job on a lost NIC or link (NVIDIA/nccl#998)"
	srcFailover  = "NCCL port failover keeps the job on its other ports (NCCL 2.29.7, NVIDIA/nccl#2090); multi-plane designs rely on it (Spectrum-X multiplane)"
	srcIBReroute = "InfiniBand reroutes around a lost switch or link in the fabric (SHIELD; subnet manager 10-20 s) within NCCL's retry window (4.3 s x 7)"
	srcAdaptive  = "Spectrum-X adaptive routing moves flows off a lost path"
	srcECMP      = "no sourced ECMP reconvergence within NCCL's retry window; Llama 3 counts 35 switch/cable interruptions on RoCE (arXiv 2407.21783, Table 5)"
	srcHost      = "a lost server or tray fails the job, which restarts without it (Llama 3 Table 5)"
	srcRack      = "on NVL72 one tray fault can take the 72-GPU rack out: the rack is the repair unit (SemiAnalysis 2024; Kokolis et al. 2025)"
	srcPlaneStop = "without port failover every GPU loses a port it cannot do without"
)

// maxCases is every kind of failure the what-if takes: GPU, host, rack,
// NIC, server link, three switch and two link tiers, plane.
const maxCases = 11

// analysis is one run of the what-if: its input, the stepper that times
// the job with a part lost, and the repair unit.
type analysis struct {
	// in and st are held by value: a pointer to the caller's input here
	// would send the input to the heap with what the steps timed leak
	// (over 2 kB a plan).
	in    Input
	st    stepper
	unit  int           // the GPUs of a repair unit: a server, or a rack-scale system's rack
	cases []FailureCase // the cases so far
}

// Analyse runs the failure what-if of in: one case per kind of part the
// plan has, each with what it cuts off, what the job does and how fast
// it then trains, and the goodput they add up to.
func Analyse(in Input) *Resilience {
	a := analysis{in: in, unit: in.GPUsPerServer, cases: make([]FailureCase, 0, maxCases)}
	a.st = newStepper(&a.in)
	if in.NVLinkDomain > in.GPUsPerServer {
		a.unit = in.NVLinkDomain
	}
	a.serverCases()
	a.fabricCases()
	cases := a.cases
	a.repairTimes(cases)
	if in.Serving.Serves() {
		a.serve(cases)
	}
	for i := range cases {
		if a.st.ok && cases[i].StepS > 0 {
			cases[i].Slowdown = cases[i].StepS / a.st.base
		}
	}
	return &Resilience{Inputs: in.Reliability, PortFailover: in.PortFailover, Cases: cases,
		Goodput: goodput(cases, &a.in, &a.st, a.unit), Serving: in.Serving.Serves()}
}

// add adds c to the cases when the plan has such parts.
func (a *analysis) add(c FailureCase) {
	if c.Count > 0 {
		a.cases = append(a.cases, c)
	}
}

// idleFor is the GPUs a restart leaves out when servers servers are
// lost: their repair units.
func (a *analysis) idleFor(servers int) int {
	return min(a.in.GPUs, ceilDiv(servers*a.in.GPUsPerServer, a.unit)*a.unit)
}

// perDay is how often count parts failing perYear times a year each fail
// a day.
func perDay(count int, perYear float64) float64 { return float64(count) * perYear / 365 }

// serverCases adds the losses at the servers: a GPU, a server (or
// tray), a rack-scale system's rack, a NIC, a server link.
func (a *analysis) serverCases() {
	in, rates := &a.in, a.in.Reliability.Rates
	gps := in.GPUsPerServer
	a.add(a.restarted(FailureCase{Component: FailGPU, Name: "GPU", Count: in.GPUs, GPUsAffected: 1, BandwidthLeft: 0, UplinkLeft: 1,
		PerDay: perDay(in.GPUs, rates.GPU), Source: srcHost}, a.idleFor(1)))
	hostName, hostSource := "server", srcHost
	if a.unit > gps {
		hostName, hostSource = "compute tray", srcRack
	}
	a.add(a.restarted(FailureCase{Component: FailHost, Name: hostName, Count: in.Servers, GPUsAffected: gps, UplinkLeft: 1,
		PerDay: perDay(in.Servers, rates.Host), Source: hostSource}, a.idleFor(1)))
	if a.unit > gps {
		a.add(a.restarted(FailureCase{Component: FailRack, Name: "rack (NVLink domain)", Count: in.Systems, GPUsAffected: a.unit, UplinkLeft: 1,
			Source: srcRack}, a.unit))
	}
	nicsPerServer := max(1, in.NICsPerServer)
	// A whole NIC fails with all its ports: NCCL fails over ports, not
	// NICs, so the job restarts.
	a.add(a.portLoss(FailureCase{Component: FailNIC, Name: "NIC", Count: in.NICs, PerDay: perDay(in.NICs, rates.NIC)}, 1, in.ServerPorts/nicsPerServer, false))
	a.add(a.portLoss(FailureCase{Component: FailServerLink, Name: "server link or optic", Count: in.ServerLeaf.Links,
		PerDay: perDay(in.ServerLeaf.Links, rates.Link)}, 1, 1, true))
}

// fabricCases adds the losses in the fabric: a switch of each tier, a
// link of each tier above the leaves, a whole plane.
func (a *analysis) fabricCases() {
	in, rates := &a.in, a.in.Reliability.Rates
	leaf, spine, core := a.tier(1), a.tier(2), a.tier(3)
	if leaf != nil {
		// A rail-optimized leaf holds one port of each server of its unit;
		// otherwise it holds all of a server's ports in its plane.
		hit, each := leaf.DownPorts, 1
		if !in.RailOptimized && in.RailsPerPlane > 1 {
			each = in.RailsPerPlane
			hit = ceilDiv(leaf.DownPorts, each)
		}
		hit = min(hit, in.Servers)
		a.add(a.portLoss(FailureCase{Component: FailLeaf, Name: "leaf switch", Count: leaf.Switches,
			PerDay: perDay(leaf.Switches, leaf.PerYear)}, hit, each, true))
	}
	if spine != nil && leaf != nil {
		perGroup := max(1, spine.Switches/(in.Planes*max(1, in.Pods)))
		reach := max(1, min(perGroup, leaf.UpPorts))
		a.add(a.fabricLoss(FailureCase{Component: FailSpine, Name: "spine switch", Count: spine.Switches,
			PerDay: perDay(spine.Switches, spine.PerYear)}, 1/float64(reach)))
		a.add(a.fabricLoss(FailureCase{Component: FailLeafSpine, Name: "leaf-spine link", Count: in.LeafSpine.Links,
			PerDay: perDay(in.LeafSpine.Links, rates.Link)}, 1/float64(max(1, leaf.UpPorts))))
	}
	if core != nil && spine != nil {
		reach := max(1, min(core.Switches/in.Planes, spine.UpPorts))
		a.add(a.fabricLoss(FailureCase{Component: FailCore, Name: "core switch", Count: core.Switches,
			PerDay: perDay(core.Switches, core.PerYear)}, 1/float64(reach)))
		a.add(a.fabricLoss(FailureCase{Component: FailSpineCore, Name: "spine-core link", Count: in.SpineCore.Links,
			PerDay: perDay(in.SpineCore.Links, rates.Link)}, 1/float64(max(1, spine.UpPorts))))
	}
	if in.Planes > 1 {
		c := FailureCase{Component: FailPlane, Name: "whole plane", Count: in.Planes, GPUsAffected: in.GPUs,
			BandwidthLeft: float64(in.Planes-1) / float64(in.Planes), UplinkLeft: 1}
		if in.PortFailover {
			c.Behaviour, c.Source = Continues, srcFailover
			c.StepS = a.st.step(1/float64(in.Planes), 0, 0)
		} else {
			c.Behaviour, c.Fatal, c.Source, c.StepS = Stops, true, srcPlaneStop, math.Inf(1)
		}
		a.add(c)
	}
}

// tier is the input's switch tier n (1 leaf, 2 spine, 3 core), or nil
// when the plan has not so many tiers.
func (a *analysis) tier(n int) *SwitchTier {
	if n > a.in.Tiers {
		return nil
	}
	return [...]*SwitchTier{&a.in.Leaf, &a.in.Spine, &a.in.Core}[n-1]
}

// portLoss is c, the loss of portsPerServer ports on each of serversHit
// servers: with port failover (and survivable: ports, not a whole NIC)
// the job continues on the others, else it restarts without those
// servers.
func (a *analysis) portLoss(c FailureCase, serversHit, portsPerServer int, survivable bool) FailureCase {
	in, sp := &a.in, a.in.ServerPorts
	c.GPUsAffected = min(in.GPUs, int(math.Ceil(float64(serversHit*portsPerServer*in.GPUsPerServer)/float64(sp))))
	c.BandwidthLeft, c.UplinkLeft = float64(sp-portsPerServer)/float64(sp), 1
	if survivable && in.PortFailover && portsPerServer < sp {
		c.Behaviour, c.Source = Continues, srcFailover
		c.StepS = a.st.step(1-c.BandwidthLeft, 0, 0)
	} else {
		c.Source = srcPlainNCCL
		c = a.restarted(c, a.idleFor(serversHit))
	}
	return c
}

// restarted is c, a failure the job restarts after without unitGPUs
// GPUs (whole repair units): the GPUs it then leaves idle and its step.
func (a *analysis) restarted(c FailureCase, unitGPUs int) FailureCase {
	c.Behaviour, c.Fatal, c.unitGPUs = Restarts, true, unitGPUs
	c.GPUsIdle = a.jobIdle(unitGPUs)
	c.StepS = a.st.step(0, 0, unitGPUs)
	return c
}

// jobIdle is the GPUs a restart without unitGPUs GPUs (whole repair
// units) leaves out of the job: the replicas those units break, whole
// (one lost server of a tp 8 x pp 4 replica over four servers leaves 32
// GPUs idle, 24 of them healthy), never fewer than the units' own GPUs
// (GPUs the estimate left over may take their place), and all of the
// job's when no replica fits. Without a timed job it is the units' GPUs.
func (a *analysis) jobIdle(unitGPUs int) int {
	st := &a.st
	if !st.ok {
		return unitGPUs
	}
	lost := (st.job.DP - st.replicas(unitGPUs)) * st.w.ModelParallel()
	return min(a.in.GPUs, max(unitGPUs, lost))
}

// fabricLoss is c, a loss above the leaves: no GPU is cut off; the
// uplink capacity above the worst-hit switch falls by lost (one plane of
// P).
func (a *analysis) fabricLoss(c FailureCase, lost float64) FailureCase {
	in := &a.in
	c.GPUsAffected = in.GPUs / in.Planes
	c.BandwidthLeft, c.UplinkLeft = 1, 1-lost
	fabricFatal := in.Ethernet && in.StaticRouting
	c.Behaviour, c.Source = Continues, srcIBReroute
	if in.Ethernet {
		c.Source = srcAdaptive
	}
	if fabricFatal {
		c.Behaviour, c.Fatal, c.Source = Restarts, true, srcECMP
	}
	c.StepS = a.st.step(0, lost/float64(in.Planes), 0)
	return c
}

// repairTimes sets how long each failed part stays down: switches draw on
// the spare switches of their model, links on the spare optics of their
// tier; other parts have no spares here.
func (a *analysis) repairTimes(cases []FailureCase) {
	rec := a.in.Reliability.Recovery
	for i := range cases {
		c := &cases[i]
		spares, parts, perYear := a.spares(c)
		c.SpareCover = SpareCover(spares, parts, perYear, rec.RepairHours)
		c.RepairHours = c.SpareCover*min(rec.SwapHours, rec.RepairHours) + (1-c.SpareCover)*rec.RepairHours
	}
}

// spares is what a failed part of case c draws on: the spares on the
// shelf, the parts that share them and their failures a year (none for
// parts without spares).
func (a *analysis) spares(c *FailureCase) (spares, parts int, perYear float64) {
	in := &a.in
	var sw *SwitchTier
	var link *LinkTier
	switch c.Component {
	case FailLeaf:
		sw = &in.Leaf
	case FailSpine:
		sw = &in.Spine
	case FailCore:
		sw = &in.Core
	case FailServerLink:
		link = &in.ServerLeaf
	case FailLeafSpine:
		link = &in.LeafSpine
	case FailSpineCore:
		link = &in.SpineCore
	}
	switch {
	case sw != nil:
		return sw.Spares, sw.Parts, sw.PerYear
	case link != nil:
		return link.Spares, c.Count, in.Reliability.Rates.Link
	}
	return 0, 0, 0
}

// SpareCover is the chance a spare is on the shelf when one of parts
// parts, each failing perYear times a year, fails, with spares bought
// and each failed part replaced after restockHours. By Palm's theorem the
// parts awaiting replacement are Poisson distributed with mean parts x
// perYear x restockHours / 8,760; a spare is on hand when fewer than
// spares are awaited.
func SpareCover(spares, parts int, perYear, restockHours float64) float64 {
	if spares <= 0 {
		return 0
	}
	m := float64(parts) * perYear * restockHours / (365 * 24)
	term := math.Exp(-m) // P(0 awaited)
	sum := term
	for k := 1; k < spares && term > 1e-18*sum; k++ {
		term *= m / float64(k)
		sum += term
	}
	return math.Min(1, sum)
}

// ceilDiv is a / b rounded up, for positive b.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
