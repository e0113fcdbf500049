package phases

import (
	"encoding/json"
	"errors"
	"fabricplan/planner"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/resilience"
)

// dgxH100 is a DGX H100 SuperPOD scenario (QM9700, 1:1): one scalable
// unit is 32 DGX = 256 GPUs on 8 rail leaves of 32 down and 32 up ports
// (NVIDIA DGX SuperPOD H100 reference architecture, compute fabric).
func dgxH100(units ...int) planner.Scenario {
	s := planner.NewScenario()
	s.Cluster.System = "dgx-h100"
	s.Network.Switch = "qm9700"
	for _, u := range units {
		s.Phases = append(s.Phases, planner.Phase{Units: u})
	}
	s.Cluster.GPUs = 256 * units[len(units)-1]
	return s
}

func mustPhases(t *testing.T, s planner.Scenario) *PhasedPlan {
	t.Helper()
	pp, err := PlanPhases(s, testCatalog(t))
	if err != nil {
		t.Fatalf("PlanPhases: %v", err)
	}
	return pp
}

// TestPhasesDGXH100ByHand works growth of a DGX H100 SuperPOD by hand
// from the published scalable-unit table (1 SU: 8 leaves, 4 spines; 2 SU:
// 16 and 8; 4 SU: 32 and 16; a leaf's 32 uplinks spread evenly over the
// spines). Built for 4 SU, phase 1 already has the 16 spines and nothing
// moves. Grown as you go, each old leaf keeps 32/S_new links on each of
// its S_old old spines and moves the rest: 1 -> 4 SU moves 8 x (32 - 4 x
// 2) = 192 leaf uplinks; 1 -> 2 -> 4 SU moves 8 x (32 - 4 x 4) = 128, then
// 16 x (32 - 8 x 2) = 256.
// Catches: the final-size strategy sizing spines per phase (spines added,
// links moved); the grow strategy keeping the final spines (no spines
// added); links compared by port numbers instead of by the devices they
// join (the 1 -> 4 SU step would move 252, all but leaf 1's first four).
func TestPhasesDGXH100ByHand(t *testing.T) {
	type step struct{ leaves, spines, spinesAdded, moved int }
	cases := []struct {
		name       string
		units      []int
		final      []step
		grow       []step
		recableHrs float64 // first re-cabling window at 10 min a link, 1 crew
	}{
		{"1 to 4 SU", []int{1, 4},
			[]step{{8, 16, 16, 0}, {32, 16, 0, 0}},
			[]step{{8, 4, 4, 0}, {32, 16, 12, 192}}, 192 * 10.0 / 60},
		{"1 to 2 to 4 SU", []int{1, 2, 4},
			[]step{{8, 16, 16, 0}, {16, 16, 0, 0}, {32, 16, 0, 0}},
			[]step{{8, 4, 4, 0}, {16, 8, 4, 128}, {32, 16, 8, 256}}, 128 * 10.0 / 60},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pp := mustPhases(t, dgxH100(tc.units...))
			for _, want := range []struct {
				key   string
				steps []step
			}{{StrategyFinal, tc.final}, {StrategyGrow, tc.grow}} {
				sp := pp.Strategy(want.key)
				if len(sp.Steps) != len(want.steps) {
					t.Fatalf("%s: %d phases, want %d", want.key, len(sp.Steps), len(want.steps))
				}
				for i, w := range want.steps {
					st := sp.Steps[i]
					got := step{st.Switches.Leaf, st.Switches.Spine, st.SwitchesAdded.Spine, st.LinksMoved.Total}
					if got != w {
						t.Errorf("%s phase %d: leaves, spines, spines added, links moved = %v, want %v", want.key, i+1, got, w)
					}
					if st.LinksMoved.ServerLeaf != 0 || st.LinksMoved.SpineCore != 0 {
						t.Errorf("%s phase %d: moved %+v, want only leaf uplinks", want.key, i+1, st.LinksMoved)
					}
				}
			}
			rc := pp.Strategy(StrategyGrow).Steps[1].Recabling
			if rc == nil || math.Abs(rc.Hours-tc.recableHrs) > 1e-9 {
				t.Errorf("re-cabling = %+v, want %g hours", rc, tc.recableHrs)
			}
		})
	}
}

// TestPhasesRecablingCrews: the window is ceil(moved / crews) x minutes.
// Catches crews ignored, or minutes per link taken per crew twice.
func TestPhasesRecablingCrews(t *testing.T) {
	s := dgxH100(1, 4)
	s.Growth = &planner.Growth{RecableMin: 15, RecableCrews: 5}
	rc := mustPhases(t, s).Strategy(StrategyGrow).Steps[1].Recabling
	// 192 links over 5 crews: 39 rounds of 15 min = 9.75 h.
	if rc == nil || rc.Hours != 9.75 || rc.Crews != 5 || rc.MinPerLink != 15 {
		t.Fatalf("re-cabling = %+v, want 9.75 h for 5 crews at 15 min", rc)
	}
	if rc.Behaviour != resilience.Continues || !strings.Contains(rc.Text, "keeps training") {
		t.Errorf("InfiniBand reroutes around a moved link: %+v", rc)
	}
}

// TestPhasesPrebuy: pre-buying the final spines and their optics moves
// spend to phase 1 and leaves the total alone. Catches pre-buy adding
// parts (total grows) or not moving the spines' optics forward.
func TestPhasesPrebuy(t *testing.T) {
	base := mustPhases(t, dgxH100(1, 4)).Strategy(StrategyFinal)
	s := dgxH100(1, 4)
	s.Growth = &planner.Growth{PrebuyPorts: true}
	pre := mustPhases(t, s).Strategy(StrategyFinal)
	if math.Abs(pre.Last().CostUSD-base.Last().CostUSD) > 1e-6 {
		t.Errorf("total %v with pre-buy, %v without: want equal", pre.Last().CostUSD, base.Last().CostUSD)
	}
	// Phase 1 without pre-buy: 8 leaves' 256 uplinks land on 16 spines
	// (16 each); the spines' other 48 ports of the 4-SU build are filled
	// later. With it, their switch-side optics for all 1,024 spine ports
	// come first: 256 more ports' worth of modules is 768 more ports.
	if pre.Steps[0].TransceiversBought <= base.Steps[0].TransceiversBought {
		t.Errorf("phase 1 optics %d with pre-buy, %d without: want more", pre.Steps[0].TransceiversBought, base.Steps[0].TransceiversBought)
	}
	if pre.Steps[0].CostAddedUSD <= base.Steps[0].CostAddedUSD {
		t.Errorf("phase 1 spend %v with pre-buy, %v without: want more", pre.Steps[0].CostAddedUSD, base.Steps[0].CostAddedUSD)
	}
}

// phaseScenarios spans systems, styles, fabrics, ratios, planes and off-grid sizes.
func phaseScenarios() []planner.Scenario {
	var out []planner.Scenario
	add := func(gpus int, phases []int, edit func(s *planner.Scenario)) {
		s := planner.NewScenario()
		s.Cluster.GPUs = gpus
		for _, g := range phases {
			s.Phases = append(s.Phases, planner.Phase{GPUs: g})
		}
		edit(&s)
		out = append(out, s)
	}
	for _, ratio := range []string{"1:1", "2:1", "3:1", "5:3"} {
		add(3000, []int{300, 1000, 2100}, func(s *planner.Scenario) { s.Network.Oversubscription = ratio; s.Network.Switch = "qm9700" })
		add(7777, []int{999, 4097}, func(s *planner.Scenario) {
			s.Network.Oversubscription, s.Network.Fabric, s.Network.Switch = ratio, planner.Ethernet, "tomahawk5"
		})
	}
	add(5000, []int{8, 100, 1000, 4999}, func(s *planner.Scenario) { s.Network.RailOptimized = false; s.Network.Switch = "qm9700" })
	add(2500, []int{1000}, func(s *planner.Scenario) { s.Network.RailOptimized = false; s.Network.Oversubscription = "2:1" })
	add(20000, []int{700, 5000, 9000}, func(s *planner.Scenario) {
		s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes = planner.Ethernet, 800, 2, 2
	})
	for _, sys := range []string{"dgx-h100", "dgx-b200", "dgx-b300", "hgx-h100", "gb200-nvl72", "gb300-nvl72"} {
		add(4100, []int{72, 1000, 2300}, func(s *planner.Scenario) { s.Cluster.System = sys })
		add(4100, []int{72, 1000, 2300}, func(s *planner.Scenario) {
			s.Cluster.System, s.Network.Fabric, s.Network.Oversubscription = sys, planner.Ethernet, "2:1"
		})
	}
	add(40000, nil, func(s *planner.Scenario) { s.Network.Tiers = 3; s.Network.Switch = "qm9700" })
	add(1500, []int{200, 900}, func(s *planner.Scenario) { s.Network.Tiers = 3; s.Network.Switch = "qm9700" })
	return out
}

// TestPhasesProperties holds over every scenario of phaseScenarios:
// each phase's built ratio is at most the asked one, or a finding names
// the phase; links moved never exceed the links of the phase before, nor
// links added those of the phase; building for the final size moves
// nothing and ends on the final plan's switches and links; each
// strategy's spend is the final plan's cost plus the parts it retired,
// never less.
// Catches: drift left unsaid; moved counted over both phases; the final
// strategy re-cabling or leaving parts out; a phase's spend counted from
// its whole bill instead of what it adds (the sum would exceed), or
// retired parts netted out (the sum would fall below).
func TestPhasesProperties(t *testing.T) {
	cat := testCatalog(t)
	for _, s := range phaseScenarios() {
		name := fmt.Sprintf("%s/%s/%d/%s/rail=%v/tiers=%d", s.Cluster.System, s.Network.Fabric, s.Cluster.GPUs,
			s.Network.Oversubscription, s.Network.RailOptimized, s.Network.Tiers)
		t.Run(name, func(t *testing.T) {
			pp, err := PlanPhases(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			final := pp.Final
			for _, sp := range pp.Strategies {
				checkStrategy(t, sp, final)
			}
			fs := pp.Strategy(StrategyFinal)
			last := fs.Last()
			if last.Links != final.Links || last.Switches != switchCount(final) {
				t.Errorf("final size ends on links %+v switches %+v, want the final plan's %+v %+v", last.Links, last.Switches, final.Links, switchCount(final))
			}
			for _, st := range fs.Steps {
				if st.LinksMoved.Total != 0 || st.RetiredUSD != 0 {
					t.Errorf("final size phase %d moves %d links, retires %v", st.Phase, st.LinksMoved.Total, st.RetiredUSD)
				}
			}
			if g := pp.Strategy(StrategyGrow).Last(); g.Links != final.Links {
				t.Errorf("grow ends on links %+v, want %+v", g.Links, final.Links)
			}
		})
	}
}

func checkStrategy(t *testing.T, sp StrategyPlan, final *planner.Plan) {
	t.Helper()
	asked := askedRatio(final)
	findings := strings.Join(sp.Findings, "\n")
	retired := 0.0
	for i, st := range sp.Steps {
		if st.Oversub > asked*(1+1e-9) {
			if st.RatioHolds || !strings.Contains(findings, fmt.Sprintf("phase %d:", st.Phase)) {
				t.Errorf("%s phase %d: built %v over asked %v without a finding", sp.Key, st.Phase, st.Oversub, asked)
			}
		}
		if i > 0 {
			prev := sp.Steps[i-1]
			if st.LinksMoved.Total > prev.Links.Total {
				t.Errorf("%s phase %d: %d links moved of %d", sp.Key, st.Phase, st.LinksMoved.Total, prev.Links.Total)
			}
			if st.CostUSD < prev.CostUSD {
				t.Errorf("%s phase %d: spend falls", sp.Key, st.Phase)
			}
		}
		if st.LinksAdded.Total > st.Links.Total || st.LinksMoved.Total < 0 || st.LinksAdded.Total < 0 {
			t.Errorf("%s phase %d: added %d, moved %d, links %d", sp.Key, st.Phase, st.LinksAdded.Total, st.LinksMoved.Total, st.Links.Total)
		}
		retired += st.RetiredUSD
	}
	total := sp.Last().CostUSD
	if want := final.Cost.Total + retired; math.Abs(total-want) > 1e-6*want {
		t.Errorf("%s: spend %v, want final %v + retired %v", sp.Key, total, final.Cost.Total, retired)
	}
	if total < final.Cost.Total*(1-1e-9) {
		t.Errorf("%s: spend %v below the final plan's %v", sp.Key, total, final.Cost.Total)
	}
}

// TestPhasesSpares: spare parts follow each phase's quantities, rounded
// up per line, and sum to the final plan's spares. Catches spares bought
// all at once with phase 1, or left out of the phases.
func TestPhasesSpares(t *testing.T) {
	s := dgxH100(1, 3)
	pct := 10.0
	s.Reliability = &planner.ReliabilityInputs{SpareSwitchesPct: &pct}
	pp := mustPhases(t, s)
	without := mustPhases(t, dgxH100(1, 3))
	// 3 SU: 24 leaves and 16 spines -> ceil(2.4) + ceil(1.6) = 5 spare
	// switches; phase 1: 8 leaves and 16 spines -> ceil(0.8) + ceil(1.6) = 3.
	if pp.Final.Spares.Switches != 5 {
		t.Fatalf("final spares %d, want 5", pp.Final.Spares.Switches)
	}
	unit := 0.0 // the switch's unit price, as the bill has it
	for _, l := range pp.Final.BOM {
		if l.Category == planner.CatSwitch && l.Key == "qm9700" && !l.Spare {
			unit = l.UnitUSD
		}
	}
	for i, want := range []float64{3 * unit, 2 * unit} {
		got := pp.Strategy(StrategyFinal).Steps[i].CostAddedUSD - without.Strategy(StrategyFinal).Steps[i].CostAddedUSD
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("phase %d: spares add %v, want %v", i+1, got, want)
		}
	}
	if fs := pp.Strategy(StrategyFinal); math.Abs(fs.Last().CostUSD-pp.Final.Cost.Total) > 1e-6 {
		t.Errorf("final size spend %v, final cost %v", fs.Last().CostUSD, pp.Final.Cost.Total)
	}
}

// TestPhaseValidation: each bad [[phase]] or [growth] names its field
// and the fix. Catches a check missing or naming the wrong phase.
func TestPhaseValidation(t *testing.T) {
	cat := testCatalog(t)
	cases := []struct {
		name   string
		phases []planner.Phase
		growth *planner.Growth
		field  string
		fix    string
	}{
		{"no size", []planner.Phase{{GPUs: 256}, {Date: "2026"}}, nil, "phase[2].gpus", "give gpus"},
		{"both", []planner.Phase{{GPUs: 256, Units: 1}}, nil, "phase[1].units", "not both"},
		{"past the cluster", []planner.Phase{{GPUs: 5000}}, nil, "phase[1].gpus", "raise cluster.gpus"},
		{"shrinks", []planner.Phase{{GPUs: 512}, {GPUs: 512}}, nil, "phase[2].gpus", "more than the phase before"},
		{"negative", []planner.Phase{{GPUs: -3}}, nil, "phase[1].gpus", "give 1 to"},
		{"bad date", []planner.Phase{{GPUs: 256, Date: "next spring"}}, nil, "phase[1].date", "2026-Q3"},
		{"bad month", []planner.Phase{{GPUs: 256, Date: "2026-13"}}, nil, "phase[1].date", "2026-03"},
		// February 2026 has 28 days (2026 is not divisible by 4).
		{"no such day", []planner.Phase{{GPUs: 256, Date: "2026-02-29"}}, nil, "phase[1].date", "2026-03-31"},
		{"day 30 of February", []planner.Phase{{GPUs: 256, Date: "2026-01-31"}, {GPUs: 512, Date: "2026-02-30"}}, nil, "phase[2].date", "2026-03-31"},
		{"backwards", []planner.Phase{{GPUs: 256, Date: "2026-06-01"}, {GPUs: 512, Date: "2026-05-31"}}, nil, "phase[2].date", "from phase 1's (2026-06-01) on"},
		{"backwards past an undated phase", []planner.Phase{{GPUs: 256, Date: "2027"}, {GPUs: 300}, {GPUs: 512, Date: "2026-Q4"}}, nil, "phase[3].date", "from phase 1's (2027) on"},
		{"a quarter before a month", []planner.Phase{{GPUs: 256, Date: "2026-10"}, {GPUs: 512, Date: "2026-Q3"}}, nil, "phase[2].date", "from phase 1's"},
		{"crews", []planner.Phase{{GPUs: 256}}, &planner.Growth{RecableCrews: -1}, "growth.recable_crews", "crews"},
		{"minutes", []planner.Phase{{GPUs: 256}}, &planner.Growth{RecableMin: math.NaN()}, "growth.recable_min", "minutes"},
		{"units past the cluster", []planner.Phase{{Units: 5}}, nil, "phase[1].units", "raise cluster.gpus"},
		{"units shrink", []planner.Phase{{GPUs: 600}, {Units: 2}}, nil, "phase[2].units", "more than the phase before"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(1024)
			s.Phases, s.Growth = tc.phases, tc.growth
			_, err := PlanPhases(s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a field error", err)
			}
			if fe.Field != tc.field || !strings.Contains(fe.Fix, tc.fix) {
				t.Errorf("err = %v, want field %s and a fix with %q", err, tc.field, tc.fix)
			}
		})
	}
	// Dates that overlap are in order: a day, then its own quarter;
	// 2028-02-29 is a real day (a leap year). Catches an order check
	// by first days only ("2026-Q3" starts before "2026-08-15").
	s := ibScenario(1024)
	s.Phases = []planner.Phase{{GPUs: 100, Date: "2026-08-15"}, {GPUs: 200, Date: "2026-Q3"}, {GPUs: 300, Date: "2026-09"}, {GPUs: 400, Date: "2028-02-29"}}
	if _, err := PlanPhases(s, cat); err != nil {
		t.Errorf("overlapping dates in order: %v", err)
	}
	s.Phases = []planner.Phase{{GPUs: 100, Date: "2026-03-31"}, {Units: 2, Date: "2026-Q3"}, {GPUs: 700, Date: "2027"}}
	pp, err := PlanPhases(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	// 2 units of 32 servers of 8 GPUs = 512; 1,024 (cluster.gpus) ends it.
	got := []int{}
	for _, st := range pp.Strategies[0].Steps {
		got = append(got, st.GPUs)
	}
	if fmt.Sprint(got) != "[100 512 700 1024]" {
		t.Errorf("phases %v, want [100 512 700 1024]", got)
	}
}

// TestLinkSetOrder: a phase's link set lists each tier's lower devices
// in ascending key order, as the merge in diffLinks needs. Catches a
// device key whose order the merge cannot use (a leaf keyed pod first
// where pods by rail walk leaves out of index order) and sortLower
// skipped.
func TestLinkSetOrder(t *testing.T) {
	cat := testCatalog(t)
	for _, s := range phaseScenarios() {
		s.Cluster.GPUs = min(s.Cluster.GPUs, 3000)
		s.Phases = nil
		p, err := planner.Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		ls := newLinkSet(p)
		for tier := planner.LinkLeafSpine; tier < planner.LinkTierCount; tier++ {
			for k := 1; k < len(ls.lower[tier]); k++ {
				if ls.lower[tier][k] <= ls.lower[tier][k-1] {
					t.Fatalf("%d GPUs: tier %d lower devices out of order at %d", s.Cluster.GPUs, tier, k)
				}
			}
		}
	}
}

// TestDriftFinding: a phase built more oversubscribed than asked gets a
// finding naming it and by how much. Catches drift reported as "no
// drift" or without the size of the gap.
func TestDriftFinding(t *testing.T) {
	sp := StrategyPlan{Steps: []PhaseStep{{Phase: 1, Oversub: 1, RatioHolds: true}, {Phase: 2, Oversub: 1.5}}}
	got := driftFindings(sp, "1:1", 1)
	if len(got) != 1 || !strings.Contains(got[0], "phase 2: leaves are built at 1.5:1") || !strings.Contains(got[0], "50% more") {
		t.Errorf("findings = %q", got)
	}
}

// TestPhasesCoreWithSecondPod: built for a three-tier final size, a
// phase inside one pod needs no core (its traffic stays below the pod's
// spines); the core arrives with the second pod. On QM9700 at 1:1 a pod
// is 32 leaves of 32 servers' ports: 4 SU of 32 eight-GPU servers =
// 1,024 GPUs. Catches cores bought before a second pod, or never.
func TestPhasesCoreWithSecondPod(t *testing.T) {
	s := ibScenario(4096)
	s.Network.Tiers = 3
	s.Phases = []planner.Phase{{GPUs: 1000}, {GPUs: 1100}}
	fs := mustPhases(t, s).Strategy(StrategyFinal)
	if st := fs.Steps[0]; st.Switches.Core != 0 || st.Links.SpineCore != 0 {
		t.Errorf("phase 1 (one pod): %d cores, %d spine-core links, want none", st.Switches.Core, st.Links.SpineCore)
	}
	if st := fs.Steps[1]; st.Switches.Core == 0 || st.Links.SpineCore == 0 {
		t.Errorf("phase 2 (two pods): %d cores, %d spine-core links, want some", st.Switches.Core, st.Links.SpineCore)
	}
}

// TestPhaseMoves lists, link by link, what the grow strategy re-cables:
// as many rows as the phase's links moved; DGX H100 1 -> 4 SU moves 192
// leaf uplinks from the 4 old spines to the 12 new ones, each keeping its
// leaf. Catches kept links listed, a moved cable sent to another leaf, or
// moves paired with links that were already there.
func TestPhaseMoves(t *testing.T) {
	pp := mustPhases(t, dgxH100(1, 4))
	n := 0
	err := pp.Moves(func(m *LinkMove) error {
		n++
		if m.Phase != 2 || m.Action != MoveAction || m.Tier != "leaf_spine" || m.From[0] != m.To[0] {
			t.Fatalf("move %+v: want phase 2, a leaf uplink moved on its own leaf", m)
		}
		var from, to int
		fmt.Sscanf(m.From[2], "p1-spine-%d", &from)
		fmt.Sscanf(m.To[2], "p1-spine-%d", &to)
		if from < 1 || from > 4 || to < 5 || to > 16 {
			t.Fatalf("move %+v: want from an old spine (1-4) to a new one (5-16)", m)
		}
		return nil
	})
	if err != nil || n != 192 {
		t.Fatalf("%d moves (err %v), want 192", n, err)
	}
	// Every scenario: one row per link moved, and one per core renamed.
	for _, s := range phaseScenarios()[:6] {
		pp := mustPhases(t, s)
		want := totalMoved(*pp.Strategy(StrategyGrow))
		for _, st := range pp.Strategy(StrategyGrow).Steps {
			if st.Recabling != nil {
				want += st.Recabling.CoresRenamed
			}
		}
		var b strings.Builder
		if err := WriteMovesCSV(&b, pp); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(b.String(), "\n") - 1; got != want {
			t.Errorf("%d GPUs: %d CSV rows, want %d moved or renamed", s.Cluster.GPUs, got, want)
		}
		b.Reset()
		if err := WriteMovesJSON(&b, pp); err != nil {
			t.Fatal(err)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(b.String()), &rows); err != nil || len(rows) != want {
			t.Errorf("%d GPUs: JSON %d rows (%v), want %d", s.Cluster.GPUs, len(rows), err, want)
		}
	}
}

// TestPhasesGrowFollowsB300Table: grown as you go, each phase of a DGX
// B300 (XDR, Q3400) build-out is the published SuperPOD fabric of its
// size: 1/2/4/8/18 SU -> 8/16/32/64/144 leaves and 4/8/18/36/72 spines,
// leaf-spine cables equal to node-leaf cables (NVIDIA DGX SuperPOD B300
// XDR reference architecture, ../shared/research/facility.md §5). Built
// for 18 SU, phase 1 already has the 72 spines. Catches units resolved
// with the wrong scalable unit, or a phase sized on another switch.
func TestPhasesGrowFollowsB300Table(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.System, s.Network.Switch = "dgx-b300", "q3400"
	s.Cluster.GPUs = 18 * 72 * 8
	for _, u := range []int{1, 2, 4, 8, 18} {
		s.Phases = append(s.Phases, planner.Phase{Units: u})
	}
	pp := mustPhases(t, s)
	leaves, spines := []int{8, 16, 32, 64, 144}, []int{4, 8, 18, 36, 72}
	for i, st := range pp.Strategy(StrategyGrow).Steps {
		if st.Switches.Leaf != leaves[i] || st.Switches.Spine != spines[i] || st.Links.LeafSpine != st.Links.ServerLeaf {
			t.Errorf("phase %d: %d leaves, %d spines, %d leaf-spine for %d node links; want %d, %d, equal",
				i+1, st.Switches.Leaf, st.Switches.Spine, st.Links.LeafSpine, st.Links.ServerLeaf, leaves[i], spines[i])
		}
	}
	if st := pp.Strategy(StrategyFinal).Steps[0]; st.Switches.Spine != 72 || st.Switches.Leaf != 8 {
		t.Errorf("final size phase 1: %d leaves, %d spines; want 8 and 72", st.Switches.Leaf, st.Switches.Spine)
	}
}

// TestCompareRetires: a phase buys what its lines grew by and retires
// what they shrank by, never netting one against the other. Hand-worked:
// optics 10 -> 6 at $5 retires $20; cables 4 -> 9 at $2 buys 5 cables,
// $10; a new switch line of 1 at $100 buys $100. Catches retired parts
// subtracted from the spend (the total would fall below the final
// plan's), or a shrinking line counted as bought.
func TestCompareRetires(t *testing.T) {
	prev := map[bomKey]lineQty{
		{planner.CatTransceiver, "osfp", "x"}: {qty: 10, usd: 5, category: planner.CatTransceiver},
		{planner.CatCable, "fiber", "y"}:      {qty: 4, usd: 2, category: planner.CatCable},
	}
	cur := map[bomKey]lineQty{
		{planner.CatTransceiver, "osfp", "x"}: {qty: 6, usd: 5, category: planner.CatTransceiver},
		{planner.CatCable, "fiber", "y"}:      {qty: 9, usd: 2, category: planner.CatCable},
		{planner.CatSwitch, "qm9700", "z"}:    {qty: 1, usd: 100, category: planner.CatSwitch},
	}
	got := compare(prev, cur)
	if got != (spend{added: 110, retired: 20, transceivers: 0, cables: 5}) {
		t.Errorf("compare = %+v, want added 110, retired 20, 0 optics, 5 cables", got)
	}
}

// FuzzPhases plans any scenario the parser accepts in phases, without a
// panic and with the spend and move invariants.
func FuzzPhases(f *testing.F) {
	f.Add("schema = 1\n[cluster]\ngpus = 1024\n[[phase]]\ngpus = 256\n[[phase]]\nunits = 2\ndate = \"2026-Q1\"\n")
	f.Add("schema = 1\n[cluster]\ngpus = 3000\nsystem = \"gb200-nvl72\"\n[[phase]]\nunits = 1\n[growth]\nprebuy_ports = true\n")
	f.Add("schema = 1\n[[phase]]\ngpus = 0\n[[phase]]\nunits = -1\n")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := planner.ScenarioFromData([]byte(doc))
		if err == nil {
			err = s.Validate(cat)
		}
		if err != nil || s.Cluster.GPUs > 200_000 {
			return
		}
		start := time.Now()
		pp, err := PlanPhases(s, cat)
		if err != nil {
			return
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("planning took %v", d)
		}
		for _, sp := range pp.Strategies {
			checkStrategy(t, sp, pp.Final)
		}
	})
}

// TestPhaseSumsInKeyOrder: a phase's spend and power are float sums over
// its bill's lines, which live in a map. Summed in the map's order
// (the mutation: `for k, c := range cur`), 0.1 + 0.2 + 0.3 is
// 0.6000000000000001 in some runs and 0.6 in others, so a plan's
// cost_added_usd changed in its last digit from run to run. Summed in
// key order (a, b, c) it is (0.1 + 0.2) + 0.3 = 0.6000000000000001
// every time; fifty runs see the map in many orders.
func TestPhaseSumsInKeyOrder(t *testing.T) {
	cur := map[bomKey]lineQty{
		{cat: "c", key: "a"}: {qty: 1, usd: 0.1, watts: 0.1},
		{cat: "c", key: "b"}: {qty: 1, usd: 0.2, watts: 0.2},
		{cat: "c", key: "c"}: {qty: 1, usd: 0.3, watts: 0.3},
	}
	a, b, c := 0.1, 0.2, 0.3 // float64 sums, not Go's exact constant arithmetic
	want := (a + b) + c
	for i := range 50 {
		if got := compare(nil, cur).added; got != want {
			t.Fatalf("run %d: added %v, want %v (the lines in key order)", i, got, want)
		}
		if got := compare(cur, nil).retired; got != want {
			t.Fatalf("run %d: retired %v, want %v", i, got, want)
		}
		if got := power(cur); got != want {
			t.Fatalf("run %d: power %v, want %v", i, got, want)
		}
	}
}

// The final-size strategy times each phase's job on a fabric of the
// final plan's tiers: for 1,000, 3,000 and 5,000 GPUs on QM9700 (64
// ports: two tiers hold 2,048 server ports, so the 1,000-GPU phase grows
// on two and the final needs three), each phase's job time is that of
// the phase's GPUs built with tiers = 3, whether the grow plan of that
// phase has two tiers (built again) or three (its own plan taken).
// Mutations caught: the grow plan taken whatever its tiers (phase 1 timed
// on two tiers), the final plan's job time given to every phase.
func TestFinalPhaseJCTOnTheFinalTiers(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(5000)
	s.Phases = []planner.Phase{{GPUs: 1000}, {GPUs: 3000}}
	pp := mustPhases(t, s)
	if pp.Final.Tiers != 3 {
		t.Fatalf("final plan has %d tiers, want 3", pp.Final.Tiers)
	}
	steps := pp.Strategy(StrategyFinal).Steps
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3", len(steps))
	}
	for i, gpus := range []int{1000, 3000, 5000} {
		sc := s.Clone()
		sc.Phases = nil
		sc.Cluster.GPUs, sc.Network.Tiers = gpus, 3
		sc.Network.NIC = pp.Final.NIC.Key
		want, err := planner.Build(sc, cat)
		if err != nil {
			t.Fatal(err)
		}
		got := steps[i].JCT
		if got == nil || want.JCT == nil || got.StepS != want.JCT.Planned.StepS {
			t.Errorf("phase %d (%d GPUs): job %+v, want step %v s on three tiers", i+1, gpus, got, want.JCT.Planned.StepS)
		}
		if i == 0 {
			two, err := planner.Build(func() planner.Scenario { sc.Network.Tiers = 0; return sc }(), cat)
			if err != nil || two.Tiers != 2 || two.JCT.Planned.StepS == want.JCT.Planned.StepS {
				t.Fatalf("1,000 GPUs on their own: %v tiers, step %v s: the case does not tell two tiers from three", two.Tiers, two.JCT.Planned.StepS)
			}
		}
	}
}
