package planner

// RailOnlyGap is the finding of a rail-only plan whose servers' GPUs do
// not share one NVLink domain (traffic between rails has no path but
// the host), or "" where the NVLink domain joins the rails or the plan
// is not rail-only or has no job estimate. The topology diagram draws
// the rails' join from it.
func (p *Plan) RailOnlyGap() string {
	if p.JCT == nil || p.JCT.GPU == nil {
		return ""
	}
	if f := p.railOnlyFindings(p.JCT.GPU, p.JCT.Planned.Classes); len(f) > 0 {
		return f[0]
	}
	return ""
}

// RailNetworks is the networks a rail-only plan builds in each plane the
// scenario asks (one per rail), 1 in every other style.
func (p *Plan) RailNetworks() int {
	n := p.Scenario.Network
	if n.Style() != TopoRailOnly {
		return 1
	}
	return max(p.Planes/max(n.Planes, 1), 1)
}

// NodeGPUs is the GPUs of one node (a server, or a rack-scale system's
// compute tray).
func (p *Plan) NodeGPUs() int {
	if p.System != nil {
		return p.System.GPUsPerNode()
	}
	return p.Scenario.Cluster.GPUsPerServer
}
