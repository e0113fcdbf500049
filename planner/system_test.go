package planner

import (
	"strings"
	"testing"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

func systemScenario(system string, gpus int, sw string) Scenario {
	s := NewScenario()
	s.Cluster.System, s.Cluster.GPUs, s.Network.Switch = system, gpus, sw
	return s
}

// NVIDIA's GB300 NVL72 SuperPOD puts 8 Q3400 leaves in each 576-GPU SU
// (8 racks): 8 racks x 18 trays x 4 ConnectX-8 = 576 ports at 800G, 72
// per leaf. Mutation caught: rails taken from a rack's 72 GPUs (72 rails,
// 72 leaves per SU) instead of a tray's 4 NICs.
func TestGB300SuperPODLeaves(t *testing.T) {
	cat := testCatalog(t)
	for _, racks := range []int{1, 2, 8, 16} {
		p, err := Build(systemScenario("gb300-nvl72", racks*72, "q3400"), cat)
		if err != nil {
			t.Fatal(err)
		}
		// Hand count: 18 trays a rack, 4 rails, a leaf serves 72 trays of
		// one rail (144 ports at 1:1), so ceil(18*racks/72) leaves a rail;
		// up to 144 ports in all, one switch holds every port.
		wantLeaves := 4 * ceilDiv(18*racks, 72)
		if racks*72 <= 144 {
			wantLeaves = 1
		}
		if p.NICPorts != racks*72 || p.RailsPerPlane != 4 || p.Switches(TierLeaf) != wantLeaves || p.Servers != racks*18 {
			t.Errorf("%d racks: %d NIC ports, %d rails, %d leaves, %d trays; want %d, 4, %d, %d",
				racks, p.NICPorts, p.RailsPerPlane, p.Switches(TierLeaf), p.Servers, racks*72, wantLeaves, racks*18)
		}
		if p.PortGbps != 800 || p.NIC.Key != "cx8-800" {
			t.Errorf("%d racks: %dG on %s, want 800G on cx8-800", racks, p.PortGbps, p.NIC.Key)
		}
	}
	p, _ := Build(systemScenario("gb300-nvl72", 576, "q3400"), cat)
	if p.Switches(TierLeaf) != 8 {
		t.Errorf("576-GPU SU: %d leaves, NVIDIA's SuperPOD has 8", p.Switches(TierLeaf))
	}
}

// Packed leaves: eight GB200 NVL72 racks on QM9700 used to be 232
// switches in three tiers. Hand count: 144 trays, 4 rails of 144 ports;
// a 64-port leaf at 1:1 serves 32: 5 leaves a rail (20), 576 uplinks over
// 64-port spines: at least 9. Mutation caught: gpus_per_server 72 rails.
// Cost bound by hand from research/prices.md street prices, per GPU: a
// ConnectX-7 $1,894; 20 leaves + at most 14 spines at $36,000 over 576
// GPUs = $2,125; one 400G module $1,124 a tray port; 1,728 switch-side
// links in twin-port modules at $1,119 = $1,678; two fibres at $100 =
// $200: at most $7,021 (with 9 spines $6,709).
func TestGB200OnQM9700Packed(t *testing.T) {
	cat := testCatalog(t)
	s := systemScenario("gb200-nvl72", 576, "qm9700")
	s.Network.LeafAlignment = AlignPacked
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 2 || p.Switches(TierLeaf) != 20 || p.Switches(TierSpine) < 9 || p.Switches(TierSpine) > 14 {
		t.Errorf("tiers %d leaf %d spine %d; want 2, 20, 9..14", p.Tiers, p.Switches(TierLeaf), p.Switches(TierSpine))
	}
	if p.Cost.PerGPU > 7021+1 {
		t.Errorf("$%.0f per GPU, more than the hand bound $7,021", p.Cost.PerGPU)
	}
}

// NVIDIA's DGX H100 SuperPOD RA lists 508 system-side transceivers for 127
// DGX H100: 4 twin-port OSFP modules each. Mutation caught: one module
// per NIC (1,016).
// At the flat per-tier lengths (flatLengths): the RA's count is of optical links (a hall puts some on copper).
func TestDGXH100SystemTransceivers(t *testing.T) {
	cat := testCatalog(t)
	p, err := Build(flatLengths(systemScenario("dgx-h100", 127*8, "qm9700")), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.ServerTransceivers != 508 {
		t.Errorf("127 DGX H100: %d system transceivers, want 508", p.ServerTransceivers)
	}
	// HGX with PCIe cards: one single-port module per NIC.
	p, _ = Build(flatLengths(systemScenario("hgx-h100", 127*8, "qm9700")), cat)
	if p.ServerTransceivers != 1016 {
		t.Errorf("127 HGX H100: %d system transceivers, want 1,016", p.ServerTransceivers)
	}
}

// Every catalog system plans at an off-grid size, with whole systems.
func TestEverySystemPlans(t *testing.T) {
	cat := testCatalog(t)
	for _, key := range cat.SystemKeys() {
		for _, gpus := range []int{72, 600, 1000, 9999} {
			s := systemScenario(key, gpus, Auto)
			p, err := Build(s, cat)
			if err != nil {
				t.Errorf("%s at %d GPUs: %v", key, gpus, err)
				continue
			}
			if key == CustomSystem {
				continue
			}
			sys := cat.Systems[key]
			// Hand count: whole systems, each of Nodes trays.
			if systems := ceilDiv(gpus, sys.GPUs); p.Systems != systems || p.Servers != systems*sys.Nodes {
				t.Errorf("%s at %d GPUs: %d systems, %d nodes; want %d, %d", key, gpus, p.Systems, p.Servers, systems, systems*sys.Nodes)
			}
			if p.NICPorts != p.Servers*sys.NICsPerNode {
				t.Errorf("%s: %d NIC ports for %d nodes of %d NICs", key, p.NICPorts, p.Servers, sys.NICsPerNode)
			}
			if held := p.Systems * sys.GPUs; held != gpus && !strings.Contains(strings.Join(p.Notes, " "), "more than asked") {
				t.Errorf("%s at %d GPUs holds %d with no note", key, gpus, held)
			}
			// Cost per GPU is per GPU bought: whole systems' GPUs (hand
			// count above), and the text names the GPUs asked beside it.
			// Mutation caught: the total over the GPUs asked (1,000
			// GB200 GPUs are 14 racks, 1,008 GPUs).
			bought := ceilDiv(gpus, sys.GPUs) * sys.GPUs
			if !near(p.Cost.PerGPU, p.Cost.Total/float64(bought)) {
				t.Errorf("%s at %d GPUs: $%.2f per GPU, want $%.2f (total over %d bought)", key, gpus, p.Cost.PerGPU, p.Cost.Total/float64(bought), bought)
			}
			if bought != gpus && !strings.Contains(p.PerGPUText(), textfmt.Int(gpus)+" asked") {
				t.Errorf("%s at %d GPUs: %q does not name the GPUs asked", key, gpus, p.PerGPUText())
			}
		}
	}
}

// The capex share is the same whether the compute is counted per rack
// (the system, NICs included in its price) or per tray (custom servers of
// 4 GPUs and 4 NICs priced at the rack's price less its NICs, over 18).
// Mutation caught: NICs inside a system's price counted twice.
// At the flat per-tier lengths (flatLengths): the two layouts' racks differ in a hall, so their cables do.
func TestCapexShareTrayOrRack(t *testing.T) {
	cat := testCatalog(t)
	rs := systemScenario("gb200-nvl72", 1152, "qm9700")
	rs.Network.LeafAlignment = AlignPacked // trays packed on leaves as custom servers are
	rack, err := Build(flatLengths(rs), cat)
	if err != nil {
		t.Fatal(err)
	}
	sys := cat.Systems["gb200-nvl72"]
	nic := cat.NICs[sys.NIC]
	tray := NewScenario()
	tray.Cluster.GPUs, tray.Cluster.GPUsPerServer, tray.Network.NICsPerServer, tray.Network.Switch = 1152, 4, 4, "qm9700"
	tray.Cluster.ServerPriceUSD = (sys.PriceUSD - 72*nic.PriceUSD) / 18
	pt, err := Build(flatLengths(tray), cat)
	if err != nil {
		t.Fatal(err)
	}
	if !near(rack.Cost.FabricShare, pt.Cost.FabricShare) || rack.Cost.Total != pt.Cost.Total {
		t.Errorf("share per rack %.6f (fabric %.0f), per tray %.6f (fabric %.0f)", rack.Cost.FabricShare, rack.Cost.Total, pt.Cost.FabricShare, pt.Cost.Total)
	}
	if rack.Cost.FabricShare <= 0 {
		t.Error("no capex share from the catalog system price")
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

// Tensor and expert parallelism inside a 72-GPU NVLink domain do not
// cross the fabric on NVL72; on an 8-GPU DGX the same expert-parallel
// group does. Mutation caught: the GPU preset's domain (8) used for NVL72.
func TestNVLinkDomainOfTheSystem(t *testing.T) {
	cat := testCatalog(t)
	w := perf.NewWorkload()
	w.Model, w.TP, w.PP, w.VPP, w.EP = "mixtral-8x7b", 4, 1, 1, 8 // EP spans 32 GPUs
	crosses := func(system string) bool {
		s := systemScenario(system, 1152, Auto)
		s.Workload = &w
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range p.JCT.Planned.Classes {
			if c.Name == perf.ClassEP {
				return c.CrossesFabric
			}
		}
		t.Fatalf("%s: no expert-parallel traffic", system)
		return false
	}
	if crosses("gb200-nvl72") {
		t.Error("EP over 32 GPUs crosses the fabric on GB200 NVL72")
	}
	if !crosses("dgx-b200") {
		t.Error("EP over 32 GPUs stays inside a DGX B200")
	}
}

// The cost range is the BOM at every low and every high price, and the
// drivers are ordered by swing. Hand check on the default 1,024-GPU NDR
// plan: 1,536 twin-port modules swing $1,000..$2,249 (research/prices.md
// ranges) = $1,918,464, the largest. Mutation caught: a driver list sorted ascending, or a range
// that ignores quantities.
// At the flat per-tier lengths (flatLengths): its hand figures count one medium per tier.
func TestCostRangeAndDrivers(t *testing.T) {
	cat := testCatalog(t)
	p, err := Build(flatIB(1024), cat)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := 0.0, 0.0
	for _, l := range p.BOM {
		lo += float64(l.Qty) * l.UnitLowUSD
		hi += float64(l.Qty) * l.UnitHighUSD
	}
	if !(p.Cost.LowUSD < p.Cost.Total && p.Cost.Total < p.Cost.HighUSD) || !near(lo, p.Cost.LowUSD) || !near(hi, p.Cost.HighUSD) {
		t.Errorf("range %.0f..%.0f around %.0f; BOM says %.0f..%.0f", p.Cost.LowUSD, p.Cost.HighUSD, p.Cost.Total, lo, hi)
	}
	if len(p.Cost.Drivers) != 3 || p.Cost.Drivers[0].Key != "osfp-400x2" || !near(p.Cost.Drivers[0].SwingUSD, 1536*(2249-1000)) {
		t.Errorf("drivers %+v", p.Cost.Drivers)
	}
	// A price the user gives is a point: it drops out of the drivers.
	s := flatIB(1024)
	s.Prices = map[string]float64{"osfp-400x2": 800}
	p, _ = Build(s, cat)
	for _, d := range p.Cost.Drivers {
		if d.Key == "osfp-400x2" {
			t.Error("an overridden price still has a range")
		}
	}
}

// The tornado's bars: each part's price alone at its catalog low and high.
// Hand check on the 1,024-GPU NDR plan (research/prices.md figures):
// 1,536 twin-port modules at $1,119 in [$1,000, $2,249] put the total
// $182,784 lower and $1,735,680 higher; 1,024 ConnectX-7 at $1,894 (the
// midpoint of NADDOD $1,599 and FS.com $2,188) put it $302,080 lower and
// $301,056 higher. Mutations caught:
// bars that move every price at once (the whole range), a part counted
// once per place instead of summed (the modules sit at two places), and
// low and high swapped.
// At the flat per-tier lengths (flatLengths): its hand figures count one medium per tier.
func TestCostSensitivity(t *testing.T) {
	p, err := Build(flatIB(1024), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	got := p.CostSensitivity()
	want := map[string][2]float64{
		"osfp-400x2": {p.Cost.Total - 182784, p.Cost.Total + 1735680},
		"cx7-400":    {p.Cost.Total - 302080, p.Cost.Total + 301056},
	}
	for _, d := range got {
		if w, ok := want[d.Key]; ok {
			if !near(d.LowUSD, w[0]) || !near(d.HighUSD, w[1]) {
				t.Errorf("%s: total %.0f..%.0f, want %.0f..%.0f", d.Key, d.LowUSD, d.HighUSD, w[0], w[1])
			}
			delete(want, d.Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing bars %v in %+v", want, got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].SwingUSD > got[i-1].SwingUSD {
			t.Errorf("bar %d (%s) swings more than the one above it", i, got[i].Key)
		}
	}
	if got[0].Key != "osfp-400x2" || got[0].Qty != 1536 {
		t.Errorf("top bar %s x%d, want osfp-400x2 x1536", got[0].Key, got[0].Qty)
	}
}
