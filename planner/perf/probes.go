package perf

// Probes of single collectives on set-ups the published benchmarks used,
// for the validation table (data/validation.toml).

// AllReduceProbe is an all-reduce measured on a two-tier, non-blocking,
// adaptive fabric: ranks spaced stride GPUs apart (0 is 1), of bytes
// each (0 is 1 GiB), on servers of GPUsPerServer GPUs and NICsPerServer
// NICs of NICGbps, with a forced algorithm ("" picks the fastest) and
// NVLink SHARP disabled when NVLSOff.
type AllReduceProbe struct {
	GPU                          *GPUSpec
	Transport                    Transport
	GPUsPerServer, NICsPerServer int
	NICGbps                      float64
	Fabric                       Fabric
	Algorithm                    string
	NVLSOff                      bool
	NVLinkDomain                 int
	Ranks, Stride                int
	Bytes                        float64
}

// AllReduceBusBW is the probe's bus bandwidth, GB/s.
func AllReduceBusBW(d *JCTData, p AllReduceProbe) float64 {
	v := validationView(p.GPUsPerServer, p.NICsPerServer, p.NICGbps, p.Fabric)
	v.algorithm, v.nvlinkDomain, v.crossEff, v.noNVLS = p.Algorithm, p.NVLinkDomain, d.Crossing.Efficiency, p.NVLSOff
	v.setJobSize(p.Ranks*max(p.Stride, 1), p.NICsPerServer)
	m := newNetModel(v, p.GPU, d, p.Transport)
	bytes := p.Bytes
	if bytes == 0 {
		bytes = 1 << 30
	}
	g := m.group(p.Ranks, max(p.Stride, 1))
	return arFactor(p.Ranks) * bytes / m.allReduce(bytes, &g).time / 1e9
}

// AllToAllBusBW is the RDMA bandwidth of a 1 GiB all-to-all over ep
// H100s in eight-GPU servers on 400G InfiniBand: the bytes leaving each
// GPU's NVLink domain over the time, GB/s.
func AllToAllBusBW(d *JCTData, ep int) float64 {
	m := newNetModel(validationView(8, 8, 400, InfiniBand), d.GPUs["h100"], d, RDMA)
	g := m.allToAllGroup(ep, 1)
	const bytes = 1 << 30
	remote := float64(ep-g.perNode) / float64(ep) * bytes
	return remote / m.allToAll(bytes, &g).time / 1e9
}

// AllToAllLatencyUS is the time of an all-to-all of bytes per GPU over
// ep H100s in eight-GPU servers on 400G InfiniBand, microseconds.
func AllToAllLatencyUS(d *JCTData, ep int, bytes float64) float64 {
	m := newNetModel(validationView(8, 8, 400, InfiniBand), d.GPUs["h100"], d, RDMA)
	g := m.allToAllGroup(ep, 1)
	return m.allToAll(bytes, &g).time / us
}

// validationView is a two-tier, non-blocking, adaptive fabric of servers
// with gpusPerServer GPUs and nics NICs of gbps each.
func validationView(gpusPerServer, nics int, gbps float64, f Fabric) fabricView {
	return fabricView{gpusPerServer: gpusPerServer, nicsPerServer: nics, nicGbps: gbps, fabric: f,
		oversub: 1, spineRatio: 1, serversPerUnit: 32, tiers: 2, jobs: 1, qps: 1, maxActiveQueuePairs: 1, stages: 1, channels: 1, jobUplinks: 1}
}

// CrossAllReduceBusBW is the bus bandwidth of a 1 GiB data-parallel
// all-reduce over a packed job of eight-GPU servers (ranks of them,
// 1,024 when 0) in leaf groups of 32, on 400G RoCE at 1:1, statically
// routed or not, with qps queue pairs per connection.
func CrossAllReduceBusBW(d *JCTData, static bool, qps float64, servers int) float64 {
	if servers <= 0 {
		servers = 1024
	}
	fv := validationView(8, 8, 400, Ethernet)
	fv.static, fv.qps, fv.maxActiveQueuePairs, fv.stages, fv.channels = static, qps, d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
	fv.crossEff, fv.polarization = d.Crossing.Efficiency, d.ECMP.Polarization
	fv.setJobSize(8*servers, 8)
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	g := m.group(servers, 8)
	return arFactor(servers) * (1 << 30) / m.allReduce(1<<30, &g).time / 1e9
}

// RoutingProbe is an all-reduce over Ranks GPUs packed on servers of
// GPUsPerServer GPUs and NICsPerServer NICs of NICGbps in an NVLink
// domain of NVLinkDomain, with QueuePairs per connection (0 is 1), of
// Bytes (0 is 1 GiB), on a two-tier non-blocking fabric.
type RoutingProbe struct {
	GPU                          *GPUSpec
	GPUsPerServer, NICsPerServer int
	NICGbps                      float64
	Fabric                       Fabric
	NVLinkDomain, Ranks          int
	QueuePairs, Bytes            float64
}

// RoutingGain is the probe's bus bandwidth with adaptive routing over
// its bandwidth with static routing.
func RoutingGain(d *JCTData, p RoutingProbe) float64 {
	bytes := p.Bytes
	if bytes == 0 {
		bytes = 1 << 30
	}
	busbw := func(static bool) float64 {
		fv := validationView(p.GPUsPerServer, p.NICsPerServer, p.NICGbps, p.Fabric)
		fv.nvlinkDomain, fv.static, fv.qps = p.NVLinkDomain, static, max(p.QueuePairs, 1)
		fv.maxActiveQueuePairs, fv.stages, fv.channels = d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.ECMP.ChannelsPerPeer
		fv.crossEff, fv.polarization = d.Crossing.Efficiency, d.ECMP.Polarization
		fv.setJobSize(p.Ranks, p.NICsPerServer)
		m := newNetModel(fv, p.GPU, d, RDMA)
		g := m.group(p.Ranks, 1)
		return m.allReduce(bytes, &g).busbw
	}
	return busbw(false) / busbw(true)
}

// ColocationProbe is Jobs equal all-reduce jobs looping at once (as
// nccl-tests does: each crosses whenever the others do), each Ranks GPUs
// on servers of GPUsPerServer GPUs and NICsPerServer NICs of NICGbps,
// spread over two-tier leaves of LeafDown server ports and LeafUp uplinks
// of the ports' speed, with NCCL's Channels channels and QueuePairs per
// connection (0: the data's defaults), statically routed (ECMP) or not,
// Bytes each (0 is 1 GiB).
type ColocationProbe struct {
	GPU                          *GPUSpec
	GPUsPerServer, NICsPerServer int
	NICGbps                      float64
	Fabric                       Fabric
	LeafDown, LeafUp             int
	Jobs, Ranks, Channels        int
	QueuePairs, Bytes            float64
	Static                       bool
}

// ColocatedAllReduceBusBW is one job's all-reduce bus bandwidth with the
// probe's other jobs running beside it, GB/s.
func ColocatedAllReduceBusBW(d *JCTData, p ColocationProbe) float64 {
	fv := validationView(p.GPUsPerServer, p.NICsPerServer, p.NICGbps, p.Fabric)
	fv.static, fv.spread, fv.jobs, fv.othersBusy = p.Static, true, max(p.Jobs, 1), 1
	fv.leafDown, fv.leafUp = p.LeafDown, p.LeafUp
	fv.oversub = float64(p.LeafDown) / float64(max(p.LeafUp, 1))
	fv.serversPerUnit = max(1, p.LeafDown/max(p.NICsPerServer, 1))
	fv.channels, fv.qps = d.ECMP.ChannelsPerPeer, max(p.QueuePairs, 1)
	if p.Channels > 0 {
		fv.channels = float64(p.Channels)
	}
	fv.maxActiveQueuePairs, fv.stages, fv.crossEff = d.ECMP.MaxActiveQueuePairs, d.ECMP.StagesPerTier, d.Crossing.Efficiency
	fv.setJobSize(p.Ranks, p.NICsPerServer)
	m := newNetModel(fv, p.GPU, d, RDMA)
	bytes := p.Bytes
	if bytes == 0 {
		bytes = 1 << 30
	}
	g := m.group(p.Ranks, 1)
	return arFactor(p.Ranks) * bytes / m.allReduce(bytes, &g).time / 1e9
}
