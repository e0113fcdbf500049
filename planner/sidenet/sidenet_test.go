package sidenet

import (
	"testing"
)

// handCluster: 32 nodes in 8 racks, 256 GPUs, an InfiniBand back end of
// 12 switches; a front end of 2 ports a node at 100G, 15:1, on 64-port
// switches; a separate InfiniBand storage network of 1 port a node at
// 400G, 1:1, on 16-port switches, the storage servers delivering
// 0.5 GB/s a GPU; an OOB network on 24-port switches, one port a node,
// 2 PDUs and 2 other devices a rack; 2 UFM hosts a fabric, 4 management
// servers; no network racks counted.
var handCluster = Inputs{FrontEndRadix: 64, StorageRadix: 16, OOBRadix: 24, Nodes: 32, Racks: 8, GPUs: 256, BackEnd: true, BackEndFabric: InfiniBand, BackEndSwitches: 12,
	FrontEnd: Separate, FrontEndPorts: 2, FrontEndGbps: 100, FrontEndDown: 15, FrontEndUp: 1,
	Storage: Separate, StorageFabric: InfiniBand, StoragePorts: 1, StorageGbps: 400, StorageDown: 1, StorageUp: 1, StorageGBsPerGPU: 0.5,
	OOB: Separate, OOBPortsPerNode: 1, PDUsPerRack: 2, RackOOBPorts: 2, UFMPerFabric: 2, ManagementServers: 4}

// TestSizeHand works the hand cluster's networks. UFM: 2 for the back
// end and 2 for storage (both InfiniBand), so 4 + 4 = 8 management
// servers. Storage: 32 node ports and ceil(256 x 0.5 GB/s x 8 / 400G) =
// ceil(2.56) = 3 storage-server ports, more than a pair of 16-port
// leaves holds: 8 down and 8 up a leaf, 4 + 1 leaves, paired 6 (the
// storage group's 2 take 2 and 1 ports); uplinks 4 x 8 + (2 + 1) = 35,
// spines for the 4 x 8 + 2 x 8 = 64 uplink ports: 4 (InfiniBand: no
// ISL); 10 switches, 35 + 35 = 70 links. OOB ports: 32 BMCs + 8 racks x
// (2 + 2) + 8 management + the other switches' management ports + 4/2
// UFM back-to-back = 74 + others. Round 1 (no OOB switch yet): front end
// 64 + 8 = 72 ports on one Ethernet pair; OOB 74 + 12 + 10 + 2 = 98
// ports, ceil(98/24) = 5, paired 6 switches. Round 2: the front end
// takes their 6 x 2 uplinks: 84 ports, 86 links (2 ISL); OOB again 98
// ports, 6 switches: settled. Without the back end: 2 UFM hosts, 6
// management servers; OOB 32 + 32 + 6 + 12 + 1 = 83 ports, 4 switches;
// the front end 64 + 6 + 8 = 78 ports, 80 links. Mutations caught: OOB
// uplinks not counted on the front end, the rounds stopping after one
// (72 ports), UFM hosts of the storage fabric left out, the back end's
// switches left off the OOB, storage ISL on InfiniBand, the storage
// servers' ports rounded down, a network sized on another network's
// radix.
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
		{"with the back end", handCluster, Net{Ports: 84, Leaves: 2, Switches: 2, Links: 86}, Net{Ports: 35, StorageServerPorts: 3, Leaves: 6, Spines: 4, Switches: 10, Links: 70},
			Net{Ports: 98, Leaves: 6, Switches: 6, Links: 98}, 4, 8, 2, 0},
		{"without it", without, Net{Ports: 78, Leaves: 2, Switches: 2, Links: 80}, Net{Ports: 35, StorageServerPorts: 3, Leaves: 6, Spines: 4, Switches: 10, Links: 70},
			Net{Ports: 83, Leaves: 4, Switches: 4, Links: 83}, 2, 6, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Size(tc.in)
			if got.FrontEnd != tc.frontEnd || got.Storage != tc.storage || got.OOB != tc.oob {
				t.Errorf("front end %+v, storage %+v, OOB %+v;\nwant %+v, %+v, %+v", got.FrontEnd, got.Storage, got.OOB, tc.frontEnd, tc.storage, tc.oob)
			}
			if got.UFMHosts != tc.ufm || got.MgmtServers != tc.mgmt || got.FrontEndLS.Leaves != tc.frontEndLeaves || got.FrontEndLS.Spines != tc.spine {
				t.Errorf("%d UFM, %d management servers, front-end leaves %+v; want %d, %d, %d leaves", got.UFMHosts, got.MgmtServers, got.FrontEndLS, tc.ufm, tc.mgmt, tc.frontEndLeaves)
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
	in := Inputs{FrontEndRadix: 64, OOBRadix: 48, Nodes: 10, Racks: 2, GPUs: 80, BackEnd: true, BackEndFabric: Ethernet, BackEndSwitches: 0,
		FrontEnd: Separate, FrontEndPorts: 1, FrontEndGbps: 200, FrontEndDown: 1, FrontEndUp: 1,
		Storage: Converged, StorageServerPorts: 10, OOB: None, ManagementServers: 3, UFMPerFabric: 2}
	got := Size(in)
	if got.Storage != (Net{StorageServerPorts: 10}) || got.OOB != (Net{}) || got.FrontEnd != (Net{Ports: 23, Leaves: 2, Switches: 2, Links: 25}) || got.UFMHosts != 0 {
		t.Errorf("converged, no OOB: %+v", got)
	}
	in.OOB, in.OOBPortsPerNode, in.RackOOBSwitches = Separate, 1, 1
	got = Size(in)
	if got.OOB != (Net{Ports: 15, Leaves: 2, Switches: 2, Links: 15}) || got.FrontEnd.Ports != 27 {
		t.Errorf("with OOB: OOB %+v, front end %+v; want 15 ports on 2 switches, 27 front-end ports", got.OOB, got.FrontEnd)
	}
	in.FrontEnd, in.Storage, in.OOB = None, None, None
	if got = Size(in); got.FrontEnd != (Net{}) || got.Storage != (Net{}) || got.OOB != (Net{}) || got.MgmtServers != 3 {
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
		if got, want := SizeStorage(in), Size(in).Storage; got != want {
			t.Errorf("storage %s alone %+v, with the rest %+v", in.Storage, got, want)
		}
	}
}
