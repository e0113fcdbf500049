package perf

import (
	"math"
	"testing"
)

// collectiveView is a fabric of servers with nics x gbps NICs, for
// single-collective checks.
func collectiveView(gpusPerServer, nics int, gbps float64, f Fabric) fabricView {
	return fabricView{gpusPerServer: gpusPerServer, nicsPerServer: nics, nicGbps: gbps, fabric: f,
		oversub: 1, spineRatio: 1, serversPerUnit: 32, tiers: 2, maxActiveQueuePairs: 1, stages: 1, jobUplinks: 1}
}

// TestJCTCollectives checks single collectives against published
// nccl-tests measurements (bus bandwidth of a 1 GiB all-reduce).
func TestJCTCollectives(t *testing.T) {
	d := testData(t)
	const gib = 1 << 30
	tests := []struct {
		name      string
		source    string
		view      fabricView
		gpu       string
		ranks     int
		stride    int
		transport Transport
		want      float64 // GB/s
	}{
		{"400G NDR, per NIC", "NVIDIA/nccl-tests#252 and NCCL maintainers: ~46-48 GB/s per 400G NIC", collectiveView(8, 8, 400, InfiniBand), "h100", 16, 8, RDMA, 47},
		{"8-GPU H100 NVLink node", "ASTRA-sim GPU validation: 741.34 GB/s bidirectional = 370.7 one way", collectiveView(8, 8, 400, InfiniBand), "h100", 8, 1, RDMA, 370.7},
		{"TCP sockets, 100G", "NVIDIA/nccl#450: 4-6 GB/s busbw over 100 Gb/s TCP", collectiveView(8, 1, 100, Ethernet), "a100", 32, 1, TCP, 5},
		{"TCP fallback on RoCE", "areal-project/AReaL#639: ~5 GB/s busbw over sockets", collectiveView(8, 8, 200, Ethernet), "h100", 16, 8, TCP, 5},
		{"RDMA on the same RoCE cluster", "areal-project/AReaL#639: ~25 GB/s busbw expected with RDMA (200G NICs assumed)", collectiveView(8, 8, 200, Ethernet), "h100", 16, 8, RDMA, 25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.view
			v.algorithm = AlgoRing // nccl-tests rings (ASTRA-sim's validation too); NVLS has its own points
			m := newNetModel(v, d.GPUs[tc.gpu], d, tc.transport)
			g := m.group(tc.ranks, tc.stride)
			got := m.allReduce(gib, &g)
			busbw := arFactor(tc.ranks) * gib / got.time / 1e9
			e := (busbw - tc.want) / tc.want
			t.Logf("| %s | %.1f GB/s | %.1f GB/s | %+.1f%% | %s |", tc.name, tc.want, busbw, 100*e, tc.source)
			if math.Abs(e) > 0.15 {
				t.Errorf("busbw %.1f GB/s, published %.1f (%+.1f%%)", busbw, tc.want, 100*e)
			}
		})
	}
}
