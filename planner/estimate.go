package planner

import (
	"cmp"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/perf"
)

// Routing of flows over the paths above the leaves (Network.Routing).
const (
	// RouteAdaptive spreads traffic over the uplinks by their load:
	// adaptive routing on InfiniBand (Quantum) and Ethernet (Spectrum-X,
	// DLB), or enhanced ECMP with QP scaling that balances as well.
	RouteAdaptive = "adaptive"
	// RouteStatic pins each flow to one path: ECMP hashing on Ethernet,
	// subnet-manager routes (ftree, up/down) on InfiniBand.
	RouteStatic = "static"
)

// perfNetwork is the plan's back-end network as the JCT model sees it:
// the view a build worked out (fabricView), or worked out afresh.
func (p *Plan) perfNetwork() perf.Network {
	if v := p.fabricView; v != nil {
		return *v
	}
	return p.perfNetworkFresh()
}

// viewFabric sets p.fabricView, when a kept back end did not bring it.
func (p *Plan) viewFabric() {
	if p.fabricView == nil {
		v := p.perfNetworkFresh()
		p.fabricView = &v
	}
}

// perfNetworkFresh is perfNetwork worked out from the plan's fields.
func (p *Plan) perfNetworkFresh() perf.Network {
	n := p.Scenario.Network
	d, u, _ := LeafRatio(n.Oversubscription)
	pn := perf.Network{
		GPUs: p.GPUs, GPUsPerServer: p.Scenario.Cluster.GPUsPerServer, NICsPerServer: n.NICsPerServer, ServerPorts: p.ServerPorts,
		NICGbps: float64(n.NICGbps), Fabric: perf.Fabric(n.Fabric), Static: n.routing() == RouteStatic,
		Spray:   n.Fabric == Ethernet && n.LoadBalancing == LBSpray,
		Oversub: float64(d) / float64(u), ServersPerUnit: p.ServersPerUnit, Tiers: p.Tiers, Planes: p.Planes,
		NVLinkDomain: p.System.domain(), WireUS: p.wireUS(),
		SpineRatio: p.spineRatio(), ServersPerPod: cmp.Or(p.podServers(), ceilDiv(p.Servers, max(p.Pods, 1))),
		LeafDown: p.leafDown(), LeafUp: p.leafUp(), SHARP: n.InNetworkReduction && n.Fabric == InfiniBand && p.Switch != nil,
		UpSpeedRatio: p.upSpeedRatio(), RailOnly: n.Style() == TopoRailOnly, Rails: p.ServerPorts / max(n.Planes, 1),
	}
	if pn.SHARP {
		pn.SwitchKey = p.Switch.Key
		for i, tier := range []string{TierSpine, TierCore} {
			if p.Tiers > i+1 {
				pn.UpperSwitchKeys[i] = p.SwitchOf(tier).Key
			}
		}
	}
	return pn
}

// jobView is the plan's fabric with the resolved workload w placed on it.
func (p *Plan) jobView(w perf.Workload, d *perf.JCTData) perf.View {
	return p.perfNetwork().Place(w, d)
}

// perfJob is the plan as one JCT estimate sees it: its network, and its
// rail-only findings on the planned step's traffic.
func (p *Plan) perfJob() perf.Job {
	job := perf.Job{Network: p.perfNetwork()}
	// railOnlyFindings finds nothing but on a rail-only fabric of two
	// rails or more: elsewhere no method value is put on the heap.
	if job.Network.RailOnly && job.Network.Rails >= 2 {
		job.PlanFindings = p.railOnlyFindings
	}
	return job
}

// EstimateJCT times one training step of w on the plan's fabric, over RDMA
// and over TCP/IP on the same links. A job that does not fit in the GPUs'
// memory is a finding, not an error: it is timed as entered (as if the
// memory were there), its Memory says by how much it is over, and Fix
// holds the change that fits at the least step time, timed.
func EstimateJCT(p *Plan, w perf.Workload, d *perf.JCTData) (*perf.JCT, error) {
	return estimateJCT(p, w, d, true)
}

// estimateJCT is EstimateJCT; checkMemory false skips looking for a
// memory fix.
func estimateJCT(p *Plan, w perf.Workload, d *perf.JCTData, checkMemory bool) (*perf.JCT, error) {
	return estimateJCTWith(p, w, d, jctParts{Fix: checkMemory, Detail: true})
}

// jctParts says what a JCT estimate holds beyond its planned and
// baseline steps and memory verdict.
type jctParts = perf.Parts

// estimateJCTWith is EstimateJCT computing what parts asks for.
func estimateJCTWith(p *Plan, w perf.Workload, d *perf.JCTData, parts jctParts) (*perf.JCT, error) {
	w.GPU = p.jobGPU(w.GPU, d)
	return perf.Estimate(p.perfJob(), w, d, parts)
}

// jobGPU is the GPU a workload naming key runs on in the plan: the
// system's, whatever the workload names, unless key is a variant of it
// (data/jct.toml variant_of: an H800 or a 96 GB H100 in a DGX H100's
// place); key itself without a system.
func (p *Plan) jobGPU(key string, d *perf.JCTData) string {
	if p.System == nil {
		return key
	}
	if g := d.GPUs[key]; g != nil && g.VariantOf == p.System.GPU {
		return key
	}
	return p.System.GPU
}

// routing is the network's routing: routing when given, else static for
// Ethernet with load_balancing = "ecmp" (the older key), else adaptive.
func (n Network) routing() string {
	if n.Routing != "" {
		return n.Routing
	}
	if n.Fabric == Ethernet && n.LoadBalancing == LBECMP {
		return RouteStatic
	}
	return RouteAdaptive
}

// validateRouting checks routing, and that it agrees with the older
// load_balancing key where both are written for Ethernet.
func (n Network) validateRouting() *fielderr.FieldError {
	switch n.Routing {
	case "", RouteAdaptive, RouteStatic:
	default:
		return fielderr.New("network.routing", `write "static" or "adaptive"`, "unknown routing %q", n.Routing)
	}
	if n.Fabric == Ethernet && n.Routing == RouteAdaptive && n.LoadBalancing == LBECMP {
		return fielderr.New("network.routing", `drop load_balancing = "ecmp" or write routing = "static"`, "adaptive routing with ECMP load balancing")
	}
	if n.Fabric == Ethernet && n.Routing == RouteStatic && n.LoadBalancing == LBSpray {
		return fielderr.New("network.routing", `drop routing = "static" or write load_balancing = "ecmp"`, "static routing with packet spraying (spraying sends each packet on its own path)")
	}
	return nil
}

// spineRatio is the spine tier's down:up ratio as built (three tiers;
// 1 below).
func (p *Plan) spineRatio() float64 {
	if p.Tiers < 3 || len(p.SwitchTiers) < 2 {
		return 1
	}
	t := p.SwitchTiers[1]
	if t.UpPorts <= 0 || t.DownPorts <= t.UpPorts {
		return 1
	}
	return float64(t.DownPorts) / float64(t.UpPorts)
}

// leafDown and leafUp are the plan's leaf down and up ports per switch
// (the worst leaf), 0 below two tiers.
func (p *Plan) leafDown() int {
	if p.Tiers < 2 || len(p.SwitchTiers) == 0 {
		return 0
	}
	return p.SwitchTiers[0].DownPorts
}

func (p *Plan) leafUp() int {
	if p.Tiers < 2 || len(p.SwitchTiers) == 0 {
		return 0
	}
	return p.SwitchTiers[0].UpPorts
}
