package serve

import (
	"fmt"
	"math"

	"fabricplan/planner/perf"
)

// RLResult is an RL weight-sync estimate, in the JSON shape `plan
// --json` prints under "rl".
type RLResult struct {
	WeightSyncS float64 `json:"weight_sync_s"`
	SyncGB      float64 `json:"sync_gb"`
	// ShareOfStep is the sync's share of the time between syncs
	// (steps_per_sync steps and the sync).
	ShareOfStep float64 `json:"share_of_step"`
	Mode        string  `json:"mode"`
	// NetworkS is the transfer over the fabric, ReloadS the rollout
	// GPUs' copy into the inference engine (the two run pipelined; the
	// longer counts) and OverheadS the fixed cost.
	NetworkS  float64 `json:"network_s"`
	ReloadS   float64 `json:"reload_s"`
	OverheadS float64 `json:"overhead_s"`
	// TCPSyncS is the same sync by TCP over the same links.
	TCPSyncS float64  `json:"tcp_weight_sync_s"`
	Findings []string `json:"findings"`
}

// EstimateRL times one weight sync of r's model (paramsB billion
// parameters) from the trainers to the rollout GPUs on cluster c:
// a fixed overhead plus the longer of the network transfer and the
// rollout GPUs' reload of their shard, pipelined.
func EstimateRL(r RL, paramsB float64, c *Cluster, jd *perf.JCTData, d *Data) *RLResult {
	r = r.withDefaults(c.Net.GPUs)
	stepNote := ""
	if r.StepS <= 0 {
		r.StepS, stepNote = d.RL.DefaultStepS, " (an estimated step: set rl.step_s)"
	}
	bytes := paramsB * gigaF * bytesPer(r.SyncPrecision)
	res := &RLResult{SyncGB: bytes / gigaF, Mode: r.SyncMode, OverheadS: d.RL.SyncOverheadS}
	shard := bytes / float64(r.RolloutTP)
	res.ReloadS = shard / (d.RL.ReloadGBsPerGPU * gigaF)
	if r.Colocated {
		res.Mode = "colocated"
		res.NetworkS = shard / (c.GPU.NVLinkGBs * gigaF * jd.Efficiency.NVLink)
	} else {
		res.NetworkS = syncNetS(r, bytes, c.gbsPerGPU(jd)/c.crossDerate(r.TrainerGPUs+r.RolloutGPUs))
	}
	res.WeightSyncS = res.OverheadS + math.Max(res.NetworkS, res.ReloadS)
	if !r.Colocated {
		n := c.Net
		tcp := math.Min(n.NICGbps/bitsPerByte*jd.TCP.LineRateFraction, jd.TCP.CapGBsPerNIC) * float64(n.NICsPerServer) / float64(max(n.GPUsPerServer, 1))
		res.TCPSyncS = res.OverheadS + math.Max(syncNetS(r, bytes, tcp), res.ReloadS)
	}
	between := float64(r.StepsPerSync) * r.StepS
	res.ShareOfStep = res.WeightSyncS / (between + res.WeightSyncS)
	rlFindings(res, stepNote)
	return res
}

// syncNetS is the network time of one sync of bytes at gbs per GPU:
// each rollout GPU receives its shard (a pipelined broadcast runs at
// that rate); a scatter also has the trainers send one copy per rollout
// instance.
func syncNetS(r RL, bytes, gbs float64) float64 {
	recv := bytes / float64(r.RolloutTP) / (gbs * gigaF)
	if r.SyncMode != SyncScatter {
		return recv
	}
	instances := float64(max(r.RolloutGPUs/r.RolloutTP, 1))
	send := instances * bytes / (float64(r.TrainerGPUs) * gbs * gigaF)
	return math.Max(recv, send)
}

// withDefaults fills r's zero fields: pools half the cluster each, TP 8,
// broadcast in BF16 every step.
func (r RL) withDefaults(gpus int) RL {
	if r.SyncMode == "" {
		r.SyncMode = SyncBroadcast
	}
	if r.RolloutTP <= 0 {
		r.RolloutTP = min(defaultTP, max(gpus, 1))
	}
	if r.StepsPerSync <= 0 {
		r.StepsPerSync = 1
	}
	if r.TrainerGPUs <= 0 && r.RolloutGPUs <= 0 {
		r.TrainerGPUs = max(gpus/2, 1)
		r.RolloutGPUs = max(gpus-r.TrainerGPUs, 1)
	}
	if sum := r.TrainerGPUs + r.RolloutGPUs; sum > gpus && gpus > 0 { // a sweep or a phase at fewer GPUs
		r.TrainerGPUs = r.TrainerGPUs * gpus / sum
		r.RolloutGPUs = gpus - r.TrainerGPUs
	}
	r.TrainerGPUs, r.RolloutGPUs = max(r.TrainerGPUs, 1), max(r.RolloutGPUs, 1)
	return r
}

// rlFindings says what bounds the sync and what the back end buys.
func rlFindings(res *RLResult, stepNote string) {
	add := func(format string, args ...any) { res.Findings = append(res.Findings, fmt.Sprintf(format, args...)) }
	bound := "the network"
	if res.ReloadS >= res.NetworkS {
		bound = "the rollout GPUs' reload from host memory"
	}
	add("a %s weight sync of %.0f GB takes %.1f s, bound by %s; %.0f%% of the time between syncs%s",
		res.Mode, res.SyncGB, res.WeightSyncS, bound, 100*res.ShareOfStep, stepNote)
	if res.TCPSyncS > 0 {
		add("by TCP over the same links it would take %.1f s", res.TCPSyncS)
	}
}
