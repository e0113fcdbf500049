package serve

import (
	"fmt"
	"math"

	"fabricplan/planner/perf"
)

// Checked is one published point beside the model's figure.
type Checked struct {
	Point
	Model float64
	// Err is (model - published) / published.
	Err float64
}

// CheckPoints runs the model on every published point of d.
func CheckPoints(d *Data, jd *perf.JCTData) ([]Checked, error) {
	out := make([]Checked, 0, len(d.Points))
	for _, p := range d.Points {
		v, err := p.model(d, jd)
		if err != nil {
			return nil, fmt.Errorf("point %q: %w", p.Name, err)
		}
		out = append(out, Checked{Point: p, Model: v, Err: (v - p.Value) / p.Value})
	}
	return out, nil
}

// HeldOutError is the mean absolute relative error of the held-out
// points of kinds (every kind when none), and how many there are.
func HeldOutError(cs []Checked, kinds ...string) (float64, int) {
	sum, n := 0.0, 0
	for _, c := range cs {
		if c.Fitted || (len(kinds) > 0 && !oneOfList(c.Kind, kinds)) {
			continue
		}
		sum += math.Abs(c.Err)
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// oneOfList says whether v is in list.
func oneOfList(v string, list []string) bool {
	for _, x := range list {
		if v == x {
			return true
		}
	}
	return false
}

// model is the model's figure for p.
func (p Point) model(d *Data, jd *perf.JCTData) (float64, error) {
	c := &Cluster{Net: perf.Network{GPUs: max(p.RolloutGPUs, 1<<10), GPUsPerServer: p.GPUsPerServer, NICsPerServer: p.NICs,
		NICGbps: p.NICGbps, Fabric: perf.InfiniBand, Oversub: 1}, NVLinkDomain: max(p.NVLinkDomain, p.GPUsPerServer)}
	if p.GPU != "" {
		if c.GPU = jd.GPUs[p.GPU]; c.GPU == nil {
			return 0, fmt.Errorf("unknown gpu %q", p.GPU)
		}
	}
	switch p.Kind {
	case PointKVRDMA, PointKVTCP:
		c.Net.Fabric = perf.Ethernet // Mooncake's benchmarks ran on RoCE
		via := RDMA
		if p.Kind == PointKVTCP {
			via = TCP
		}
		e := estimator{in: Inference{PrefillTP: p.GPUsPerServer}, c: c, jd: jd, d: d}
		gbs, _, _ := e.kvGBs(via)
		return gbs, nil
	case PointRLSync:
		r := RL{RolloutGPUs: p.RolloutGPUs, TrainerGPUs: p.RolloutGPUs, RolloutTP: p.RolloutTP, SyncPrecision: p.SyncPrecision}
		return EstimateRL(r, p.ParamsB, c, jd, d).WeightSyncS, nil
	case PointPrefill, PointDecode:
		m := ResolveModel(perf.Workload{Model: p.Model}, jd)
		in := Inference{InputTokens: p.InputTokens, OutputTokens: max(p.OutputTokens, 1), WeightPrecision: p.WeightPrecision,
			KVLatent: mlaLatent(p.Model), DecodeEP: p.DecodeEP, DecodeBatch: max(p.DecodeBatch, 1)}
		r := Estimate(in, m, c, jd, d)
		if p.Kind == PointPrefill {
			return r.Prefill.TokensSPerGPU, nil
		}
		return r.Decode.TokensSPerGPU, nil
	}
	return 0, fmt.Errorf("unknown kind %q", p.Kind)
}

// mlaLatent is the cached latent per token and layer of the presets
// with multi-head latent attention: DeepSeek-V3's 512 + 64 (DeepSeek-V3
// Technical Report, 2024: kv_lora_rank 512, rotary head 64); 0 for the
// others.
func mlaLatent(model string) int {
	if model == "deepseek-v3" {
		return 512 + 64
	}
	return 0
}
