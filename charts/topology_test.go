package charts

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// topologyCases are plans the diagram must draw: one and three tiers,
// one and two planes, an oversubscribed leaf, a rack-scale-sized unit
// and 1,024 / 16,384 / 100,000 GPUs.
func topologyCases(t *testing.T) map[string]*planner.Plan {
	t.Helper()
	out, add := editedPlans(t)
	add("64", func(s *planner.Scenario) { s.Cluster.GPUs = 64 })
	add("1k", func(s *planner.Scenario) { s.Cluster.GPUs = 1024 })
	add("16k", func(s *planner.Scenario) { s.Cluster.GPUs = 16384 })
	add("100k", func(s *planner.Scenario) {
		s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 100_000, 800, "q3400"
	})
	add("2planes-4096", func(s *planner.Scenario) { s.Cluster.GPUs, s.Network.Planes = 4096, 2 })
	add("2to1-3000", func(s *planner.Scenario) { s.Cluster.GPUs, s.Network.Oversubscription = 3000, "2:1" })
	return out
}

// editedPlans gives a map of plans and the function that adds one by
// name: the default scenario after edit, built on the test catalog.
func editedPlans(t *testing.T) (map[string]*planner.Plan, func(name string, edit func(s *planner.Scenario))) {
	t.Helper()
	cat := catalog(t)
	out := map[string]*planner.Plan{}
	return out, func(name string, edit func(s *planner.Scenario)) {
		t.Helper()
		s := planner.NewScenario()
		edit(&s)
		p, err := planner.Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = p
	}
}

// The diagram's counts are the plan's, and its title and boxes print
// them. Mutations caught: per-plane counts reported as totals, a pod
// run left out of the pod count, units counted per pod.
func TestTopologyCountsArePlans(t *testing.T) {
	for name, p := range topologyCases(t) {
		fig, err := Topology(Input{Plan: p})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s, ok := fig.Series("counts")
		if !ok {
			t.Fatalf("%s: no counts", name)
		}
		pods, _, _, _ := p.Layout()
		nPods := 0
		for _, r := range pods {
			nPods += r.Count
		}
		want := map[string]int{"planes": p.Planes, "pods per plane": nPods, "scalable units per plane": p.Units,
			"leaf switches": p.Switches(planner.TierLeaf), "spine switches": p.Switches(planner.TierSpine), "core switches": p.Switches(planner.TierCore),
			"server-leaf links": p.Links.ServerLeaf, "leaf-spine links": p.Links.LeafSpine, "spine-core links": p.Links.SpineCore}
		for i, l := range s.Labels {
			if int(s.Values[i]) != want[l] {
				t.Errorf("%s: %s %v, plan %d", name, l, s.Values[i], want[l])
			}
		}
		title := fig.Panels[0][0].Title.Text
		if !strings.Contains(title, textfmt.Int(p.TotalSwitches())+" switch") || !strings.Contains(title, textfmt.Int(p.Links.Total)+" link") {
			t.Errorf("%s: title %q lacks the plan's %d switches and %d links", name, title, p.TotalSwitches(), p.Links.Total)
		}
		b, err := fig.Bytes("svg", DefaultSize)
		if err != nil {
			t.Fatal(err)
		}
		svg := string(b)
		P := p.Planes
		for _, w := range []string{textfmt.Plural(p.Switches(planner.TierLeaf)/P, "leaf switch"), textfmt.Plural(p.Links.ServerLeaf/P, "server-leaf link")} {
			if !strings.Contains(svg, w) {
				t.Errorf("%s: the drawing does not say %q", name, w)
			}
		}
	}
}

// Focus expands another pod and unit: the 16k plan's last pod and its
// second unit. Mutations caught: the focus ignored, units numbered per
// pod instead of in the plane.
func TestTopologyFocus(t *testing.T) {
	p := topologyCases(t)["16k"]
	pods, _, lpu, npu := p.Layout()
	fig, err := Topology(Input{Plan: p, Focus: Focus{Pod: 99, Unit: 2}}) // past the last pod: the last
	if err != nil {
		t.Fatal(err)
	}
	b, _ := fig.Bytes("svg", DefaultSize)
	nPods := 0
	for _, r := range pods {
		nPods += r.Count
	}
	// Units before the last pod, plus 2.
	unitsBefore := (nPods - 1) * pods[0].Leaves / lpu
	want := fmt.Sprintf("SU %d: %d nodes", unitsBefore+2, npu)
	if !strings.Contains(string(b), fmt.Sprintf("pod %d of %d", nPods, nPods)) || !strings.Contains(string(b), want) {
		t.Errorf("focus on the last pod, unit 2: drawing lacks %q or the pod number", want)
	}
}

// Goldens of the diagram at 1,024, 16,384 and 100,000 GPUs, and one
// plan in each design style: top-of-rack, dual-plane and rail-only.
func TestTopologyGoldens(t *testing.T) {
	plans := topologyCases(t)
	for name, p := range styleTopologyCases(t) {
		plans[name] = p
	}
	for name, p := range plans {
		if name != "1k" && name != "16k" && name != "100k" && name != "tor" && name != "dualplane" && name != "railonly" {
			continue
		}
		fig, err := Topology(Input{Plan: p})
		if err != nil {
			t.Fatal(err)
		}
		got, err := fig.Bytes("png", Size{1200, 800, 96})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "topology_"+name, got)
	}
}

// BenchmarkTopology draws the diagram at 1,000,000 GPUs (two planes of
// 800G on Quantum-X800, four NICs of each server in each): the drawing
// does not grow with the fabric.
// Target: under 100 ms.
func BenchmarkTopology(b *testing.B) {
	s := planner.NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch, s.Network.Planes = 1_000_000, 800, "q3400", 2
	p, err := planner.Build(s, catalog(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		fig, err := Topology(Input{Plan: p})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fig.Bytes("png", DefaultSize); err != nil {
			b.Fatal(err)
		}
	}
}

// The partial unit is drawn with its own leaves, by hand: 1,000 GPUs in
// 125 servers of 8 rails, units of 32 servers, so SU 4 holds 29. Its 8
// leaves each take 29 nodes and the 29 uplinks they need at 1:1 (over
// 16 spines, 1 or 2 to each): 232 server links, 232 leaf-spine links.
// Mutation caught: the pod's busiest leaf (32 down) shown for every
// unit.
func TestTopologyPartialUnit(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.GPUs = 1000
	p, err := planner.Build(s, catalog(t))
	if err != nil {
		t.Fatal(err)
	}
	fig, err := Topology(Input{Plan: p, Focus: Focus{Unit: 4}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := fig.Bytes("svg", DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SU 4: 29 nodes", "each 29 down : 29 up", "232 server links", "232 leaf-spine links"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("partial unit: the drawing lacks %q", want)
		}
	}
}

// The window's image records where "× more pods" and "× more SUs" are
// drawn, at any size and in the dark theme: the target's lower-left
// corner is the summary box's light fill, and a plan with one pod or
// one SU has no target for it. Mutations caught: targets recorded with
// y from the bottom (the sample lands on the background), a target for
// a summary that is not drawn, targets lost in the dark theme's canvas.
func TestTopologyTargets(t *testing.T) {
	plans := topologyCases(t)
	for _, c := range []struct {
		plan      string
		pod, unit bool
	}{{"64", false, false}, {"1k", false, true}, {"16k", true, true}, {"100k", true, true}} {
		for _, size := range []Size{{WidthPx: 1000, HeightPx: 650, DPI: 96}, {WidthPx: 2400, HeightPx: 1300, DPI: 192}} {
			for _, th := range []Theme{{}, {Background: color.NRGBA{0x17, 0x17, 0x18, 0xff}, Ink: color.White}} {
				fig, err := Topology(Input{Plan: plans[c.plan]})
				if err != nil {
					t.Fatal(err)
				}
				img, targets, err := fig.ImageTargets(size, th)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]bool{}
				for _, g := range targets {
					got[g.Name] = true
					b := img.Bounds()
					x, y := int((g.X0+0.004)*float64(b.Dx())), int((g.Y1-0.006)*float64(b.Dy()))
					r, gr, bl, _ := img.At(x, y).RGBA()
					if th.dark() {
						if r>>8 > 0x60 || gr>>8 > 0x60 || bl>>8 > 0x60 {
							t.Errorf("%s %v dark: %s corner at (%d,%d) is %v, not the dark box fill", c.plan, size, g.Name, x, y, img.At(x, y))
						}
					} else if r>>8 < 0xe8 || r>>8 == 0xff {
						t.Errorf("%s %v: %s corner at (%d,%d) is %v, not the box fill f4f4f4", c.plan, size, g.Name, x, y, img.At(x, y))
					}
				}
				if got[TargetNextPod] != c.pod || got[TargetNextUnit] != c.unit {
					t.Errorf("%s: targets %v, want pod %v, SU %v", c.plan, got, c.pod, c.unit)
				}
			}
		}
	}
}

// The rack labels count the plan's racks: an NVL72 rack is 18 trays of
// 4 GPUs (data/catalog.toml rack_nodes), so N GPUs take ceil(N/72)
// racks, and a leaf group spans down ports / 18 racks: a Q3400 (144 x
// 800G, 72 down at 1:1) takes 4 racks, a QM9700 (64 x 400G, 32 down,
// rack-aligned to 18) one, 8 racks a pod (the SuperPOD SU, unit_nodes
// 144 / 18). Mutation caught: the diagram's units (leaf
// groups) counted as racks ("14 racks, rack 1: 72 nodes x 4 GPUs" for
// the 56-rack GB300 4k scenario, the old code); the stack of the other
// units counting whole groups where the last is short ("× 17 more
// 4-rack groups" for 70 racks, 72 named: buyer item 7; checked).
func TestTopologyRacksAreThePlans(t *testing.T) {
	for _, tc := range []struct {
		name, system, sw string
		gpus             int
		want, not        []string
	}{
		{"gb300 4,032 on q3400", "gb300-nvl72", "q3400", 4032,
			[]string{"56 racks", "SU 1, racks 1–4: 72 nodes × 4 GPUs", "× 13 more 4-rack groups"}, []string{"14 racks", "rack 1:"}},
		{"gb300 4,000 on q3400 (a partial rack)", "gb300-nvl72", "q3400", 4000,
			[]string{"56 racks", "racks 1–4: 72 nodes"}, []string{"14 racks"}},
		{"gb300 5,000 on q3400 (70 racks: 17 groups of 4 and 2)", "gb300-nvl72", "q3400", 5000,
			[]string{"70 racks", "× 17 more 4-rack groups in this fabric (the last 2 racks)"}, []string{"72 racks"}},
		{"gb300 2,100 on q3400 (30 racks: 7 groups of 4 and 2)", "gb300-nvl72", "q3400", 2100,
			[]string{"30 racks", "× 7 more 4-rack groups in this fabric (the last 2 racks)"}, nil},
		{"gb300 2,500 on q3400 (35 racks: 8 groups of 4 and 3)", "gb300-nvl72", "q3400", 2500,
			[]string{"35 racks", "× 8 more 4-rack groups in this fabric (the last 3 racks)"}, nil},
		{"gb200 1,152 on qm9700", "gb200-nvl72", "qm9700", 1152,
			[]string{"16 racks", "SU 1, rack 1: 18 nodes × 4 GPUs", "× 7 more racks in this pod"}, []string{"racks 1–"}},
		{"gb200 2,952 on qm9700 (41 racks)", "gb200-nvl72", "qm9700", 2952,
			[]string{"41 racks", "rack 1: 18 nodes × 4 GPUs"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf("schema = 1\n[cluster]\nsystem = %q\ngpus = %d\n[network]\nfabric = \"infiniband\"\nswitch = %q\n", tc.system, tc.gpus, tc.sw)
			s, err := scenariofile.Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := planner.Build(s, catalog(t))
			if err != nil {
				t.Fatal(err)
			}
			fig, err := Topology(Input{Plan: p})
			if err != nil {
				t.Fatal(err)
			}
			b, err := fig.Bytes("svg", DefaultSize)
			if err != nil {
				t.Fatal(err)
			}
			svg := string(b)
			for _, w := range tc.want {
				if !strings.Contains(svg, w) {
					t.Errorf("the drawing does not say %q", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(svg, w) {
					t.Errorf("the drawing says %q", w)
				}
			}
		})
	}
}
