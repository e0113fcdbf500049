package planner

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/textfmt"
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
	// is down; GPUsIdle are left out when the job restarts without them
	// (whole servers, or racks of a rack-scale system).
	GPUsAffected int `json:"gpus_affected"`
	GPUsIdle     int `json:"gpus_idle"`
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
// rate lambda, restart time u0, checkpoint interval dt and checkpoint
// write time w.
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
	// GPUsDown is how many GPUs are out at a time on average, restarted
	// without until their failed part is repaired: the sum over the
	// failures that idle GPUs of failures per hour x repair hours x GPUs
	// idled.
	GPUsDown float64 `json:"gpus_down"`
	// DegradedSlowdown is the time-averaged step-time factor of running
	// with parts down until they are repaired. Failures the job survives
	// add failures per hour x repair hours x (slowdown - 1) each. GPUs
	// down train as the step time with GPUsDown GPUs left out,
	// interpolated between whole repair units (servers or racks); when
	// too few are left for a replica, the job waits (1 / (1 - the share
	// of time it cannot train)).
	DegradedSlowdown float64 `json:"degraded_slowdown"`
	// JCTDays is the job's expected completion time counting failures:
	// the planned JCT times DegradedSlowdown over ETTR (0 without a
	// JCT estimate, +Inf when the job cannot make progress).
	JCTDays float64 `json:"jct_days_with_failures"`
}

// Resilience is a plan's failure what-if and goodput.
type Resilience struct {
	Inputs       Reliability   `json:"inputs"`
	PortFailover bool          `json:"port_failover"`
	Cases        []FailureCase `json:"cases"`
	Goodput      Goodput       `json:"goodput"`
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

// analyseResilience fills p.Resilience from rel with the scenario's
// overrides; the step times need p.JCT and the JCT constants d. With
// job, the job memo's key of p's job timed with d, the steps timed for
// it are taken from the memo of recent shown plans' jobs (jobmemo.go),
// and those timed afresh kept there.
func (p *Plan) analyseResilience(rel *Reliability, d *JCTData, job *jobKey) {
	if rel == nil {
		return
	}
	s := p.Scenario
	in := s.Reliability.apply(*rel)
	failover := p.Planes > 1
	if s.Reliability != nil && s.Reliability.PortFailover != nil {
		failover = *s.Reliability.PortFailover
	}
	r := &Resilience{Inputs: in, PortFailover: failover}
	st := newStepper(p, d)
	st.recall(job)
	defer st.keep(job)
	fabricFatal := s.Network.Fabric == Ethernet && s.Network.routing() == RouteStatic
	fabricSource := srcIBReroute
	if s.Network.Fabric == Ethernet {
		fabricSource = srcAdaptive
		if fabricFatal {
			fabricSource = srcECMP
		}
	}
	gps, sp := s.Cluster.GPUsPerServer, p.ServerPorts
	unit := gps // the repair unit: a server, or a rack-scale system's rack
	if dom := p.System.domain(); dom > gps {
		unit = dom
	}
	idleFor := func(servers int) int {
		return min(p.GPUs, ceilDiv(servers*gps, unit)*unit)
	}
	rates := in.Rates
	perDay := func(count int, perYear float64) float64 { return float64(count) * perYear / 365 }

	// A loss of n ports on each of the servers hit: with port failover
	// (and survivable: ports, not a whole NIC) the job continues on the
	// others, else it restarts without those servers.
	portLoss := func(c FailureCase, serversHit, portsPerServer int, survivable bool) FailureCase {
		c.GPUsAffected = min(p.GPUs, int(math.Ceil(float64(serversHit*portsPerServer*gps)/float64(sp))))
		c.BandwidthLeft, c.UplinkLeft = float64(sp-portsPerServer)/float64(sp), 1
		if survivable && failover && portsPerServer < sp {
			c.Behaviour, c.Source = Continues, srcFailover
			c.StepS = st.step(1-c.BandwidthLeft, 0, 0)
		} else {
			c.Behaviour, c.Fatal, c.Source = Restarts, true, srcPlainNCCL
			c.GPUsIdle = idleFor(serversHit)
			c.StepS = st.step(0, 0, c.GPUsIdle)
		}
		return c
	}
	// A loss above the leaves: no GPU is cut off; the uplink capacity
	// above the worst-hit switch falls by lost (one plane of P).
	fabricLoss := func(c FailureCase, lost float64) FailureCase {
		c.GPUsAffected = p.GPUs / p.Planes
		c.BandwidthLeft, c.UplinkLeft = 1, 1-lost
		c.Behaviour, c.Source = Continues, fabricSource
		if fabricFatal {
			c.Behaviour, c.Fatal = Restarts, true
		}
		c.StepS = st.step(0, lost/float64(p.Planes), 0)
		return c
	}

	cases := make([]FailureCase, 0, 11) // every kind below: GPU, host, rack, NIC, server link, three switch and two link tiers, plane
	add := func(c FailureCase) {
		if c.Count > 0 {
			cases = append(cases, c)
		}
	}
	add(FailureCase{Component: FailGPU, Name: "GPU", Count: p.GPUs, GPUsAffected: 1, GPUsIdle: idleFor(1), BandwidthLeft: 0, UplinkLeft: 1,
		Behaviour: Restarts, Fatal: true, StepS: st.step(0, 0, idleFor(1)), PerDay: perDay(p.GPUs, rates.GPU), Source: srcHost})
	hostName, hostSource := "server", srcHost
	if unit > gps {
		hostName, hostSource = "compute tray", srcRack
	}
	add(FailureCase{Component: FailHost, Name: hostName, Count: p.Servers, GPUsAffected: gps, GPUsIdle: idleFor(1), UplinkLeft: 1,
		Behaviour: Restarts, Fatal: true, StepS: st.step(0, 0, idleFor(1)), PerDay: perDay(p.Servers, rates.Host), Source: hostSource})
	if unit > gps {
		add(FailureCase{Component: FailRack, Name: "rack (NVLink domain)", Count: p.Systems, GPUsAffected: unit, GPUsIdle: unit, UplinkLeft: 1,
			Behaviour: Restarts, Fatal: true, StepS: st.step(0, 0, unit), Source: srcRack})
	}
	nicsPerServer := max(1, s.Network.NICsPerServer)
	// A whole NIC fails with all its ports: NCCL fails over ports, not
	// NICs, so the job restarts.
	add(portLoss(FailureCase{Component: FailNIC, Name: "NIC", Count: p.NICs, PerDay: perDay(p.NICs, rates.NIC)}, 1, sp/nicsPerServer, false))
	add(portLoss(FailureCase{Component: FailServerLink, Name: "server link or optic", Count: p.Links.ServerLeaf,
		PerDay: perDay(p.Links.ServerLeaf, rates.Link)}, 1, 1, true))

	leaf, spine, core := p.tier(TierLeaf), p.tier(TierSpine), p.tier(TierCore)
	if leaf != nil {
		// A rail-optimized leaf holds one port of each server of its unit;
		// otherwise it holds all of a server's ports in its plane.
		hit, each := leaf.DownPorts, 1
		if !s.Network.RailOptimized && p.RailsPerPlane > 1 {
			each = p.RailsPerPlane
			hit = ceilDiv(leaf.DownPorts, each)
		}
		hit = min(hit, p.Servers)
		add(portLoss(FailureCase{Component: FailLeaf, Name: "leaf switch", Count: leaf.Switches,
			PerDay: perDay(leaf.Switches, p.switchRate(TierLeaf, rates.Switch))}, hit, each, true))
	}
	if spine != nil && leaf != nil {
		perGroup := max(1, spine.Switches/(p.Planes*max(1, p.Pods)))
		reach := max(1, min(perGroup, leaf.UpPorts))
		add(fabricLoss(FailureCase{Component: FailSpine, Name: "spine switch", Count: spine.Switches,
			PerDay: perDay(spine.Switches, p.switchRate(TierSpine, rates.Switch))}, 1/float64(reach)))
		add(fabricLoss(FailureCase{Component: FailLeafSpine, Name: "leaf-spine link", Count: p.Links.LeafSpine,
			PerDay: perDay(p.Links.LeafSpine, rates.Link)}, 1/float64(max(1, leaf.UpPorts))))
	}
	if core != nil && spine != nil {
		reach := max(1, min(core.Switches/p.Planes, spine.UpPorts))
		add(fabricLoss(FailureCase{Component: FailCore, Name: "core switch", Count: core.Switches,
			PerDay: perDay(core.Switches, p.switchRate(TierCore, rates.Switch))}, 1/float64(reach)))
		add(fabricLoss(FailureCase{Component: FailSpineCore, Name: "spine-core link", Count: p.Links.SpineCore,
			PerDay: perDay(p.Links.SpineCore, rates.Link)}, 1/float64(max(1, spine.UpPorts))))
	}
	if p.Planes > 1 {
		c := FailureCase{Component: FailPlane, Name: "whole plane", Count: p.Planes, GPUsAffected: p.GPUs,
			BandwidthLeft: float64(p.Planes-1) / float64(p.Planes), UplinkLeft: 1}
		if failover {
			c.Behaviour, c.Source = Continues, srcFailover
			c.StepS = st.step(1/float64(p.Planes), 0, 0)
		} else {
			c.Behaviour, c.Fatal, c.Source, c.StepS = Stops, true, srcPlaneStop, math.Inf(1)
		}
		add(c)
	}
	p.repairTimes(cases, in)
	for i := range cases {
		if st.ok && cases[i].StepS > 0 {
			cases[i].Slowdown = cases[i].StepS / st.base
		}
	}
	r.Cases = cases
	r.Goodput = goodput(cases, in, &st, unit)
	p.Resilience = r
}

// repairTimes sets how long each failed part stays down: switches draw on
// the spare switches of their model (switchSpares), links on the spare optics of their tier when the
// tier is optical; other parts have no spares here.
func (p *Plan) repairTimes(cases []FailureCase, in Reliability) {
	rec, rates := in.Recovery, in.Rates
	var buf [4]int
	spareLines := p.spareSwitchLines(buf[:0])
	for i := range cases {
		c := &cases[i]
		spares, parts, perYear := 0, 0, 0.0
		switch c.Component {
		case FailLeaf, FailSpine, FailCore:
			spares, parts, perYear = p.switchSpares(c.Component, rates.Switch, spareLines)
		case FailServerLink, FailLeafSpine, FailSpineCore:
			tier := linkTierOf(c.Component)
			spares, parts, perYear = *p.Spares.Optics.of(tier), c.Count, rates.Link
			if t := p.linkTier(tier); t == nil || !t.optical() {
				spares = 0
			}
		}
		c.SpareCover = SpareCover(spares, parts, perYear, rec.RepairHours)
		c.RepairHours = c.SpareCover*min(rec.SwapHours, rec.RepairHours) + (1-c.SpareCover)*rec.RepairHours
	}
}

// linkTierOf names the link tier of link failure component (a switch,
// not a map: every what-if asks three times).
func linkTierOf(component string) string {
	switch component {
	case FailServerLink:
		return "server_leaf"
	case FailLeafSpine:
		return "leaf_spine"
	case FailSpineCore:
		return "spine_core"
	}
	return ""
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

// tier returns the plan's switch tier called name, or nil.
func (p *Plan) tier(name string) *SwitchTier {
	for i := range p.SwitchTiers {
		if p.SwitchTiers[i].Name == name {
			return &p.SwitchTiers[i]
		}
	}
	return nil
}

// linkTier returns the plan's link tier called name, or nil.
func (p *Plan) linkTier(name string) *LinkTier {
	for i := range p.LinkTiers {
		if p.LinkTiers[i].Name == name {
			return &p.LinkTiers[i]
		}
	}
	return nil
}

// stepper times the plan's workload on a degraded fabric.
type stepper struct {
	ok   bool // the plan has a JCT estimate
	base float64
	p    *Plan
	d    *JCTData
	// w is the job's resolved workload; its compute efficiency is
	// worked out once, with the view, when a step is first timed (a
	// what-if whose steps all come from the job memo times none).
	w Workload
	// memo holds the steps timed so far: several failures lose the same
	// share of the same plan, and idle GPUs that leave the same replicas
	// (a server's or a few: 100,000 GPUs at tp 8 x pp 4 keep 3,124 of
	// their 3,125 replicas with 8 to 32 GPUs idle) time the same step.
	// The first n are in use: those the job memo kept (up to
	// jobMemoSteps) and room for those a what-if times beside them (five
	// at 100,000 GPUs); a step timed when it is full is not remembered.
	// An array, not a slice into one, so that the stepper stays on the
	// stack.
	memo [jobMemoSteps + 8]stepMemo
	n    int
	// view is the job placed on the plan's fabric (placed: yet, and w
	// has its compute efficiency), once for every step: a failure
	// changes only its losses.
	view   perf.View
	placed bool
	// recalled is the steps at the head of memo that came from the job
	// memo.
	recalled int
}

// stepMemo is one step stepper.step timed: its losses, the GPUs left
// idle, and the data-parallel replicas and micro-batches each runs
// then. A step is found by its losses and idle GPUs before the replicas
// are worked out: within one job (the job memo's key pins the GPU
// count, workload, replicas and micro-batches) the idle GPUs decide the
// replicas.
type stepMemo struct {
	bwLost, upLost float64
	idle           int
	dp, micro      int
	stepS          float64
}

func newStepper(p *Plan, d *JCTData) stepper {
	st := stepper{p: p, d: d}
	if j := p.JCT; j != nil && d != nil {
		st.ok, st.base, st.w = true, j.Planned.StepS, j.Workload
	}
	return st
}

// steps is the steps remembered so far.
func (st *stepper) steps() []stepMemo { return st.memo[:st.n] }

// recall starts the memo with the steps kept for job (nil: none).
func (st *stepper) recall(job *jobKey) {
	if job != nil && st.ok {
		st.n = recallSteps(job, st.memo[:])
		st.recalled = st.n
	}
}

// keep keeps under job (nil: nowhere) the steps timed, when any were
// timed beyond those recalled.
func (st *stepper) keep(job *jobKey) {
	if job != nil && st.ok && st.n > st.recalled {
		keepSteps(job, st.steps())
	}
}

// step is the step time with a fraction bwLost of the worst server's
// back-end bandwidth lost, a fraction upLost of the capacity above its
// leaf group lost, and idle GPUs left out (fewer data-parallel replicas,
// each doing more micro-batches of the same global batch). It is 0
// without a JCT estimate and +Inf when no replica fits.
func (st *stepper) step(bwLost, upLost float64, idle int) float64 {
	if !st.ok {
		return 0
	}
	for i := range st.n {
		if m := &st.memo[i]; m.bwLost == bwLost && m.upLost == upLost && m.idle == idle {
			return m.stepS
		}
	}
	dp, micro := st.replicas(idle)
	if dp < 1 {
		return math.Inf(1)
	}
	for i := range st.n {
		if m := &st.memo[i]; m.bwLost == bwLost && m.upLost == upLost && m.dp == dp && m.micro == micro {
			return m.stepS // other idle GPUs, the same replicas
		}
	}
	s := st.timeAt(bwLost, upLost, dp, micro)
	if st.n < len(st.memo) {
		st.memo[st.n] = stepMemo{bwLost, upLost, idle, dp, micro, s}
		st.n++
	}
	return s
}

// time is step without the memo.
func (st *stepper) time(bwLost, upLost float64, idle int) float64 {
	dp, micro := st.replicas(idle)
	if dp < 1 {
		return math.Inf(1)
	}
	return st.timeAt(bwLost, upLost, dp, micro)
}

// replicas is the job's data-parallel replicas and the micro-batches
// each runs with idle GPUs left out (dp 0 when no replica fits): the
// estimate's own without idle GPUs.
func (st *stepper) replicas(idle int) (dp, micro int) {
	j := st.p.JCT
	if idle <= 0 {
		return j.DP, j.Microbatches
	}
	if dp = (st.p.GPUs - idle) / st.w.ModelParallel(); dp < 1 {
		return 0, 0
	}
	return dp, perf.Microbatches(st.w, dp)
}

// timeAt times a step of dp replicas running micro micro-batches each,
// with the losses.
func (st *stepper) timeAt(bwLost, upLost float64, dp, micro int) float64 {
	if !st.placed {
		st.w = perf.WithComputeEfficiency(st.w, st.p.JCT.GPU, st.d)
		st.view, st.placed = st.p.jobView(st.w, st.d), true
	}
	return perf.StepSeconds(st.w, st.p.JCT.GPU, st.d, st.view.WithLoss(bwLost, upLost), dp, micro, RDMA)
}

// goodput sums the interruptions of the fatal cases and the slowdown of
// the survivable ones, and finds the checkpoint interval.
func goodput(cases []FailureCase, in Reliability, st *stepper, unit int) Goodput {
	g := Goodput{DegradedSlowdown: 1}
	if n := fatalCases(cases); n > 0 { // nil without any, as JSON's null
		g.ByComponent = make([]Interruptions, 0, n)
	}
	for _, c := range cases {
		if c.PerDay == 0 {
			continue
		}
		down := c.PerDay / 24 * c.RepairHours // parts of this kind down at a time, on average
		switch {
		case c.Fatal:
			g.InterruptionsPerDay += c.PerDay
			g.ByComponent = append(g.ByComponent, Interruptions{Component: c.Component, Count: c.Count, PerDay: c.PerDay})
			g.GPUsDown += down * float64(c.GPUsIdle)
		case math.IsInf(c.StepS, 1):
			g.DegradedSlowdown += down
		case c.Slowdown > 1:
			g.DegradedSlowdown += down * (c.Slowdown - 1)
		}
	}
	g.DegradedSlowdown *= st.shrink(g.GPUsDown, unit)
	lambda := g.InterruptionsPerDay / 24 // per hour
	u0 := in.Recovery.RestartMin / 60
	w := in.Recovery.CheckpointWriteS / 3600
	g.MTBIHours = math.Inf(1)
	if lambda > 0 {
		g.MTBIHours = 1 / lambda
		g.OptimalMin = OptimalCheckpointHours(lambda, u0, w) * 60
		g.YoungMin = math.Sqrt(2*w/lambda) * 60
	}
	g.IntervalMin = in.Recovery.CheckpointInterval
	if g.IntervalMin == 0 {
		g.IntervalMin = g.OptimalMin
	}
	g.ETTR = ETTR(lambda, u0, w, g.IntervalMin/60)
	g.ETTRAtOptimum = ETTR(lambda, u0, w, g.OptimalMin/60)
	if j := st.p.JCT; j != nil {
		g.JCTDays = math.Inf(1)
		if g.ETTR > 0 {
			g.JCTDays = j.Planned.Days * g.DegradedSlowdown / g.ETTR
		}
	}
	return g
}

// fatalCases counts the cases goodput lists by component: the fatal ones
// that happen.
func fatalCases(cases []FailureCase) int {
	n := 0
	for i := range cases {
		if cases[i].Fatal && cases[i].PerDay != 0 {
			n++
		}
	}
	return n
}

// shrink is the step-time factor of training without gpus GPUs (repair
// units of unit GPUs), interpolated between whole units; when too few
// are left for a replica the job waits that share of the time. It is 1
// without a JCT estimate.
func (st *stepper) shrink(gpus float64, unit int) float64 {
	if !st.ok || gpus == 0 {
		return 1
	}
	units := gpus / float64(unit)
	lo := math.Floor(units)
	f := units - lo
	factor := func(n float64) float64 { return st.step(0, 0, int(n)*unit) / st.base }
	sLo, sHi := 1.0, factor(lo+1)
	if lo > 0 {
		sLo = factor(lo)
	}
	switch {
	case math.IsInf(sLo, 1):
		return math.Inf(1)
	case math.IsInf(sHi, 1):
		return sLo / (1 - f) // the job waits a share f of the time
	}
	return (1-f)*sLo + f*sHi
}

// ETTR is the expected effective training time ratio of a job
// interrupted lambda times an hour, restarting in u0 hours, checkpointing
// every dt hours at a blocking cost of w hours (Kokolis et al., HPCA'25,
// arXiv 2410.21680): (1 - lambda (u0 + dt/2)) / (1 + w/dt), at least 0.
// Without interruptions (lambda 0) it is 1 less the checkpoint cost;
// dt 0 means no checkpoints, which only an uninterrupted job survives.
func ETTR(lambda, u0, w, dt float64) float64 {
	if dt <= 0 {
		if lambda > 0 {
			return 0
		}
		return 1
	}
	e := (1 - lambda*(u0+dt/2)) / (1 + w/dt)
	return math.Max(0, e)
}

// OptimalCheckpointHours is the interval that maximises ETTR: setting its
// derivative to zero gives lambda dt^2/2 + lambda w dt - (1 - lambda u0) w
// = 0, so dt = -w + sqrt(w^2 + 2 (1 - lambda u0) w / lambda). For small w
// and u0 this is Young's sqrt(2 w / lambda). It is 0 when lambda is 0 (no
// checkpoint needed) or restarts alone outrun the interruptions.
func OptimalCheckpointHours(lambda, u0, w float64) float64 {
	a := 1 - lambda*u0
	if lambda <= 0 || a <= 0 {
		return 0
	}
	return -w + math.Sqrt(w*w+2*a*w/lambda)
}

// String summarises the goodput in a line.
func (g Goodput) String() string {
	return fmt.Sprintf("%.2f interruptions/day (one every %s), ETTR %.1f%% with checkpoints every %.0f min",
		g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours), 100*g.ETTR, g.IntervalMin)
}

// JCTText is the JCT counting failures as the app prints it.
func (g Goodput) JCTText() string {
	if math.IsInf(g.JCTDays, 1) {
		return "never (the job cannot make progress)"
	}
	return textfmt.Duration(g.JCTDays)
}

// StepText is the step time while the part is down as the app prints it:
// "cannot train" when no model replica fits, "–" without a JCT estimate.
func (c FailureCase) StepText() string {
	switch {
	case math.IsInf(c.StepS, 1):
		return "cannot train"
	case c.StepS <= 0:
		return "–"
	}
	return textfmt.Seconds(c.StepS)
}

// SlowdownText is the slowdown as "1.033x", or "–" where there is none.
func (c FailureCase) SlowdownText() string {
	if c.StepS <= 0 || math.IsInf(c.StepS, 1) {
		return "–"
	}
	return fmt.Sprintf("%.3fx", c.Slowdown)
}

// finite is v, or nil (JSON null) when v is infinite or not a number.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// MarshalJSON writes an infinite step time (no replica fits) as null.
func (c FailureCase) MarshalJSON() ([]byte, error) {
	type plain FailureCase
	return json.Marshal(struct {
		plain
		StepS    *float64 `json:"step_s"`
		Slowdown *float64 `json:"slowdown"`
	}{plain(c), finite(c.StepS), finite(c.Slowdown)})
}

// MarshalJSON writes "never" (no interruptions) and "cannot finish" as
// null.
func (g Goodput) MarshalJSON() ([]byte, error) {
	type plain Goodput
	return json.Marshal(struct {
		plain
		MTBIHours *float64 `json:"mtbi_hours"`
		JCTDays   *float64 `json:"jct_days_with_failures"`
	}{plain(g), finite(g.MTBIHours), finite(g.JCTDays)})
}

// SparesText states the spares the plan buys and what they do to repair
// and restart times, in a sentence or three.
func (p *Plan) SparesText() string {
	r := p.Resilience
	if r == nil {
		return ""
	}
	rec := r.Inputs.Recovery
	if p.Spares.Switches == 0 && p.Spares.Optics.Total == 0 {
		return fmt.Sprintf("No spares: a failed switch or optic stays down %s until a replacement arrives (set spare_switches_pct and spare_optics_pct in [reliability]).",
			textfmt.Hours(rec.RepairHours))
	}
	msg := "Spares: " + p.sparesBought() + "."
	// Parts that come back alike are said together; switches of every
	// tier draw on one pool.
	type effect struct{ back, cover string }
	var order []effect
	names := map[effect][]string{}
	for _, c := range r.Cases {
		name := c.Name
		if c.Component == FailLeaf || c.Component == FailSpine || c.Component == FailCore {
			name = "switch"
		}
		e := effect{textfmt.Hours(c.RepairHours), formatPct(c.SpareCover)}
		if c.SpareCover == 0 || slices.Contains(names[e], name) {
			continue
		}
		if names[e] == nil {
			order = append(order, e)
		}
		names[e] = append(names[e], name)
	}
	for _, e := range order {
		msg += fmt.Sprintf(" A failed %s is back in %s on average, not %s (a spare on the shelf for %s of failures).",
			textfmt.JoinAnd(names[e]), e.back, textfmt.Hours(rec.RepairHours), e.cover)
	}
	return msg + fmt.Sprintf(" Restarts still take %.0f min: the job restarts without the GPUs a failure cuts off, and spares bring them back sooner.", rec.RestartMin)
}

// SparesLine is SparesText in a table cell: what the spares are, cost
// and do.
func (p *Plan) SparesLine() string {
	r := p.Resilience
	if r == nil {
		return ""
	}
	repair := textfmt.Hours(r.Inputs.Recovery.RepairHours)
	if p.Spares.Switches == 0 && p.Spares.Optics.Total == 0 {
		return "none: a failed switch or optic is down " + repair
	}
	lo, hi := math.Inf(1), 0.0
	for _, c := range r.Cases {
		if c.SpareCover > 0 {
			lo, hi = min(lo, c.RepairHours), max(hi, c.RepairHours)
		}
	}
	if hi == 0 {
		return p.sparesBought() + ": no failing part of this plan draws on them"
	}
	back := textfmt.Hours(lo)
	if textfmt.Hours(hi) != back {
		back += " to " + textfmt.Hours(hi)
	}
	return fmt.Sprintf("%s: failed parts back in %s, not %s", p.sparesBought(), back, repair)
}

// sparesBought is "6 switches and 130 optics, $0.156M" (in the plan's
// money scale).
func (p *Plan) sparesBought() string {
	var bought []string
	if n := p.Spares.Switches; n > 0 {
		bought = append(bought, textfmt.Plural(n, "switch"))
	}
	if n := p.Spares.Optics.Total; n > 0 {
		bought = append(bought, textfmt.Plural(n, "optic"))
	}
	return textfmt.JoinAnd(bought) + ", " + p.MoneyScale().Format(p.Spares.USD) // the plan's scale, as the amounts beside it
}

// formatPct prints a fraction as a percentage, with more digits near 100%.
func formatPct(f float64) string {
	switch {
	case f >= 0.9995:
		return "over 99.9%"
	case f >= 0.99:
		return fmt.Sprintf("%.1f%%", 100*f)
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}
