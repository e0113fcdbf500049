package planner

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"fabricplan/data"
)

// TestDGXB200SuperPOD checks the switch and cable counts of NVIDIA's DGX
// B200 SuperPOD reference architecture, compute fabric table ("DGX SuperPOD
// Architecture", docs.nvidia.com/dgx-superpod/reference-architecture-
// scalable-infrastructure-b200/latest/dgx-superpod-architecture.html):
// rail-optimized QM9700 NDR fat-tree, 32 DGX B200 (8 GPUs, 8 x 400G) per SU.
func TestDGXB200SuperPOD(t *testing.T) {
	cat := testCatalog(t)
	tests := []struct {
		sus                                   int
		leaf, spine, core                     int
		nodeLeaf, leafSpine, spineCore, tiers int
	}{
		{2, 16, 8, 0, 512, 512, 0, 2},
		{4, 32, 16, 0, 1024, 1024, 0, 2},
		{8, 64, 32, 0, 2048, 2048, 0, 2},
		{16, 128, 128, 64, 4096, 4096, 4096, 3},
		{32, 256, 256, 128, 8192, 8192, 8192, 3},
		{64, 512, 512, 256, 16384, 16384, 16384, 3},
	}
	for _, tc := range tests {
		gpus := tc.sus * 32 * 8
		p, err := Build(ibScenario(gpus), cat)
		if err != nil {
			t.Fatalf("%d SU: %v", tc.sus, err)
		}
		got := []int{p.Switches(TierLeaf), p.Switches(TierSpine), p.Switches(TierCore), p.Links.ServerLeaf, p.Links.LeafSpine, p.Links.SpineCore, p.Tiers}
		want := []int{tc.leaf, tc.spine, tc.core, tc.nodeLeaf, tc.leafSpine, tc.spineCore, tc.tiers}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%d SU (%d GPUs): leaf/spine/core/node-leaf/leaf-spine/spine-core/tiers = %v, want %v", tc.sus, gpus, got, want)
				break
			}
		}
	}
}

// TestDGXH100SuperPOD checks NVIDIA's DGX H100 SuperPOD RA (RA-11333-001,
// 2023-09, Tables 4 and 8), compute fabric on QM9700: 1-4 SU hold
// 31/63/95/127 DGX H100, one node slot of the last SU left for UFM
// connectivity, so every leaf keeps its 32 uplinks: 8/16/24/32 leaves,
// 4/8/16/16 spines, 256/512/768/1,024 leaf-spine links (32 a leaf), and
// at 4 SU 1,536 switch OSFP transceivers. Full SUs (32 DGX each) size
// the same switches; 3 SU needs 16 spines, not 12, because every leaf's
// 32 uplinks must split evenly. Catches: the partial unit's leaves given
// only their servers' uplinks (1,016 leaf-spine links at 127 DGX, the
// regression of issue 46); the slot reserved on an Ethernet back end
// (no UFM: 31 uplinks a leaf there).
func TestDGXH100SuperPOD(t *testing.T) {
	cat := testCatalog(t)
	dgxH100 := func(gpus int) Scenario {
		s := ibScenario(gpus)
		s.Cluster.System = "dgx-h100"
		return s
	}
	for _, tc := range []struct {
		gpus, leaf, spine, leafSpine, switchXcvr int
	}{
		{248, 8, 4, 256, 0}, {504, 16, 8, 512, 0}, {760, 24, 16, 768, 0}, {1016, 32, 16, 1024, 1536},
		{256, 8, 4, 256, 0}, {512, 16, 8, 512, 0}, {768, 24, 16, 768, 0}, {1024, 32, 16, 1024, 0},
	} {
		p, err := Build(dgxH100(tc.gpus), cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Switches(TierLeaf) != tc.leaf || p.Switches(TierSpine) != tc.spine || p.Links.LeafSpine != tc.leafSpine {
			t.Errorf("%d GPUs: leaf %d spine %d leaf-spine links %d, want %d %d %d", tc.gpus,
				p.Switches(TierLeaf), p.Switches(TierSpine), p.Links.LeafSpine, tc.leaf, tc.spine, tc.leafSpine)
		}
		if tc.switchXcvr != 0 && p.SwitchTransceivers != tc.switchXcvr {
			t.Errorf("%d GPUs: %d switch transceivers, want %d", tc.gpus, p.SwitchTransceivers, tc.switchXcvr)
		}
	}
	// On Ethernet there is no UFM: 127 DGX at 1:1 leave each leaf of
	// the last unit 31 uplinks (8 x 31 + 3 x 8 x 32 = 1,016 links).
	s := dgxH100(1016)
	s.Network.Fabric, s.Network.Switch = Ethernet, "sn5600"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Links.LeafSpine != p.Links.ServerLeaf {
		t.Errorf("Ethernet 127 DGX: %d leaf-spine links, want %d (no UFM slot reserved)", p.Links.LeafSpine, p.Links.ServerLeaf)
	}
}

// TestFatTreeK64 checks the classic k-ary fat-tree (Al-Fares et al.,
// SIGCOMM 2008): k = 64 reaches k^3/4 = 65,536 hosts with 5k^2/4 = 5,120
// switches; DeepSeek's ISCA'25 paper quotes the same 65,536 endpoints and
// 5,120 switches for a three-layer fat-tree, and 16,384 endpoints on 768
// switches for an 8-plane two-layer fat-tree.
func TestFatTreeK64(t *testing.T) {
	cat := testCatalog(t)
	p, err := Build(ibScenario(65536), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.TotalSwitches() != 5120 || p.Tiers != 3 {
		t.Errorf("65,536 GPUs: %d switches in %d tiers, want 5,120 in 3", p.TotalSwitches(), p.Tiers)
	}
	s := ibScenario(16384)
	s.Network.Planes = 8
	p, err = Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.TotalSwitches() != 768 || p.Tiers != 2 {
		t.Errorf("16,384 GPUs on 8 planes: %d switches in %d tiers, want 768 in 2", p.TotalSwitches(), p.Tiers)
	}
	if _, err := Build(ibScenario(65537*8), cat); !errors.Is(err, ErrTooLarge) {
		t.Errorf("past three tiers: err = %v, want ErrTooLarge", err)
	}
}

// TestReachOfTwoTiers checks the two-tier ceilings in NVIDIA's published
// tables (research/hardware.md §3): the DGX B300 Quantum-X800 (Q3400, XDR)
// table's 18-SU row has 10,368 node-leaf cables (144^2/2); the B300
// Spectrum-X table (SN5600 at 128 x 400G, each ConnectX-8 as 2 x 400G on
// two planes) tops out at 8,192 GPUs in 16 SU of 64 servers.
func TestReachOfTwoTiers(t *testing.T) {
	cat := testCatalog(t)
	xdr := func(gpus int) Scenario {
		s := NewScenario()
		s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = gpus, 800, "q3400"
		return s
	}
	p, err := Build(xdr(10368), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 2 || p.Links.ServerLeaf != 10368 || p.Switches(TierLeaf) != 144 || p.Switches(TierSpine) != 72 || p.Units != 18 {
		t.Errorf("XDR 18 SU: %d tiers, %d node-leaf, leaf %d, spine %d, %d SU", p.Tiers, p.Links.ServerLeaf,
			p.Switches(TierLeaf), p.Switches(TierSpine), p.Units)
	}
	if p, _ := Build(xdr(10376), cat); p == nil || p.Tiers != 3 {
		t.Error("one more server past 10,368 GPUs should need three tiers")
	}
	spx := func(gpus int) Scenario {
		s := NewScenario()
		s.Cluster.GPUs = gpus
		s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes, s.Network.Switch = Ethernet, 800, 2, 2, "sn5600"
		return s
	}
	p, err = Build(spx(8192), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 2 || p.Units != 16 || p.ServersPerUnit != 64 || p.NICPorts != 16384 {
		t.Errorf("Spectrum-X 8,192 GPUs: %d tiers, %d SU of %d servers, %d NIC ports", p.Tiers, p.Units, p.ServersPerUnit, p.NICPorts)
	}
	if p, _ := Build(spx(8200), cat); p == nil || p.Tiers != 3 {
		t.Error("past 8,192 GPUs the Spectrum-X fabric should need three tiers")
	}
}

// TestDGXB300Tables checks the compute-fabric tables of NVIDIA's DGX B300
// SuperPOD reference architectures (docs.nvidia.com/dgx-superpod/
// reference-architecture/scalable-infrastructure-b300-xdr/latest/
// dgx-superpod-architecture.html, Table 3, and .../scalable-infrastructure-
// b300/latest/dgx-superpod-architecture.html, Table 3).
//
// XDR: Quantum-X800 Q3400, one 800G link per GPU, SU of 72 nodes. The 4-SU
// row's 18 spines (not 16) and the 8-SU row's 36 come from balanced
// wiring: the spine count must divide a leaf's 72 uplinks.
//
// Spectrum-X: SN5600 at 400G, each GPU's ConnectX-8 as 2 x 400G on two
// planes, SU of 64 nodes. NVIDIA's cable columns there count one breakout
// cable per NIC (2 links); the planner counts links, so only switch counts
// are compared.
func TestDGXB300Tables(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct{ sus, leaf, spine, links int }{
		{1, 8, 4, 576}, {2, 16, 8, 1152}, {4, 32, 18, 2304}, {8, 64, 36, 4608}, {18, 144, 72, 10368},
	} {
		s := NewScenario()
		s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = tc.sus*72*8, 800, "q3400"
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Switches(TierLeaf) != tc.leaf || p.Switches(TierSpine) != tc.spine || p.Links.ServerLeaf != tc.links || p.Links.LeafSpine != tc.links {
			t.Errorf("XDR %d SU: leaf %d spine %d node-leaf %d leaf-spine %d, want %d %d %d %d", tc.sus,
				p.Switches(TierLeaf), p.Switches(TierSpine), p.Links.ServerLeaf, p.Links.LeafSpine, tc.leaf, tc.spine, tc.links, tc.links)
		}
	}
	for _, tc := range []struct{ sus, leaf, spine int }{{1, 16, 8}, {2, 32, 16}, {4, 64, 32}, {8, 128, 64}, {16, 256, 128}} {
		s := NewScenario()
		s.Cluster.GPUs = tc.sus * 64 * 8
		s.Network.Fabric, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes, s.Network.Switch = Ethernet, 800, 2, 2, "sn5600"
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Switches(TierLeaf) != tc.leaf || p.Switches(TierSpine) != tc.spine || p.Tiers != 2 {
			t.Errorf("Spectrum-X %d SU: leaf %d spine %d (%d tiers), want %d %d", tc.sus, p.Switches(TierLeaf), p.Switches(TierSpine), p.Tiers, tc.leaf, tc.spine)
		}
	}
}

// The Quantum-X800 SuperPODs (DGX B300 XDR, GB300 NVL72) on Q3400 keep
// every leaf's 72 uplinks split evenly over the spines at any size, as
// the DGX B300 XDR RA's Table 3 does (4 SU on 18 spines where 16 carry
// the links, 8 SU on 36 where 32 do: both within the one-unit bound, 4,
// that every design keeps, so no note): 16 SU, 128 leaves and 9,216
// uplinks, take the smallest divisor of 72 that carries them, 72
// spines (one link from each leaf, 128 of 144 ports), not 64, and the
// note counts the 8 only the reference's rule adds; 12 SU (96 leaves,
// 6,912 links, 48 would carry them) take 72 too (24 added). A generic
// server keeps the bound: 64 at 16 SU; so does a DGX B300 whose leaves
// or spines are another switch. Mutations caught: the system's strict_spines_on
// ignored (64 spines at 16 SU); strict balance for every design or
// switch (72 for the generic server; the rule kept with QM9700 spines); the note
// counting spines the usual bound adds too (2 at 4 SU).
func TestQuantumX800StrictSpines(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		system, spines string
		sus, spine     int
		added          int
	}{
		{"dgx-b300", "", 1, 4, 0}, {"dgx-b300", "", 4, 18, 0}, {"dgx-b300", "", 8, 36, 0},
		{"dgx-b300", "", 12, 72, 24}, {"dgx-b300", "", 16, 72, 8}, {"dgx-b300", "", 18, 72, 0},
		{"gb300-nvl72", "", 16, 72, 8}, {"gb300-nvl72", "", 13, 72, 20},
		{"", "", 16, 64, 0},
	} {
		s := NewScenario()
		s.Cluster.System = tc.system
		s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch, s.Network.SpineSwitch = tc.sus*576, 800, "q3400", tc.spines
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.Switches(TierLeaf) != tc.sus*8 || p.Switches(TierSpine) != tc.spine {
			t.Errorf("%q %d SU: leaf %d spine %d, want %d %d", tc.system, tc.sus, p.Switches(TierLeaf), p.Switches(TierSpine), tc.sus*8, tc.spine)
		}
		want := ""
		if tc.added > 0 {
			want = fmt.Sprintf("takes %d spine switches more than the fewest", tc.added)
		}
		got := ""
		for _, n := range p.Notes {
			if strings.HasPrefix(n, "spines strictly balanced") {
				got = n
			}
		}
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%q %d SU: strict-balance note %q, want one saying %q", tc.system, tc.sus, got, want)
		}
	}
	b300 := cat.Systems["dgx-b300"]
	q3400, qm9700 := cat.Switches["q3400"], cat.Switches["qm9700"]
	for _, tc := range []struct {
		leaf, spine *Switch
		want        bool
	}{{q3400, nil, true}, {q3400, q3400, true}, {q3400, qm9700, false}, {qm9700, nil, false}} {
		if got := strictSpinesOn(b300, tc.leaf, tc.spine); got != tc.want {
			t.Errorf("dgx-b300 strict spines on leaf %s, spine %v: %v, want %v", tc.leaf.Key, tc.spine, got, tc.want)
		}
	}
	if strictSpinesOn(nil, q3400, nil) {
		t.Error("strict spines without a system")
	}
}

// The catalog refuses a ufm_node_slots no reference design has: below 0
// (a partial unit would lose uplinks) or above 4. Catches: the range
// check dropped (a negative count taken through reservedFor).
func TestUFMNodeSlotsRange(t *testing.T) {
	src, err := data.FS.ReadFile("catalog.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"-1", "5"} {
		bad := strings.Replace(string(src), "ufm_node_slots = 1", "ufm_node_slots = "+v, 1)
		if _, err := ParseCatalog([]byte(bad)); err == nil || !strings.Contains(err.Error(), "ufm_node_slots") {
			t.Errorf("ufm_node_slots = %s: %v, want refused", v, err)
		}
	}
}

// A fabric past three tiers is refused with the reach of three tiers as
// this fabric is built and a plane count that divides a server's ports;
// that plane count must then plan. By hand: one plane of 8 GPUs a
// server on QM9700 (64 x 400G) reaches 64 x 64/2 x 64/2 = 65,536 ports,
// so 300,000 GPUs need 300,000 / 65,536 = 4.6, 8 planes of the 8 ports
// (5 would not divide them). A GB200 NVL72 fabric whose leaves take
// whole racks of a rail reaches fewer than the 65,536 (a 72-GPU rack's
// 18 trays fill 18 of a leaf's 32 down ports), so its tip is not "1
// times the planes", the old tip from radix³/4 alone. Mutations caught:
// the reach from radix³/4 (the GB200 tip 1x and 30,024 over 65,536 in
// one sentence), a tip of planes that do not divide the ports (5).
func TestTooLargeSuggestsPlanesThatPlan(t *testing.T) {
	cat := testCatalog(t)
	gb := NewScenario()
	gb.Cluster.System, gb.Cluster.GPUs = "gb200-nvl72", 30001
	gb.Network.Switch, gb.Network.LeafAlignment = "qm9700", "rack"
	for _, tc := range []struct {
		name   string
		s      Scenario
		planes int
		reach  string // "" to skip: a figure of the sizer's leaf groups
	}{
		{"300,000 GPUs, 8 a server, QM9700", ibScenario(300000), 8, "65,536"},
		{"GB200 NVL72, 30,001 GPUs, rack-aligned leaves", gb, 4, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.s, cat)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			msg := err.Error()
			if want := fmt.Sprintf("%d planes (network.planes", tc.planes); !strings.Contains(msg, want) {
				t.Errorf("%q: want %q", msg, want)
			}
			if tc.reach != "" && !strings.Contains(msg, "exceed the "+tc.reach+" ") {
				t.Errorf("%q: want the reach %s", msg, tc.reach)
			}
			if strings.Contains(msg, "exceed the 65,536") && tc.reach == "" {
				t.Errorf("%q: the ideal reach where this fabric's leaf groups reach less", msg)
			}
			s := tc.s
			s.Network.Planes = tc.planes
			if _, err := Build(s, cat); err != nil {
				t.Errorf("the tip's %d planes: %v", tc.planes, err)
			}
		})
	}
}
