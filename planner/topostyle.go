package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
)

// Design styles (network.topology).
const (
	// TopoRailOptimized: NIC i of every server in a scalable unit on leaf
	// i, leaves joined by spines (NVIDIA's SuperPODs).
	TopoRailOptimized = "rail-optimized"
	// TopoToR: one leaf in the rack takes every port of its servers
	// (Meta's Llama 3 RTSWs).
	TopoToR = "top-of-rack"
	// TopoRailOnly: one network per rail and no switch joining two
	// rails; traffic between rails crosses the NVLink domain (Wang et
	// al., "How to Build Low-cost Networks for Large Language Models").
	TopoRailOnly = "rail-only"
	// TopoDualPlane: rail-optimized, each NIC's two ports on two ToRs in
	// two planes (Alibaba HPN, SIGCOMM 2024: 2 x 200G per 400G NIC).
	TopoDualPlane = "dual-plane"
)

// Topologies lists the design styles, in the order a chooser offers them.
var Topologies = []string{TopoRailOptimized, TopoToR, TopoRailOnly, TopoDualPlane}

// Style is the network's design style: Topology when set, else
// rail-optimized or top-of-rack as rail_optimized says.
func (n Network) Style() string {
	switch {
	case n.Topology != "":
		return n.Topology
	case n.RailOptimized:
		return TopoRailOptimized
	}
	return TopoToR
}

// railNetworks is how the style cuts a server's ports per plane into
// fabrics: rail-only builds one network per rail (rails of them, one
// rail each); the others build the plane whole.
func railNetworks(n Network, rails int) (networks, railsEach int) {
	if n.Style() == TopoRailOnly {
		return rails, 1
	}
	return 1, rails
}

// railOnlyNote says what a rail-only plan is: rail networks, and the
// tiers one rail needs where it outgrows a switch.
func railOnlyNote(p *Plan, rails int) []string {
	if p.Scenario.Network.Style() != TopoRailOnly {
		return nil
	}
	note := fmt.Sprintf("rail-only: each of the %d rails is its own network (%s in all with the planes); no switch joins two rails, so traffic between rails crosses the NVLink domain first (PXN)",
		rails, textfmt.Plural(p.Planes, "rail network"))
	if p.Tiers > 1 {
		note += fmt.Sprintf("; one rail's %s ports outgrow a %d-port switch, so each rail is a %d-tier Clos of its own", textfmt.Int(p.Servers), p.Switch.Radix(p.PortGbps), p.Tiers)
	}
	return []string{note}
}

// railOnlyFindings says where a rail-only fabric leaves traffic between
// rails without a path: the GPUs of a server must share an NVLink domain
// to forward to another rail's NIC.
func (p *Plan) railOnlyFindings(gpu *perf.GPUSpec, classes []perf.TrafficClass) []string {
	rails := p.ServerPorts / max(p.Scenario.Network.Planes, 1)
	if p.Scenario.Network.Style() != TopoRailOnly || rails < 2 {
		return nil
	}
	per := p.Scenario.Cluster.GPUsPerServer
	if p.System != nil {
		per = p.System.GPUsPerNode()
	}
	domain := nvlinkDomain(p.System.domain(), gpu, per)
	if domain >= per {
		return nil
	}
	var crossing []string
	for _, c := range classes {
		if c.CrossesFabric {
			crossing = append(crossing, c.Name)
		}
	}
	if len(crossing) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("rail-only without NVLink reach: %s's NVLink domain is %d GPUs, but a %d-GPU server's NICs sit on %s; %s between GPUs on different rails has no path but the host (PCIe), which the estimate does not model: use rail-optimized leaves or GPUs whose NVLink spans the server",
		gpu.Name, domain, per, textfmt.Plural(rails, "rail"), textfmt.JoinAnd(crossing))}
}

// withStyle fills what the style decides where the scenario leaves it
// out: a dual-plane design splits each NIC in two ports (ports_per_nic 2)
// over two planes; a named top-of-rack or rail-optimized topology sets
// rail_optimized, which it overrides.
func (n Network) withStyle() Network {
	switch n.Topology {
	case TopoToR:
		n.RailOptimized = false
	case TopoRailOptimized:
		n.RailOptimized = true
	}
	if n.Style() == TopoDualPlane {
		if n.PortsPerNIC == 0 {
			n.PortsPerNIC = 2
		}
		if n.Planes == 1 {
			n.Planes = 2
		}
	}
	return n
}

// validateStyle checks what the style needs of the other fields.
func (n Network) validateStyle() *fielderr.FieldError {
	if n.Style() == TopoDualPlane && (n.PortsPerNIC%2 != 0 || n.Planes%2 != 0) {
		return fielderr.New("network.topology", "leave ports_per_nic and planes out (2 each), or give an even number of each",
			"dual-plane puts each NIC's ports on two planes: %d ports per NIC over %d planes", n.PortsPerNIC, n.Planes)
	}
	return nil
}

// dualPlaneNote says what a dual-plane plan's ToR pairs buy.
func dualPlaneNote(n Network) []string {
	if n.Style() != TopoDualPlane {
		return nil
	}
	return []string{fmt.Sprintf("dual-plane: each NIC's %d ports go to ToRs in %d planes, so one ToR's loss halves that NIC's bandwidth instead of cutting it (Alibaba HPN, SIGCOMM 2024)",
		n.PortsPerNIC, n.Planes)}
}
