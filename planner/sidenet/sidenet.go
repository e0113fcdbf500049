// Package sidenet sizes the networks of a cluster beside its back end:
// the front end (in-band), a separate or converged storage network, the
// out-of-band network and the management servers, in pure integers.
// Given the cluster (nodes, racks, GPUs), the networks asked and the
// radix of the switch the planner picks for each (Inputs), Size returns each network's ports, leaves, spines, switches and
// links.
//
// It imports nothing of Fabric Planner's own packages: the planner
// resolves the scenario's [networks] table over the system's defaults,
// picks and prices the parts, and turns the counts into the plan's
// network list.
package sidenet

// How a network is built (the [networks] table's frontend, storage and
// oob).
const (
	Separate  = "separate"  // its own ports, switches and links
	Converged = "converged" // carried on the front end (storage only)
	None      = "none"      // not built
)

// Fabrics a network runs on.
const (
	InfiniBand = "infiniband"
	Ethernet   = "ethernet"
)

// OOBGbps is the out-of-band port speed, Gb/s.
const OOBGbps = 1

// OOBUplinks is the 100G uplinks of each OOB switch into the in-band
// network (DGX H100 SuperPOD RA Table 8: 16 cables for 8 SN2201).
const OOBUplinks = 2

// Inputs are the cluster and the networks beside its back end, every
// field resolved (the scenario's [networks] over the system's defaults).
type Inputs struct {
	// Nodes are the compute servers (or trays), in Racks racks, with
	// GPUs GPUs in all.
	Nodes, Racks, GPUs int
	// BackEnd says the cluster has its back end, on BackEndFabric with
	// BackEndSwitches switches (each on the OOB network); false sizes
	// the same cluster without one.
	BackEnd         bool
	BackEndFabric   string
	BackEndSwitches int

	// FrontEnd is Separate or None: FrontEndPorts a node at
	// FrontEndGbps, its leaves FrontEndDown:FrontEndUp.
	FrontEnd                                              string
	FrontEndPorts, FrontEndGbps, FrontEndDown, FrontEndUp int
	// Storage is Separate (on StorageFabric: StoragePorts a node at
	// StorageGbps, compute leaves StorageDown:StorageUp), Converged (on
	// the front end) or None. The storage servers take
	// StorageServerPorts switch ports when given, else the ports that
	// deliver StorageGBsPerGPU for every GPU.
	Storage, StorageFabric                            string
	StoragePorts, StorageGbps, StorageDown, StorageUp int
	StorageGBsPerGPU                                  float64
	StorageServerPorts                                int
	// OOB is Separate or None: OOBPortsPerNode a node; a rack adds
	// PDUsPerRack PDUs and RackOOBPorts other devices and has
	// RackOOBSwitches OOB switches built in.
	OOB                                        string
	OOBPortsPerNode, PDUsPerRack, RackOOBPorts int
	RackOOBSwitches                            int
	// UFMPerFabric is the UFM hosts of each InfiniBand fabric;
	// ManagementServers the head and control nodes beside them.
	UFMPerFabric, ManagementServers int
	// NetworkRackDevices is the switches and management servers a
	// network rack holds, NetworkRackPDUs its PDUs (0: no network racks
	// counted).
	NetworkRackDevices, NetworkRackPDUs int
	// FrontEndRadix, StorageRadix and OOBRadix are the ports of the
	// switch the planner picks for each network built, at its speed
	// (the front end's on Ethernet, a separate storage fabric's on
	// StorageFabric, the OOB's on Ethernet at OOBGbps).
	FrontEndRadix, StorageRadix, OOBRadix int
	// Reference, when set, is the system's published design: the storage,
	// front-end and OOB networks take its switch counts (those it gives)
	// in place of the sizing's, their ports sized as before.
	Reference *Reference
}

// Net is one network sized: every device port it connects, its
// switches by tier and its links.
type Net struct {
	// Ports is every device port the network connects: servers',
	// storage servers', management servers', other switches' and PDUs'.
	Ports int
	// StorageServerPorts is the storage servers' switch ports (storage:
	// on its own leaves, or carried on the front end when converged).
	StorageServerPorts int
	// Spines counts the spines and, past two tiers, the cores.
	Leaves, Spines, Switches, Links int
	// Rescaled says a reference's count replaced the sizing's: the tier
	// split and the links beyond the device ports' scale with it.
	Rescaled bool
}

// Networks are a cluster's networks beside the back end, sized.
type Networks struct {
	FrontEnd, Storage, OOB Net
	// FrontEndLS is the front end's leaves and spines as sized, for the
	// job timed on the front end.
	FrontEndLS LeafSpine
	// UFMHosts is the UFM hosts (UFMPerFabric a fabric on InfiniBand);
	// MgmtServers adds the management servers.
	UFMHosts, MgmtServers int
}

// sizer sizes the networks of one cluster.
type sizer struct {
	in    Inputs
	force forced
}

// Size sizes every network; the front end and the OOB network depend on
// each other (OOB uplinks on the front end, front-end switches on the
// OOB), so they are sized until the counts settle (at most four rounds;
// then the front end as the last OOB network leaves it).
func Size(in Inputs) Networks {
	s := newSizer(in)
	out := Networks{UFMHosts: s.ufmHosts(), MgmtServers: s.mgmtServers()}
	out.Storage = s.storage()
	backEnd := 0
	if in.BackEnd {
		backEnd = in.BackEndSwitches
	}
	oobSw := 0
	converged := false
	for range 4 {
		out.FrontEnd, out.FrontEndLS = s.frontEnd(oobSw, out.Storage)
		out.OOB = s.oob(backEnd+out.Storage.Switches+out.FrontEnd.Switches, oobSw)
		if converged = out.OOB.Switches == oobSw; converged {
			break
		}
		oobSw = out.OOB.Switches
	}
	if !converged {
		_, out.FrontEndLS = s.frontEnd(out.OOB.Switches, out.Storage)
	}
	return out
}

// newSizer is the sizer of in, with the switch counts its reference
// gives.
func newSizer(in Inputs) sizer {
	s := sizer{in: in}
	if in.Reference != nil {
		s.force = referenced(in)
	}
	return s
}

// storagePorts is the switch ports the storage servers take at gbps:
// the inputs', else the read bandwidth asked, non-blocking.
func (s *sizer) storagePorts(gbps int) int {
	if s.in.StorageServerPorts > 0 {
		return s.in.StorageServerPorts
	}
	gbs := float64(s.in.GPUs) * s.in.StorageGBsPerGPU
	return max(1, ceilDiv(int(gbs*8+0.5), gbps))
}

// ufmHosts is the UFM hosts: UFMPerFabric for each InfiniBand fabric.
func (s *sizer) ufmHosts() int {
	n := 0
	if s.in.BackEnd && s.in.BackEndFabric == InfiniBand {
		n += s.in.UFMPerFabric
	}
	if s.in.Storage == Separate && s.in.StorageFabric == InfiniBand {
		n += s.in.UFMPerFabric
	}
	return n
}

func (s *sizer) mgmtServers() int { return s.in.ManagementServers + s.ufmHosts() }

// storage sizes a separate storage fabric, or the storage-server ports
// a converged one puts on the front end.
func (s *sizer) storage() Net {
	in := s.in
	switch in.Storage {
	case None:
		return Net{}
	case Converged:
		return Net{StorageServerPorts: s.storagePorts(in.FrontEndGbps)}
	}
	nodePorts := in.Nodes * in.StoragePorts
	storPorts := s.storagePorts(in.StorageGbps)
	ls := SizeLeafSpine([]Group{{nodePorts, in.StorageDown, in.StorageUp}, {storPorts, 1, 1}}, in.StorageRadix, in.StorageFabric == Ethernet)
	return ls.net(nodePorts+storPorts, storPorts).force(s.force.storage)
}

// frontEnd sizes the front end with the OOB switches' uplinks and the
// storage it carries.
func (s *sizer) frontEnd(oobSwitches int, storage Net) (Net, LeafSpine) {
	in := s.in
	if in.FrontEnd == None {
		return Net{}, LeafSpine{}
	}
	nodePorts := in.Nodes * in.FrontEndPorts
	other := s.mgmtServers() + oobSwitches*OOBUplinks
	if in.Storage == Converged {
		other += storage.StorageServerPorts
	}
	ls := SizeLeafSpine([]Group{{nodePorts + other, in.FrontEndDown, in.FrontEndUp}}, in.FrontEndRadix, true)
	return ls.net(nodePorts+other, 0).force(s.force.frontEnd), ls
}

// net is a network of ports device ports (storage of them storage
// servers') on ls.
func (ls LeafSpine) net(ports, storage int) Net {
	return Net{Ports: ports, StorageServerPorts: storage, Leaves: ls.Leaves, Spines: ls.Spines + ls.Cores,
		Switches: ls.Leaves + ls.Spines + ls.Cores, Links: ports + ls.Uplinks + ls.ISL + ls.CoreLinks}
}

// NetworkRacks is the racks that the switches outside the compute
// racks (otherSwitches, and the OOB switches past those built into the
// racks) and the management servers fill; 0 without a devices-per-rack
// figure.
func NetworkRacks(in Inputs, otherSwitches, oobSwitches int) int {
	if in.NetworkRackDevices <= 0 {
		return 0
	}
	s := sizer{in: in}
	devices := otherSwitches + max(0, oobSwitches-in.Racks*in.RackOOBSwitches) + s.mgmtServers()
	return ceilDiv(devices, in.NetworkRackDevices)
}

// oob sizes the out-of-band network: a 1G port for every server BMC, rack
// device (PDUs, NVLink trays, power shelves), management server, the
// management port of every other switch, the network racks' PDUs and a
// back-to-back link for each pair of UFM hosts (RA-11333-001 Table 8).
// oobSwitches is the OOB switches of the previous round (they stand in
// network racks too). Its switches come in pairs, at least the racks'
// built-in ones; every port is one link.
func (s *sizer) oob(otherSwitches, oobSwitches int) Net {
	in := s.in
	if in.OOB == None {
		return Net{}
	}
	ports := in.Nodes*in.OOBPortsPerNode + in.Racks*(in.RackOOBPorts+in.PDUsPerRack) + s.mgmtServers() + otherSwitches +
		NetworkRacks(in, otherSwitches, oobSwitches)*in.NetworkRackPDUs + s.ufmHosts()/2
	switches := ceilDiv(ports, in.OOBRadix)
	switches += switches % 2
	switches = max(switches, in.Racks*in.RackOOBSwitches)
	if s.force.oob > 0 {
		switches = s.force.oob
	}
	return Net{Ports: ports, Leaves: switches, Switches: switches, Links: ports}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// SizeStorage sizes the storage network alone, as Size does.
func SizeStorage(in Inputs) Net {
	s := newSizer(in)
	return s.storage()
}
