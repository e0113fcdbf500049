package planner

import (
	"fmt"

	"fabricplan/internal/textfmt"
)

// sideBill adds up one network's parts: cost (and its range), power and
// transceivers, with the scenario's price overrides.
type sideBill struct {
	s                    *Scenario
	cost, low, high, pow float64
	modules              int
}

func (b *sideBill) add(key string, qty int, price float64, r [2]float64, watts float64) {
	if qty <= 0 {
		return
	}
	pp := b.s.pointPrice(key, price, r)
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

// clusterSizer sizes the networks of one cluster.
type clusterSizer struct {
	p     *Plan
	cat   *Catalog
	r     SideDefaults
	nodes int
	racks int
	be    bool // the cluster has the plan's back end
	// frontEndLS is the front end's leaves and spines as size last
	// sized them, for the job timed on the front end.
	frontEndLS leafSpine
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

// storagePorts is the switch ports the storage servers take at gbps:
// the scenario's, else the read bandwidth asked, non-blocking.
func (c *clusterSizer) storagePorts(gbps int) int {
	if c.r.StorageServerPorts > 0 {
		return c.r.StorageServerPorts
	}
	gbs := float64(c.p.GPUs) * c.r.StorageGBsPerGPU
	return max(1, ceilDiv(int(gbs*8+0.5), gbps))
}

// ufmHosts is the UFM hosts: r.UFMPerFabric for each InfiniBand fabric.
func (c *clusterSizer) ufmHosts() int {
	n := 0
	if c.be && c.p.Scenario.Network.Fabric == InfiniBand {
		n += c.r.UFMPerFabric
	}
	if c.r.Storage == NetSeparate && c.r.StorageFabric == InfiniBand {
		n += c.r.UFMPerFabric
	}
	return n
}

func (c *clusterSizer) mgmtServers() int { return c.r.ManagementServers + c.ufmHosts() }

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

// storage sizes a separate storage fabric, or says where storage goes.
func (c *clusterSizer) storage() SideNetwork {
	r := c.r
	n := SideNetwork{Name: NetStorage, Kind: r.Storage, Source: r.Source}
	switch r.Storage {
	case NetNone:
		return n
	case NetConverged:
		n.PortGbps = r.FrontEndGbps
		n.Carried = c.storagePorts(r.FrontEndGbps)
		n.Notes = append(n.Notes, fmt.Sprintf("storage converged on the front end: its %s storage-server ports are on the front-end switches", textfmt.Int(n.Carried)))
		return n
	}
	sw, link := c.parts(r.StorageFabric, r.StorageGbps)
	radix := sw.Radix(r.StorageGbps)
	d, u, _ := Ratio(r.StorageOversubscription)
	nodePorts := c.nodes * r.StoragePorts
	storPorts := c.storagePorts(r.StorageGbps)
	ls := sizeLeafSpine([]portGroup{{nodePorts, d, u}, {storPorts, 1, 1}}, radix, r.StorageFabric == Ethernet)
	n.Fabric, n.PortsPerServer, n.PortGbps = r.StorageFabric, r.StoragePorts, r.StorageGbps
	n.Ports = nodePorts + storPorts
	n.Leaves, n.Spines, n.Switches, n.Switch = ls.leaves, ls.spines+ls.cores, ls.leaves+ls.spines+ls.cores, sw.Key
	n.Links = n.Ports + ls.uplinks + ls.isl + ls.coreLinks
	b := sideBill{s: &c.p.Scenario}
	b.sw(sw, n.Switches)
	b.links(link, n.Links)
	b.nics(c.cat, r.NICsIncluded, c.nodes, r.StoragePorts, r.StorageGbps)
	b.fill(&n)
	n.Notes = append(n.Notes, fmt.Sprintf("%s storage-server ports at %dG (storage servers not priced)", textfmt.Int(storPorts), r.StorageGbps))
	return n
}

// frontEnd sizes the front end with the OOB switches' uplinks and the
// storage it carries.
func (c *clusterSizer) frontEnd(oobSwitches int, storage SideNetwork) (SideNetwork, leafSpine) {
	r := c.r
	n := SideNetwork{Name: NetFrontEnd, Kind: r.FrontEnd, Source: r.Source}
	if r.FrontEnd == NetNone {
		return n, leafSpine{}
	}
	g := r.FrontEndGbps
	sw, link := c.parts(Ethernet, g)
	radix := sw.Radix(g)
	d, u, _ := Ratio(r.FrontEndOversubscription)
	nodePorts := c.nodes * r.FrontEndPorts
	other := c.mgmtServers() + oobSwitches*oobUplinks
	other += storage.Carried
	ls := sizeLeafSpine([]portGroup{{nodePorts + other, d, u}}, radix, true)
	n.Fabric, n.PortsPerServer, n.PortGbps = Ethernet, r.FrontEndPorts, g
	n.Ports = nodePorts + other
	n.Leaves, n.Spines, n.Switches, n.Switch = ls.leaves, ls.spines+ls.cores, ls.leaves+ls.spines+ls.cores, sw.Key
	n.Links = n.Ports + ls.uplinks + ls.isl + ls.coreLinks
	b := sideBill{s: &c.p.Scenario}
	b.sw(sw, n.Switches)
	b.links(link, n.Links)
	b.nics(c.cat, r.NICsIncluded, c.nodes, r.FrontEndPorts, g)
	b.fill(&n)
	return n, ls
}

// networkRacks is the racks the switches outside the compute racks and
// the management servers fill (0 without a devices-per-rack figure).
func (c *clusterSizer) networkRacks(otherSwitches, oobSwitches int) int {
	if c.r.NetworkRackDevices <= 0 {
		return 0
	}
	devices := otherSwitches + max(0, oobSwitches-c.racks*c.r.RackOOBSwitches) + c.mgmtServers()
	return ceilDiv(devices, c.r.NetworkRackDevices)
}

// oob sizes the out-of-band network: a 1G port for every server BMC, rack
// device (PDUs, NVLink trays, power shelves), management server, the
// management port of every other switch, the network racks' PDUs and a
// back-to-back link for each pair of UFM hosts (RA-11333-001 Table 8).
// oobSwitches is the OOB switches of the previous round (they stand in
// network racks too).
func (c *clusterSizer) oob(otherSwitches, oobSwitches int) SideNetwork {
	r := c.r
	n := SideNetwork{Name: NetOOB, Kind: r.OOB, Source: r.Source}
	if r.OOB == NetNone {
		return n
	}
	sw, link := c.parts(Ethernet, oobGbps)
	radix := sw.Radix(oobGbps)
	ports := c.nodes*r.OOBPortsPerNode + c.racks*(r.RackOOBPorts+r.PDUsPerRack) + c.mgmtServers() + otherSwitches +
		c.networkRacks(otherSwitches, oobSwitches)*r.NetworkRackPDUs + c.ufmHosts()/2
	switches := ceilDiv(ports, radix)
	switches += switches % 2
	switches = max(switches, c.racks*r.RackOOBSwitches)
	n.Fabric, n.PortsPerServer, n.PortGbps = Ethernet, r.OOBPortsPerNode, oobGbps
	n.Ports, n.Leaves, n.Switches, n.Switch, n.Links = ports, switches, switches, sw.Key, ports
	b := sideBill{s: &c.p.Scenario}
	b.sw(sw, switches)
	b.links(link, ports)
	b.fill(&n)
	return n
}

// mgmt is the management servers as a line of the list.
func (c *clusterSizer) mgmt() SideNetwork {
	n := SideNetwork{Name: NetMgmt, Kind: "servers", Source: c.r.Source}
	k := c.mgmtServers()
	if sv := c.cat.SideServers[mgmtServerKey]; sv != nil && k > 0 {
		b := sideBill{s: &c.p.Scenario}
		b.add(sv.Key, k, sv.PriceUSD, sv.PriceRangeUSD, sv.Watts)
		b.fill(&n)
	}
	n.Notes = append(n.Notes, fmt.Sprintf("%s: %d head and control nodes, %d UFM hosts", textfmt.Plural(k, "management server"), c.r.ManagementServers, c.ufmHosts()))
	return n
}

// size sizes every network; the front end and the OOB network depend on
// each other (OOB uplinks on the front end, front-end switches on the
// OOB), so they are sized until the counts settle.
func (c *clusterSizer) size() []SideNetwork {
	be := c.backEnd()
	st := c.storage()
	oobSw := 0
	var fe SideNetwork
	var oob SideNetwork
	converged := false
	for range 4 {
		fe, c.frontEndLS = c.frontEnd(oobSw, st)
		oob = c.oob(be.Switches+st.Switches+fe.Switches, oobSw)
		if converged = oob.Switches == oobSw; converged {
			break
		}
		oobSw = oob.Switches
	}
	if !converged { // the front end as the final out-of-band network leaves it
		_, c.frontEndLS = c.frontEnd(oob.Switches, st)
	}
	return []SideNetwork{be, fe, st, oob, c.mgmt()}
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
	r := p.Scenario.resolveNetworks(cat)
	c := clusterSizer{p: p, cat: cat, r: r, nodes: p.Servers, racks: ceilDiv(p.Servers, r.NodesPerRack), be: true}
	with := c.size()
	n := &Networks{List: with, Total: sumNetworks(with), Racks: c.racks, Source: r.Source, defaults: r, frontEndLS: c.frontEndLS}
	c.be = false
	n.WithoutBackEnd = sumNetworks(c.size())
	n.BackEndAdds = n.Total.minus(n.WithoutBackEnd)
	return n
}
