package planner

import (
	"fmt"
	"strings"
	"testing"
)

// TestSideNetworksPerSystem checks each DGX system's out-of-band ports a
// server and management servers at 1, 2 and 4 scalable units, an odd
// partial size and a BasePOD-sized cluster, against each system's own
// reference:
//   - OOB ports a server: DGX H100, B200 and B300 cable the BMC alone
//     (RA-11333 and RA-11334 Network Fabrics: "The OOB port is used for
//     BMC access. (The LAN port next to the BMC port is not used ...)";
//     the B300 RA: "The BMC port is used for BMC access"): 1. A DGX
//     GB200 tray has "two BlueFiled-3 (BF3) NICs" (RA-11338-001 V01
//     §3.1.1) and the OOB network "connects all the baseboard management
//     controllers (BMC), BlueField baseboard management controllers,
//     NVSwitch Management Interfaces (COMe)" (§3.5.5): 1 + 2 = 3. A
//     GB300 tray has one BlueField-3 B3240 (NVL72 Enterprise RA): 1 + 1
//     = 2. An NVL72 rack adds 9 NVLink trays x (2 COMe + 1 BMC) and 8
//     power shelves' BMCs (§3.1.2, §3.1.3): 35, so its OOB network has at
//     least trays x ports + racks x 35 ports.
//   - Head and control nodes: up to 16 DGX the BasePOD's 5 (RA-11127-001
//     V5 Table 4.2: 5 BCM management servers at 4 and 8 DGX); past that
//     DGX H100 4 (RA-11333 Table 7), B200 7 (RA-11334 Figure 3.2), B300 7
//     (RA-11339: 2 BCM HA + 3 Kubernetes + 2 Slurm login); GB200 and
//     GB300 7 (estimate, same roles). UFM hosts: 2 an InfiniBand fabric,
//     compute and (DGX H100, B200) storage.
//
// Sizes: an SU is 32 node slots (H100, B200; 31 DGX = 248 GPUs), 64 DGX
// B300 (512 GPUs), 8 NVL72 racks (576 GPUs); 600 GPUs is 75 DGX, 1,000
// is 125 DGX B300 or 250 trays (14 racks, the last partial). 128 GPUs is
// 16 DGX (the BasePOD's top), 136 is 17 (past it).
// Mutations caught: a fixed 4 head nodes for every system and size; the
// size rule off by one (16 DGX as a SuperPOD, or 17 as a BasePOD); the
// NVL72 trays back to 1 OOB port (their BlueField BMCs dropped); GB300
// given GB200's 2 BlueFields; the management figure's source not shown.
func TestSideNetworksPerSystem(t *testing.T) {
	for _, tc := range []struct {
		system, sw string
		gpus       int
		oobPerNode int
		head, ufm  int
		mgmtSource string // a word of the management figure's source
		nvl72Trays int    // trays of an NVL72 cluster (0: a DGX system)
	}{
		{"dgx-h100", "qm9700", 64, 1, 5, 4, "BasePOD", 0},
		{"dgx-h100", "qm9700", 128, 1, 5, 4, "BasePOD", 0},
		{"dgx-h100", "qm9700", 136, 1, 4, 4, "RA-11333", 0},
		{"dgx-h100", "qm9700", 248, 1, 4, 4, "RA-11333", 0},
		{"dgx-h100", "qm9700", 504, 1, 4, 4, "RA-11333", 0},
		{"dgx-h100", "qm9700", 1016, 1, 4, 4, "RA-11333", 0},
		{"dgx-h100", "qm9700", 600, 1, 4, 4, "RA-11333", 0},
		{"dgx-b200", "qm9700", 64, 1, 5, 4, "BasePOD", 0},
		{"dgx-b200", "qm9700", 248, 1, 7, 4, "RA-11334", 0},
		{"dgx-b200", "qm9700", 504, 1, 7, 4, "RA-11334", 0},
		{"dgx-b200", "qm9700", 1016, 1, 7, 4, "RA-11334", 0},
		{"dgx-b200", "qm9700", 600, 1, 7, 4, "RA-11334", 0},
		{"dgx-b300", "q3400", 64, 1, 5, 2, "estimate", 0},
		{"dgx-b300", "q3400", 512, 1, 7, 2, "RA-11339", 0},
		{"dgx-b300", "q3400", 1024, 1, 7, 2, "RA-11339", 0},
		{"dgx-b300", "q3400", 2048, 1, 7, 2, "RA-11339", 0},
		{"dgx-b300", "q3400", 1000, 1, 7, 2, "RA-11339", 0},
		{"gb200-nvl72", "qm9700", 576, 3, 7, 2, "estimate", 144},
		{"gb200-nvl72", "qm9700", 1152, 3, 7, 2, "estimate", 288},
		{"gb200-nvl72", "qm9700", 2304, 3, 7, 2, "estimate", 576},
		{"gb200-nvl72", "qm9700", 1000, 3, 7, 2, "estimate", 250},
		{"gb300-nvl72", "q3400", 576, 2, 7, 2, "estimate", 144},
		{"gb300-nvl72", "q3400", 1152, 2, 7, 2, "estimate", 288},
		{"gb300-nvl72", "q3400", 2304, 2, 7, 2, "estimate", 576},
		{"gb300-nvl72", "q3400", 1000, 2, 7, 2, "estimate", 250},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.system, tc.gpus), func(t *testing.T) {
			s := ibScenario(tc.gpus)
			s.Cluster.System, s.Network.Switch = tc.system, tc.sw
			if tc.sw == "q3400" {
				s.Network.NICGbps = 800
			}
			n := buildNets(t, s).Networks
			oob := n.Net(NetOOB)
			if oob.PortsPerServer != tc.oobPerNode {
				t.Errorf("OOB ports a server: %d, the system's reference cables %d", oob.PortsPerServer, tc.oobPerNode)
			}
			if tc.nvl72Trays > 0 {
				racks := ceilDiv(tc.nvl72Trays, 18)
				if least := tc.nvl72Trays*tc.oobPerNode + racks*(9*3+8); oob.Ports < least {
					t.Errorf("OOB ports %d, below the trays' and racks' own %d", oob.Ports, least)
				}
			}
			m := n.Net(NetMgmt)
			var k, head, ufm int
			if _, err := fmt.Sscanf(m.Notes[0], "%d management servers: %d head and control nodes, %d UFM hosts", &k, &head, &ufm); err != nil ||
				head != tc.head || ufm != tc.ufm || k != tc.head+tc.ufm {
				t.Errorf("management servers %d (%d head and control, %d UFM; %v), want %d and %d", k, head, ufm, err, tc.head, tc.ufm)
			}
			if !strings.Contains(m.Source, tc.mgmtSource) {
				t.Errorf("management servers from %q, want a source naming %q", m.Source, tc.mgmtSource)
			}
		})
	}
}

// TestManagementRules: a scenario's management_servers beats the rules;
// the rules need a source and rising sizes, any size last. Mutations
// caught: the rule applied over the scenario's figure; an unsourced or
// out-of-order rule accepted.
func TestManagementRules(t *testing.T) {
	s := ibScenario(64)
	s.Cluster.System = "dgx-h100"
	s.Networks = &NetworksInputs{ManagementServers: 3}
	m := buildNets(t, s).Networks.Net(NetMgmt)
	if !strings.HasPrefix(m.Notes[0], "7 management servers: 3 head") || !strings.Contains(m.Source, "scenario") {
		t.Errorf("scenario's 3 head nodes: %q from %q", m.Notes[0], m.Source)
	}
	for _, tc := range []struct {
		name  string
		rules []ManagementRule
		ok    bool
	}{
		{"sized then any", []ManagementRule{{16, 5, "a"}, {0, 7, "b"}}, true},
		{"no source", []ManagementRule{{16, 5, ""}}, false},
		{"falling sizes", []ManagementRule{{32, 5, "a"}, {16, 7, "b"}}, false},
		{"any size first", []ManagementRule{{0, 5, "a"}, {16, 7, "b"}}, false},
		{"negative servers", []ManagementRule{{16, -1, "a"}}, false},
	} {
		d := SideDefaults{Management: tc.rules}
		if err := d.checkUnits(); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestGB200EthernetFabricParts: the DGX GB200 SuperPOD's storage and
// in-band Ethernet fabric (the planner's front end, storage converged on
// it) has at least the SN5600s the RA names, RA-11338-001 V01 §4.3: per
// SU "two SN5600 switches as the aggregation layer or spine layer" and
// "one additional pair of SN5600 switches" for storage appliances and
// control-plane nodes, with DGX-facing leaves (at least one a SU; their
// count is only in Figure 4.6); Table 4.2: 4 super spines at 4 SU, 8 at 8
// SU, 14 at 16 SU. At least 1 SU: 2 + 2 + 1 = 5; 2 SU: 10 (no super
// spines published below 4 SU); 4 SU: 8 + 8 + 4 + 4 = 24; 8 SU: 16 + 16 +
// 8 + 8 = 48; 16 SU: 32 + 32 + 16 + 14 = 94. The published fabric is
// not fully known, so this is a floor, not the count. Mutation caught:
// the trays' second front-end port left off (28 and 52 SN5600 at 8 and
// 16 SU).
func TestGB200EthernetFabricParts(t *testing.T) {
	for _, tc := range []struct{ gpus, least int }{{576, 5}, {1152, 10}, {2304, 24}, {4608, 48}, {9216, 94}} {
		s := ibScenario(tc.gpus)
		s.Cluster.System = "gb200-nvl72"
		fe := buildNets(t, s).Networks.Net(NetFrontEnd)
		if fe.Switches < tc.least || fe.Switch != "sn5600" {
			t.Errorf("%d GPUs: %d %s, below the RA's %d SN5600", tc.gpus, fe.Switches, fe.Switch, tc.least)
		}
	}
}
