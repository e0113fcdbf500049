package planner

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
	"fabricplan/planner/sidenet"
)

// superPOD is the DGX H100 SuperPOD of 4 SU: 127 DGX H100 (31 per SU and
// one slot per SU for UFM), 1,016 GPUs, NDR InfiniBand on QM9700, with the
// storage attached as in the RA's Table 8: 48 switch ports to storage.
func superPOD() Scenario {
	s := ibScenario(1016)
	s.Cluster.System = "dgx-h100"
	s.Networks = &NetworksInputs{StorageServerPorts: 48}
	return s
}

func buildNets(t *testing.T, s Scenario) *Plan {
	t.Helper()
	p, err := Build(s, testCatalog(t))
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if p.Networks == nil {
		t.Fatal("plan has no networks")
	}
	return p
}

// TestSuperPODNetworks reproduces NVIDIA's published counts for the four
// networks of a DGX H100 SuperPOD of 4 SU: NVIDIA DGX SuperPOD Reference
// Architecture featuring DGX H100, RA-11333-001 V11 (2023-09-22),
// Appendix A Table 7 (switches: 48 compute QM9700, 16 storage QM9700, 8
// in-band SN4600C, 8 out-of-band SN2201) and Table 8 (per DGX: 8 compute,
// 2 storage and 2 in-band ports, one BMC port; 317 OOB Cat5e cables).
// Mutations caught: storage leaves at 1:1 on the DGX side (18 switches),
// no leaf pairing (7 in-band, 7 OOB), spines not in pairs (15 storage),
// OOB forgetting switch management ports or PDUs (6), the network racks'
// PDUs or the UFM back-to-back cables (303 or 315 OOB ports), storage
// leaves cabling a full leaf's uplinks (582 storage links), ports per
// server taken from the back end.
func TestSuperPODNetworks(t *testing.T) {
	p := buildNets(t, superPOD())
	n := p.Networks
	for _, tc := range []struct {
		name                      string
		switches, perServer, gbps int
		switchKey                 string
	}{
		{NetBackEnd, 48, 8, 400, "qm9700"},
		{NetStorage, 16, 2, 400, "qm9700"},
		{NetFrontEnd, 8, 2, 100, "sn4600c"},
		{NetOOB, 8, 1, 1, "sn2201"},
	} {
		got := n.Net(tc.name)
		if got == nil {
			t.Fatalf("%s missing", tc.name)
		}
		if got.Switches != tc.switches || got.PortsPerServer != tc.perServer || got.PortGbps != tc.gbps || got.Switch != tc.switchKey {
			t.Errorf("%s: %d x %s, %d x %dG per server; NVIDIA RA: %d x %s, %d x %dG", tc.name, got.Switches, got.Switch,
				got.PortsPerServer, got.PortGbps, tc.switches, tc.switchKey, tc.perServer, tc.gbps)
		}
	}
	// Table 8: 317 OOB cables = 127 DGX + 64 InfiniBand switches + 8
	// management/UFM + 8 in-band switches + 2 UFM back-to-back + 108 PDUs
	// (Table 7: 96 in the 32 DGX racks, 12 in the 6 others). By hand: 32
	// DGX racks x 3 PDUs = 96; 80 switches and 8 servers at 16 a network
	// rack = 6 racks x 2 PDUs = 12; 4 UFM hosts = 2 pairs, one
	// back-to-back cable each.
	if oob := n.Net(NetOOB).Ports; oob != 317 {
		t.Errorf("OOB ports %d, RA Table 8 has 317", oob)
	}
	// Table 8, storage InfiniBand: 494 NDR cables "DGX H100 systems to
	// leaf, leaf to spine" = 254 to the DGX + 240 leaf-spine, and 48 to
	// the storage (see TestSizeLeafSpine for the 240).
	if st := n.Net(NetStorage); st.Links != 494+48 {
		t.Errorf("storage links %d, RA Table 8 has 494 + 48 = 542", st.Links)
	}
	// Table 8: 254 storage ports on the DGX side, 254 in-band, 1,016 compute.
	if got := p.Servers * n.Net(NetStorage).PortsPerServer; got != 254 {
		t.Errorf("DGX-side storage ports %d, want 254", got)
	}
	if got := n.PortsPerServer(); got != 13 {
		t.Errorf("ports per DGX %d, want 8 + 2 + 2 + 1 = 13", got)
	}
	// Table 7: 80 switches in all.
	if n.Total.Switches != 80 {
		t.Errorf("switches in all %d, want 48 + 16 + 8 + 8 = 80", n.Total.Switches)
	}
}

// TestPublishedRackAndPODCounts checks other published whole-cluster
// counts: an NVL72 rack carries two SN2201 out-of-band switches and puts
// at least 55 devices on them (NVIDIA Enterprise RA NVL72 AI Factory,
// Components; Mission Control N-S guide: 18 tray BMCs + 9 NVLink trays x 3
// + 8 power shelves + 2 switches, networks.md 4 and 7). A DGX GB200 SU
// cables 3 OOB ports a tray (its BMC and two BlueField BMCs, RA-11338-001
// V01 §3.1.1, §3.5.5), 89 a rack with the NVLink trays and power
// shelves, so the rack's two SN2201 (96 ports) hold little else: the SU
// adds "one additional pair of SN2201 switches ... to connect all legacy
// devices requiring RJ45 connections" (§4.3), 8 x 2 + 2 = 18. A DGX H100 BasePOD
// of 16 DGX has 2 SN2201 for IPMI (NVIDIA Air "DGX H100 BasePOD" demo,
// networks.md 4). No storage, in-band or OOB switch table of a DGX B300
// SuperPOD could be read, and the GB200 RA gives no count of its DGX-side
// Ethernet leaves (docs/networks.md §1c), so the whole-cluster counts of
// those systems are not checked here beyond these. Mutations caught:
// rack-scale OOB switches not per rack, NVLink trays and power shelves
// left off the OOB network, the trays' BlueField BMCs left off.
func TestPublishedRackAndPODCounts(t *testing.T) {
	for _, tc := range []struct {
		name, system     string
		gpus             int
		oobSwitches      int
		minOOBPortsPerRk int
	}{
		{"GB200 NVL72, 8 racks (1 SU)", "gb200-nvl72", 576, 18, 55},
		{"GB300 NVL72, 3 racks", "gb300-nvl72", 216, 6, 55},
		{"DGX H100 BasePOD, 16 DGX", "dgx-h100", 128, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScenario()
			s.Cluster.System, s.Cluster.GPUs = tc.system, tc.gpus
			if strings.HasPrefix(tc.system, "gb300") {
				s.Network.NICGbps = 800
			}
			p := buildNets(t, s)
			oob := p.Networks.Net(NetOOB)
			if oob.Switches != tc.oobSwitches {
				t.Errorf("OOB switches %d, want %d", oob.Switches, tc.oobSwitches)
			}
			if racks := p.Networks.Racks; tc.minOOBPortsPerRk > 0 && oob.Ports < racks*tc.minOOBPortsPerRk {
				t.Errorf("OOB ports %d for %d racks, want at least %d a rack", oob.Ports, racks, tc.minOOBPortsPerRk)
			}
		})
	}
}

// systemsForNetworks is every catalog system with a GPU count that is
// not a multiple of its SU, plus custom servers.
func systemsForNetworks(t *testing.T) []Scenario {
	cat := testCatalog(t)
	var out []Scenario
	for _, k := range cat.SystemKeys() {
		for _, gpus := range []int{72, 296, 1000, 3000, 9216} {
			s := NewScenario()
			s.Cluster.System, s.Cluster.GPUs = k, gpus
			s.Name = fmt.Sprintf("%s %d", k, gpus)
			if k == CustomSystem {
				s.Cluster.System = ""
			} else if nic := cat.NICs[cat.Systems[k].NIC]; nic != nil {
				s.Network.NICGbps = nic.Gbps
			}
			for _, f := range []Fabric{InfiniBand, Ethernet} {
				s2 := s.Clone()
				s2.Network.Fabric = f
				out = append(out, s2)
			}
		}
	}
	return out
}

// TestConvergedNeverCostsMore: storage converged onto the front end never
// costs more than a separate storage network with the same ports (same
// speed, fabric and ratio as the front end, the same storage-server
// ports), over every system, both fabrics and sizes off the grid.
// Mutations caught: converged storage also building its own fabric;
// storage-server ports counted twice on the front end; converged storage
// adding server ports and NICs.
func TestConvergedNeverCostsMore(t *testing.T) {
	cat := testCatalog(t)
	for _, s := range systemsForNetworks(t) {
		t.Run(s.Name+" "+string(s.Network.Fabric), func(t *testing.T) {
			r := s.resolveNetworks(cat)
			sep, conv := s.Clone(), s.Clone()
			sep.Networks = &NetworksInputs{Storage: NetSeparate, StorageFabric: Ethernet, StorageGbps: r.FrontEndGbps,
				StoragePorts: r.FrontEndPorts, StorageOversubscription: r.FrontEndOversubscription}
			conv.Networks = &NetworksInputs{Storage: NetConverged}
			ps, err := Build(sep, cat)
			if errors.Is(err, ErrTooLarge) {
				return // a back end past three tiers is a finding, not this property's case
			}
			if err != nil {
				t.Fatal(err)
			}
			pc, err := Build(conv, cat)
			if err != nil {
				t.Fatal(err)
			}
			if c, sp := pc.Networks.Total.CostUSD, ps.Networks.Total.CostUSD; c > sp+1e-6 {
				t.Errorf("converged %s > separate %s", textfmt.USD(c), textfmt.USD(sp))
			}
			if pc.Networks.Net(NetStorage).Carried != ps.Networks.Net(NetStorage).Ports-ps.Servers*r.FrontEndPorts {
				t.Errorf("storage-server ports differ: converged %d, separate %d less %d server ports",
					pc.Networks.Net(NetStorage).Carried, ps.Networks.Net(NetStorage).Ports, ps.Servers*r.FrontEndPorts)
			}
			// Ports are counted once: the converged front end holds the
			// storage-server ports, the storage line none; the separate
			// one also puts its switches on the OOB network.
			if got, want := pc.Networks.Total.Ports, ps.Networks.Total.Ports-ps.Servers*r.FrontEndPorts; got > want {
				t.Errorf("converged cluster has %d ports, want at most separate %d less the servers' storage ports = %d", got, ps.Networks.Total.Ports, want)
			}
		})
	}
}

// TestBackEndAddsIsTheDifference: the back end's increment is the cluster
// with the back end less the same cluster without it, field by field, and
// it is more than the back end alone by exactly what the back end brings
// to the other networks: an OOB port for each of its switches, and for an
// InfiniBand back end two UFM hosts (RA Table 7: 4 UFM for compute and
// storage) with their front-end and OOB ports. Mutations caught:
// backend_adds taken as the back end's own totals; UFM hosts kept without
// a back end; the OOB network not shrinking with the back end's switches.
func TestBackEndAddsIsTheDifference(t *testing.T) {
	cat := testCatalog(t)
	mgmt := cat.SideServers[mgmtServerKey]
	for _, s := range systemsForNetworks(t) {
		t.Run(s.Name+" "+string(s.Network.Fabric), func(t *testing.T) {
			p, err := Build(s, cat)
			if errors.Is(err, ErrTooLarge) {
				return // past three tiers: no back end to add
			}
			if err != nil {
				t.Fatal(err)
			}
			n := p.Networks
			a, w, tot := n.BackEndAdds, n.WithoutBackEnd, n.Total
			if a.Ports != tot.Ports-w.Ports || a.Switches != tot.Switches-w.Switches || a.Transceivers != tot.Transceivers-w.Transceivers ||
				math.Abs(a.CostUSD-(tot.CostUSD-w.CostUSD)) > 1e-6 || math.Abs(a.PowerW-(tot.PowerW-w.PowerW)) > 1e-6 {
				t.Fatalf("adds %+v != with %+v - without %+v", a, tot, w)
			}
			be := n.Net(NetBackEnd)
			ufm := 0
			if s.Network.Fabric == InfiniBand {
				ufm = 2
			}
			// Ports: its NIC ports, one OOB port per switch, and each UFM
			// host's front-end and OOB ports; the front end also loses the
			// uplinks of any OOB switch it no longer needs.
			without := networksWithout(p, cat)
			oobDrop := n.Net(NetOOB).Switches - without[3].Switches
			otherDrop := n.Net(NetFrontEnd).Switches - without[1].Switches + n.Net(NetStorage).Switches - without[2].Switches
			// The switches it adds beside its own are the other networks'
			// (issue 45: the plan's header and its table showed 3,562 and
			// 3,480 for the 100k example with nothing between them).
			// Mutation caught: the split taken from the back end alone.
			b := n.Beside()
			if b.Switches != oobDrop+otherDrop || be.Switches+b.Switches != a.Switches || be.Transceivers+b.Transceivers != a.Transceivers {
				t.Errorf("beside %+v, want the other networks' %d switches (+%d own = %d added; transceivers %d own of %d)", b, oobDrop+otherDrop, be.Switches, a.Switches, be.Transceivers, a.Transceivers)
			} else if text := n.BesideText("optics"); b.Switches > 0 != strings.Contains(text, textfmt.Plural(b.Switches, "switch")+" ") || (b == Increment{}) != (text == "") {
				t.Errorf("beside text %q for %+v", text, b)
			}
			// And on the OOB network the PDUs of the network racks its
			// switches fill, and one back-to-back cable per UFM pair.
			pdus := rackPDUs(p, cat, n.List, true) - rackPDUs(p, cat, without, false)
			want := be.Ports + be.Switches + otherDrop + 2*ufm + sidenet.OOBUplinks*oobDrop + pdus + ufm/2
			if a.Ports != want {
				t.Errorf("adds %d ports, want %d NIC + %d switch OOB + %d other switches' OOB + %d UFM + %d OOB uplinks + %d network-rack PDUs + %d UFM back-to-back = %d",
					a.Ports, be.Ports, be.Switches, otherDrop, 2*ufm, sidenet.OOBUplinks*oobDrop, pdus, ufm/2, want)
			}
			if a.CostUSD < be.CostUSD+float64(ufm)*mgmt.PriceUSD-1e-6 {
				t.Errorf("adds %s, less than the back end %s and its UFM hosts", textfmt.USD(a.CostUSD), textfmt.USD(be.CostUSD))
			}
			if a.Switches < be.Switches {
				t.Errorf("adds %d switches, the back end alone has %d", a.Switches, be.Switches)
			}
		})
	}
}

// networksWithout sizes the plan's cluster without the back end (back
// end, front end, storage, OOB, management servers).
// rackPDUs is the PDUs of the network racks a cluster's switches (list:
// back end, front end, storage, OOB) and management servers fill.
func rackPDUs(p *Plan, cat *Catalog, list []SideNetwork, backEnd bool) int {
	r := p.Scenario.clusterNetworks(cat, p.Servers)
	c := clusterSizer{p: p, cat: cat, r: r, nodes: p.Servers, racks: p.Networks.Racks, be: backEnd}
	return sidenet.NetworkRacks(c.inputs(), list[0].Switches+list[1].Switches+list[2].Switches, list[3].Switches) * r.NetworkRackPDUs
}

func networksWithout(p *Plan, cat *Catalog) []SideNetwork {
	r := p.Scenario.clusterNetworks(cat, p.Servers)
	c := clusterSizer{p: p, cat: cat, r: r, nodes: p.Servers, racks: p.Networks.Racks}
	return c.size()
}

// TestFrontEndOnlyJCT works the front-end-only job by hand for one job.
// 16 DGX H100 (128 GPUs): every front-end port fits one SN4600C pair, so
// one tier. TCP gets 45 % of line rate, at most 5.5 GB/s a NIC port
// (data/jct.toml [tcp]: NVIDIA/nccl#450, areal-project/AReaL#639):
// 100 Gb/s = 12.5 GB/s x 0.45 = 5.625 -> 5.5 GB/s; 2 ports = 11 GB/s a
// server; tp 8 keeps one GPU of each server in a data-parallel group, so
// the group gets 11 / 8 = 1.375 GB/s, times NCCL's tree factor 0.92 when
// the tree wins. 1,016 GPUs put the front end on two tiers at 58:4
// (RA Table 8): 127 servers packed 58 to a leaf pair, so the ring leaves
// its 3 leaf pairs on 3 edges of 127, a load of 14.5 x 3/127 = 0.34 of
// the uplinks: balanced it keeps the 95% a flow keeps crossing the tier
// (data/jct.toml [crossing], Baidu's figure), but hashed, each leaf's
// 58 ports x 2 flows (NCCL's 2 channels) leave with probability 3/127
// onto its 4 uplinks, Binomial(116, 3/508), over 4 links x 2 stages x
// 127 x 2 / 58 = 4.38 leaves = 35.0 links: E[most loaded] = sum over
// x >= 1 of 1 - P(X < x)^35.0 = 2.867 (binomialMaxLoad), so the group
// gets 1.375 x 0.95 x 2 / 2.867. Mutations caught: the back end's ports
// or speed in the front-end view; RDMA instead of TCP; the front end's
// hashing left out; every busy port charged as crossing (1.375 x 0.95 /
// 14.5); the gain inverted.
// binomialMaxLoad is the expected most loaded of bins links, each
// holding Binomial(n, p) flows independently: the sum over x >= 1 of
// P(max >= x) = 1 - P(X < x)^bins.
func binomialMaxLoad(n int, p, bins float64) float64 {
	e, cdf, pmf := 0.0, 0.0, math.Pow(1-p, float64(n))
	for x := 1; x <= n; x++ {
		cdf += pmf // P(X <= x-1)
		pmf *= float64(n-x+1) / float64(x) * p / (1 - p)
		tail := 1 - math.Pow(cdf, bins)
		e += tail
		if tail < 1e-15 {
			break
		}
	}
	return e
}

func TestFrontEndOnlyJCT(t *testing.T) {
	for _, tc := range []struct {
		name string
		gpus int
		want float64 // DP bus bandwidth, GB/s, before the tree factor
	}{
		{"one tier", 128, 1.375},
		{"two tiers, 58:4", 1016, 0.95 * 1.375 * 2 / binomialMaxLoad(116, 3.0/127/4, 4*2*127*2.0/58)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(tc.gpus)
			s.Cluster.System = "dgx-h100"
			w := perf.NewWorkload()
			w.Model, w.TP, w.PP = "llama3-8b", 8, 1
			s.Workload = &w
			p := buildNets(t, s)
			f := p.Networks.FrontEndJCT
			if f == nil {
				t.Fatal("no front-end JCT")
			}
			bw := f.BusBWGBs
			if !(math.Abs(bw-tc.want)/tc.want < 1e-6 || math.Abs(bw-tc.want*0.92)/tc.want < 1e-6) {
				t.Errorf("front-end DP bus bandwidth %.6f GB/s, want %.6f (or x 0.92 on a tree)", bw, tc.want)
			}
			if f.Gain <= 1 || math.Abs(f.Gain-f.StepS/p.JCT.Planned.StepS) > 1e-9 {
				t.Errorf("gain %.3f, want front-end step %.3f s / back-end step %.3f s > 1", f.Gain, f.StepS, p.JCT.Planned.StepS)
			}
			if f.StepS <= p.JCT.Baseline.StepS {
				t.Errorf("front end alone %.3f s is not slower than TCP on the back-end links %.3f s", f.StepS, p.JCT.Baseline.StepS)
			}
		})
	}
}

// TestCheckpointFromStorage: the checkpoint write time follows the storage
// path and feeds the resilience model unless the scenario sets it. For the
// SuperPOD: storage write = 1,016 GPUs x 0.488 GB/s read x 0.5 write
// share (RA Table 6) = 247.904 GB/s, below the network's 48 x 400G = 2.4
// TB/s. Mutations caught: the network bound alone (10x faster); the
// derived time overriding the user's checkpoint_write_s; the default 30 s
// kept when nothing is set.
func TestCheckpointFromStorage(t *testing.T) {
	p := buildNets(t, superPOD())
	c := p.Networks.Checkpoint
	if c == nil {
		t.Fatal("no checkpoint")
	}
	if math.Abs(c.BandwidthGBs-247.904) > 1e-6 {
		t.Errorf("checkpoint bandwidth %.3f GB/s, want 247.904", c.BandwidthGBs)
	}
	if !c.Used || p.Resilience.Inputs.Recovery.CheckpointWriteS != c.WriteS {
		t.Errorf("resilience writes in %.2f s, derived %.2f s (used %v)", p.Resilience.Inputs.Recovery.CheckpointWriteS, c.WriteS, c.Used)
	}
	s := superPOD()
	set := 42.0
	s.Reliability = &ReliabilityInputs{CheckpointWriteS: &set}
	p = buildNets(t, s)
	if p.Networks.Checkpoint.Used || p.Resilience.Inputs.Recovery.CheckpointWriteS != set {
		t.Errorf("the scenario's 42 s was replaced by %.2f s", p.Resilience.Inputs.Recovery.CheckpointWriteS)
	}
}

// TestNetworksValidation: bad [networks] values name the field and the
// fix. Mutations caught: an unknown choice accepted; converged storage
// without a front end accepted; a front-end speed no switch offers
// accepted (the plan would have no switch); a negative bandwidth.
func TestNetworksValidation(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name  string
		in    NetworksInputs
		field string
	}{
		{"unknown storage", NetworksInputs{Storage: "fast"}, "networks.storage"},
		{"converged oob", NetworksInputs{OOB: NetConverged}, "networks.oob"},
		{"converged without front end", NetworksInputs{FrontEnd: NetNone, Storage: NetConverged}, "networks.storage"},
		{"front-end speed", NetworksInputs{FrontEndGbps: 3}, "networks.frontend_gbps"},
		{"storage speed", NetworksInputs{Storage: NetSeparate, StorageGbps: 37}, "networks.storage_gbps"},
		{"storage fabric", NetworksInputs{StorageFabric: "fibrechannel"}, "networks.storage_fabric"},
		{"bandwidth", NetworksInputs{StorageGBsPerGPU: -1}, "networks.storage_gbs_per_gpu"},
		// Caught: a floor of 0 (any positive value), where 1e-300 GB/s
		// made goodput +Inf and `plan --json` fail with a raw JSON error.
		{"bandwidth 1e-300", NetworksInputs{StorageGBsPerGPU: 1e-300}, "networks.storage_gbs_per_gpu"},
		{"bandwidth just under the floor", NetworksInputs{StorageGBsPerGPU: 0.0099}, "networks.storage_gbs_per_gpu"},
		{"ratio", NetworksInputs{FrontEndOversubscription: "1:3"}, "networks.frontend_oversubscription"},
		{"ports", NetworksInputs{FrontEndPorts: 99}, "networks.frontend_ports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(512)
			in := tc.in
			s.Networks = &in
			_, err := Build(s, cat)
			var fe *fielderr.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err %v, want a field error", err)
			}
			found := false
			for _, f := range fielderr.FieldErrors(err) {
				if f.Field == tc.field && f.Fix != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("err %v, want field %s with a fix", err, tc.field)
			}
		})
	}
}
