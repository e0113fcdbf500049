package perf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simulateMaxLoad hashes flows onto links in each of groups groups (a
// leaf's flows only onto its own uplinks) trials times with a seeded
// generator, and returns the mean of the most loaded link.
func simulateMaxLoad(flows, links, groups, trials int) float64 {
	r := rand.New(rand.NewPCG(32, 2024))
	load := make([]int, links)
	sum := 0
	for range trials {
		most := 0
		for range groups {
			clear(load)
			for range flows {
				l := r.IntN(links)
				load[l]++
				most = max(most, load[l])
			}
		}
		sum += most
	}
	return float64(sum) / float64(trials)
}

// TestExpectedMaxLoadAgainstSimulation checks the balls-into-bins
// expectation against hashing simulated with a fixed seed, on and off
// the grid (fewer flows than links, as many, more; one leaf and many),
// and two cases by hand. Mutations caught: the mean load taken for the
// maximum (1.0 where 2 flows on 2 links give 1.5), the link count left
// out of the product (no growth with job size), the sum started at the
// mean rather than where the CDF is negligible.
func TestExpectedMaxLoadAgainstSimulation(t *testing.T) {
	// By hand, 2 flows on 2 links: each link's load is Binomial(2, 1/2),
	// P(X <= 0) = 1/4, P(X <= 1) = 3/4; taking the links as independent,
	// E[max] = (1 - 1/16) + (1 - 9/16) = 1.375 (the exact answer, with
	// the links' loads tied, is 1.5).
	if got := expectedMaxLoad(hashStage{flows: 2, p: 0.5, links: 2, groups: 1}); math.Abs(got-1.375) > 1e-6 {
		t.Errorf("2 flows on 2 links: E[max] %.4f, by hand 1.375", got)
	}
	// One link holds every flow; one flow is never more than one.
	if got := expectedMaxLoad(hashStage{flows: 7, p: 1, links: 1, groups: 3}); math.Abs(got-7) > 1e-6 {
		t.Errorf("7 flows on one link: E[max] %.4f, want 7", got)
	}
	if got := expectedMaxLoad(hashStage{flows: 1, p: 1.0 / 33, links: 33, groups: 1000}); math.Abs(got-1) > 1e-6 {
		t.Errorf("1 flow per leaf: E[max] %.4f, want 1", got)
	}
	for _, c := range []struct{ flows, links, groups int }{
		{2, 2, 1}, {32, 32, 1}, {5, 7, 3}, {2, 64, 64}, {128, 32, 4}, {96, 24, 40}, {1, 33, 100},
	} {
		t.Run(fmt.Sprintf("%d flows on %d links x %d", c.flows, c.links, c.groups), func(t *testing.T) {
			sim := simulateMaxLoad(c.flows, c.links, c.groups, 4000)
			got := expectedMaxLoad(hashStage{flows: float64(c.flows), p: 1 / float64(c.links), links: float64(c.links), groups: float64(c.groups)})
			if e := (got - sim) / sim; math.Abs(e) > 0.1 {
				t.Errorf("E[max] %.3f, simulated %.3f (%+.1f%%)", got, sim, 100*e)
			}
		})
	}
	// More links (a bigger job) never lowers the expected maximum.
	prev := 0.0
	for _, groups := range []float64{1, 7, 64, 1000, 123457} {
		got := expectedMaxLoad(hashStage{flows: 10, p: 1.0 / 32, links: 32, groups: groups})
		if got < prev-1e-9 {
			t.Errorf("%g leaves: E[max] %.4f below %.4f on fewer", groups, got, prev)
		}
		prev = got
	}
}

// staticView is a non-blocking two-tier fabric of 8-GPU servers with
// eight 400G NICs, spread so every ring edge crosses, for collision
// checks.
func staticView(d *JCTData, ratio float64, qps float64, servers int, static bool, fabric Fabric) fabricView {
	fv := validationView(8, 8, 400, fabric)
	fv.oversub, fv.static, fv.spread = ratio, static, true
	fv.qps, fv.maxActiveQueuePairs, fv.stages, fv.channels = qps, d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
	fv.setJobSize(8*servers, 8)
	return fv
}

func dpBusBW(d *JCTData, fv fabricView, servers int) float64 {
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	g := m.group(servers, 8)
	return m.allReduce(1<<30, &g).busbw
}

// TestQueuePairsHelpUpToTheFlowCount: on a spread job's crossing ring
// at 1:1 each port's flows (2 NCCL channels x its queue pairs) are
// hashed; more queue pairs spread them (more, smaller flows, the most
// loaded link nearer the mean) up to the 4 a connection keeps busy,
// and no further. By hand, 1 QP on 1,000 servers: k = 2 flows per link
// over 16,000 links; Poisson(2) tail P(X >= 9) = 2.4e-4, x 16,000 = 3.8;
// P(X >= 10) = 4.6e-5 -> 0.74, P(X >= 11) = 8.3e-6 -> 0.13, P(X >= 12)
// = 1.4e-6 -> 0.02: E[M] ~ 8 + 0.98 + 0.52 + 0.12 + 0.02 = 9.6, a port
// keeps 2/9.6 = 21% of its 46 GB/s, ~9.6 GB/s. Mutations caught: queue
// pairs ignored, the cap ignored (8 QPs better than 4), QPs making
// static routing beat adaptive.
func TestQueuePairsHelpUpToTheFlowCount(t *testing.T) {
	d := testData(t)
	const servers = 1000
	adaptive := dpBusBW(d, staticView(d, 1, 1, servers, false, Ethernet), servers)
	one := dpBusBW(d, staticView(d, 1, 1, servers, true, Ethernet), servers)
	if math.Abs(one-46*2/9.6) > 0.6 {
		t.Errorf("1 QP: %.2f GB/s, by hand %.2f", one, 46*2/9.6)
	}
	prev := one
	for _, q := range []float64{2, 3, 4} {
		got := dpBusBW(d, staticView(d, 1, q, servers, true, Ethernet), servers)
		if got <= prev || got > adaptive+1e-9 {
			t.Errorf("%g QPs: %.2f GB/s, want above %.2f (fewer QPs) and at most adaptive's %.2f", q, got, prev, adaptive)
		}
		prev = got
	}
	for _, q := range []float64{5, 8, 128} {
		if got := dpBusBW(d, staticView(d, 1, q, servers, true, Ethernet), servers); math.Abs(got-prev) > 1e-9 {
			t.Errorf("%g QPs: %.3f GB/s, want %.3f as with 4 (no more than 4 carry data at once)", q, got, prev)
		}
	}
}

// TestOversubscriptionNeverHelpsStaticRouting: at every ratio, on and off
// the grid, static routing gets no more than adaptive routing does, and
// a higher ratio never gives it more. Mutation caught: the collision
// loss taken from a share already divided by the ratio (the old model
// hurt ECMP less at 2:1 than at 1:1).
func TestOversubscriptionNeverHelpsStaticRouting(t *testing.T) {
	d := testData(t)
	for _, servers := range []int{3, 37, 500} {
		for _, q := range []float64{1, 4} {
			prev := math.Inf(1)
			for _, ratio := range []float64{1, 1.5, 2, 3, 5, 8} {
				for _, spread := range []bool{true, false} {
					sv, av := staticView(d, ratio, q, servers, true, Ethernet), staticView(d, ratio, q, servers, false, Ethernet)
					sv.spread, av.spread = spread, spread
					sv.serversPerUnit, av.serversPerUnit = 2, 2
					st, ad := dpBusBW(d, sv, servers), dpBusBW(d, av, servers)
					if st > ad+1e-9 {
						t.Errorf("%d servers, %g QPs, %g:1, spread %v: static %.2f GB/s above adaptive %.2f", servers, q, ratio, spread, st, ad)
					}
					if spread {
						if st > prev+1e-9 {
							t.Errorf("%d servers, %g QPs: static %.3f GB/s at %g:1, above %.3f at a lower ratio", servers, q, st, ratio, prev)
						}
						prev = st
					}
				}
			}
		}
	}
}

// TestNVLSByHand: an all-reduce inside one 8-H100 NVLink domain on NVLink
// SHARP runs at 450 x 0.719 x 0.85 = 275 GB/s algorithm bandwidth, busbw
// 275 x 2 x 7/8 = 481 GB/s; A100 (no NVLS) keeps the ring's 240. On a
// GB300 NVL72 rack: 900 x 0.719 x 0.74 = 479 GB/s algorithm bandwidth,
// busbw 479 x 2 x 71/72 = 944 GB/s, against the ring's 720. Mutations
// caught: NVLS on a GPU without it, the algorithm bandwidth reported
// as bus bandwidth, NVLS where it is slower.
func TestNVLSByHand(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		gpu     string
		ranks   int
		algo    string
		busbw   float64
		perNode int
	}{
		{"h100", 8, AlgoNVLS, 450 * 0.719 * 0.85 * 2 * 7 / 8, 8},
		{"a100", 8, AlgoRing, 300 * 0.8, 8},
		{"gb300", 72, AlgoNVLS, 900 * 0.719 * 0.74 * 2 * 71 / 72, 72},
	} {
		fv := validationView(c.perNode, c.perNode, 400, InfiniBand)
		fv.nvlinkDomain = c.perNode
		m := newNetModel(fv, d.GPUs[c.gpu], d, RDMA)
		got := m.allReduce(1<<32, m.groupP(c.ranks, 1))
		if got.algo != c.algo || math.Abs(got.busbw-c.busbw) > 0.5 {
			t.Errorf("%s x %d: %s at %.1f GB/s, want %s at %.1f", c.gpu, c.ranks, got.algo, got.busbw, c.algo, c.busbw)
		}
	}
}

// TestNVLSTreeByHand: NCCL's NVLS tree (tuning.cc, NCCL 2.30.7) on
// servers of 8 H100 with eight 400G InfiniBand NICs (the model's 0.92 of
// line rate, 46 GB/s; NCCL rates the NIC at 48 = 0.96 of line), all under
// one leaf (0.13 us per network hop), 4 GiB:
//
//	NVLS inside a server: 2 x 7/8 x 450 x 0.719 x 0.85        = 481.3 GB/s
//	2 servers, network: 2 x 8 NICs x 46                       = 736
//	2 servers, ceiling: 8 channels x 57.7 x 0.92/0.96         = 442.37  <- binds
//	  latency 25 + 2 x 1 x (20.9 + 0.13)                      = 67.06 us
//	  beats the ring's min(NVLink 360, 8 x 46 = 368)          = 360
//	4 servers, network: 8 x 46                                = 368
//	4 servers, ceiling: 8 x 45.5 x 0.92/0.96                  = 348.83  <- binds
//	  latency 25 + 2 x 2 x 21.03                              = 109.12 us
//	  under the ring's 360: the ring runs (as NCCL did on 4 servers,
//	  NVIDIA/nccl#1221), the NVLS tree only when forced
//
// Mutations caught: NCCL's ceiling in its own units (461.6 on 2
// servers), the 2-node doubling left out (368 on 2 servers), the 2-node
// ceiling past 2 nodes (the NVLS tree winning on 4 servers at 360),
// log2 of the servers not floored or the hops not doubled (latency).
func TestNVLSTreeByHand(t *testing.T) {
	d := testData(t)
	const bytes = 1 << 32
	for _, c := range []struct {
		servers     int
		force, algo string
		busbw, latS float64
	}{
		{2, "", AlgoNVLSTree, 8 * 57.7 * 0.92 / 0.96, 67.06e-6},
		{4, "", AlgoRing, 360, -1},
		{4, AlgoNVLSTree, AlgoNVLSTree, 8 * 45.5 * 0.92 / 0.96, 109.12e-6},
	} {
		fv := validationView(8, 8, 400, InfiniBand)
		fv.algorithm = c.force
		m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
		ranks := 8 * c.servers
		got := m.allReduce(bytes, m.groupP(ranks, 1))
		if got.algo != c.algo || math.Abs(got.busbw-c.busbw) > 0.01 {
			t.Errorf("%d servers forced %q: %s at %.2f GB/s, want %s at %.2f", c.servers, c.force, got.algo, got.busbw, c.algo, c.busbw)
		}
		if c.latS < 0 {
			continue
		}
		want := c.latS + 2*float64(ranks-1)/float64(ranks)*bytes/(c.busbw*1e9)
		if math.Abs(got.time-want) > 1e-9 {
			t.Errorf("%d servers: NVLS tree %.4f us, want %.4f", c.servers, got.time*1e6, want*1e6)
		}
	}
	// 3 servers: floor(log2 3) = 1 tree level, 25 + 2 x 21.03 us.
	fv := validationView(8, 8, 400, InfiniBand)
	fv.algorithm = AlgoNVLSTree
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	got := m.allReduce(4, m.groupP(24, 1))
	if want := 67.06e-6 + 2*23.0/24*4/(8*45.5*0.92/0.96*1e9); math.Abs(got.time-want) > 1e-9 {
		t.Errorf("3 servers, 4 B: NVLS tree %.4f us, want %.4f", got.time*1e6, want*1e6)
	}
}

// TestInNetworkNeverSlows: for every GPU, both fabrics, sizes on and off
// the grid and message sizes from 4 B to 4 GiB, the all-reduce with
// NVLS and SHARP available is never slower than without; and SHARP runs
// only on InfiniBand switches that have it, when asked. By hand, SHARP
// on 64 servers of 8 H100 with 8 NDR NICs: the network carries the
// data once at 8 x 50 x 0.8 = 320 GB/s per server, NVLink twice at
// 360 x 8/7 / 2 = 205.7 GB/s algorithm bandwidth: NVLink-bound, busbw
// 205.7 x 2 x 511/512 = 410.6 GB/s, against the ring's 360 x 8/8...
// (min(NVLink 360, 8 NICs x 46 = 368) = 360). Mutations caught: SHARP's
// time added to the ring's rather than chosen, SHARP on Ethernet.
func TestInNetworkNeverSlows(t *testing.T) {
	d := testData(t)
	// Every GPU on 8-GPU servers with 8 NICs; the rack-scale GPUs also as
	// NVL72 racks of 4-GPU trays with 4 NICs (the NVLS tree's heads
	// capped at the channels leaving the rack); 400G and 800G NICs,
	// adaptive and static routing.
	type system struct {
		gpu           string
		perServer     int
		domain        int
		gbps          float64
		static, cross bool
	}
	var systems []system
	for key := range d.GPUs {
		for _, gbps := range []float64{400, 800} {
			for _, static := range []bool{false, true} {
				systems = append(systems, system{key, 8, 0, gbps, static, static})
			}
		}
		if d.GPUs[key].NVLinkDomain == 72 {
			systems = append(systems, system{key, 4, 72, 400, false, false}, system{key, 4, 72, 400, true, true})
		}
	}
	for _, sys := range systems {
		gpu := d.GPUs[sys.gpu]
		for _, f := range []Fabric{InfiniBand, Ethernet} {
			for _, servers := range []int{2, 3, 4, 7, 64, 333} {
				fv := validationView(sys.perServer, sys.perServer, sys.gbps, f)
				fv.nvlinkDomain, fv.static, fv.spread = sys.domain, sys.static, sys.cross
				fv.channels, fv.maxActiveQueuePairs = d.ECMP.ChannelsPerPeer, d.ECMP.MaxActiveQueuePairs
				fv.setJobSize(8*servers, sys.perServer)
				on, off := fv, fv
				on.sharp = f == InfiniBand
				off.noNVLS = true
				mOn, mOff := newNetModel(on, gpu, d, RDMA), newNetModel(off, gpu, d, RDMA)
				for _, stride := range []int{1, 8} {
					ranks := 8 * servers / stride
					for bytes := 4.0; bytes <= 1<<32; bytes *= 64 {
						a := mOn.allReduce(bytes, mOn.groupP(ranks, stride))
						b := mOff.allReduce(bytes, mOff.groupP(ranks, stride))
						if a.time > b.time*(1+1e-12) {
							t.Errorf("%+v %s %d servers stride %d %.0f B: %s %.4g s, slower than %s %.4g", sys, f, servers, stride, bytes, a.algo, a.time, b.algo, b.time)
						}
						if a.algo == AlgoSHARP && f != InfiniBand {
							t.Errorf("%s on Ethernet ran SHARP", sys.gpu)
						}
						if (a.algo == AlgoNVLS || a.algo == AlgoNVLSTree) && gpu.NVLSEfficiency == 0 {
							t.Errorf("%s without NVLink SHARP ran %s", sys.gpu, a.algo)
						}
					}
				}
			}
		}
	}
	fv := validationView(8, 8, 400, InfiniBand)
	fv.sharp = true
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	got := m.allReduce(1<<32, m.groupP(512, 1))
	want := 360.0 * 8 / 7 / 2 * 2 * 511 / 512
	if got.algo != AlgoSHARP || math.Abs(got.busbw-want) > 0.5 {
		t.Errorf("SHARP on 64 H100 servers: %s at %.1f GB/s, want sharp at %.1f", got.algo, got.busbw, want)
	}
}

// TestForcedAlgorithm: a forced algorithm runs where it can; where it
// cannot (NVLS on A100, SHARP off), the fastest runs. Mutation caught:
// a forced algorithm that cannot run returning nothing (a zero time).
func TestForcedAlgorithm(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		gpu, force, want string
		ranks            int
	}{
		{"h100", AlgoRing, AlgoRing, 8}, {"h100", AlgoNVLS, AlgoNVLS, 8}, {"a100", AlgoNVLS, AlgoRing, 8}, {"h100", AlgoSHARP, AlgoNVLS, 8},
		// Inside one server there is no NVLS tree; across 2 it runs
		// forced, even where the ring is faster (4 servers); never on A100.
		{"h100", AlgoNVLSTree, AlgoNVLS, 8}, {"h100", AlgoNVLSTree, AlgoNVLSTree, 32}, {"a100", AlgoNVLSTree, AlgoRing, 16},
		{"h100", AlgoRing, AlgoRing, 16},
	} {
		fv := validationView(8, 8, 400, InfiniBand)
		fv.algorithm = c.force
		m := newNetModel(fv, d.GPUs[c.gpu], d, RDMA)
		got := m.allReduce(1<<30, m.groupP(c.ranks, 1))
		if got.algo != c.want || !(got.time > 0) {
			t.Errorf("%s forced %s: %s in %g s, want %s", c.gpu, c.force, got.algo, got.time, c.want)
		}
	}
}

// BenchmarkExpectedMaxLoad times the collision expectation for a spread
// job at 2:1 on a three-tier fabric (the longest sums the model makes).
func BenchmarkExpectedMaxLoad(b *testing.B) {
	s1 := hashStage{flows: 8 * 32, p: 1.0 / 16, links: 16, groups: 2 * 512}
	s2 := hashStage{flows: 64, p: 1.0 / 32, links: 32, groups: 2 * 256}
	for i := 0; i < b.N; i++ {
		expectedMaxLoad(s1, s2)
	}
}

// TestRackScaleDataParallel: a data-parallel all-reduce over 20 GB200
// NVL72 racks (1,440 GPUs, four 400G NICs per 4-GPU tray) leaves each
// rack through the NICs of its crossing channels, 8 x 400/8 x 0.92 =
// 368 GB/s, under NVLink's 900 x 0.8 = 720: the ring runs at 368 GB/s
// busbw on an adaptive fabric, and less with static routing, which the
// rack's 72 NICs feeding one ring never showed. Mutations caught: every
// NIC of the rack feeding one ring (NVLink-bound at 720, fabric-blind),
// the cap applied to 8-GPU servers too.
func TestRackScaleDataParallel(t *testing.T) {
	d := testData(t)
	view := func(static bool) fabricView {
		fv := validationView(4, 4, 400, InfiniBand)
		fv.nvlinkDomain, fv.serversPerUnit, fv.spread = 72, 18, true
		fv.static, fv.qps, fv.maxActiveQueuePairs, fv.stages, fv.channels = static, 1, d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
		fv.setJobSize(1440, 4)
		return fv
	}
	// The bus bandwidth before the protocol's share (LL128 wins here:
	// 2 x 1,439 ring steps make Simple's latency 9.8 ms).
	fraction := map[string]float64{ProtoLL: 0.5, ProtoLL128: 0.92, ProtoSimple: 1}
	ring := func(fv fabricView) float64 {
		fv.algorithm = AlgoRing
		m := newNetModel(fv, d.GPUs["gb200"], d, RDMA)
		c := m.allReduce(1<<32, m.groupP(1440, 1))
		return c.busbw / fraction[c.proto]
	}
	if got := ring(view(false)); math.Abs(got-368) > 0.5 {
		t.Errorf("20 NVL72 racks, adaptive: ring busbw %.1f GB/s, want 368", got)
	}
	if a, s := ring(view(false)), ring(view(true)); s >= a {
		t.Errorf("20 NVL72 racks: static routing %.1f GB/s, not below adaptive %.1f", s, a)
	}
	// 8-GPU servers keep every NIC: 16 servers of 8 H100, 8 x 46 = 368,
	// not capped below.
	fv := validationView(8, 8, 400, InfiniBand)
	fv.algorithm = AlgoRing
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	if c := m.allReduce(1<<32, m.groupP(128, 1)); math.Abs(c.busbw/fraction[c.proto]-360) > 0.5 {
		got := c.busbw / fraction[c.proto]
		t.Errorf("16 H100 servers: ring busbw %.1f GB/s, want min(NVLink 360, 8 NICs 368) = 360", got)
	}
}

// TestBreakdownNamesNVLSTree: llama3-8b data-parallel over 2 servers of
// 8 H100 (tp 1, pp 1, no ZeRO: one 16-rank all-reduce of the gradients,
// 8 ranks per server) runs its all-reduce on the NVLS tree, and the
// breakdown says so in its in-network effect, a saving; forced to the
// ring, neither. Mutations caught: the NVLS tree left out of the names
// the breakdown knows (no in-network effect), its removal not turning it
// off (an effect of 0 s).
func TestBreakdownNamesNVLSTree(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	w.Model, w.TP, w.PP, w.VPP, w.ZeRO = "llama3-8b", 1, 1, 1, false
	w.GlobalBatchTokens = 1 << 20
	for _, force := range []string{"", AlgoRing} {
		w.Algorithm = force
		j, err := Estimate(Job{Network: testNetwork(16)}, w, d, Parts{Detail: true})
		if err != nil {
			t.Fatal(err)
		}
		ran := false
		for _, c := range j.Planned.Classes {
			ran = ran || c.Algorithm == AlgoNVLSTree
		}
		var in *Effect
		for i, e := range j.Effects {
			if e.Name == EffectInNetwork {
				in = &j.Effects[i]
			}
		}
		switch {
		case force == "" && (!ran || in == nil || !strings.Contains(in.Detail, "NVLS tree") || !(in.DeltaS < 0)):
			t.Errorf("DP over 2 H100 servers: NVLS tree ran %v, in-network effect %+v; want it run and named, a saving", ran, in)
		case force != "" && (ran || in != nil):
			t.Errorf("forced ring: NVLS tree ran %v, in-network effect %+v", ran, in)
		}
	}
}
