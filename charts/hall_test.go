package charts

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// hallCharts are the charts that need a data-hall layout.
var hallCharts = map[string]bool{"floorplan": true, "racks": true, "cablelengths": true}

// hallInput is a plan laid out in a default hall: 1,024 GPUs of DGX
// H100, or gpus of system sys.
func hallInput(t testing.TB, sys string, gpus int) Input {
	s := planner.NewScenario()
	s.Cluster.System, s.Cluster.GPUs = sys, gpus
	if sys == "gb300-nvl72" {
		s.Network.NICGbps = 800
	}
	s.Facility = &hall.Facility{}
	in := input(t, s, []int{gpus})
	if in.Plan.Hall == nil {
		t.Fatal("no hall")
	}
	return in
}

// The hall charts draw what the layout holds and match their golden
// images; without a layout each says what it needs. Catches: racks
// miscounted in the drawn data, the over-budget count not drawn, a
// histogram whose bars do not add up to the tier's links, a chart that
// draws an empty picture for a plan without a hall.
func TestHallCharts(t *testing.T) {
	in := hallInput(t, "dgx-h100", 1024)
	p := in.Plan
	for name := range hallCharts {
		c, _ := ByName(name)
		fig, err := c.Build(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := fig.Bytes("png", Size{900, 600, 96})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name, got)
		switch name {
		case "floorplan":
			s, _ := fig.Series("racks")
			total := 0.0
			for _, v := range s.Values[:4] {
				total += v
			}
			if int(total) != len(p.Hall.Racks) || int(s.Values[4]) != p.Hall.Figures.RacksOverBudget {
				t.Errorf("floor plan data %v: want %d racks", s, len(p.Hall.Racks))
			}
		case "cablelengths":
			for _, lt := range p.LinkTiers {
				sum := 0.0
				for _, m := range mediumOrder {
					if s, ok := fig.Series(lt.Name + " " + string(m)); ok {
						for _, v := range s.Values {
							sum += v
						}
					}
				}
				if int(sum) != lt.Links {
					t.Errorf("%s: histogram holds %g links, want %d", lt.Name, sum, lt.Links)
				}
			}
		}
		plain := inputs(t)["flat"]
		if _, err := c.Build(plain); !errors.Is(err, ErrMissingInput) {
			t.Errorf("%s without a hall: err %v, want missing input", name, err)
		}
	}
}

// Every system's hall charts render (NVL72 racks over the default 60 kW
// budget among them). Catches: an elevation that indexes past a
// rack-scale system's trays, a floor plan that fails on one row.
func TestHallChartsEverySystem(t *testing.T) {
	for _, sys := range []string{"dgx-h100", "dgx-b200", "gb200-nvl72", "gb300-nvl72", "hgx-h100"} {
		in := hallInput(t, sys, 2000)
		for name := range hallCharts {
			c, _ := ByName(name)
			fig, err := c.Build(in)
			if err != nil {
				t.Fatalf("%s %s: %v", sys, name, err)
			}
			b, err := fig.Bytes("png", Size{800, 500, 96})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Fatalf("%s %s: %v", sys, name, err)
			}
		}
	}
}

// BenchmarkFloorPlan100k draws the floor plan of the 100,000-GPU XDR
// cluster (about 3,000 racks) as a 1200 x 800 PNG (ms/draw: the chart
// built, drawn and encoded), and as the window draws it (an image with
// its click targets, no PNG); ms/draw is the mean of the runs. Target:
// under 200 ms.
func BenchmarkFloorPlan100k(b *testing.B) {
	s := planner.NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 100_000, 800, "q3400"
	s.Facility = &hall.Facility{}
	p, err := planner.Build(s, catalog(b))
	if err != nil {
		b.Fatal(err)
	}
	in := Input{Plan: p}
	b.Run("png", func(b *testing.B) {
		var draw, cpu time.Duration
		n := 0
		for b.Loop() {
			t0, c0 := time.Now(), cpuTime()
			fig, err := FloorPlan(in)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := fig.Bytes("png", DefaultSize); err != nil {
				b.Fatal(err)
			}
			draw, cpu, n = draw+time.Since(t0), cpu+cpuTime()-c0, n+1
		}
		reportDraw(b, draw, cpu, n)
	})
	b.Run("window", func(b *testing.B) {
		var draw, cpu time.Duration
		n := 0
		for b.Loop() {
			t0, c0 := time.Now(), cpuTime()
			fig, err := FloorPlan(in)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := fig.ImageTargets(DefaultSize, Theme{}); err != nil {
				b.Fatal(err)
			}
			draw, cpu, n = draw+time.Since(t0), cpu+cpuTime()-c0, n+1
		}
		reportDraw(b, draw, cpu, n)
	})
}

// reportDraw reports the mean wall time of n draws and their mean CPU
// time (this process's, all threads: on a machine shared with other
// work the wall time swings, the CPU time much less).
func reportDraw(b *testing.B, wall, cpu time.Duration, n int) {
	b.ReportMetric(float64(wall.Microseconds())/1000/float64(n), "ms/draw")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/draw")
	}
}

// BenchmarkFloorPlanRuns100k draws the same floor plan with each tier's
// runs over it: the links counted by rack pair (a walk of every link),
// then one line per pair. Target: the draw under 200 ms.
func BenchmarkFloorPlanRuns100k(b *testing.B) {
	s := planner.NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 100_000, 800, "q3400"
	p, err := planner.Build(s, catalog(b))
	if err != nil {
		b.Fatal(err)
	}
	for _, lt := range p.LinkTiers {
		b.Run(lt.Name, func(b *testing.B) {
			var pairs, draw, cpu time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				fig, err := FloorPlan(Input{Plan: p, Tier: lt.Name})
				if err != nil {
					b.Fatal(err)
				}
				t1, c1 := time.Now(), cpuTime()
				if _, err := fig.Bytes("png", DefaultSize); err != nil {
					b.Fatal(err)
				}
				pairs, draw, cpu, n = pairs+t1.Sub(t0), draw+time.Since(t1), cpu+cpuTime()-c1, n+1
			}
			b.ReportMetric(float64(pairs.Microseconds())/1000/float64(n), "ms/pairs")
			reportDraw(b, draw, cpu, n)
		})
	}
}

// The floor plan with a tier's runs: its data gives each rack pair's
// links, which add up to the tier's links; a tier the plan lacks, or a
// word that names none, is a missing input. Catches: the runs of
// another tier drawn, pairs dropped from the picture, a bad tier drawn
// as no runs without a word.
func TestFloorPlanRuns(t *testing.T) {
	in := hallInput(t, "dgx-h100", 1024)
	for _, lt := range in.Plan.LinkTiers {
		in.Tier = lt.Name
		fig, err := FloorPlan(in)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := fig.Series(lt.Name + " links per rack pair")
		if !ok {
			t.Fatalf("%s: no runs series", lt.Name)
		}
		sum := 0.0
		for _, v := range s.Values {
			sum += v
		}
		if int(sum) != lt.Links {
			t.Errorf("%s: pairs hold %g links, the tier %d", lt.Name, sum, lt.Links)
		}
		if _, err := fig.Bytes("png", DefaultSize); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{"spine-core", "up-links"} {
		in.Tier = bad
		if _, err := FloorPlan(in); !errors.Is(err, ErrMissingInput) {
			t.Errorf("tier %q: err %v, want missing input", bad, err)
		}
	}
}

// TestRackRunLabels checks the one label beside a rack for devices too
// thin for their own, worked by hand. Catches: numbered trays listed as
// "18 × compute tray 1" (the number taken as part of the name); trays on
// either side of the NVLink switch trays joined into one run whose label
// sits over the switch trays (touching ignored); a label too wide for the
// room beside the rack drawn off the page (clip skipped).
func TestRackRunLabels(t *testing.T) {
	tray := func(n, u int) hall.RackSlot {
		return hall.RackSlot{Kind: "node", Label: fmt.Sprintf("compute tray %d", n), U: u, Units: 1}
	}
	leaf := hall.RackSlot{Kind: "switch", Label: "tomahawk5 leaf", U: 1, Units: 1}
	cases := []struct {
		name string
		run  []hall.RackSlot
		want string
	}{
		{"one device keeps its label", []hall.RackSlot{tray(3, 3)}, "compute tray 3"},
		{"numbered run by range", []hall.RackSlot{tray(1, 1), tray(2, 2), tray(3, 3)}, "compute tray 1–3"},
		{"unnumbered run by count", []hall.RackSlot{leaf, leaf, leaf}, "3 × tomahawk5 leaf"},
	}
	for _, c := range cases {
		if got := runLabel(c.run[0].Label, c.run); got != c.want {
			t.Errorf("%s: runLabel = %q, want %q", c.name, got, c.want)
		}
	}
	// Trays 9 (U9) and 10 (U19) stand either side of 9 switch trays.
	if touching(tray(9, 9), tray(10, 19)) {
		t.Error("trays at U9 and U19 counted as touching")
	}
	if !touching(tray(1, 1), tray(2, 2)) || !touching(tray(2, 2), tray(1, 1)) {
		t.Error("trays at U1 and U2 not counted as touching, in either order")
	}
	sty := textStyle(tickSize, false)
	long := "16 × tomahawk5 leaf"
	room := sty.Width(long) * 0.6
	got := clipToWidth(long, sty, room)
	if sty.Width(got) > room || !strings.HasSuffix(got, "…") {
		t.Errorf("clipToWidth(%q) = %q (%.1f pt), want an ellipsis within %.1f pt", long, got, sty.Width(got), room)
	}
	if got := clipToWidth("leaf", sty, room); got != "leaf" {
		t.Errorf("a label that fits was changed to %q", got)
	}
}
