package planner

import (
	"fmt"
	"math"
	"testing"
	"time"

	"fabricplan/data"
	"fabricplan/planner/hall"
)

// xdr100k is the 100,000-GPU XDR example laid out in a default hall.
func xdr100k(b testing.TB) (Scenario, *Catalog) {
	src, err := data.FS.ReadFile("scenarios/ib-xdr-100k.toml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := ScenarioFromData(src)
	if err != nil {
		b.Fatal(err)
	}
	s.Facility = &hall.Facility{}
	return s, testCatalog(b)
}

// BenchmarkHall100k times the layout and every link's length and medium
// for 100,000 GPUs: the extra of a plan with a [facility] table over the
// same plan without one, laid out afresh each time (the memo off).
// Target: under 1 s.
func BenchmarkHall100k(b *testing.B) {
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	s, cat := xdr100k(b)
	plain := s.Clone()
	plain.Facility = &hall.Facility{Layout: hall.LayoutFlat}
	for b.Loop() {
		t0 := time.Now()
		if _, err := Build(plain, cat); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		p, err := Build(s, cat)
		if err != nil {
			b.Fatal(err)
		}
		extra := time.Since(t1) - t1.Sub(t0)
		b.ReportMetric(extra.Seconds(), "layout-s")
		b.ReportMetric(float64(len(p.Hall.Racks)), "racks")
	}
}

// The JCT model adds each link's propagation delay: 5 ns per metre
// (facility.md §4) over a path up through every tier and back, each
// tier at its mean length sold. By hand from the BOM's cable lines of
// one DGX H100 SU at 40.8 kW a rack. Catches: lengths not fed to the
// JCT model, ns taken as us, one way instead of there and back.
func TestHallWireDelay(t *testing.T) {
	p := buildHall(t, hallScenario(256, hall.Facility{RackKW: 40.8, LeafPlacement: hall.PlaceEnd}))
	sum, n := map[string]float64{}, map[string]float64{}
	for _, l := range p.BOM {
		if l.Category != CatCable || l.Spare {
			continue
		}
		var m float64
		if _, err := fmtSscan(l.Where, &m); err != nil {
			t.Fatal(err)
		}
		sum[l.tier] += float64(l.Qty) * m
		n[l.tier] += float64(l.Qty)
	}
	want := 0.0
	for k := range sum {
		want += 2 * sum[k] / n[k] * 5 / 1000
	}
	if got := p.perfNetwork().WireUS; math.Abs(got-want) > 1e-12 || want < 0.1 {
		t.Errorf("wire delay %g us, want %g us", got, want)
	}
	plain := hallScenario(256, hall.Facility{Layout: hall.LayoutFlat})
	q, err := Build(plain, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if q.perfNetwork().WireUS != 0 {
		t.Errorf("a plan without a hall has wire delay %g", q.perfNetwork().WireUS)
	}
}

// BenchmarkPlanCold is BenchmarkPlan's fixed-switch plans with every hall
// laid out and every link walked afresh (the memo off): the first plan
// of a scenario, where BenchmarkPlan times the replans that follow.
func BenchmarkPlanCold(b *testing.B) {
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	cat := testCatalog(b)
	for _, g := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("gpus=%d", g), func(b *testing.B) {
			benchBuilds(b, planBenchScenario(g), cat)
		})
	}
}
