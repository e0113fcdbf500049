package perf

import (
	"fmt"
	"math"
)

// NCCL's wire protocols (data/jct.toml [collective.protocols]).
const (
	ProtoLL     = "LL"
	ProtoLL128  = "LL128"
	ProtoSimple = "Simple"
)

// NCCL's algorithms as the model reports them.
const (
	AlgoRing = "ring"
	AlgoTree = "tree"
	AlgoPAT  = "pat"
)

// protocolKeys are the protocols' keys in data/jct.toml, in the order
// the model tries them (the first wins a tie).
var protocolKeys = []string{"ll", "ll128", "simple"}

// Protocol is one of NCCL's protocols: the fraction of the bus bandwidth
// it reaches and its latencies per algorithm (NCCL's tuning model).
type Protocol struct {
	Name            string  `toml:"name"`
	BWFraction      float64 `toml:"bw_fraction"`
	RingBaseUS      float64 `toml:"ring_base_us"`
	TreeBaseUS      float64 `toml:"tree_base_us"`
	RingNVLinkHopUS float64 `toml:"ring_nvlink_hop_us"`
	TreeNVLinkHopUS float64 `toml:"tree_nvlink_hop_us"`
	RingNetHopUS    float64 `toml:"ring_net_hop_us"`
	TreeNetHopUS    float64 `toml:"tree_net_hop_us"`
}

// checkProtocols requires every protocol, each with a bandwidth fraction
// in (0,1] and latencies of 0 or more.
func checkProtocols(ps map[string]*Protocol) error {
	for _, k := range protocolKeys {
		p := ps[k]
		if p == nil {
			return fmt.Errorf("jct data: [collective.protocols.%s] is missing", k)
		}
		if p.BWFraction <= 0 || p.BWFraction > 1 || p.Name == "" {
			return fmt.Errorf("jct data: [collective.protocols.%s] needs a name and bw_fraction in (0,1]", k)
		}
		for _, v := range []float64{p.RingBaseUS, p.TreeBaseUS, p.RingNVLinkHopUS, p.TreeNVLinkHopUS, p.RingNetHopUS, p.TreeNetHopUS} {
			if v < 0 || math.IsNaN(v) {
				return fmt.Errorf("jct data: [collective.protocols.%s] latencies must be 0 or more", k)
			}
		}
	}
	if len(ps) != len(protocolKeys) {
		return fmt.Errorf("jct data: [collective.protocols] holds %d protocols, want %v", len(ps), protocolKeys)
	}
	return nil
}

// netHop is one network hop of protocol hop latency hopUS for group g:
// plus the TCP stack's latency and the switches' on g's path (more for
// a group crossing tiers); none when ideal.
func (m *netModel) netHop(hopUS float64, g *commGroup) float64 {
	if m.ideal {
		return 0
	}
	return hopUS + m.netExtraUS + g.switchUS
}

// ringLatency is NCCL's ring latency for protocol p and nsteps steps of
// which interSteps cross the network (tuning.cc): base + intra-domain
// steps x the NVLink hop + network steps x the network hop.
func (m *netModel) ringLatency(p *Protocol, nsteps, interSteps int, g *commGroup) float64 {
	return (p.RingBaseUS + float64(nsteps-interSteps)*p.RingNVLinkHopUS + float64(interSteps)*m.netHop(p.RingNetHopUS, g)) * us
}

// treeLatency is NCCL's tree all-reduce latency for protocol p: base +
// 2 x ((ranks per domain - 1) x the NVLink hop + log2(domains) x the
// network hop), up and down the tree.
func (m *netModel) treeLatency(p *Protocol, g *commGroup) float64 {
	return (p.TreeBaseUS + 2*(float64(g.perNode-1)*p.TreeNVLinkHopUS+math.Log2(float64(g.nodes))*m.netHop(p.TreeNetHopUS, g))) * us
}

// pick keeps the faster of two timings.
func pick(best, c collTime) collTime {
	if best.proto == "" || c.time < best.time {
		return c
	}
	return best
}

// allReduce times an all-reduce of bytes per rank the way NCCL picks
// one: every protocol on a ring, on a tree when the group crosses the
// network, NVLink SHARP inside a domain whose NVSwitch has it, SHARP
// across switches that have it; the fastest kept, or only the
// workload's forced algorithm where it can run. The ring and tree
// bandwidth term is the bus bandwidth's (min of NVLink and the group's
// back-end share) times the protocol's fraction, and the tree's 0.92
// for a tree.
func (m *netModel) allReduce(bytes float64, g *commGroup) collTime {
	c := m.fv.locals
	if !g.local || c == nil || c.d != m.d {
		return m.allReduceFresh(bytes, g)
	}
	k := localSlot{bytes: bytes, nvlinkRawGBs: m.nvlinkRawGBs, nvlsE: m.nvlsEff, ranks: int32(g.ranks), algorithm: algoIndex(m.fv.algorithm)}
	if int(k.ranks) != g.ranks || k.algorithm < 0 {
		return m.allReduceFresh(bytes, g) // past the key's range
	}
	if t, ok := c.get(m, &k); ok {
		return t
	}
	t := m.allReduceFresh(bytes, g)
	c.put(m, &k, t)
	return t
}

// allReduceFresh is allReduce, never remembered.
func (m *netModel) allReduceFresh(bytes float64, g *commGroup) collTime {
	if best := m.allReduceOf(bytes, g, true); best.proto != "" {
		return best
	}
	return m.allReduceOf(bytes, g, false) // the forced algorithm cannot run here
}

func (m *netModel) allReduceOf(bytes float64, g *commGroup, forced bool) collTime {
	ok := func(algo string) bool { return !forced || m.allows(algo) }
	best := m.ringOrTree(bytes, g, ok(AlgoRing), !g.local && g.nodes >= 2 && ok(AlgoTree))
	if c, can := m.nvlsAllReduce(bytes, g); can && ok(AlgoNVLS) {
		best = pick(best, c)
	}
	if c, can := m.nvlsTreeAllReduce(bytes, g); can && ok(AlgoNVLSTree) {
		best = pick(best, c)
	}
	if c, can := m.sharpAllReduce(bytes, g); can && ok(AlgoSHARP) {
		best = pick(best, c)
	}
	return best
}

// ringOrTree is the fastest all-reduce of bytes per rank over group g on
// a ring (when ring) or a tree (when tree), every protocol tried; no
// timing (proto "") when neither may run. The fastest is kept as its
// protocol and time, its timing built once at the end: a timing built
// and compared per candidate was most of the all-reduce's cost. The
// first wins a tie, as pick keeps it.
func (m *netModel) ringOrTree(bytes float64, g *commGroup, ring, tree bool) collTime {
	bw, busbw := m.bwTime(bytes, g, arFactor)
	tbw, tbusbw := bw, busbw
	if tree { // on its own crossing share
		tg := m.treeGroup(g)
		tbw, tbusbw = m.bwTime(bytes, &tg, arFactor)
	}
	tf := m.d.Collective.TreeBWFactor
	var bestP *Protocol
	bestT, bestTree := 0.0, false
	for _, p := range m.protos {
		if ring {
			if t := m.ringLatency(p, 2*(g.ranks-1), 2*(g.nodes-1), g) + bw/p.BWFraction; bestP == nil || t < bestT {
				bestP, bestT, bestTree = p, t, false
			}
		}
		if tree {
			if t := m.treeLatency(p, g) + tbw/(tf*p.BWFraction); bestP == nil || t < bestT {
				bestP, bestT, bestTree = p, t, true
			}
		}
	}
	switch {
	case bestP == nil:
		return collTime{}
	case bestTree:
		return collTime{time: bestT, busbw: tbusbw * tf * bestP.BWFraction, algo: AlgoTree, proto: bestP.Name}
	}
	return collTime{time: bestT, busbw: busbw * bestP.BWFraction, algo: AlgoRing, proto: bestP.Name}
}

// reduceScatterPair times a reduce-scatter (or an all-gather, which
// NCCL times alike) of a and of b bytes per rank over group g: a
// sharded optimizer's gradient reduce-scatter, written into rs, and
// parameter all-gather, whose time alone it returns (its algorithm,
// protocol and bus bandwidth are read by none: building and returning
// them was a tenth of the pair's cost). Each runs every protocol on a
// ring, and NCCL's PAT algorithm (Simple, latency logarithmic in the
// domains) when it crosses the network; the fastest kept. The ring
// latencies and PAT's are worked out once for both (timed one at a
// time, they were a tenth of an estimate).
func (m *netModel) reduceScatterPair(a, b float64, g *commGroup, rs *collTime) (bS float64) {
	bwA, busbw := m.bwTime(a, g, rsFactor)
	bwB, _ := m.bwTime(b, g, rsFactor)
	// The fastest ring, kept as its protocol and time (see allReduceOf).
	var bestA *Protocol
	tA, tB := 0.0, 0.0
	for i, p := range m.protos {
		lat := m.ringLatency(p, g.ranks-1, g.nodes-1, g)
		if t := lat + bwA/p.BWFraction; i == 0 || t < tA {
			bestA, tA = p, t
		}
		if t := lat + bwB/p.BWFraction; i == 0 || t < tB {
			tB = t
		}
	}
	*rs = collTime{}
	if bestA != nil {
		*rs = collTime{time: tA, busbw: busbw * bestA.BWFraction, algo: AlgoRing, proto: bestA.Name}
	}
	if !g.local && g.nodes > 1 {
		simple := m.protos[len(m.protos)-1]
		lat := (simple.RingBaseUS + math.Log2(float64(g.nodes))*m.netHop(simple.RingNetHopUS, g)) * us
		if t := lat + bwA; rs.proto == "" || t < rs.time { // pick's rule, no timing built to lose
			*rs = collTime{time: t, busbw: busbw, algo: AlgoPAT, proto: simple.Name}
		}
		if t := lat + bwB; bestA == nil || t < tB {
			tB = t
		}
	}
	return tB
}

// localMemo remembers, within one estimate, the all-reduces of groups
// inside one NVLink domain (tensor parallelism, mostly). The estimate
// times its step many ways, on TCP/IP and with each fabric effect
// removed, and none of those reaches a group that never leaves the
// domain but the in-network effect, which turns NVLink SHARP off: yet
// the planned step's tensor-parallel all-reduce was timed again, every
// protocol and algorithm, for each. It serves the one JCTData d it is
// made for (another passes it by); its key is the rest of what such an
// all-reduce reads (localSlot), compared field by field (the key's ==,
// a call to compare a string, cost a fifth of what it saved). It holds
// no pointer but d, names its answers' algorithm and protocol by index,
// and sits last in the JCT, so the collector scans none of it but d,
// and the JCT stays in its allocation's size class (2,304 bytes).
// One estimate runs on one goroutine.
type localMemo struct {
	d       *JCTData
	slots   [localSlots]localSlot
	n, next uint8 // answers held; where the next goes (the oldest once full)
}

// localSlots is the answers a localMemo holds: an estimate asks about
// one or two (NVLS on, and off for the in-network effect).
const localSlots = 2

// localSlot is one all-reduce remembered: its key, then its answer.
//
// The key is what the all-reduce of a group inside one NVLink domain
// reads beside the data (the protocols' latencies and bandwidth
// fractions, the NVLS constants, NVLink's efficiency): the bytes and
// ranks (perNode is the ranks, on one node); the GPU's NVLink line rate
// (its effective rate is that times the data's efficiency) and NVLS
// efficiency (0 with NVLS made unavailable); and the forced algorithm
// (algoIndex). The network (transport, back-end bandwidth, switch
// latency, SHARP, an ideal back end) does not reach it: its ring
// crosses no network hop and it has no tree, SHARP or NVLS tree.
//
// The answer is a collTime, its algorithm and protocol by index
// (algoIndex, the netModel's protocols).
type localSlot struct {
	bytes, nvlinkRawGBs, nvlsE float64
	time, busbw                float64
	ranks                      int32
	algorithm                  int8
	algo, proto                int8
}

// algoIndex is algo's place in Algorithms plus 1 (0: "", any; -1: an
// algorithm not listed).
func algoIndex(algo string) int8 {
	switch algo { // constants: a word or two compared, not the runtime's string compare
	case "":
		return 0
	case AlgoRing:
		return 1
	case AlgoTree:
		return 2
	case AlgoNVLS:
		return 3
	case AlgoNVLSTree:
		return 4
	case AlgoSHARP:
		return 5
	}
	return -1
}

// get is the answer for the key k holds, if held.
func (c *localMemo) get(m *netModel, k *localSlot) (collTime, bool) {
	for i := range c.n {
		if h := &c.slots[i]; h.bytes == k.bytes && h.ranks == k.ranks && h.nvlsE == k.nvlsE &&
			h.nvlinkRawGBs == k.nvlinkRawGBs && h.algorithm == k.algorithm {
			return collTime{time: h.time, busbw: h.busbw, algo: Algorithms[h.algo-1], proto: m.protos[h.proto].Name}, true
		}
	}
	return collTime{}, false
}

// put holds t as the answer for the key k holds, in place of the oldest
// once full; an answer it cannot name by index (no algorithm, a
// protocol not m's) is not held.
func (c *localMemo) put(m *netModel, k *localSlot, t collTime) {
	algo, proto := algoIndex(t.algo), -1
	for i, p := range m.protos {
		if p.Name == t.proto {
			proto = i
			break
		}
	}
	if algo <= 0 || proto < 0 || t.gatherS != 0 {
		return
	}
	k.time, k.busbw, k.algo, k.proto = t.time, t.busbw, algo, int8(proto)
	c.slots[c.next] = *k
	c.next = (c.next + 1) % localSlots
	c.n = min(c.n+1, localSlots)
}
