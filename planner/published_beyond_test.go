package planner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fabricplan/planner/hall"
)

// TestPublishedBeyondNVIDIA enters published back-end designs outside
// NVIDIA's reference architectures, as a user would, and checks the
// switches and links per tier against the counts the sources give or
// state the rule for; each one entered from a file is docs/scenarios/
// published-*.toml, every such file is checked here. README's "Published
// designs checked" lists them beside the earlier ones, and the designs
// that do not reproduce, and why.
//
//   - Alibaba HPN, one pod (Qian et al., "Alibaba HPN: A Data Center
//     Network for Large Language Model Training", SIGCOMM 2024; the
//     shipped data/scenarios/alibaba-hpn-pod.toml): 15 segments of 128
//     hosts, 8 NICs of 2 x 200G each, one port to each ToR of a
//     non-stacked pair (two planes), 51.2T ToRs of 128 x 200G down and 60
//     x 400G up. By hand: a segment's 128 x 8 x 2 = 2,048 ports on 128-port
//     ToRs = 16 ToRs (8 rails x 2 planes), 15 segments 240; 240 x 60 =
//     14,400 ToR uplinks; a plane's 120 ToRs reach every aggregation
//     switch of their plane with one link, 60 per plane (the paper's 120
//     down-links of a 128 x 400G aggregation switch, the other 8 kept for
//     the core), 120 in all; 30,720 host links.
//   - Huawei AI Fabric for HPC ("Recommended Networking", Huawei
//     CloudEngine design guide EDOC1100155250, support.huawei.com): 1,024
//     single-homed servers at 100GE on CE8850-64CQ-EI leaves and spines
//     (64 x 100GE), 1:1, two layers. By hand: 32 servers per leaf (32
//     down, 32 up) = 32 leaves; 1,024 uplinks on 64-port spines = 16
//     spines. It needs the 25G-lane 100G parts (ce8850-64cq, e810-100):
//     HDR100's 50G lanes do not join a QSFP28 switch.
//   - Meta's Research SuperCluster, phase 2 (Meta, "RSC" update, 2022-23,
//     as quoted by thomarite.uk from HPCwire, 2023-05: 2,000 DGX A100,
//     16,000 A100 GPUs, "48,000 links and 2,000 switches", a flat HDR
//     InfiniBand fabric): exactly the three-level fat tree of k = 40-port
//     switches (Al-Fares et al., SIGCOMM 2008): k^3/4 = 16,000 hosts,
//     k^2/2 = 800 leaves and 800 spines in k = 40 pods of k/2 = 20 leaves,
//     k^2/4 = 400 cores, three tiers of 16,000 links. Entered with the
//     textbook pod (pod_gpus = 400: 20 leaves of 20 GPUs), which cuts
//     across the 8-leaf units; whole-unit pods (16 leaves) take 1,000
//     spines.
//   - The same fat tree with two pods (tiers = 3, 800 GPUs): 40 leaves, 2
//     pods of 20 under 20 spines each, 800 spine uplinks on 40-port cores
//     = 20 cores.
//
// Held out (collected with the rest, entered only after the code above
// was written, and not tuned to):
//
//   - Asterfusion, "Best Practices for Small-Scale AI Compute Backend
//     Fabric" (docs.asternos.com): 32 nodes of 4 GPUs, 128 GPUs on 4
//     CX732Q-N (32 x 400G) leaves, rail-only, one tier; here the
//     catalog's 32 x 400G Tomahawk 3.
//   - losslessnetwork.com, "Cluster Sizing & Cabling", 1,024 GPUs: 128
//     servers, 8 rails of 4 leaves = 32 leaves of 32 x 400G down and 16
//     up, 8 spines (the page calls the leaf "1:2"; 32 down, 16 up is 2:1).
//   - Asterfusion, "AI Training Network" (cloudswit.ch/solution): 256K
//     GPUs at 400G, "eight rails, each consisting of 256 spine switches
//     and 512 leaf switches" on 51.2T switches, two tiers. Two tiers of
//     32,768 GPUs a rail on a 51.2T switch need 256-port (200G) radix, so
//     each 400G NIC runs as 2 x 200G in two planes (an inference from the
//     arithmetic, not stated): 16 two-tier fabrics of 256 leaves and 128
//     spines. Entered at 400G it takes three tiers (10,240 switches).
//
// Its fourth case missed until servers_per_leaf: the same page's 4,096
// GPUs ("4 pods x 1024 GPUs. 128 leaves, 32 spines, 16 super-spines")
// keeps 32 servers a leaf at 2:1 (48 of 64 ports) where the plan filled
// the leaf (42 down, 21 up): 104/64/32. Entered with servers_per_leaf =
// 32, its 1,024-GPU pods, three tiers and 128-port spines (the only
// spines its counts close on; the page: "or half a Tomahawk 5"): by
// hand 128 leaves, 512 uplinks a pod on 8 spines of 64 down, 32 spines
// of 64 up on 128-port cores = 16; links 4,096/2,048/2,048.
//
// Held out from servers_per_leaf and min_spines (collected by an earlier
// session and listed as not reproduced, entered only after both were
// written and tested):
//
//   - Juniper's QPP validated design (jvd-ai-dc-qpp-bgp-dpf, "IP Fabric
//     GPU Backend Fabric Architecture"): "two stripes, each composed of
//     eight QFX5240 leaf nodes ... interconnected across four QFX5240
//     spine nodes", 8 H100 servers at 400GE, "4 x 400G" uplinks a leaf,
//     1:1. By hand: 16 leaves of 4 servers (servers_per_leaf = 4), 64
//     uplinks that one 128 x 400G spine would hold spread over Juniper's
//     "minimum of 4 spines" (min_spines = 4), one link each; tiers = 2.
//
// Mutations caught: the 64 x 100G switch given a 128-port (12.8T) radix
// (16 leaves and 8 spines), the 100G adapter on 50G lanes (refused: no
// lane rate in common with the switch), a pod of whole leaves sized as
// whole units (2,200 switches for RSC); each checked.
func TestPublishedBeyondNVIDIA(t *testing.T) {
	cat := testCatalog(t)
	cases := []publishedCase{
		{"Alibaba HPN pod, 15,360 GPUs", func() Scenario { return scenarioFile(t, "alibaba-hpn-pod") },
			"2 tiers, 240/120/0 switches, links 30720/14400/0"},
		{"published-huawei-aifabric-1024", nil, "2 tiers, 32/16/0 switches, links 1024/1024/0"},
		{"published-meta-rsc-16k", nil, "3 tiers, 800/800/400 switches, links 16000/16000/16000"},
		{"HDR fat tree of two pods, 800 GPUs", func() Scenario { return hdrFatTree(800, 3) },
			"3 tiers, 40/40/20 switches, links 800/800/800"},
		// Held out.
		{"published-asterfusion-rail-only-128", nil, "1 tiers, 4/0/0 switches, links 128/0/0"},
		{"published-losslessnetwork-1024", nil, "2 tiers, 32/8/0 switches, links 1024/512/0"},
		{"published-asterfusion-256k", nil, "2 tiers, 4096/2048/0 switches, links 524288/524288/0"},
		{"published-losslessnetwork-4096", nil, "3 tiers, 128/32/16 switches, links 4096/2048/2048"},
		{"published-juniper-qpp-64", nil, "2 tiers, 16/4/0 switches, links 64/64/0"},
	}
	files, err := filepath.Glob("../docs/scenarios/published-*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/scenarios/published-*.toml: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		if !slices.ContainsFunc(cases, func(c publishedCase) bool { return c.name == name }) {
			t.Errorf("%s has no counts to check here", f)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s Scenario
			if tc.s != nil {
				s = tc.s()
			} else {
				s = docScenario(t, tc.name)
			}
			p, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if got := tierCounts(p); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			checkPlanInvariants(t, p.GPUs, p)
		})
	}
}

// publishedCase is a published design and its counts: a scenario built
// by s, or (s nil) docs/scenarios/NAME.toml; want as tierCounts writes it.
type publishedCase struct {
	name string
	s    func() Scenario
	want string
}

// docScenario decodes docs/scenarios/NAME.toml, an example the product
// documents but does not ship.
func docScenario(t *testing.T, name string) Scenario {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "docs", "scenarios", name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScenarioFromData(src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// hdrFatTree is gpus on 8-GPU servers of eight 200G HDR ports on the
// 40-port QM8700, in pods of the textbook fat tree's k/2 = 20 leaves (400
// GPUs).
func hdrFatTree(gpus, tiers int) Scenario {
	s := NewScenario()
	s.Cluster.GPUs, s.Cluster.GPUsPerServer = gpus, 8
	n := &s.Network
	n.NICGbps, n.Switch, n.PodGPUs, n.Tiers = 200, "qm8700", 400, tiers
	return s
}

// TestPodLeaves: pods of whole leaves that are not whole units, by hand.
// 8-GPU servers on 8 rails, 20 servers a leaf (a unit is 160 GPUs on 8
// leaves, a leaf 20 GPUs): 400 GPUs are 20 leaves, within a 20-down
// spine; 420 are 21, past it; 410 is not whole leaves; 320 is whole
// units (the units rule's); a top-of-rack leaf (one per group) and the
// reference pods of a rack-scale system (rail pods) never split. GB200
// trays (4 GPUs, 4 rails, 18 trays a leaf): a unit is 72 GPUs on 4
// leaves, a leaf 18 GPUs; 54 GPUs are 3 leaves. Mutations caught: the
// spine's down ports not checked, whole units taken by this rule, the
// leaf's GPUs taken as the unit's.
func TestPodLeaves(t *testing.T) {
	for _, tc := range []struct {
		name                              string
		pod, spg, lpg, perNode, spineDown int
		railPods                          bool
		want                              int
		ok                                bool
	}{
		{"20 leaves", 400, 20, 8, 8, 20, false, 20, true},
		{"past the spine", 420, 20, 8, 8, 20, false, 0, false},
		{"not whole leaves", 410, 20, 8, 8, 20, false, 0, false},
		{"whole units", 320, 20, 8, 8, 20, false, 0, false},
		{"top of rack", 40, 2, 1, 8, 20, false, 0, false},
		{"rail pods", 400, 20, 8, 8, 20, true, 0, false},
		{"GB200 trays", 54, 18, 4, 4, 32, false, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := podLeaves(tc.pod, tc.spg, tc.lpg, tc.perNode, tc.spineDown, tc.railPods)
			if got != tc.want || ok != tc.ok {
				t.Errorf("podLeaves = %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestLeafPodsOffGrid: pods of whole leaves that cut across units, on
// off-grid sizes, one and two planes, flat and laid out in a hall: every
// plan builds, keeps the plan invariants (each link counted once at each
// end, no switch past its ports), gives the hall the same switches and
// links as the flat plan, and never has more spines than whole-unit pods
// of the same fabric when the pod fills a spine's down ports. A pod too
// small to reach every port in three tiers is refused as past three
// tiers, which is the answer. Mutation caught: pod_gpus held to whole
// units as before (every size here refused); checked.
func TestLeafPodsOffGrid(t *testing.T) {
	cat := testCatalog(t)
	for _, planes := range []int{1, 2} {
		leafGPUs := 20 * planes // 20 servers a leaf; a leaf takes 8/planes GPUs' ports of each
		for _, gpus := range []int{800, 1001, 2999, 7777, 16000} {
			for _, leaves := range []int{3, 7, 12, 20} {
				pod := leaves * leafGPUs
				if pod%(160) == 0 {
					continue // whole units: the units rule
				}
				name := fmt.Sprintf("%d GPUs, %d planes, pods of %d leaves", gpus, planes, leaves)
				s := hdrFatTree(gpus, 3)
				s.Network.Planes, s.Network.PodGPUs = planes, pod
				p, err := Build(s, cat)
				if err != nil && strings.Contains(err.Error(), "more than three tiers") {
					continue // small pods reach fewer ports: the refusal is the answer
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkPlanInvariants(t, gpus, p)
				s.Facility = &hall.Facility{}
				h, err := Build(s, cat)
				if err != nil {
					t.Fatalf("%s, in a hall: %v", name, err)
				}
				if a, b := tierCounts(h), tierCounts(p); a != b {
					t.Errorf("%s: hall %s, flat %s", name, a, b)
				}
				if leaves == 20 && planes == 1 {
					s.Facility, s.Network.PodGPUs = nil, 0
					u, err := Build(s, cat)
					if err != nil {
						t.Fatalf("%s, whole units: %v", name, err)
					}
					if p.Switches(TierSpine) > u.Switches(TierSpine) {
						t.Errorf("%s: %d spines, more than whole-unit pods' %d", name, p.Switches(TierSpine), u.Switches(TierSpine))
					}
				}
			}
		}
	}
}

// TestLeafPodsOffered: a plan whose pods of whole units leave spine down
// ports empty names the pod of whole leaves that fills them, with its
// cost, as a cheaper design the window can apply; one whose pods fill
// the spines (DGX H100 on the 64-port QM9700: 8-leaf units, 32-down
// spines) or that sets pod_gpus itself gets none. RSC by hand: pods of
// 20 leaves, 800 spines against 1,000. Mutations caught: the pod sized
// without dividing by the unit's leaves (pod_gpus = 3,200, past a
// spine), the offer never made; both checked.
func TestLeafPodsOffered(t *testing.T) {
	cat := testCatalog(t)
	offers := func(s Scenario) (*Plan, []Cheaper) {
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		p.FindCheaper(cat)
		var out []Cheaper
		for _, c := range p.Cheaper {
			if strings.HasPrefix(c.Design, "pod_gpus") {
				out = append(out, c)
			}
		}
		return p, out
	}
	rsc := hdrFatTree(16000, 0)
	rsc.Network.PodGPUs = 0
	p, got := offers(rsc)
	if len(got) != 1 || got[0].Design != "pod_gpus = 400" {
		t.Fatalf("RSC without pod_gpus: offers %+v, want pod_gpus = 400", got)
	}
	if !slices.ContainsFunc(p.Notes, func(n string) bool {
		return strings.Contains(n, "pod_gpus = 400") && strings.Contains(n, "800 spines against 1,000")
	}) {
		t.Errorf("RSC: no note naming pod_gpus = 400 and 800 spines against 1,000 in %q", p.Notes)
	}
	s := rsc
	got[0].Apply(&s)
	if a, err := Build(s, cat); err != nil || a.Switches(TierSpine) != 800 {
		t.Errorf("RSC with the offer applied: %v spines, err %v; want 800", a, err)
	}
	if _, got := offers(hdrFatTree(16000, 0)); len(got) != 0 {
		t.Errorf("RSC with pod_gpus set: offers %+v, want none", got)
	}
	h := ibScenario(4096)
	h.Cluster.System = "dgx-h100"
	if _, got := offers(h); len(got) != 0 {
		t.Errorf("DGX H100 4,096 on QM9700: offers %+v, want none", got)
	}
}
