package perf

import (
	"math"
	"testing"
)

// crossingView is a two-tier 400G fabric of eight-GPU H100 servers, k
// per leaf group, at ratio:1, packed or spread, adaptive or static.
func crossingView(d *JCTData, k int, ratio float64, spread, static bool) fabricView {
	fv := validationView(8, 8, 400, Ethernet)
	fv.serversPerUnit, fv.oversub, fv.spread, fv.static = k, ratio, spread, static
	fv.qps, fv.maxActiveQueuePairs, fv.stages, fv.channels = 1, d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
	return fv
}

// crossingShare is the share of its NIC a port of a group of n servers
// (one rank each, stride 8: one NVLink domain per server) keeps, for a
// ring (all-reduce, reduce-scatter, all-gather, context-parallel sends)
// or an all-to-all; and whether the group crosses the leaves.
func crossingShare(d *JCTData, fv fabricView, n int, allToAll bool) (float64, bool) {
	fv.setJobSize(8*n, 8)
	if fv.static {
		fv.maxLoads = new(maxLoadMemo)
	}
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	g := m.group(n, 8)
	if allToAll {
		g = m.allToAllGroup(n, 8)
	}
	return g.share, g.crossesSU
}

// TestAdaptiveChargesOnlyTheCrossingTraffic: under adaptive routing a
// leaf's uplinks carry only what leaves its leaf group, which a leaf at
// D:U spreads over D/r uplinks, so a crossing port keeps 1/max(1, r x
// frac), frac the share of a busy port's traffic that leaves. By hand,
// n servers packed k to a leaf (n/k leaf groups):
//   - a ring ordered by the topology leaves each group on one edge of k
//     per direction: frac = (n/k)/n = 1/k, whatever n. 16 per leaf at
//     2:1 or 3:1: 2/16, 3/16 < 1, no loss; 2 per leaf at 3:1: 3/2, share
//     2/3; 4 per leaf at 3:1: 3/4, no loss. Spread one server per leaf
//     (or marked spread) every edge crosses: frac 1, share 1/2 at 2:1,
//     1/3 at 3:1. A ring of 16 under one 16-port leaf never crosses.
//   - an all-to-all sends each of the n-1 other servers an equal part,
//     n-k of them under other leaves: frac = (n-k)/(n-1). 4 per leaf at
//     3:1: n = 8, 3 x 4/7 = 12/7, share 7/12; n = 32, 3 x 28/31 = 84/31,
//     share 31/84; at 2:1, n = 8: 8/7, share 7/8; n = 32: 56/31, share
//     31/56. A larger job sends more of its bytes up.
//
// Mutations caught: the balanced load counting every busy port as
// sending all its traffic up (share 1/r for every packed ring: 1/2 for
// 16 per leaf at 2:1), the all-to-all counted as a ring (frac 1/k: no
// loss at 4 per leaf and 3:1), and the ratio dropped.
func TestAdaptiveChargesOnlyTheCrossingTraffic(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name     string
		k, n     int
		ratio    float64
		spread   bool
		allToAll bool
		want     float64
		crosses  bool
	}{
		{"ring packed under one leaf", 16, 16, 3, false, false, 1, false},
		{"ring 16 per leaf, 2:1, 64 servers", 16, 64, 2, false, false, 1, true},
		{"ring 16 per leaf, 3:1, 256 servers", 16, 256, 3, false, false, 1, true},
		{"ring 4 per leaf, 3:1, 64 servers", 4, 64, 3, false, false, 1, true},
		{"ring 2 per leaf, 3:1, 16 servers", 2, 16, 3, false, false, 2.0 / 3, true},
		{"ring 2 per leaf, 3:1, 256 servers", 2, 256, 3, false, false, 2.0 / 3, true},
		{"ring one server per leaf, 2:1", 1, 32, 2, false, false, 0.5, true},
		{"ring one server per leaf, 3:1", 1, 32, 3, false, false, 1.0 / 3, true},
		{"ring spread, 2:1", 16, 64, 2, true, false, 0.5, true},
		{"ring spread, 3:1", 16, 64, 3, true, false, 1.0 / 3, true},
		{"all-to-all packed under one leaf", 4, 4, 3, false, true, 1, false},
		{"all-to-all 4 per leaf, 3:1, 8 servers", 4, 8, 3, false, true, 7.0 / 12, true},
		{"all-to-all 4 per leaf, 3:1, 32 servers", 4, 32, 3, false, true, 31.0 / 84, true},
		{"all-to-all 4 per leaf, 2:1, 8 servers", 4, 8, 2, false, true, 7.0 / 8, true},
		{"all-to-all 4 per leaf, 2:1, 32 servers", 4, 32, 2, false, true, 31.0 / 56, true},
		{"all-to-all 4 per leaf, 1:1, 32 servers", 4, 32, 1, false, true, 1, true},
		{"all-to-all spread, 3:1", 4, 32, 3, true, true, 1.0 / 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, crosses := crossingShare(d, crossingView(d, c.k, c.ratio, c.spread, false), c.n, c.allToAll)
			if crosses != c.crosses {
				t.Errorf("crosses the leaves %v, want %v", crosses, c.crosses)
			}
			if math.Abs(got-c.want) > 1e-9 {
				t.Errorf("share %.4f, want %.4f", got, c.want)
			}
		})
	}
}

// TestOversubscriptionNeverHelps: over 1:1 to 4:1, leaf groups of 1 to
// 32 servers and jobs of 2 to 512, rings and all-to-alls, packed and
// spread: static hashing never keeps more of a port than adaptive
// routing does on the same fabric (it meets the same crossing traffic,
// and collisions on top), and a higher ratio never keeps more, under
// either routing. Mutations caught: the static stages counting crossing
// flows the balanced load does not (or the other way round, so the
// min with the balanced share is all that holds static below), and a
// load that falls as uplinks are taken away.
func TestOversubscriptionNeverHelps(t *testing.T) {
	d := testData(t)
	for _, allToAll := range []bool{false, true} {
		for _, spread := range []bool{false, true} {
			for _, k := range []int{1, 2, 4, 16, 32} {
				for _, n := range []int{2, 8, 48, 512} {
					prev := [2]float64{math.Inf(1), math.Inf(1)}
					for _, ratio := range []float64{1, 1.5, 2, 3, 4} {
						var share [2]float64
						for i, static := range []bool{false, true} {
							share[i], _ = crossingShare(d, crossingView(d, k, ratio, spread, static), n, allToAll)
							if share[i] > prev[i]+1e-12 {
								t.Errorf("a2a %v spread %v, %d per leaf, %d servers, static %v: %g:1 keeps %.4f, less oversubscribed %.4f",
									allToAll, spread, k, n, static, ratio, share[i], prev[i])
							}
						}
						if share[1] > share[0]+1e-12 {
							t.Errorf("a2a %v spread %v, %d per leaf, %d servers, %g:1: static keeps %.4f, adaptive %.4f",
								allToAll, spread, k, n, ratio, share[1], share[0])
						}
						prev = share
					}
				}
			}
		}
	}
}

// TestCoreChargesOnlyWhatLeavesThePod: on three tiers the spines'
// uplinks carry only what leaves the pod, the leaf's crossing load times
// the spine's D:U times the share of the traffic that leaves the pod. By
// hand, 1:1 leaves of 4 servers, pods of P servers, spines at s:1:
//   - a ring packed over n servers leaves each pod on one edge: core
//     load s x (n/P)/n = s/P. P = 384 at 7:1 (Meta's 24K zones): 0.018,
//     no loss; P = 4 at 7:1: 7/4, share 4/7; P = 8 at 2:1: 1/4, none.
//   - spread, every edge leaves the pod: 1/7 at 7:1.
//   - an all-to-all over 32 servers, pods of 8 at 2:1: (32-8)/31 of its
//     bytes leave the pod, load 48/31, share 31/48 (the leaf's 28/31 at
//     1:1 costs nothing).
//
// Mutations caught: the core charged with all the leaf-crossing traffic
// (the ring leaves a leaf of 4 on 1 edge in 4: pods of 384 at 7:1 would
// keep 4/7), the spine ratio dropped (1 for the 7:1 pods of 4), the
// all-to-all counted as a ring at the core (share 1).
func TestCoreChargesOnlyWhatLeavesThePod(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name             string
		pod, n           int
		spine            float64
		spread, allToAll bool
		want             float64
	}{
		{"ring, pods of 384 at 7:1", 384, 1536, 7, false, false, 1},
		{"ring, pods of 4 at 7:1", 4, 64, 7, false, false, 4.0 / 7},
		{"ring, pods of 8 at 2:1", 8, 64, 2, false, false, 1},
		{"ring spread, 7:1", 8, 64, 7, true, false, 1.0 / 7},
		{"all-to-all, pods of 8 at 2:1", 8, 32, 2, false, true, 31.0 / 48},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := crossingView(d, 4, 1, c.spread, false)
			fv.tiers, fv.serversPerPod, fv.spineRatio = 3, c.pod, c.spine
			got, _ := crossingShare(d, fv, c.n, c.allToAll)
			if math.Abs(got-c.want) > 1e-9 {
				t.Errorf("share %.4f, want %.4f", got, c.want)
			}
			// Static routing meets the same traffic, and collisions.
			fv.static = true
			if s, _ := crossingShare(d, fv, c.n, c.allToAll); s > got+1e-12 {
				t.Errorf("static keeps %.4f, more than adaptive %.4f", s, got)
			}
		})
	}
}

// TestPipelineSendsCrossOnEveryPort: a pipeline send goes from each
// server of one stage to its peer in the next; with stages of 16 servers
// under leaf groups of 16, every peer is under another leaf, so every
// port's traffic crosses: at 2:1 a port keeps 1/2, at 3:1 1/3, packed or
// not; stages of 8 in leaf groups of 16 stay under one leaf (share 1).
// Mutation caught: the crossing share counted over the servers the pair
// spans rather than its members (2 leaf groups over 32 servers: 1/16 of
// the ports crossing, no loss).
func TestPipelineSendsCrossOnEveryPort(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		stage   int // servers per stage (the pair's stride, in servers)
		ratio   float64
		want    float64
		crosses bool
	}{
		{16, 2, 0.5, true}, {16, 3, 1.0 / 3, true}, {8, 3, 1, false},
	} {
		fv := crossingView(d, 16, c.ratio, false, false)
		fv.setJobSize(8*64, 8)
		m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
		g := m.group(2, 8*c.stage)
		if g.crossesSU != c.crosses || math.Abs(g.share-c.want) > 1e-9 {
			t.Errorf("stages of %d servers at %g:1: share %.4f crossing %v, want %.4f %v", c.stage, c.ratio, g.share, g.crossesSU, c.want, c.crosses)
		}
	}
}

// TestCeilDiv: a/b rounded up, by hand, at 0, below, at and past a
// multiple, and for a divisor of 1. Mutations caught: the floor (7/2 as
// 3), one too many at a multiple (8/2 as 5).
func TestCeilDiv(t *testing.T) {
	for _, c := range [][3]int{{0, 8, 0}, {1, 8, 1}, {7, 2, 4}, {8, 2, 4}, {9, 2, 5}, {16384, 8, 2048}, {16385, 8, 2049}, {5, 1, 5}} {
		if got := ceilDiv(c[0], c[1]); got != c[2] {
			t.Errorf("ceilDiv(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
