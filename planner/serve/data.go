package serve

import (
	"fmt"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
)

// Data holds the inference model's constants and its published points
// (data/inference.toml).
type Data struct {
	Schema  int `toml:"schema"`
	Prefill struct {
		TokensHalf    float64 `toml:"tokens_half"`
		MoEEfficiency float64 `toml:"moe_efficiency"`
	} `toml:"prefill"`
	Decode struct {
		HBMEfficiency     float64 `toml:"hbm_efficiency"`
		ComputeEfficiency float64 `toml:"compute_efficiency"`
		EPOverlap         float64 `toml:"ep_overlap"`
		StepOverheadUS    float64 `toml:"step_overhead_us"`
		DispatchBytes     float64 `toml:"dispatch_bytes"`
		CombineBytes      float64 `toml:"combine_bytes"`
		TPAllReduceUS     float64 `toml:"tp_allreduce_us"`
	} `toml:"decode"`
	KV struct {
		AlphaUS           float64 `toml:"alpha_us"`
		TCPCapGBsPerNode  float64 `toml:"tcp_cap_gbs_per_node"`
		RDMACapGBsPerNode float64 `toml:"rdma_cap_gbs_per_node"`
	} `toml:"kv_transfer"`
	RL struct {
		SyncOverheadS   float64 `toml:"sync_overhead_s"`
		ReloadGBsPerGPU float64 `toml:"reload_gbs_per_gpu"`
		DefaultStepS    float64 `toml:"default_step_s"`
	} `toml:"rl"`
	Economics struct {
		LifeYears float64 `toml:"life_years"`
		USDPerKWh float64 `toml:"usd_per_kwh"`
		PUE       float64 `toml:"pue"`
	} `toml:"economics"`
	Points []Point `toml:"points"`
}

// Point is one published serving or weight-sync measurement; Fitted says
// a constant was chosen to meet it (the others are held out).
type Point struct {
	Name            string  `toml:"name"`
	Kind            string  `toml:"kind"`
	GPU             string  `toml:"gpu"`
	GPUsPerServer   int     `toml:"gpus_per_server"`
	NVLinkDomain    int     `toml:"nvlink_domain"`
	Model           string  `toml:"model"`
	InputTokens     int     `toml:"input_tokens"`
	OutputTokens    int     `toml:"output_tokens"`
	DecodeEP        int     `toml:"decode_ep"`
	DecodeBatch     int     `toml:"decode_batch"`
	WeightPrecision string  `toml:"weight_precision"`
	NICs            int     `toml:"nics"`
	NICGbps         float64 `toml:"nic_gbps"`
	ParamsB         float64 `toml:"params_b"`
	SyncPrecision   string  `toml:"sync_precision"`
	RolloutTP       int     `toml:"rollout_tp"`
	RolloutGPUs     int     `toml:"rollout_gpus"`
	Value           float64 `toml:"value"`
	Fitted          bool    `toml:"fitted"`
	Source          string  `toml:"source"`
}

// Point kinds.
const (
	PointPrefill = "prefill"
	PointDecode  = "decode"
	PointKVRDMA  = "kv_rdma"
	PointKVTCP   = "kv_tcp"
	PointRLSync  = "rl_sync"
)

// ParseData decodes and checks data/inference.toml: the shipped file's
// bytes come back decoded at build time, any other bytes are decoded.
//
//go:generate go test -run ^TestBuiltDocs$ . -args -write-built
func ParseData(src []byte) (*Data, error) {
	d, err := builtdoc.Decode(builtData, src, decodeData)
	if err != nil {
		return nil, err
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("inference data: %w", err)
	}
	return d, nil
}

// builtData is data/inference.toml decoded when the program was built
// (built_inference.go, rewritten by go generate); nil without that
// file, when the inference data is decoded from its TOML.
var builtData *builtdoc.Doc[Data]

// decodeData decodes an inference data document without checking its
// figures.
func decodeData(src []byte) (*Data, error) {
	var d Data
	if err := datadoc.Decode("inference data", src, &d, &d.Schema); err != nil {
		return nil, err
	}
	return &d, nil
}

// check says whether every constant is in its range.
func (d *Data) check() error {
	for _, c := range []func() error{d.checkServing, d.checkRL} {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// frac says whether v is a share in (0, 1].
func frac(v float64) bool { return v > 0 && v <= 1 }

// checkServing checks [prefill], [decode] and [kv_transfer].
func (d *Data) checkServing() error {
	p, c, k := d.Prefill, d.Decode, d.KV
	switch {
	case p.TokensHalf < 0 || !frac(p.MoEEfficiency):
		return fmt.Errorf("[prefill] needs tokens_half >= 0 and moe_efficiency in (0,1]")
	case !frac(c.HBMEfficiency) || !frac(c.ComputeEfficiency) || c.EPOverlap < 0 || c.EPOverlap >= 1:
		return fmt.Errorf("[decode] needs efficiencies in (0,1] and ep_overlap in [0,1)")
	case c.StepOverheadUS < 0 || c.DispatchBytes <= 0 || c.CombineBytes <= 0 || c.TPAllReduceUS < 0:
		return fmt.Errorf("[decode] needs positive bytes and latencies of 0 or more")
	case k.AlphaUS < 0 || k.TCPCapGBsPerNode <= 0 || k.RDMACapGBsPerNode <= 0:
		return fmt.Errorf("[kv_transfer] needs alpha_us >= 0 and positive caps")
	}
	return nil
}

// checkRL checks [rl] and [economics].
func (d *Data) checkRL() error {
	r, e := d.RL, d.Economics
	switch {
	case r.SyncOverheadS < 0 || r.ReloadGBsPerGPU <= 0 || r.DefaultStepS <= 0:
		return fmt.Errorf("[rl] needs sync_overhead_s >= 0 and positive reload_gbs_per_gpu and default_step_s")
	case e.LifeYears <= 0 || e.USDPerKWh < 0 || e.PUE < 1:
		return fmt.Errorf("[economics] needs life_years > 0, usd_per_kwh >= 0 and pue >= 1")
	}
	return nil
}
