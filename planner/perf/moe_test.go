package perf

import (
	"math"
	"testing"
)

// Node-limited routing (DeepSeek-V3: a token goes to experts on at most M
// nodes, sent once per node, fanned out over NVLink) against NCCL's all-
// to-all of every copy, on 8-GPU servers with one 400G InfiniBand NIC per
// GPU (46 GB/s each after efficiency 0.92). Copies of one token that
// leave its server, by hand, top-8 experts spread evenly:
//
//	ep 64 on 8 servers, no limit:  8 x (64-8)/64            = 7
//	ep 64, M = 4:  min(4, 8(1-(7/8)^8) = 5.253) x 7/8       = 3.5
//	ep 64, M = 8:  5.253 x 7/8 (one copy per node only)     = 4.596
//	ep 16 on 2 servers, M = 4:  min(4, 2(1-(1/2)^8)) x 1/2  = 0.996
//
// A 1 GiB all-to-all (all copies of a GPU's tokens) moves that share of
// its bytes over the GPU's 46 GB/s; latency is base 8.4 + net hop 14 +
// 1 switch (all under one leaf) x 0.13 us, plus 3.25 us per remote peer: 56 peers
// without a limit, min(M, nodes-1) with one. Mutations caught: the limit
// ignored (7 copies), copies not deduplicated per node (M = 8 gives 7),
// the own node counted as remote, the per-peer latency left out or
// charged per rank rather than per remote peer.
func TestNodeLimitedRouting(t *testing.T) {
	d := testData(t)
	const gib = 1 << 30
	for _, c := range []struct {
		name         string
		ep, limit    int
		copies       float64 // leaving the server, of 8
		remotePeers  int
		wantLatencyS float64
	}{
		{"ep 64, no limit", 64, 0, 7, 56, (8.4 + 14 + 0.13 + 56*3.25) * 1e-6},
		{"ep 64, 4 nodes", 64, 4, 3.5, 4, (8.4 + 14 + 0.13 + 4*3.25) * 1e-6},
		{"ep 64, 8 nodes", 64, 8, 8 * (1 - math.Pow(7.0/8, 8)) * 7 / 8, 7, (8.4 + 14 + 0.13 + 7*3.25) * 1e-6},
		{"ep 16, 4 nodes", 16, 4, 2 * (1 - math.Pow(0.5, 8)) / 2, 1, (8.4 + 14 + 0.13 + 1*3.25) * 1e-6},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := collectiveView(8, 8, 400, InfiniBand)
			m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
			g := m.group(c.ep, 1)
			r := moeRouting{topK: 8, nodes: c.limit}
			if got := r.remoteCopies(&g); math.Abs(got-c.copies) > 1e-3 {
				t.Errorf("%.4f copies leave the server, want %.4f", got, c.copies)
			}
			if got := r.remotePeers(&g); got != c.remotePeers {
				t.Errorf("%d remote peers, want %d", got, c.remotePeers)
			}
			got := m.allToAllRouted(gib, &g, r).time
			bw := c.copies / 8 * gib / (400.0 / 8 * 0.92 * 1e9)
			if c.limit > 0 { // every copy crosses NVLink once, at 450 x 0.8 GB/s
				bw = math.Max(bw, gib/(450*0.8*1e9))
			}
			if want := c.wantLatencyS + bw; math.Abs(got-want) > 1e-9 {
				t.Errorf("all-to-all %.6f s, want %.6f (latency %.1f us + %.3f ms over the NIC)", got, want, c.wantLatencyS*1e6, bw*1e3)
			}
		})
	}
}
