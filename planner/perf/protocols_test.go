package perf

import (
	"math"
	"testing"
)

// All-reduces on 2 servers of 8 H100 with eight 400G InfiniBand NICs each
// (16 ranks, 8 per NVLink domain, both under one leaf: 1 switch x 0.13
// us per network step), against NCCL's protocol costs worked by hand
// (data/jct.toml [collective.protocols], tuning.cc), NVLink SHARP off
// (NCCL_NVLS_ENABLE=0; the NVLS tree's own hand values are in
// TestNVLSTreeByHand):
//
// 4 bytes (the bandwidth term, 2 x 15/16 x 4 B / 360 GB/s, is 2e-11 s):
//
//	ring LL     6.6 + 28 x 0.6 + 2 x (2.7 + 0.13)        = 29.06 us
//	ring LL128  14 + 28 x 1.9 + 2 x (4.0 + 0.13)         = 75.46
//	ring Simple 8.4 + 28 x 3.4 + 2 x (14 + 0.13)         = 131.86
//	tree LL     6.8 + 2 x (7 x 0.6 + 1 x (5.0 + 0.13))   = 25.46  <- fastest
//	tree LL128  14 + 2 x (7 x 1.25 + (8.5 + 0.13))       = 48.76
//	tree Simple 8.4 + 2 x (7 x 4.0 + (14 + 0.13))        = 92.66
//
// 1 GiB: bus bandwidth min(NVLink 450 x 0.8, 8 NICs x 46) = 360 GB/s,
// bandwidth term 2 x 15/16 x 2^30 / 360e9 = 5.5924 ms:
//
//	ring Simple 131.86 us + 5.5924 ms           = 5.7243 ms  <- fastest
//	tree Simple 92.66 us + 5.5924 / 0.92 ms     = 6.1720
//	ring LL128  75.46 us + 5.5924 / 0.92 ms     = 6.1546
//	ring LL     29.06 us + 5.5924 / 0.5 ms      = 11.2144
//
// Mutations caught: Simple only (the 4-byte all-reduce at 93 us), the
// protocol's bandwidth fraction left out (LL wins at 1 GiB), the tree's
// 0.92 left off, the reported bus bandwidth not that of the choice.
func TestAllReduceProtocols(t *testing.T) {
	d := testData(t)
	fv := collectiveView(8, 8, 400, InfiniBand)
	fv.noNVLS = true
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	g := m.group(16, 1)
	bwTerm := func(bytes float64) float64 { return 2 * 15.0 / 16 * bytes / 360e9 }
	for _, c := range []struct {
		name        string
		bytes       float64
		algo, proto string
		want        float64 // seconds
		busbw       float64 // GB/s of the choice
	}{
		{"4 bytes", 4, AlgoTree, ProtoLL, 25.46e-6 + bwTerm(4)/(0.92*0.5), 360 * 0.92 * 0.5},
		{"1 GiB", 1 << 30, AlgoRing, ProtoSimple, 131.86e-6 + bwTerm(1<<30), 360},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := m.allReduce(c.bytes, &g)
			if got.algo != c.algo || got.proto != c.proto {
				t.Errorf("%s/%s ran, want %s/%s", got.algo, got.proto, c.algo, c.proto)
			}
			if math.Abs(got.time-c.want) > 1e-9 {
				t.Errorf("%.4f us, want %.4f", got.time*1e6, c.want*1e6)
			}
			if math.Abs(got.busbw-c.busbw) > 1e-9 {
				t.Errorf("bus bandwidth %.2f GB/s, want %.2f", got.busbw, c.busbw)
			}
		})
	}
}

// The message size decides the protocol: as an all-reduce grows on the
// same 2 servers, the choice moves from LL to LL128 or Simple and never
// back to LL, and each choice is the fastest of the six. Mutation
// caught: a protocol picked by a fixed threshold rather than by time.
func TestProtocolChoiceBySize(t *testing.T) {
	d := testData(t)
	m := newNetModel(collectiveView(8, 8, 400, InfiniBand), d.GPUs["h100"], d, RDMA)
	g := m.group(16, 1)
	left := false
	for bytes := 4.0; bytes <= 1<<32; bytes *= 4 {
		got := m.allReduce(bytes, &g)
		if got.proto != ProtoLL {
			left = true
		} else if left {
			t.Errorf("%.0f bytes: back to LL", bytes)
		}
		bw, _ := m.bwTime(bytes, &g, arFactor)
		for _, p := range d.protocols {
			ring := m.ringLatency(p, 30, 2, &g) + bw/p.BWFraction
			tree := m.treeLatency(p, &g) + bw/(0.92*p.BWFraction)
			if math.Min(ring, tree) < got.time-1e-15 {
				t.Errorf("%.0f bytes: %s/%s at %.3g s, but %s is faster (ring %.3g, tree %.3g)", bytes, got.algo, got.proto, got.time, p.Name, ring, tree)
			}
		}
	}
	if !left {
		t.Error("LL chosen even at 4 GiB")
	}
}

// TestReduceScatterPairGather: the pair's all-gather (b bytes, its time
// alone) takes what the same bytes take as the pair's reduce-scatter
// (NCCL times an all-gather as a reduce-scatter), for a group inside one
// server, 2 servers and 64 servers, at sizes where a ring protocol wins
// and where PAT (latency logarithmic in the servers) wins: the test
// checks both win somewhere. Mutations caught: the all-gather's PAT
// dropped (its ring time kept at 64 servers and 4 KiB), its ring's
// first protocol skipped, its time taken from the reduce-scatter's
// protocol.
func TestReduceScatterPairGather(t *testing.T) {
	d := testData(t)
	m := newNetModel(collectiveView(8, 8, 400, InfiniBand), d.GPUs["h100"], d, RDMA)
	won := map[string]bool{}
	for _, ranks := range []int{8, 16, 512} {
		g := m.group(ranks, 1)
		for _, sizes := range [][2]float64{{4 << 10, 1 << 30}, {1 << 30, 4 << 10}, {64, 1 << 20}, {1 << 20, 64}} {
			var rs, alone collTime
			gotS := m.reduceScatterPair(sizes[0], sizes[1], &g, &rs)
			m.reduceScatterPair(sizes[1], sizes[0], &g, &alone)
			if gotS != alone.time {
				t.Errorf("%d ranks, %.0f bytes beside %.0f: all-gather %.6g s, as a reduce-scatter %.6g s (%s/%s)", ranks, sizes[1], sizes[0], gotS, alone.time, alone.algo, alone.proto)
			}
			won[alone.algo] = true
		}
	}
	if !won[AlgoPAT] || !won[AlgoRing] {
		t.Errorf("algorithms that won: %v, want both ring and pat", won)
	}
}
