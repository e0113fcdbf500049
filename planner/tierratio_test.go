package planner

import (
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

// TestSpineRatioHandCount sizes a three-tier fabric with oversubscribed
// spines and checks it against a hand count. 6,144 GPUs in 8-GPU servers
// on QM9700 (64 x 400G), leaves 1:1, spines 3:1:
//   - a leaf: 32 down, 32 up; a scalable unit: 32 servers on 8 leaves,
//     so 768 servers make 24 units and 192 leaves;
//   - a spine 3:1 splits 64 ports as 48 down, 16 up (16 x (3+1));
//   - a pod: 48 leaves (6 units), 48 x 32 = 1,536 links on 32 spines of
//     48 down each; 4 pods, 128 spines;
//   - a spine sends up 48/3 = 16 links; core group j joins spine j of the
//     4 pods: 64 links, one core of 64 ports; 32 groups, 32 cores;
//   - links: 6,144 server-leaf, 192 x 32 = 6,144 leaf-spine,
//     128 x 16 = 2,048 spine-core.
//
// Mutations caught: the spine ratio ignored (non-blocking spines: 192
// spines, more cores), spines sending up as many links as they take, a
// pod sized by half a spine's ports, the ratio read up:down.
func TestSpineRatioHandCount(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(6144)
	s.Network.Tiers, s.Network.SpineOversubscription = 3, "3:1"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	got := []int{p.Switches(TierLeaf), p.Switches(TierSpine), p.Switches(TierCore), p.Links.ServerLeaf, p.Links.LeafSpine, p.Links.SpineCore, p.Pods}
	want := []int{192, 128, 32, 6144, 6144, 2048, 4}
	names := []string{"leaves", "spines", "cores", "server-leaf", "leaf-spine", "spine-core", "pods"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: got %d, want %d", names[i], got[i], want[i])
		}
	}
	built := p.BuiltOversubscription()
	if len(built) != 2 || built[0].Ratio != 1 || built[1].Ratio != 3 {
		t.Errorf("built ratios %+v, want leaf 1, spine 3", built)
	}
	if txt := p.TierRatiosText(); !strings.Contains(txt, "spine 3:1") {
		t.Errorf("ratios text %q does not say the spine's 3:1", txt)
	}
}

// TestSpineRatioNeverCostsMore: over sizes, systems and fabrics, a higher
// ratio above the leaf never costs more, never adds switches or links,
// keeps every plan invariant (ports within the radix, links equal at both
// ends) and builds the spines no more oversubscribed than asked.
//
// Mutations caught: a pod or core count rounded up past the non-blocking
// fabric's; spines given more uplinks than the ratio leaves them (ports
// past the radix); the built ratio past the asked one (uplinks rounded
// down).
func TestSpineRatioNeverCostsMore(t *testing.T) {
	cat := testCatalog(t)
	configs := map[string]func(s *Scenario){
		"qm9700 NDR rail":    func(s *Scenario) { s.Network.Switch = "qm9700" },
		"qm9700 leaf 2:1":    func(s *Scenario) { s.Network.Switch, s.Network.Oversubscription = "qm9700", "2:1" },
		"tomahawk5 RoCE 400": func(s *Scenario) { s.Network.Fabric, s.Network.Switch = Ethernet, "tomahawk5" },
		"sn5600 ToR": func(s *Scenario) {
			s.Network.Fabric, s.Network.Switch, s.Network.RailOptimized = Ethernet, "sn5600", false
		},
		"gb300-nvl72 q3400": func(s *Scenario) { s.Cluster.System, s.Network.Switch = "gb300-nvl72", "q3400" },
		"dgx-b200 2 planes": func(s *Scenario) { s.Cluster.System, s.Network.Switch, s.Network.Planes = "dgx-b200", "qm9700", 2 },
	}
	ratios := []string{"1:1", "3:2", "2:1", "3:1", "4:1", "7:1"}
	sizes := []int{1000, 2049, 4608, 7777, 13_000, 24_576, 40_001, 65_536, 99_999}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			built := 0
			for _, g := range sizes {
				var prev *Plan
				for _, r := range ratios {
					s := NewScenario()
					cfg(&s)
					s.Cluster.GPUs, s.Network.Tiers, s.Network.SpineOversubscription = g, 3, r
					p, err := Build(s, cat)
					if err != nil {
						if fielderr.FieldErrors(err) != nil {
							t.Fatalf("%d GPUs, spines %s: input error %v", g, r, err)
						}
						continue // past three tiers at this ratio
					}
					built++
					checkPlanInvariants(t, g, p)
					d, u, _ := Ratio(r)
					for _, o := range p.BuiltOversubscription() {
						if o.Tier == TierSpine && o.Worst > float64(d)/float64(u)*(1+1e-9) {
							t.Errorf("%d GPUs: spines asked %s, worst built %.3f:1", g, r, o.Worst)
						}
					}
					if prev != nil {
						if p.Cost.Total > prev.Cost.Total*(1+1e-9) {
							t.Errorf("%d GPUs: spines %s cost %s, more than %s at %s", g, r, textfmt.USD(p.Cost.Total), textfmt.USD(prev.Cost.Total), prev.Scenario.Network.SpineOversubscription)
						}
						if p.TotalSwitches() > prev.TotalSwitches() || p.Links.Total > prev.Links.Total {
							t.Errorf("%d GPUs: spines %s: %d switches, %d links; %s: %d, %d", g, r, p.TotalSwitches(), p.Links.Total,
								prev.Scenario.Network.SpineOversubscription, prev.TotalSwitches(), prev.Links.Total)
						}
					}
					prev = p
				}
			}
			if built < len(sizes)*len(ratios)/2 {
				t.Errorf("only %d of %d plans built", built, len(sizes)*len(ratios))
			}
		})
	}
}

// TestSpineRatioBelowThreeTiers: a two-tier fabric's spines are its top
// tier, so an asked spine ratio changes nothing and says why. Mutation
// caught: the ratio applied to the top tier (spines given uplinks or
// fewer down ports), or dropped without a word.
func TestSpineRatioBelowThreeTiers(t *testing.T) {
	cat := testCatalog(t)
	base, err := Build(ibScenario(2048), cat)
	if err != nil {
		t.Fatal(err)
	}
	s := ibScenario(2048)
	s.Network.SpineOversubscription = "7:1"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 2 || p.TotalSwitches() != base.TotalSwitches() || p.Cost.Total != base.Cost.Total {
		t.Errorf("two tiers with spines 7:1: %d tiers, %d switches, %s; non-blocking: %d switches, %s",
			p.Tiers, p.TotalSwitches(), textfmt.USD(p.Cost.Total), base.TotalSwitches(), textfmt.USD(base.Cost.Total))
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "spine_oversubscription 7:1 applies above a pod") {
		t.Errorf("no note on the unused spine ratio: %q", p.Notes)
	}
}

// TestSpineRatioErrors: a bad spine ratio names its field. Mutations
// caught: the field unchecked (a plan built on garbage), the wrong field
// named, a ratio past the switch's ports accepted.
func TestSpineRatioErrors(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct{ ratio, want string }{
		{"7", "network.spine_oversubscription"},
		{"1:7", "network.spine_oversubscription"},
		{"0:1", "network.spine_oversubscription"},
		{"64:1", "network.spine_oversubscription"}, // 65 ports on a 64-port QM9700
	} {
		s := ibScenario(8192)
		s.Network.Tiers, s.Network.SpineOversubscription = 3, tc.ratio
		_, err := Build(s, cat)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spines %q: error %v, want one naming %s", tc.ratio, err, tc.want)
		}
	}
}

// TestSpineRatioJCT: traffic between pods meets the spines' ratio on top
// of the leaf's; traffic inside a pod does not. Hand reasoning: Llama 3
// 70B, tp 8, pp 4 on 24,576 GPUs puts each data-parallel group (768 ranks
// 8 GPUs apart: 768 servers) inside one 896-server pod of Tomahawk 5
// (400G, spines 7:1: 112 leaves a pod, 8 rails, 64-server units), and
// each pipeline (stride 6,144 GPUs) across pods: pipeline time grows,
// data-parallel time does not. Mutations caught: the spine ratio ignored
// by the job model, or applied to groups inside a pod.
func TestSpineRatioJCT(t *testing.T) {
	cat := testCatalog(t)
	class := func(p *Plan, name string) perf.TrafficClass {
		for _, c := range p.JCT.Planned.Classes {
			if strings.HasPrefix(c.Name, name) {
				return c
			}
		}
		t.Fatalf("no %s class", name)
		return perf.TrafficClass{}
	}
	plans := map[string]*Plan{}
	for _, r := range []string{"1:1", "7:1"} {
		s := NewScenario()
		s.Cluster.GPUs, s.Cluster.System = 24576, "dgx-h100"
		s.Network.Fabric, s.Network.Switch, s.Network.Tiers, s.Network.SpineOversubscription = Ethernet, "tomahawk5", 3, r
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		plans[r] = p
	}
	if got := plans["7:1"].podServers(); got != 896 {
		t.Fatalf("pod of %d servers, want 896 (112 leaves / 8 rails x 64)", got)
	}
	nb, os := plans["1:1"], plans["7:1"]
	if a, b := class(nb, "data"), class(os, "data"); a.BusBWGBs != b.BusBWGBs {
		t.Errorf("data parallel inside a pod: %.1f GB/s non-blocking, %.1f GB/s with spines 7:1", a.BusBWGBs, b.BusBWGBs)
	}
	a, b := class(nb, "pipeline"), class(os, "pipeline")
	if ratio := a.BusBWGBs / b.BusBWGBs; ratio < 6 || ratio > 7.01 {
		t.Errorf("pipeline across pods: %.1f GB/s non-blocking, %.1f with spines 7:1 (%.2fx), want about the built 6.98x", a.BusBWGBs, b.BusBWGBs, ratio)
	}
}

// TestMetaLlama3RoCECluster reproduces Meta's 24K-GPU RoCE cluster as
// published: 24,576 H100 in 3,072 eight-GPU servers, two servers (16
// GPUs) under each rack training switch (RTSW), so 1,536 RTSWs; AI zones
// of 3,072 GPUs, non-blocking inside; 1:7 oversubscription from the
// cluster switches (CTSW) to the aggregation (ATSW). Sources: "The Llama
// 3 Herd of Models" (arXiv 2407.21783, section 3.3.1) and Gangidi et al.,
// "RDMA over Ethernet for Distributed AI Training at Meta Scale"
// (SIGCOMM 2024), via Glenn Lockwood's notes (research/facility.md,
// reliability.md). Meta's CTSWs are modular chassis the catalog does not
// hold; on 256 x 400G Tomahawk 6 the spine and core counts are a hand
// count:
//   - a zone: 192 RTSWs x 16 uplinks = 3,072 links; a 7:1 spine splits
//     256 ports 224 down, 32 up, so 14 spines carry them (3,072/224 =
//     13.7); strict balance needs 16, more than one unit's worth (1), so
//     near-balanced; 8 zones, 112 spines;
//   - spines take 219 or 220 links and send up 32 (220/7 rounded up):
//     3,584 spine-core links, spine j of the 8 zones on one core of 256
//     ports: 14 cores; built 24,576 / 3,584 = 6.86:1, within 7:1.
//
// Mutations caught: servers_per_tor ignored (leaves packed to the radix:
// 192 of them), pod_gpus ignored (pods of 224 RTSWs), the spine ratio
// ignored or read up:down, the leaf made oversubscribed.
func TestMetaLlama3RoCECluster(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs, s.Cluster.System = 24576, "dgx-h100"
	n := &s.Network
	n.Fabric, n.Switch, n.Tiers, n.RailOptimized = Ethernet, "tomahawk6-100g", 3, false
	n.ServersPerToR, n.PodGPUs, n.SpineOversubscription = 2, 3072, "7:1"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	got := []int{p.Switches(TierLeaf), p.Pods, p.Switches(TierSpine), p.Switches(TierCore), p.Links.LeafSpine, p.Links.SpineCore}
	want := []int{1536, 8, 112, 14, 24576, 3584}
	names := []string{"RTSWs", "AI zones", "spines", "cores", "leaf-spine", "spine-core"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: got %d, want %d", names[i], got[i], want[i])
		}
	}
	built := p.BuiltOversubscription()
	if len(built) != 2 || built[0].Worst != 1 || built[1].Ratio > 7 || built[1].Ratio < 6.8 {
		t.Errorf("built %+v: want non-blocking RTSWs and about 7:1 above the zones", built)
	}
}

// TestToRAndPodErrors: a ToR size or pod that cannot be built names its
// field and the fix. Mutations caught: a ToR size silently clamped to the
// switch, a ToR size on rail-optimized leaves ignored, a pod that is not
// whole leaf groups silently replaced by the default pod.
func TestToRAndPodErrors(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name  string
		edit  func(n *Network)
		field string
	}{
		{"ToR past the radix", func(n *Network) { n.RailOptimized, n.ServersPerToR = false, 5 }, "network.servers_per_tor"}, // 5 x 8 x 2 = 80 > 64
		{"ToR on rail leaves", func(n *Network) { n.ServersPerToR = 2 }, "network.servers_per_tor"},
		{"negative ToR", func(n *Network) { n.RailOptimized, n.ServersPerToR = false, -1 }, "network.servers_per_tor"},
		{"pod not whole units", func(n *Network) { n.Tiers, n.PodGPUs = 3, 1000 }, "network.pod_gpus"},
		{"pod past a spine", func(n *Network) { n.Tiers, n.PodGPUs = 3, 8192 }, "network.pod_gpus"}, // 32 leaves x 256 GPUs max
	} {
		s := ibScenario(16384)
		tc.edit(&s.Network)
		_, err := Build(s, cat)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.field)
		}
	}
}

// TestPodOffTheServerGrid: a pod is whole servers of the system's size,
// also when the GPU count is no multiple of it. By hand, on Meta's
// shape (2 servers of 8 GPUs per ToR, pods of 3,072 GPUs = 192 ToRs):
// 65 GPUs are 9 servers, 5 ToRs, one pod; 24,577 GPUs are 3,073 servers,
// 1,537 ToRs, 9 pods (8 full and one ToR). Mutation caught: the group's
// GPUs per server taken as GPUs / servers (65 / 9 = 7), which refused
// pod_gpus = 3,072 as "not a multiple of 14 GPUs".
func TestPodOffTheServerGrid(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct{ gpus, tors, pods int }{
		{65, 5, 1},
		{100, 7, 1}, // 13 servers
		{24577, 1537, 9},
	} {
		s := NewScenario()
		s.Cluster.GPUs, s.Cluster.System = c.gpus, "dgx-h100"
		n := &s.Network
		n.Fabric, n.Switch, n.Tiers, n.RailOptimized = Ethernet, "tomahawk6-100g", 3, false
		n.ServersPerToR, n.PodGPUs, n.SpineOversubscription = 2, 3072, "7:1"
		p, err := Build(s, cat)
		if err != nil {
			t.Errorf("%d GPUs: %v", c.gpus, err)
			continue
		}
		if p.Switches(TierLeaf) != c.tors || p.Pods != c.pods {
			t.Errorf("%d GPUs: %d ToRs in %d pods, want %d in %d", c.gpus, p.Switches(TierLeaf), p.Pods, c.tors, c.pods)
		}
	}
}

// TestToRWholeServers: a top-of-rack leaf takes whole servers and the
// uplinks the leaf ratio asks for their ports, not for the down ports a
// part server would fill (issue 45, buyer finding 6), by hand:
//   - 1,000 GPUs of 8 x 200G (125 servers) on the QM8700 (40 x 200G),
//     1:1: 20 down ports hold 2 servers (16 ports), so 16 uplinks; 62
//     full ToRs and one of 1 server (8 ports, 8 up): 63 leaves, 62 x 16
//   - 8 = 1,000 uplinks, leaf 1:1 (the bug: 20 a full leaf, 1,248).
//   - the same at 3:1: 30 down hold 3 servers (24 ports), ceil(24/3) = 8
//     up; 41 full ToRs and one of 2 servers (16 ports, 6 up): 42 leaves,
//     41 x 8 + 6 = 334 uplinks (the bug: 10 a full leaf, 416).
//   - RoCE, 1,000 GPUs of 8 x 400G on the SN5600 (128 x 400G), 2:1: 85
//     down hold 10 servers (80 ports), 40 up; 12 full ToRs and one of 5
//     servers (40 ports, 20 up): 13 leaves, 12 x 40 + 20 = 500 uplinks.
//   - 4 servers exactly fill the QM9700's 32 down ports (64 x 400G, 1:1):
//     1,000 GPUs are 31 full ToRs and one of 1 server, 31 x 32 + 8 =
//     1,000 uplinks, as before.
//
// Mutation caught: the leaf's uplinks sized for its down ports, not its
// servers' (setToR without the whole-servers trim: 1,248, 416 and 524
// uplinks); checked.
func TestToRWholeServers(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name           string
		fab            Fabric
		nic            int
		sw, ratio      string
		leaves, uplink int
	}{
		{"qm8700 1:1", InfiniBand, 200, "qm8700", "1:1", 63, 1000},
		{"qm8700 3:1", InfiniBand, 200, "qm8700", "3:1", 42, 334},
		{"sn5600 2:1", Ethernet, 400, "sn5600", "2:1", 13, 500},
		{"qm9700 1:1", InfiniBand, 400, "qm9700", "1:1", 32, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := flatLengths(leafShapeScenario(1000, tc.fab, tc.nic, tc.sw, tc.ratio))
			s.Network.RailOptimized = false
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Switches(TierLeaf) != tc.leaves || p.Links.LeafSpine != tc.uplink {
				t.Errorf("got %s; want %d leaves, %d leaf-spine links", tierCounts(p), tc.leaves, tc.uplink)
			}
			d, u, _ := Ratio(tc.ratio)
			for _, o := range p.BuiltOversubscription() {
				if o.Tier == TierLeaf && o.Worst > float64(d)/float64(u)+1e-9 {
					t.Errorf("leaf built %.3f:1 at worst, asked %s", o.Worst, tc.ratio)
				}
			}
		})
	}
}
