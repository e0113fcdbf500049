package planner

import (
	"fabricplan/planner/perf"
	"math"
	"testing"
)

// A custom server's NVLink domain is its own GPUs, however large the GPU
// preset's: NVLink does not leave the chassis. On 4-GPU servers with four
// 400G InfiniBand NICs each, a tensor-parallel group of 8 spans two
// servers and crosses the fabric, where its bus bandwidth is the server's
// 4 x 50 GB/s x 0.92 (data/jct.toml [efficiency] infiniband) = 184 GB/s,
// not NVLink's 450 x 0.8 = 360; and over TCP/IP it is slower. The data-
// parallel group of tp 1 never gets more than the NICs carry, 184 GB/s,
// at any size of server. Mutations caught: the preset's 8-GPU domain
// merging two servers (tp 8 charged as NVLink, busbw 360), the TCP
// baseline equal to RDMA for tp, DP busbw above the NICs' line rate.
func TestNVLinkDomainPerServer(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct {
		name          string
		perServer, tp int
		tpCrosses     bool
		tpBusBW       float64 // GB/s, by hand; 0 when tp is 1
		dpBusBWAtMost float64 // the NICs' share of one DP rank's domain
	}{
		{"tp 8 over two 4-GPU servers", 4, 8, true, 4 * 50 * 0.92, 4 * 50 * 0.92},
		{"tp 4 inside a 4-GPU server", 4, 4, false, 450 * 0.8, 4 * 50 * 0.92 / 4},
		{"tp 2 over two 1-GPU servers", 1, 2, true, 50 * 0.92, 50 * 0.92},
		{"tp 1 on 2-GPU servers", 2, 1, false, 0, 2 * 50 * 0.92},
		{"tp 8 on 8-GPU servers", 8, 8, false, 450 * 0.8, 8 * 50 * 0.92 / 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.GPUs, s.Cluster.GPUsPerServer = 96, c.perServer
			w := perf.NewWorkload()
			w.Model, w.TP, w.PP, w.VPP = "llama3-8b", c.tp, 1, 1
			w.Algorithm = perf.AlgoRing // the hand values are the ring's; NVLS is checked in fabricmodel_test.go
			s.Workload = &w
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			j := p.JCT
			for i, cl := range j.Planned.Classes {
				switch cl.Name {
				case perf.ClassTP:
					if cl.CrossesFabric != c.tpCrosses || math.Abs(cl.BusBWGBs-c.tpBusBW) > 1e-6 {
						t.Errorf("tp: crosses %v at %.1f GB/s, want %v at %.1f", cl.CrossesFabric, cl.BusBWGBs, c.tpCrosses, c.tpBusBW)
					}
					if tcp := j.Baseline.Classes[i]; c.tpCrosses && tcp.TimeS <= cl.TimeS*1.5 {
						t.Errorf("tp over TCP %.4f s, RDMA %.4f s: the fabric is not charged", tcp.TimeS, cl.TimeS)
					}
				case perf.ClassDP:
					if cl.BusBWGBs > c.dpBusBWAtMost+1e-6 {
						t.Errorf("dp busbw %.1f GB/s above the NICs' %.1f", cl.BusBWGBs, c.dpBusBWAtMost)
					}
				}
			}
		})
	}
}
