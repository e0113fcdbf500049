package planner

import (
	"fmt"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/sidenet"
)

// sideBill adds up one network's parts: cost (and its range), power and
// transceivers, with the scenario's price overrides and quotes, on the
// volume basis at volume prices as the back end and the servers are (the
// list premium is the back end's branded optics and leaves them alone).
type sideBill struct {
	s                    *Scenario
	cat                  *Catalog
	cost, low, high, pow float64
	modules              int
}

func (b *sideBill) add(key string, qty int, price float64, r [2]float64, watts float64) {
	if qty <= 0 {
		return
	}
	pp := b.s.pointPrice(key, price, r)
	if !pp.Override && pp.Quote == nil && b.cat != nil && b.cat.Prices != nil && b.s.PriceBasis(b.cat) == BasisVolume {
		pp = b.cat.Prices.volumePrice(key, price, r)
	}
	n := float64(qty)
	b.cost += n * pp.USD
	b.low += n * pp.LowUSD
	b.high += n * pp.HighUSD
	b.pow += n * watts
}

func (b *sideBill) sw(s *Switch, qty int) { b.add(s.Key, qty, s.PriceUSD, s.PriceRangeUSD, s.Watts) }

func (b *sideBill) links(l *SideLink, qty int) {
	if l == nil {
		return
	}
	b.add(l.Key, qty, l.PriceUSD, l.PriceRangeUSD, l.Watts)
	b.modules += qty * l.Modules
}

// nics prices the adapters nodes servers need for ports ports each at
// gbps, unless the system carries them.
func (b *sideBill) nics(cat *Catalog, included bool, nodes, ports, gbps int) {
	if included {
		return
	}
	if n := cat.sideNIC(gbps); n != nil {
		b.add(n.Key, nodes*ceilDiv(ports, n.Ports), n.PriceUSD, n.PriceRangeUSD, n.Watts)
	}
}

func (b *sideBill) fill(n *SideNetwork) {
	n.CostUSD, n.LowUSD, n.HighUSD, n.PowerW, n.Transceivers = b.cost, b.low, b.high, b.pow, b.modules
}

// clusterSizer sizes the networks of one cluster (package sidenet
// counts them), picks their parts and prices them.
type clusterSizer struct {
	p     *Plan
	cat   *Catalog
	r     SideDefaults
	nodes int
	racks int
	be    bool // the cluster has the plan's back end
	// frontEndLS is the front end's leaves and spines as size last
	// sized them, for the job timed on the front end.
	frontEndLS sidenet.LeafSpine
	// picks are the side parts chosen so far: the sizer asks for the
	// same ones at every pass of its out-of-band loop.
	picks []sidePick
}

// sidePick is the cheapest switch and link part of a fabric and speed.
type sidePick struct {
	fabric Fabric
	gbps   int
	sw     *Switch
	link   *SideLink
}

// parts is the cheapest switch (per port) and link part of fabric f at
// gbps, chosen once per sizer.
func (c *clusterSizer) parts(f Fabric, gbps int) (*Switch, *SideLink) {
	for _, p := range c.picks {
		if p.fabric == f && p.gbps == gbps {
			return p.sw, p.link
		}
	}
	p := sidePick{f, gbps, c.cat.sideSwitch(f, gbps), c.cat.sideLink(gbps)}
	c.picks = append(c.picks, p)
	return p.sw, p.link
}

// inputs are the sizer's cluster and networks for package sidenet.
func (c *clusterSizer) inputs() sidenet.Inputs {
	r, p := &c.r, c.p
	in := sidenet.Inputs{Nodes: c.nodes, Racks: c.racks, GPUs: p.GPUs, BackEnd: c.be, BackEndFabric: string(p.Scenario.Network.Fabric),
		FrontEnd: r.FrontEnd, FrontEndPorts: r.FrontEndPorts, FrontEndGbps: r.FrontEndGbps,
		Storage: r.Storage, StorageFabric: string(r.StorageFabric), StoragePorts: r.StoragePorts, StorageGbps: r.StorageGbps,
		StorageGBsPerGPU: r.StorageGBsPerGPU, StorageServerPorts: r.StorageServerPorts,
		OOB: r.OOB, OOBPortsPerNode: r.OOBPortsPerNode, PDUsPerRack: r.PDUsPerRack, RackOOBPorts: r.RackOOBPorts, RackOOBSwitches: r.RackOOBSwitches,
		UFMPerFabric: r.UFMPerFabric, ManagementServers: r.ManagementServers,
		NetworkRackDevices: r.NetworkRackDevices, NetworkRackPDUs: r.NetworkRackPDUs,
		// The back end's switches even when sized without it: a reference
		// sizes the cluster with it to see what it adds.
		BackEndSwitches: p.TotalSwitches(), Reference: p.Scenario.sideReference(c.cat)}
	in.FrontEndDown, in.FrontEndUp, _ = Ratio(r.FrontEndOversubscription)
	in.StorageDown, in.StorageUp, _ = Ratio(r.StorageOversubscription)
	// The radix of each network built, at its speed.
	radix := func(f Fabric, gbps int) int {
		sw, _ := c.parts(f, gbps)
		return sw.Radix(gbps)
	}
	if r.FrontEnd != NetNone {
		in.FrontEndRadix = radix(Ethernet, r.FrontEndGbps)
	}
	if r.Storage != NetNone && r.Storage != NetConverged {
		in.StorageRadix = radix(r.StorageFabric, r.StorageGbps)
	}
	if r.OOB != NetNone {
		in.OOBRadix = radix(Ethernet, sidenet.OOBGbps)
	}
	return in
}

// backEnd is the plan's back end as one network of the list.
func (c *clusterSizer) backEnd() SideNetwork {
	p := c.p
	if !c.be {
		return SideNetwork{Name: NetBackEnd, Kind: NetNone}
	}
	return SideNetwork{
		Name: NetBackEnd, Kind: string(p.Scenario.Network.Fabric), Fabric: p.Scenario.Network.Fabric,
		PortsPerServer: p.ServerPorts, PortGbps: p.PortGbps, Ports: p.NICPorts,
		Leaves: p.Switches(TierLeaf), Spines: p.Switches(TierSpine) + p.Switches(TierCore),
		Switches: p.TotalSwitches(), Switch: p.SwitchesText(), Links: p.Links.Total,
		Transceivers: p.ServerTransceivers + p.SwitchTransceivers,
		CostUSD:      p.Cost.Total, LowUSD: p.Cost.LowUSD, HighUSD: p.Cost.HighUSD, PowerW: p.Power.Total,
		Source: "the back-end plan",
	}
}

// storage is a separate storage fabric as sized (net), priced, or where
// storage goes.
func (c *clusterSizer) storage(net sidenet.Net) SideNetwork {
	r := c.r
	n := SideNetwork{Name: NetStorage, Kind: r.Storage, Source: r.Source}
	switch r.Storage {
	case NetNone:
		return n
	case NetConverged:
		n.PortGbps = r.FrontEndGbps
		n.Carried = net.StorageServerPorts
		n.Notes = append(n.Notes, fmt.Sprintf("storage converged on the front end: its %s storage-server ports are on the front-end switches", textfmt.Int(n.Carried)))
		return n
	}
	sw, link := c.parts(r.StorageFabric, r.StorageGbps)
	n.Fabric, n.PortsPerServer, n.PortGbps = r.StorageFabric, r.StoragePorts, r.StorageGbps
	n.Ports, n.Leaves, n.Spines, n.Switches, n.Switch, n.Links = net.Ports, net.Leaves, net.Spines, net.Switches, sw.Key, net.Links
	b := sideBill{s: &c.p.Scenario, cat: c.cat}
	b.sw(sw, n.Switches)
	b.links(link, n.Links)
	b.nics(c.cat, r.NICsIncluded, c.nodes, r.StoragePorts, r.StorageGbps)
	b.fill(&n)
	c.fromReference(&n, net, func(r sidenet.Reference) int { return r.Storage })
	n.Notes = append(n.Notes, fmt.Sprintf("%s storage-server ports at %dG (storage servers not priced)", textfmt.Int(net.StorageServerPorts), r.StorageGbps))
	return n
}

// frontEnd is the front end as sized (net), priced.
func (c *clusterSizer) frontEnd(net sidenet.Net) SideNetwork {
	r := c.r
	n := SideNetwork{Name: NetFrontEnd, Kind: r.FrontEnd, Source: r.Source}
	if r.FrontEnd == NetNone {
		return n
	}
	g := r.FrontEndGbps
	sw, link := c.parts(Ethernet, g)
	n.Fabric, n.PortsPerServer, n.PortGbps = Ethernet, r.FrontEndPorts, g
	n.Ports, n.Leaves, n.Spines, n.Switches, n.Switch, n.Links = net.Ports, net.Leaves, net.Spines, net.Switches, sw.Key, net.Links
	b := sideBill{s: &c.p.Scenario, cat: c.cat}
	b.sw(sw, n.Switches)
	b.links(link, n.Links)
	b.nics(c.cat, r.NICsIncluded, c.nodes, r.FrontEndPorts, g)
	b.fill(&n)
	c.fromReference(&n, net, func(r sidenet.Reference) int { return r.FrontEnd })
	return n
}

// oob is the out-of-band network as sized (net), priced.
func (c *clusterSizer) oob(net sidenet.Net) SideNetwork {
	r := c.r
	n := SideNetwork{Name: NetOOB, Kind: r.OOB, Source: r.Source}
	if r.OOB == NetNone {
		return n
	}
	sw, link := c.parts(Ethernet, sidenet.OOBGbps)
	n.Fabric, n.PortsPerServer, n.PortGbps = Ethernet, r.OOBPortsPerNode, sidenet.OOBGbps
	n.Ports, n.Leaves, n.Switches, n.Switch, n.Links = net.Ports, net.Leaves, net.Switches, sw.Key, net.Links
	b := sideBill{s: &c.p.Scenario, cat: c.cat}
	b.sw(sw, n.Switches)
	b.links(link, n.Links)
	b.fill(&n)
	c.fromReference(&n, net, func(r sidenet.Reference) int { return r.OOB })
	return n
}

// fromReference names the published design as the source of n's
// switches when the system's reference gives them (figure picks its
// count): its own count at its size, else scaled per unit begun, an
// estimate.
func (c *clusterSizer) fromReference(n *SideNetwork, net sidenet.Net, figure func(sidenet.Reference) int) {
	ref := c.p.Scenario.sideReference(c.cat)
	if ref == nil || figure(*ref) == 0 {
		return
	}
	pub, units := figure(*ref), ref.UnitsOf(c.nodes)
	n.SwitchesSource = c.r.Reference.Source
	design := fmt.Sprintf("the published design's %d at %s of %d node slots", pub, textfmt.Plural(ref.Units, "scalable unit"), ref.UnitNodes)
	switch {
	case !c.be:
		return
	case units == ref.Units:
		n.Notes = append(n.Notes, fmt.Sprintf("%s: %s%s", textfmt.Plural(n.Switches, "switch"), design, splitNote(net)))
	default:
		n.Notes = append(n.Notes, fmt.Sprintf("%s: %s, scaled to %d and rounded up (estimate)%s", textfmt.Plural(n.Switches, "switch"), design, units, splitNote(net)))
	}
}

// splitNote says where a referenced network's tiers come from when its
// count is not the sizing's: the published count gives none.
func splitNote(net sidenet.Net) string {
	if !net.Rescaled || net.Spines == 0 {
		return ""
	}
	return "; its leaf-spine split and links scaled from the planner's own sizing (estimate)"
}

// mgmt is the management servers as a line of the list.
func (c *clusterSizer) mgmt(k, ufm int) SideNetwork {
	n := SideNetwork{Name: NetMgmt, Kind: "servers", Source: c.r.Source}
	if c.r.mgmtSource != "" {
		n.Source = c.r.mgmtSource
	}
	if sv := c.cat.SideServers[mgmtServerKey]; sv != nil && k > 0 {
		b := sideBill{s: &c.p.Scenario, cat: c.cat}
		b.add(sv.Key, k, sv.PriceUSD, sv.PriceRangeUSD, sv.Watts)
		b.fill(&n)
	}
	n.Notes = append(n.Notes, fmt.Sprintf("%s: %d head and control nodes, %d UFM hosts", textfmt.Plural(k, "management server"), c.r.ManagementServers, ufm))
	return n
}

// size sizes every network (sidenet.Size) and prices it.
func (c *clusterSizer) size() []SideNetwork {
	sized := sidenet.Size(c.inputs())
	c.frontEndLS = sized.FrontEndLS
	return []SideNetwork{c.backEnd(), c.frontEnd(sized.FrontEnd), c.storage(sized.Storage), c.oob(sized.OOB), c.mgmt(sized.MgmtServers, sized.UFMHosts)}
}

func sumNetworks(list []SideNetwork) Increment {
	var t Increment
	for _, n := range list {
		t.Ports += n.Ports
		t.Switches += n.Switches
		t.Transceivers += n.Transceivers
		t.CostUSD += n.CostUSD
		t.PowerW += n.PowerW
	}
	return t
}

// sizeNetworks sizes the cluster's networks around the plan's back end
// and without it, and what the back end adds.
func (p *Plan) sizeNetworks(cat *Catalog) *Networks {
	if len(cat.SideDefaults) == 0 {
		return nil
	}
	r := p.Scenario.clusterNetworks(cat, p.Servers)
	c := clusterSizer{p: p, cat: cat, r: r, nodes: p.Servers, racks: ceilDiv(p.Servers, r.NodesPerRack), be: true}
	with := c.size()
	n := &Networks{List: with, Total: sumNetworks(with), Racks: c.racks, Source: r.Source, defaults: r, frontEndLS: c.frontEndLS}
	c.be = false
	n.WithoutBackEnd = sumNetworks(c.size())
	n.BackEndAdds = n.Total.minus(n.WithoutBackEnd)
	return n
}
