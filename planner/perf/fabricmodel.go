package perf

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"fabricplan/internal/memo"
)

// Collective algorithms the model picks among beyond ring, tree and PAT.
const (
	// AlgoNVLS is NVLink SHARP: the NVSwitch reduces inside the domain.
	AlgoNVLS = "nvls"
	// AlgoNVLSTree is NCCL's NVLS tree: NVLink SHARP inside each domain,
	// a tree between the domains.
	AlgoNVLSTree = "nvls_tree"
	// AlgoSHARP is SHARP on InfiniBand switches (NCCL CollNet).
	AlgoSHARP = "sharp"
)

// Algorithms lists the values of Workload.Algorithm ("" lets the model
// pick the fastest).
var Algorithms = []string{AlgoRing, AlgoTree, AlgoNVLS, AlgoNVLSTree, AlgoSHARP}

// Phases of jobs sharing links (Workload.Phase).
const (
	PhaseRandom  = "random"
	PhaseAligned = "aligned"
)

// InNetworkConstants are the in-network reduction's constants
// (data/jct.toml [in_network]).
type InNetworkConstants struct {
	// NVLSAlgBWPerEfficiency times a GPU's nvls_efficiency is NVLS's
	// all-reduce algorithm bandwidth as a share of the one-way NVLink
	// line rate.
	NVLSAlgBWPerEfficiency float64 `toml:"nvls_algbw_per_efficiency"`
	NVLSHopUS              float64 `toml:"nvls_hop_us"`
	// NVLSTreeNetHopUS is NCCL's NVLS tree latency per network hop.
	NVLSTreeNetHopUS float64 `toml:"nvls_tree_net_hop_us"`
	// NCCLNICLineShare is the share of a NIC's line rate NCCL's graph
	// search rates it at (the unit of nvls_tree_channel_gbs).
	NCCLNICLineShare float64 `toml:"nccl_nic_line_share"`
	// SHARPLineFraction is the share of NIC line rate a SHARP reduction
	// reaches.
	SHARPLineFraction float64  `toml:"sharp_line_fraction"`
	SHARPHopUS        float64  `toml:"sharp_hop_us"`
	SHARPSwitches     []string `toml:"sharp_switches"`
}

func (c InNetworkConstants) check(gpus map[string]*GPUSpec) error {
	if !inRange(c.NVLSAlgBWPerEfficiency, 0.01, 2) || !inRange(c.SHARPLineFraction, 0.01, 1) ||
		!inRange(c.NVLSHopUS, 0, 1e3) || !inRange(c.SHARPHopUS, 0, 1e3) || !inRange(c.NVLSTreeNetHopUS, 0, 1e3) ||
		!inRange(c.NCCLNICLineShare, 0.01, 1) {
		return fmt.Errorf("jct data: [in_network] needs nvls_algbw_per_efficiency in (0,2], sharp_line_fraction and nccl_nic_line_share in (0,1] and hop latencies of 0 to 1000 us")
	}
	for k, g := range gpus {
		if !inRange(g.NVLSEfficiency, 0, 1) {
			return fmt.Errorf("jct data: gpu %s: nvls_efficiency must be from 0 (none) to 1", k)
		}
		if g.NVLSEfficiency > 0 && !(inRange(g.NVLSTreeChannelGBs[0], 0.01, 1e4) && inRange(g.NVLSTreeChannelGBs[1], 0.01, 1e4)) {
			return fmt.Errorf("jct data: gpu %s has NVLink SHARP: nvls_tree_channel_gbs needs two ceilings (2 nodes, more) above 0", k)
		}
	}
	return nil
}

// hashStage is one kind of hashed link a crossing flow meets: links
// links in each of groups groups (a leaf's uplinks, the downlinks into
// a leaf), and flows flows per group, each landing on a given link of
// its group with probability p (1/links when every flow crosses).
type hashStage struct {
	flows, p, links, groups float64
}

// bins is the stage's links in all.
func (s hashStage) bins() float64 { return s.links * s.groups }

// binomialWalk steps through one stage's per-link load distribution,
// Binomial(flows, p), from x0 (below which the CDF is negligible).
type binomialWalk struct {
	n, p, bins float64
	x0         float64
	pmf, cdf   float64
	// lowCDF is the CDF under which this stage alone leaves P(max <= x)
	// below exp(certainTail).
	lowCDF float64
}

func newBinomialWalk(s hashStage) binomialWalk {
	n, p := math.Round(s.flows), min(s.p, 1)
	w := binomialWalk{n: n, p: p, bins: s.bins(), lowCDF: math.Exp(certainTail / s.bins())}
	if p >= 1 { // every flow on the one link
		w.x0, w.pmf = n, 1
		return w
	}
	mean, sd := n*p, math.Sqrt(n*p*(1-p))
	w.x0 = max(0, math.Floor(mean-10*sd))
	ln := func(x float64) float64 { v, _ := math.Lgamma(x + 1); return v }
	w.pmf = math.Exp(ln(n) - ln(w.x0) - ln(n-w.x0) + w.x0*math.Log(p) + (n-w.x0)*math.Log1p(-p))
	return w
}

// step moves the walk to x and returns P(load <= x).
func (w *binomialWalk) step(x float64) float64 {
	switch {
	case x < w.x0:
		return 0
	case x > w.x0 && x <= w.n:
		w.pmf *= (w.n - x + 1) / x * w.p / (1 - w.p)
	case x > w.n:
		w.pmf = 0
	}
	w.cdf = min(1, w.cdf+w.pmf)
	if x >= w.n {
		w.cdf = 1
	}
	return w.cdf
}

// expectedMaxLoad is the expected largest number of flows on any one
// link when flows are hashed independently onto the links of every
// stage (balls into bins; each link's load Binomial(flows, p), links
// taken as independent): E[M] = sum over x >= 0 of 1 - prod over stages
// P(X <= x)^bins. The sum starts where every CDF is still negligible
// (10 standard deviations below a stage's mean) and stops once the
// tail is.
func expectedMaxLoad(stages ...hashStage) float64 {
	ws := make([]binomialWalk, 0, 2)
	start, top := 0.0, 0.0
	for _, s := range stages {
		if s.flows < 0.5 || s.p <= 0 || s.bins() < 1 {
			continue
		}
		w := newBinomialWalk(s)
		ws = append(ws, w)
		// Below any stage's x0 that stage alone already makes P(max
		// <= x) negligible.
		start = max(start, w.x0)
		top = max(top, w.n)
	}
	if len(ws) == 0 {
		return 0
	}
	for i := range ws { // bring every walk to start
		for x := ws[i].x0; x < start; x++ {
			ws[i].step(x)
		}
	}
	sum := start // P(max <= x) ~ 0 below start
	for x := start; x <= top; x++ {
		tail := maxTail(ws, x)
		sum += tail
		if tail < 1e-7 {
			break
		}
	}
	return sum
}

// certainTail is a log-probability below which 1 - exp(logP) is 1.0 in
// float64 (exp(-40) is under half an ulp of 1).
const certainTail = -40

// maxTail steps every walk to x and returns 1 - P(max <= x), the
// product over stages of P(X <= x)^bins. While some stage alone makes
// that product negligible (its CDF under exp(certainTail/bins)) the
// answer is exactly 1 and no logarithm is taken; a CDF of 1 adds 0.
func maxTail(ws []binomialWalk, x float64) float64 {
	certain := false
	for i := range ws {
		if c := ws[i].step(x); c < ws[i].lowCDF {
			certain = true
		}
	}
	if certain {
		return 1
	}
	logP := 0.0
	for i := range ws {
		if c := ws[i].cdf; c < 1 {
			logP += ws[i].bins * math.Log(c)
		}
	}
	return -math.Expm1(logP)
}

// flowsPerPort is the flows one port hashes: NCCL's channels to its
// peer times each connection's queue pairs, up to the ones that carry
// data at once (more queue pairs add no flows).
func (fv *fabricView) flowsPerPort() float64 {
	return max(1, fv.channels) * max(1, min(fv.qps, fv.maxActiveQueuePairs))
}

// coreLoad is the load on the uplinks above the spines, for a job whose
// traffic crosses them: the leaf's crossing load times the spine's D/U,
// over what background traffic leaves of them.
func (fv *fabricView) coreLoad() float64 {
	return fv.crossOversub() * fv.spineRatio / (1 - fv.bgSpine)
}

// hashedShare is, under static routing, the share of its NIC bandwidth a
// port of a group crossing the tiers gets: the collective runs at its
// slowest flow, and a flow on a link holding M flows gets 1/M of it
// where it asked 1/f (f flows per port), so the port gets min(1, f/M),
// M the expected most loaded link of every link the job's crossing
// flows are hashed onto. frac is the share of the group's ring edges
// that leave their leaf group (its tree edges for NCCL's tree,
// treeGroup; a share of its bytes for an all-to-all),
// coreFrac of them its pod (0: it stays in one pod). Never more than the
// balanced (adaptive) share, which counts the same crossing traffic.
func (fv *fabricView) hashedShare(frac, coreFrac float64) float64 {
	balanced := fv.balancedShare(frac, coreFrac)
	if !fv.static || fv.ideal {
		return balanced
	}
	f := fv.flowsPerPort()
	s1, s2 := fv.hashStages(f, frac, coreFrac)
	m := fv.maxLoads.get(s1, s2)
	// An uplink faster than the port holds more of its flows at full
	// rate (uplinkFlows); the crossing's own loss applies as balanced.
	return min(balanced, fv.crossingEfficiency()*min(1, fv.uplinkFlows(f)/m))
}

// hashStages are the hashed links a crossing flow meets: per leaf, its
// down ports' flows (f each, the ports busy with this and other jobs,
// background traffic as more flows), each leaving the leaf group with
// probability frac (frac > 0), on the leaf's uplinks (fewer after a failure), up
// and down (stages per tier), over the job's leaves; across the core
// (coreFrac > 0), the same on each spine's uplinks for the coreFrac of
// its flows that leave the pod.
func (fv *fabricView) hashStages(f, frac, coreFrac float64) (hashStage, hashStage) {
	down, up := fv.leafPorts()
	// The job's leaves are its ports over a leaf's down ports (not its
	// uplinks over a leaf's rounded uplinks: a leaf of 4 down ports at 3:1
	// keeps 1 uplink, and the job as many leaves as at 4:1).
	leaves := max(1, fv.jobUplinks*fv.oversub*fv.upRatio()/down)
	upLinks := max(1, math.Round(up*(1-fv.upLost)))
	// Background traffic holds bgLeaf of the uplinks however little of
	// this job's traffic crosses: as flows, bg/(1-bg) of the busy ports'
	// own, every one of them crossing (so 1/frac of them at this job's
	// crossing probability), as the balanced load counts it.
	load := fv.crossLoad()
	flows := f * down * (load + load*fv.bgLeaf/(1-fv.bgLeaf)/frac)
	s1 := hashStage{flows: flows, p: frac / upLinks, links: upLinks, groups: fv.stages * leaves}
	if coreFrac <= 0 {
		return s1, hashStage{}
	}
	// A spine's uplinks carry what its down ports bring up: per
	// uplink the leaf load times the spine's ratio.
	spineUp := max(1, math.Round(down/fv.spineRatio))
	perLink := f * coreFrac * fv.coreLoad()
	// Hash polarization: the spine's hash repeats the leaf's, so its
	// flows reach only some of its uplinks (polarizedLinks).
	reach := polarizedLinks(spineUp, fv.polarization)
	s2 := hashStage{flows: max(1, math.Round(perLink*spineUp*2)), p: 1 / (2 * reach), links: reach,
		groups: fv.stages * max(1, fv.jobUplinks/fv.spineRatio/spineUp)}
	return s1, s2
}

// maxLoadMemo remembers expectedMaxLoad's last answers within one
// estimate, which times the same job many ways (planned, baseline, each
// effect removed, the sharing solve): a handful of distinct stages, so a
// short list compared in place beats hashing them and taking a lock; it
// asks sharedMaxLoads what it does not hold. One estimate runs on one
// goroutine; a nil memo computes every time.
type maxLoadMemo struct {
	n, next int // answers held; where the next one goes (the oldest once full)
	keys    [maxLoadSlots][2]hashStage
	loads   [maxLoadSlots]float64
}

// maxLoadSlots is the answers a maxLoadMemo holds: an estimate with every
// effect on asks about five.
const maxLoadSlots = 12

func (c *maxLoadMemo) get(s1, s2 hashStage) float64 {
	if c == nil {
		return expectedMaxLoad(s1, s2)
	}
	k := [2]hashStage{s1, s2}
	for i := range c.n {
		if c.keys[i] == k {
			return c.loads[i]
		}
	}
	m := sharedMaxLoads.get(k)
	c.keys[c.next], c.loads[c.next] = k, m
	c.next = (c.next + 1) % maxLoadSlots
	c.n = min(c.n+1, maxLoadSlots)
	return m
}

// sharedMaxLoads remembers expectedMaxLoad's answers across estimates,
// which depend on the stages alone: the window estimates one fabric
// again after every edit, the failure what-if and the design search meet
// the same leaves over and over (a 100,000-GPU search takes about a
// quarter longer without it). It holds at most maxSharedLoads answers,
// the least recently used let go, and is safe for concurrent use.
var sharedMaxLoads = maxLoadTable{memo.New[float64](maxSharedLoads)}

// maxSharedLoads bounds sharedMaxLoads (about 300 kB).
const maxSharedLoads = 4096

// maxLoadTable is a bounded memo of expectedMaxLoad, keyed by its
// argument whole.
type maxLoadTable struct{ c *memo.Cache[float64] }

func (t maxLoadTable) get(k [2]hashStage) float64 {
	key := memo.Of(k)
	if m, ok := t.c.Get(key); ok {
		return m
	}
	m := expectedMaxLoad(k[0], k[1])
	t.c.Put(key, m)
	return m
}

// leafPorts is a leaf's down and up ports as built (the plan's worst
// leaf), else a leaf group's servers down at the leaf's ratio.
func (fv *fabricView) leafPorts() (down, up float64) {
	if fv.leafDown > 0 && fv.leafUp > 0 {
		return float64(fv.leafDown), float64(fv.leafUp)
	}
	down = float64(max(fv.serversPerUnit, 1))
	return down, max(1, math.Round(down/fv.oversub/fv.upRatio()))
}

// balancedShare is the share adaptive routing leaves a crossing port:
// one over the worst load of the tiers it crosses. Only the traffic that
// leaves the leaf group loads its uplinks: frac of every busy port's
// (a ring packed k servers to a leaf sends 1 edge of k up, so a leaf at
// D:U carries D/U/k of its uplinks' capacity; an all-to-all sends up its
// bytes for the other leaves); likewise the spines' uplinks only with
// the coreFrac of it that leaves the pod (a ring: one edge per pod).
func (fv *fabricView) balancedShare(frac, coreFrac float64) float64 {
	if fv.ideal {
		return 1
	}
	load := max(fv.crossOversub()*frac, fv.coreLoad()*coreFrac)
	return fv.crossingEfficiency() / max(1, load)
}

// fracMatters is whether the share of a group's traffic that crosses
// changes what a crossing port gets: always when hashed, and under
// adaptive routing once a tier's load can pass 1 (below, every share
// fits). NCCL's tree, which crosses more than the ring, is counted apart
// only then.
func (fv *fabricView) fracMatters() bool {
	return !fv.ideal && (fv.static || fv.crossOversub() > 1 || fv.coreLoad() > 1)
}

// nvlsAllReduce times an all-reduce inside the NVLink domain on NVLink
// SHARP: the switch reduces, each GPU sends and receives its data once
// at the GPU's NVLS algorithm bandwidth (data/jct.toml [in_network]).
// ok is false where the GPU's NVSwitch has none or the group is not
// local.
func (m *netModel) nvlsAllReduce(bytes float64, g *commGroup) (collTime, bool) {
	in := &m.d.InNetwork // by pointer: the constants are read, and copying them cost more than the reads
	if !g.local || g.ranks < 2 || m.nvlsEff <= 0 {
		return collTime{}, false
	}
	alg := m.nvlinkRawGBs * in.NVLSAlgBWPerEfficiency * m.nvlsEff
	simple := m.protos[len(m.protos)-1]
	t := (simple.RingBaseUS+in.NVLSHopUS)*us + bytes/(alg*1e9)
	return collTime{time: t, busbw: arFactor(g.ranks) * alg, algo: AlgoNVLS, proto: simple.Name}, true
}

// nvlsTreeAllReduce times NCCL's NVLS tree (NCCL 2.30.7, tuning.cc):
// NVLink SHARP reduces inside each domain and a tree joins the domains
// over the back end, one head GPU and NIC per channel. Its bus bandwidth
// is the least of the domain's NVLS bus bandwidth, the group's back-end
// bandwidth per domain (twice it on 2 domains, which NCCL credits the
// tree's two directions with), and NCCL's per-channel ceiling times the
// heads, taken from NCCL's NIC rating to the model's measured one
// (data/jct.toml [in_network]); Simple only, latency the NVLink NVLS
// tree's plus 2 x floor(log2(domains)) network hops. ok is false inside
// one domain, where the GPU has no NVLS, or with fewer than 2 heads
// ("NVLS/NVLStree needs at least 2 channels").
func (m *netModel) nvlsTreeAllReduce(bytes float64, g *commGroup) (collTime, bool) {
	in := &m.d.InNetwork // by pointer: the constants are read, and copying them cost more than the reads
	if g.local || g.nodes < 2 || g.perNode < 2 || m.nvlsEff <= 0 || m.fv.nicsPerServer <= 0 {
		return collTime{}, false
	}
	heads := float64(g.perNode) * float64(m.fv.nicsPerServer) / float64(m.fv.gpusPerServer)
	if m.domain > m.fv.gpusPerServer { // rack-scale: the channels that leave the domain
		heads = min(heads, m.d.RackScale.NetChannels)
	}
	if heads < 2 {
		return collTime{}, false
	}
	intra := arFactor(g.perNode) * m.nvlinkRawGBs * in.NVLSAlgBWPerEfficiency * m.nvlsEff
	inter := m.treeGroup(g).netGBs // NCCL's tree between the domains
	ceiling := m.nvlsTreeGBs[1]
	if g.nodes == 2 {
		inter *= 2
		ceiling = m.nvlsTreeGBs[0]
	}
	busbw := min(intra, inter, heads*ceiling*m.nicEff/in.NCCLNICLineShare)
	simple := m.protos[len(m.protos)-1]
	lat := (in.NVLSHopUS + 2*float64(bits.Len(uint(g.nodes))-1)*m.netHop(in.NVLSTreeNetHopUS, g)) * us
	return collTime{time: lat + arFactor(g.ranks)*bytes/(busbw*1e9), busbw: busbw, algo: AlgoNVLSTree, proto: simple.Name}, true
}

// sharpAllReduce times an all-reduce that crosses the network on SHARP
// switches (NCCL CollNet): reduce-scatter over NVLink inside each domain,
// the domain's reduced data up to the switches and back once over its
// share of the NICs at sharp_line_fraction, all-gather over NVLink; the
// stages pipeline, so the slower sets the time. ok is false where the
// switches have no SHARP or it is not enabled.
func (m *netModel) sharpAllReduce(bytes float64, g *commGroup) (collTime, bool) {
	in := &m.d.InNetwork // by pointer: the constants are read, and copying them cost more than the reads
	if !m.fv.sharp || g.local || g.nodes < 2 {
		return collTime{}, false
	}
	netGBs := g.netGBs / m.nicEff * in.SHARPLineFraction
	net := bytes / (netGBs * 1e9)
	intra := 0.0
	if g.perNode > 1 {
		intra = 2 * rsFactor(g.perNode) * bytes / (m.nvlinkGBs * 1e9)
	}
	t := max(net, intra)
	simple := m.protos[len(m.protos)-1]
	lat := (simple.TreeBaseUS + float64(g.perNode-1)*simple.TreeNVLinkHopUS + 2*m.netHop(in.SHARPHopUS, g)) * us
	return collTime{time: lat + t, busbw: arFactor(g.ranks) * bytes / t / 1e9, algo: AlgoSHARP, proto: simple.Name}, true
}

// allows says whether the workload's forced algorithm (if any) lets algo
// run.
func (m *netModel) allows(algo string) bool {
	return m.fv.algorithm == "" || m.fv.algorithm == algo
}

// sharpCapable says whether switch key aggregates in the network.
func (c InNetworkConstants) sharpCapable(key string) bool {
	return slices.Contains(c.SHARPSwitches, key)
}

// sharpTree says every switch model of the network's tiers can reduce
// in the network: one tier without it breaks the reduction tree.
func (c InNetworkConstants) sharpTree(n Network) bool {
	if !c.sharpCapable(n.SwitchKey) {
		return false
	}
	for _, k := range n.UpperSwitchKeys {
		if k != "" && !c.sharpCapable(k) {
			return false
		}
	}
	return true
}
