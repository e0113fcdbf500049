package planner

import (
	"fmt"
	"testing"
)

// BenchmarkPlan times one full plan (sizing, BOM, cost, power, JCT).
// Target: under 50 µs.
func BenchmarkPlan(b *testing.B) {
	cat := testCatalog(b)
	for _, g := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("gpus=%d", g), func(b *testing.B) {
			s := NewScenario()
			s.Cluster.GPUs = g
			s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g" // the Tomahawk 6 a 400G ConnectX-7 joins
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Build(s, cat); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("gpus=100000/switch=auto", func(b *testing.B) {
		s := NewScenario()
		s.Cluster.GPUs = 100_000
		s.Network.Fabric = Ethernet
		for i := 0; i < b.N; i++ {
			if _, err := Build(s, cat); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSweep times a 1,000-point sweep from 256 to 1M GPUs. Target:
// under 50 ms.
func BenchmarkSweep(b *testing.B) {
	cat := testCatalog(b)
	sizes, err := ParseGPUList("256:1000000:1000")
	if err != nil {
		b.Fatal(err)
	}
	s := NewScenario()
	s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g" // the Tomahawk 6 a 400G ConnectX-7 joins
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, r := range Sweep(s, cat, sizes) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	}
	b.ReportMetric(float64(len(sizes)), "points")
}

// BenchmarkJCT times one JCT evaluation (planned and TCP baseline).
// Target: under 20 µs.
func BenchmarkJCT(b *testing.B) {
	cat := testCatalog(b)
	s := NewScenario()
	s.Cluster.GPUs = 16384
	p, err := Build(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	w := NewWorkload()
	w.Model, w.EP, w.PP = "mixtral-8x7b", 8, 2
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := EstimateJCT(p, w, cat.JCT); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJCTSweep times 1,000 JCT evaluations over NIC speeds and sizes.
// Target: under 50 ms.
func BenchmarkJCTSweep(b *testing.B) {
	cat := testCatalog(b)
	var plans []*Plan
	for _, g := range []int{1024, 8192, 65536} {
		s := NewScenario()
		s.Cluster.GPUs = g
		p, err := Build(s, cat)
		if err != nil {
			b.Fatal(err)
		}
		plans = append(plans, p)
	}
	w := NewWorkload()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 1000; k++ {
			if _, err := EstimateJCT(plans[k%len(plans)], w, cat.JCT); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFindCheaper times the on-demand cheaper-design check that
// plan and the Summary run (never a sweep): a few dozen fabrics sized
// and priced, at the 2,056 GPUs and at 100,000 GPUs.
func BenchmarkFindCheaper(b *testing.B) {
	cat := testCatalog(b)
	for _, g := range []int{2056, 100_000} {
		b.Run(fmt.Sprintf("gpus=%d", g), func(b *testing.B) {
			s := NewScenario()
			s.Cluster.GPUs, s.Network.Planes = g, 2
			p, err := Build(s, cat)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				q := *p
				q.Cheaper, q.Notes = nil, nil
				q.FindCheaper(cat)
			}
		})
	}
}
