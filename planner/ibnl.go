package planner

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ibnlName turns a catalog key into an IBNL system name: the format's
// names allow letters, digits and _.:%@~/ but no hyphen, so "dgx-h100"
// becomes "DGX_H100".
func ibnlName(key string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(key))
}

// IBNLSwitchType is the system type the topology file gives the plan's
// leaves: the switch model (SwitchOf names the other tiers').
func IBNLSwitchType(p *Plan) string { return ibnlName(p.Switch.Key) }

// IBNLNodeType is the system type of the plan's compute nodes, named
// after the server (a rack-scale system's compute tray), not its NIC.
func IBNLNodeType(p *Plan) string {
	switch sys := p.System; {
	case sys == nil:
		return ibnlName(fmt.Sprintf("server-%dgpu", p.Scenario.Cluster.GPUsPerServer))
	case sys.RackScale():
		return ibnlName(sys.Key + "-tray")
	default:
		return ibnlName(sys.Key)
	}
}

// WriteIBNLSwitch writes the IBNL system definition of the plan's
// switch (man ibdm-ibnl-file): one switch node whose ports carry the
// names the topology file uses, P<cage> or P<cage>/<lane>.
func WriteIBNLSwitch(w io.Writer, p *Plan) error {
	return writeIBNLModel(w, p.Switch, p.PortGbps)
}

// writeIBNLModel writes the IBNL system definition of switch model sw
// with its ports at gbps.
func writeIBNLModel(w io.Writer, sw *Switch, gbps int) error {
	bw := bufio.NewWriter(w)
	n, perCage := sw.Radix(gbps), sw.LinksPerCage(gbps)
	name := ibnlName(sw.Key)
	// The format has no comments: the file is its definition only.
	fmt.Fprintf(bw, "\nTOPSYSTEM %s\n\nNODE SW %d %s U1\n", name, n, name)
	for i := range n {
		fmt.Fprintf(bw, "   %d -> %s\n", i+1, portName(i, perCage))
	}
	return bw.Flush()
}

// WriteIBNLNode writes the IBNL system definition of a compute node:
// one channel adapter per NIC, its ports named U<NIC>/P<port> as the
// topology file names them.
func WriteIBNLNode(w io.Writer, p *Plan) error {
	bw := bufio.NewWriter(w)
	n := &p.Scenario.Network
	ppn := max(1, n.PortsPerNIC)
	fmt.Fprintf(bw, "\nTOPSYSTEM %s\n", IBNLNodeType(p))
	for nic := 1; nic <= n.NICsPerServer; nic++ {
		fmt.Fprintf(bw, "\nNODE CA %d %s U%d\n", ppn, ibnlName(p.NIC.Key), nic)
		for port := 1; port <= ppn; port++ {
			fmt.Fprintf(bw, "   %d -> U%d/P%d\n", port, nic, port)
		}
	}
	return bw.Flush()
}

// IBNLFiles names the IBNL files a topology file needs, each with its
// writer: one per switch model and one per server type.
func IBNLFiles(p *Plan) map[string]func(io.Writer, *Plan) error {
	files := map[string]func(io.Writer, *Plan) error{
		IBNLSwitchType(p) + ".ibnl": WriteIBNLSwitch,
		IBNLNodeType(p) + ".ibnl":   WriteIBNLNode,
	}
	for _, t := range p.SwitchTiers[1:] {
		sw, g := p.SwitchOf(t.Name), t.DownGbps
		if sw != p.Switch {
			files[ibnlName(sw.Key)+".ibnl"] = func(w io.Writer, _ *Plan) error { return writeIBNLModel(w, sw, g) }
		}
	}
	return files
}

// IBDMCheckCommand is the design-mode ibdmchk command line that checks
// topo (a topology file written by WriteTopoFile) with the IBNL files in
// dir, the subnet manager on the first node's first port.
func IBDMCheckCommand(dir, topo string) string {
	return "IBDM_IBNL_PATH=" + dir + " ibdmchk -t " + topo + " -n su1-node1/U1 -p 1"
}
