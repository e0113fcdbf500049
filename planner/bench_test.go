package planner

import (
	"fabricplan/data"
	"fabricplan/planner/perf"
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"
)

// reportCPU adds the CPU time per op (all goroutines, user and system)
// since start: on a shared machine wall time also counts the waits for a
// core, and CPU time says what the work costs.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// BenchmarkPlan times one full plan: sizing, media, BOM, cost, power,
// sanity bands, JCT with its effects and findings, the networks beside
// the back end, the failure what-if and goodput, the packed alternative.
// Targets: under 50 µs of CPU at every size; with the switch chosen
// automatically, under 60 µs.
func BenchmarkPlan(b *testing.B) {
	cat := testCatalog(b)
	for _, g := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("gpus=%d", g), func(b *testing.B) {
			benchBuilds(b, planBenchScenario(g), cat)
		})
	}
	for _, g := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("gpus=%d/switch=auto", g), func(b *testing.B) {
			s := NewScenario()
			s.Cluster.GPUs = g
			s.Network.Fabric = Ethernet
			benchBuilds(b, s, cat)
		})
	}
}

// planBenchScenario is BenchmarkPlan's scenario of gpus GPUs.
func planBenchScenario(gpus int) Scenario {
	s := NewScenario()
	s.Cluster.GPUs = gpus
	s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk6-100g" // the Tomahawk 6 a 400G ConnectX-7 joins
	return s
}

// benchBuilds builds s b.N times, reporting allocations and CPU time.
func benchBuilds(b *testing.B, s Scenario, cat *Catalog) {
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := Build(s, cat); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkJCT times one JCT evaluation (planned and TCP baseline, with
// the breakdown by fabric effect and the findings) on a 16,384-GPU plan.
// Target: under 5 µs. Llama 3 70B and Mixtral 8x7B (ep 8, pp 2) fit in
// memory; Llama 3 405B at pp 1 does not (373 GB per GPU), so its
// estimate also searches for the cheapest change that fits:
// "over-memory/no-fix" is the same estimate without that search, and the
// difference of the two is the search. (Before these sub-benchmarks,
// BenchmarkJCT counted the 16,384-GPU plan it builds first: at -benchtime
// 20x that setup was most of the 175-419 µs it reported.)
func BenchmarkJCT(b *testing.B) {
	cat := testCatalog(b)
	s := NewScenario()
	s.Cluster.GPUs = 16384
	p, err := Build(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	mixtral, big := perf.NewWorkload(), perf.NewWorkload()
	mixtral.Model, mixtral.EP, mixtral.PP = "mixtral-8x7b", 8, 2
	big.Model, big.PP = "llama3-405b", 1
	for _, tc := range []struct {
		name string
		w    perf.Workload
		fix  bool
	}{
		{"llama3-70b", perf.NewWorkload(), true},
		{"mixtral-8x7b", mixtral, true},
		{"over-memory", big, true},
		{"over-memory/no-fix", big, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := estimateJCT(p, tc.w, cat.JCT, tc.fix); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
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
	w := perf.NewWorkload()
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

// BenchmarkLoadCatalog times what every start of the program does
// first: LoadCatalog of the shipped data (catalog, JCT, inference,
// reliability, prices, facility), checks, indexes and volume prices
// included. "built" reads data/ as shipped, so each document comes back
// decoded at build time (internal/builtdoc); "toml" reads the same
// documents with a blank line added to each, so their bytes differ from
// the built ones and they are decoded from their TOML, as every start
// did before (issue 49: about 12 ms of CPU, half of a headless
// plan --json).
func BenchmarkLoadCatalog(b *testing.B) {
	edited := fstest.MapFS{}
	err := fs.WalkDir(data.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := data.FS.ReadFile(path)
		edited[path] = &fstest.MapFile{Data: append(src, '\n')}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		fsys fs.FS
	}{{"built", data.FS}, {"toml", edited}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := LoadCatalog(tc.fsys); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}
