package planner

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func searchScenario(gpus int) Scenario {
	s := NewScenario()
	s.Cluster.GPUs = gpus
	return s
}

func TestSearchFrontMatchesBruteForce(t *testing.T) {
	cat := testCatalog(t)
	for _, gpus := range []int{64, 512, 4096} {
		res, err := Search(context.Background(), searchScenario(gpus), cat, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Brute force: a design is on the front iff no other design is at
		// most as expensive and as slow, and better in one.
		var brute []*Design
		for _, a := range res.Designs {
			dominated := false
			for _, b := range res.Designs {
				if b != a && b.CostUSD <= a.CostUSD && b.Days <= a.Days && (b.CostUSD < a.CostUSD || b.Days < a.Days) {
					dominated = true
					break
				}
			}
			if !dominated {
				brute = append(brute, a)
			}
		}
		// Designs tied on both cost and JCT: the front keeps one of each.
		uniq := map[[2]float64]bool{}
		for _, d := range brute {
			uniq[[2]float64{d.CostUSD, d.Days}] = true
		}
		if len(uniq) != len(res.Front) {
			t.Errorf("%d GPUs: front has %d designs, brute force %d distinct", gpus, len(res.Front), len(uniq))
		}
		for _, d := range res.Front {
			if !uniq[[2]float64{d.CostUSD, d.Days}] {
				t.Errorf("%d GPUs: %s on the front but dominated", gpus, d.Label)
			}
		}
		for _, d := range res.Designs {
			if d.Plan == nil || d.Plan.JCT == nil {
				t.Fatalf("%s has no plan", d.Label)
			}
			if err := d.Scenario.Validate(cat); err != nil {
				t.Errorf("%s does not validate: %v", d.Label, err)
			}
			if d.Plan.Switch.Fabric != d.Scenario.Network.Fabric || d.Plan.Switch.Radix(d.Plan.PortGbps) == 0 {
				t.Errorf("%s: switch %s cannot build it", d.Label, d.Plan.Switch.Key)
			}
		}
		if res.Evaluated < len(res.Designs) || len(res.Designs) < 20 {
			t.Errorf("%d GPUs: %d evaluated, %d designs", gpus, res.Evaluated, len(res.Designs))
		}
	}
}

func TestSearchTargets(t *testing.T) {
	cat := testCatalog(t)
	base := searchScenario(2048)
	res, err := Search(context.Background(), base, cat, SearchOptions{WithinPct: 5})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cheapest
	if c == nil || c.Days > res.Fastest.Days*1.05 {
		t.Fatalf("within 5%%: %+v", c)
	}
	for _, d := range res.Designs {
		if d.Days <= res.Target && d.CostUSD < c.CostUSD {
			t.Errorf("%s meets the target and is cheaper than the pick %s", d.Label, c.Label)
		}
	}
	res, err = Search(context.Background(), base, cat, SearchOptions{TargetDays: 0.001, BudgetUSD: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cheapest != nil || res.FastestInBudget != nil {
		t.Error("impossible target and budget were met")
	}
	for _, want := range []string{"no design finishes within", res.Fastest.Label, "no design costs"} {
		if !strings.Contains(res.Message, want) {
			t.Errorf("message %q lacks %q", res.Message, want)
		}
	}
	budget := res.Front[len(res.Front)/2].CostUSD
	res, _ = Search(context.Background(), base, cat, SearchOptions{BudgetUSD: budget})
	if f := res.FastestInBudget; f == nil || f.CostUSD > budget {
		t.Fatalf("budget pick %+v", f)
	}
	for _, d := range res.Designs {
		if d.CostUSD <= budget && d.Days < res.FastestInBudget.Days {
			t.Errorf("%s is within budget and faster than the pick", d.Label)
		}
	}
}

// A cancelled search says it was cancelled, with the context's error
// inside. Mutation caught: dropping the ctx.Err() check after the
// workers stop, which reported the cancelled search as "no design in
// the catalog fits" (any error passed the old test).
func TestSearchCancel(t *testing.T) {
	cat := testCatalog(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Search(ctx, searchScenario(100000), cat, SearchOptions{})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNoDesigns) || err.Error() != "search cancelled: context canceled" {
		t.Errorf("cancelled search: %v, want \"search cancelled: context canceled\"", err)
	}
}

// Eight GPUs cannot hold the default 32-GPU workload: the search says no
// design has a JCT estimate for 8 GPUs. Mutations caught: reporting it
// as out of memory (ErrNoMemory) or as a cancellation, or without the
// GPU count the user must change.
func TestSearchNoJCT(t *testing.T) {
	cat := testCatalog(t)
	_, err := Search(context.Background(), searchScenario(8), cat, SearchOptions{})
	if !errors.Is(err, ErrNoDesigns) || errors.Is(err, ErrNoMemory) || errors.Is(err, context.Canceled) ||
		!strings.Contains(err.Error(), "no buildable design for 8 GPUs has a JCT estimate") {
		t.Errorf("8 GPUs with the default 32-GPU workload: %v, want ErrNoDesigns naming 8 GPUs", err)
	}
}

// BenchmarkSearch runs a full search for 100k GPUs on all cores. Target:
// under 1 s.
func BenchmarkSearch(b *testing.B) {
	cat := testCatalog(b)
	s := searchScenario(100_000)
	var designs, laid int
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		res, err := Search(context.Background(), s, cat, SearchOptions{TargetDays: 1})
		if err != nil {
			b.Fatal(err)
		}
		designs, laid = res.Evaluated, res.LaidOut
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(designs), "designs")
	b.ReportMetric(float64(laid), "laid-out")
	b.ReportMetric(float64(designs)*float64(b.N)/b.Elapsed().Seconds(), "designs/s")
}
