package sidenet

import (
	"fmt"
	"slices"
	"testing"
)

// radix64 is a 64-port switch at every speed on either fabric, 48 ports
// at the OOB's 1G; it notes what was asked.
func radix64(asked *[]string) Radix {
	return func(fabric string, gbps int) int {
		*asked = append(*asked, fmt.Sprintf("%s %d", fabric, gbps))
		if gbps == OOBGbps {
			return 48
		}
		return 64
	}
}

// handCluster: 32 nodes in 8 racks, 256 GPUs, an InfiniBand back end of
// 12 switches; a front end of 2 ports a node at 100G, 15:1; a separate
// InfiniBand storage network of 1 port a node at 400G, 1:1, the storage
// servers delivering 0.5 GB/s a GPU; an OOB network of one port a node,
// 2 PDUs and 2 other devices a rack; 2 UFM hosts a fabric, 4 management
// servers; no network racks counted.
var handCluster = Inputs{Nodes: 32, Racks: 8, GPUs: 256, BackEnd: true, BackEndFabric: InfiniBand, BackEndSwitches: 12,
	FrontEnd: Separate, FrontEndPorts: 2, FrontEndGbps: 100, FrontEndDown: 15, FrontEndUp: 1,
	Storage: Separate, StorageFabric: InfiniBand, StoragePorts: 1, StorageGbps: 400, StorageDown: 1, StorageUp: 1, StorageGBsPerGPU: 0.5,
	OOB: Separate, OOBPortsPerNode: 1, PDUsPerRack: 2, RackOOBPorts: 2, UFMPerFabric: 2, ManagementServers: 4}

// TestSizeHand works the hand cluster's networks. UFM: 2 for the
// back end and 2 for storage (both InfiniBand), so 4 + 4 = 8 management
// servers. Storage: 32 node ports and ceil(256 x 0.5 GB/s x 8 / 400G) =
// ceil(2.56) = 3 storage-server ports, 35 on one leaf pair (InfiniBand:
// no ISL): 2 switches, 35 links. OOB ports: 32 BMCs + 8 racks x (2 + 2)
// + 8 management + the other switches' management ports + 4/2 UFM
// back-to-back = 74 + others. Round 1 (no OOB switch yet): front end
// 64 + 8 = 72 ports on one Ethernet pair (2 ISL): 74 links; OOB 74 + 12
// + 2 + 2 = 90 ports, ceil(90/48) = 2 switches. Round 2: the front end
// takes their 2 x 2 uplinks: 76 ports, 78 links; OOB again 90 ports, 2
// switches: settled. Without the back end: 2 UFM hosts, 6 management
// servers; OOB 32 + 32 + 6 + 4 + 1 = 75 ports, 2 switches; the front end
// 64 + 6 + 4 = 74 ports, 76 links. Mutations caught: OOB uplinks not
// counted on the front end, the rounds stopping after one (72 ports),
// UFM hosts of the storage fabric left out, the back end's switches
// left off the OOB, storage ISL on InfiniBand, the storage servers'
// ports rounded down, the wrong fabric or speed asked for a radix.
func TestSizeHand(t *testing.T) {
	without := handCluster
	without.BackEnd = false
	for _, tc := range []struct {
		name                  string
		in                    Inputs
		frontEnd, storage     Net
		oob                   Net
		ufm, mgmt             int
		frontEndLeaves, spine int
	}{
		{"with the back end", handCluster, Net{Ports: 76, Leaves: 2, Switches: 2, Links: 78}, Net{Ports: 35, StorageServerPorts: 3, Leaves: 2, Switches: 2, Links: 35},
			Net{Ports: 90, Leaves: 2, Switches: 2, Links: 90}, 4, 8, 2, 0},
		{"without it", without, Net{Ports: 74, Leaves: 2, Switches: 2, Links: 76}, Net{Ports: 35, StorageServerPorts: 3, Leaves: 2, Switches: 2, Links: 35},
			Net{Ports: 75, Leaves: 2, Switches: 2, Links: 75}, 2, 6, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			got := Size(tc.in, radix64(&asked))
			if got.FrontEnd != tc.frontEnd || got.Storage != tc.storage || got.OOB != tc.oob {
				t.Errorf("front end %+v, storage %+v, OOB %+v;\nwant %+v, %+v, %+v", got.FrontEnd, got.Storage, got.OOB, tc.frontEnd, tc.storage, tc.oob)
			}
			if got.UFMHosts != tc.ufm || got.MgmtServers != tc.mgmt || got.FrontEndLS.Leaves != tc.frontEndLeaves || got.FrontEndLS.Spines != tc.spine {
				t.Errorf("%d UFM, %d management servers, front-end leaves %+v; want %d, %d, %d leaves", got.UFMHosts, got.MgmtServers, got.FrontEndLS, tc.ufm, tc.mgmt, tc.frontEndLeaves)
			}
			for _, want := range []string{"infiniband 400", "ethernet 100", "ethernet 1"} {
				if !slices.Contains(asked, want) {
					t.Errorf("radix asked for %q, want %q among them", asked, want)
				}
			}
		})
	}
}

// TestSizeConvergedAndNone: converged storage puts its storage-server
// ports on the front end and builds nothing of its own; a network that
// is "none" has no ports; the OOB switches built into the racks are the
// least there are. 10 nodes in 2 racks on an Ethernet back end (no
// UFM), 3 management servers, 10 storage-server ports given: the front
// end takes 10 + 3 + 10 = 23 ports (one pair, 2 ISL, 25 links) without
// OOB uplinks when there is no OOB network. With an OOB network of
// 1 OOB switch built into each rack: ports 10 + 3 + 2 (front end) = 15,
// one switch by radix, paired 2, at least the racks' 2; the front end
// adds their 4 uplinks: 27 ports. Mutations caught: converged storage
// sized as its own fabric or left off the front end, OOB uplinks
// counted without an OOB network, the racks' built-in switches ignored.
func TestSizeConvergedAndNone(t *testing.T) {
	in := Inputs{Nodes: 10, Racks: 2, GPUs: 80, BackEnd: true, BackEndFabric: Ethernet, BackEndSwitches: 0,
		FrontEnd: Separate, FrontEndPorts: 1, FrontEndGbps: 200, FrontEndDown: 1, FrontEndUp: 1,
		Storage: Converged, StorageServerPorts: 10, OOB: None, ManagementServers: 3, UFMPerFabric: 2}
	var asked []string
	got := Size(in, radix64(&asked))
	if got.Storage != (Net{StorageServerPorts: 10}) || got.OOB != (Net{}) || got.FrontEnd != (Net{Ports: 23, Leaves: 2, Switches: 2, Links: 25}) || got.UFMHosts != 0 {
		t.Errorf("converged, no OOB: %+v", got)
	}
	in.OOB, in.OOBPortsPerNode, in.RackOOBSwitches = Separate, 1, 1
	got = Size(in, radix64(&asked))
	if got.OOB != (Net{Ports: 15, Leaves: 2, Switches: 2, Links: 15}) || got.FrontEnd.Ports != 27 {
		t.Errorf("with OOB: OOB %+v, front end %+v; want 15 ports on 2 switches, 27 front-end ports", got.OOB, got.FrontEnd)
	}
	in.FrontEnd, in.Storage, in.OOB = None, None, None
	if got = Size(in, radix64(&asked)); got.FrontEnd != (Net{}) || got.Storage != (Net{}) || got.OOB != (Net{}) || got.MgmtServers != 3 {
		t.Errorf("none: %+v", got)
	}
}

// TestNetworkRacks counts the network racks by hand: the hand cluster
// (8 racks, 8 management servers with its UFM hosts) with one OOB
// switch built into each rack and 10 devices a network rack. 20 other
// switches and 12 OOB switches: 20 + (12 - 8) + 8 = 32 devices, 4
// racks; 5 OOB switches (all in the racks): 20 + 0 + 8 = 28, 3 racks;
// no devices-per-rack figure: none. Mutations caught: the racks'
// built-in OOB switches counted again (or below zero), the management
// servers left out, racks rounded down.
func TestNetworkRacks(t *testing.T) {
	in := handCluster
	in.RackOOBSwitches, in.NetworkRackDevices = 1, 10
	for _, tc := range []struct {
		in               Inputs
		other, oob, want int
	}{
		{in, 20, 12, 4},
		{in, 20, 5, 3},
		{handCluster, 20, 12, 0},
	} {
		if got := NetworkRacks(tc.in, tc.other, tc.oob); got != tc.want {
			t.Errorf("%d other and %d OOB switches, %d devices a rack: %d network racks, want %d", tc.other, tc.oob, tc.in.NetworkRackDevices, got, tc.want)
		}
	}
}

// TestSizeStorageAlone: the storage network sized alone is the one Size
// sizes with every network (the checkpoint reads it without sizing the
// rest). Mutation caught: SizeStorage reading other inputs than Size
// (say the front end's speed for a separate fabric).
func TestSizeStorageAlone(t *testing.T) {
	conv := handCluster
	conv.Storage, conv.StorageServerPorts = Converged, 7
	for _, in := range []Inputs{handCluster, conv} {
		var asked []string
		if got, want := SizeStorage(in, radix64(&asked)), Size(in, radix64(&asked)).Storage; got != want {
			t.Errorf("storage %s alone %+v, with the rest %+v", in.Storage, got, want)
		}
	}
}
