package planner

import (
	"math"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/perf"
	"fabricplan/planner/resilience"
	"fabricplan/planner/sidenet"
)

// FrontEndJCT is the job on the front end alone: its traffic over the
// front end's NICs and links with TCP, beside RDMA on the back end. Gain
// is what the back end buys: the front-end step over the back-end step.
type FrontEndJCT struct {
	StepS        float64 `json:"step_s"`
	BackEndStepS float64 `json:"backend_step_s"`
	Gain         float64 `json:"gain"`
	// BusBWGBs is the data-parallel collective's bus bandwidth, GB/s.
	BusBWGBs float64       `json:"busbw_gbs"`
	Days     float64       `json:"days"`
	Label    string        `json:"label"`
	Step     perf.StepTime `json:"-"`
}

// Checkpoint is the checkpoint write time the storage path allows: the
// model state (weights and optimizer) written at the smaller of the
// network's bandwidth to the storage and the storage's own write
// bandwidth ([storage] write_gbs, else the system's default: its read
// bandwidth per GPU times its write share, at most its ceiling).
type Checkpoint struct {
	StateGB      float64 `json:"state_gb"`
	BandwidthGBs float64 `json:"bandwidth_gbs"`
	// NetworkGBs is the network path's bandwidth and StorageGBs the
	// storage's write bandwidth (0: unbounded); BoundBy says which of
	// them BandwidthGBs is (BoundNetwork or BoundStorage).
	NetworkGBs float64 `json:"network_gbs"`
	StorageGBs float64 `json:"storage_write_gbs"`
	BoundBy    string  `json:"bound_by"`
	WriteS     float64 `json:"write_s"`
	// Used says the resilience model takes WriteS (the scenario sets no
	// reliability.checkpoint_write_s).
	Used bool   `json:"used"`
	Via  string `json:"via"` // the network the checkpoint crosses
}

// frontEndLabel names the front-end baseline wherever it is shown.
const frontEndLabel = "the job on the front end alone (TCP over its NICs and links), beside RDMA on the back end"

// networksJCT times the job on the front end alone and derives the
// checkpoint write time from the storage path; it returns the reliability
// data the resilience model should use (rel with the derived write time
// when the scenario sets none).
func (p *Plan) networksJCT(cat *Catalog) *resilience.Reliability {
	rel := cat.Reliability
	n, j, d := p.Networks, p.JCT, cat.JCT
	if n == nil || j == nil || d == nil {
		return rel
	}
	r := n.defaults
	fe := n.Net(NetFrontEnd)
	if fe != nil && fe.Kind == NetSeparate {
		st := p.frontEndStep(d, r, n.frontEndLS)
		n.FrontEndJCT = &FrontEndJCT{StepS: st.StepS, BackEndStepS: j.Planned.StepS, Gain: st.StepS / j.Planned.StepS,
			BusBWGBs: st.BusBWGBs, Days: st.Days, Label: frontEndLabel, Step: st}
	}
	n.Checkpoint = p.checkpoint(d, r, n.Net(NetStorage))
	return p.withCheckpoint(rel, n.Checkpoint)
}

// frontEndStep times the plan's job on its front end (r, ls) over TCP.
func (p *Plan) frontEndStep(d *perf.JCTData, r SideDefaults, ls sidenet.LeafSpine) perf.StepTime {
	j := p.JCT
	return perf.TimeStep(j.Workload, j.GPU, d, p.jobView(j.Workload, d).OnFrontEnd(frontEndOf(r, ls)), j.DP, j.Microbatches, perf.TCP)
}

// storageCheckpoint is networksJCT's reliability data for a build that
// does not size the networks: the checkpoint write time from the storage
// network alone.
func (p *Plan) storageCheckpoint(cat *Catalog) *resilience.Reliability {
	rel, d := cat.Reliability, cat.JCT
	if len(cat.SideDefaults) == 0 || p.JCT == nil || d == nil {
		return rel
	}
	r := p.Scenario.resolveNetworks(cat)
	c := clusterSizer{p: p, cat: cat, r: r, nodes: p.Servers, racks: ceilDiv(p.Servers, r.NodesPerRack), be: true}
	st := c.storage(sidenet.SizeStorage(c.inputs()))
	return p.withCheckpoint(rel, p.checkpoint(d, r, &st))
}

// withCheckpoint is rel with the write time of cp, when the scenario sets
// none (cp is then marked used and a note says so).
func (p *Plan) withCheckpoint(rel *resilience.Reliability, cp *Checkpoint) *resilience.Reliability {
	if cp == nil || rel == nil {
		return rel
	}
	if s := p.Scenario.Reliability; s == nil || s.CheckpointWriteS == nil {
		cp.Used = true
		out := *rel
		out.Recovery.CheckpointWriteS = cp.WriteS
		p.Notes = append(p.Notes, checkpointNote(cp))
		return &out
	}
	return rel
}

// checkpointNote says where the derived checkpoint write time came from,
// written into one buffer.
func checkpointNote(cp *Checkpoint) string {
	b := make([]byte, 0, 256)
	b = append(b, "checkpoint write "...)
	b = textfmt.AppendInterval(b, cp.WriteS) // as every view writes it
	b = append(b, ": derived from the "...)
	b = append(b, cp.limit()...)
	b = append(b, " bandwidth ("...)
	b = textfmt.AppendInt(b, int(math.Round(cp.BandwidthGBs))) // "2,000", as every figure is grouped
	b = append(b, " GB/s for "...)
	b = textfmt.AppendInt(b, int(math.Round(cp.StateGB)))
	b = append(b, " GB of model state); set reliability.checkpoint_write_s to override"...)
	return string(b)
}

// limit names what bounds the checkpoint write: the network it crosses
// ("storage network"), or "storage's write" when the storage's own
// bandwidth is the smaller.
func (cp *Checkpoint) limit() string {
	if cp.BoundBy == BoundStorage {
		return "storage's write"
	}
	return cp.Via
}

// CheckpointSource says where the resilience model's checkpoint write
// time came from: " (derived from the storage network)" or " (derived
// from the storage's write bandwidth)" when the plan derived it, ""
// when it is the scenario's or data/reliability.toml's.
func (p *Plan) CheckpointSource() string {
	if n := p.Networks; n != nil && n.Checkpoint != nil && n.Checkpoint.Used {
		if n.Checkpoint.BoundBy == BoundStorage {
			return " (derived from the storage's write bandwidth)"
		}
		return " (derived from the " + n.Checkpoint.Via + ")"
	}
	return ""
}

// frontEndOf is the JCT model's view of the front end r, ls: its ports
// per server at its speed, its leaf ratio and tiers (the job is placed
// as on the back end, on hashed (ECMP) Ethernet: perf.View.OnFrontEnd).
func frontEndOf(r SideDefaults, ls sidenet.LeafSpine) perf.FrontEnd {
	return perf.FrontEnd{Ports: r.FrontEndPorts, Gbps: r.FrontEndGbps, Down: ls.Down, Up: ls.Up, Spines: ls.Spines, Cores: ls.Cores}
}

// checkpoint is the write time of the model state over the storage path
// st (the storage network as sized) into the storage: the smallest of the
// servers' storage ports and the storage servers' ports, at the fabric's
// RDMA efficiency, and the storage's write bandwidth (storageWriteGBs).
func (p *Plan) checkpoint(d *perf.JCTData, r SideDefaults, st *SideNetwork) *Checkpoint {
	if st == nil || st.Kind == NetNone || p.JCT == nil {
		return nil
	}
	cp := &Checkpoint{Via: "storage network"}
	eff := d.Efficiency.RoCEAdaptive
	nodeGbps := float64(p.Servers * r.StoragePorts * r.StorageGbps)
	serverGbps := float64(st.Ports-p.Servers*r.StoragePorts) * float64(r.StorageGbps)
	if st.Kind == NetConverged {
		cp.Via = "front end (storage converged)"
		nodeGbps = float64(p.Servers * r.FrontEndPorts * r.FrontEndGbps)
		serverGbps = float64(st.Carried * r.FrontEndGbps)
	} else if r.StorageFabric == InfiniBand {
		eff = d.Efficiency.InfiniBand
	}
	w := p.JCT.Workload
	cp.StateGB = w.ParamsB * (d.Memory.WeightBytes + d.Memory.OptimizerBytes)
	cp.NetworkGBs = min(nodeGbps, serverGbps) / 8 * eff
	cp.StorageGBs = p.Scenario.storageWriteGBs(r, p.GPUs)
	cp.BandwidthGBs, cp.BoundBy = cp.NetworkGBs, BoundNetwork
	if cp.StorageGBs > 0 && cp.StorageGBs < cp.NetworkGBs {
		cp.BandwidthGBs, cp.BoundBy = cp.StorageGBs, BoundStorage
	}
	if cp.BandwidthGBs <= 0 {
		return nil
	}
	cp.WriteS = cp.StateGB / cp.BandwidthGBs
	return cp
}
