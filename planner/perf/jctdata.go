package perf

import (
	"fmt"

	"fabricplan/internal/builtdoc"

	"github.com/BurntSushi/toml"
)

// JCTData holds the JCT model's constants and presets (data/jct.toml).
type JCTData struct {
	Schema     int `toml:"schema"`
	Collective struct {
		BaseLatencyUS   float64              `toml:"base_latency_us"`
		NVLinkHopUS     float64              `toml:"nvlink_hop_us"`
		NetHopUS        float64              `toml:"net_hop_us"`
		TreeBWFactor    float64              `toml:"tree_bw_factor"`
		AllToAllPeerUS  float64              `toml:"alltoall_peer_us"`
		Protocols       map[string]*Protocol `toml:"protocols"`
		SwitchHopUS     map[string]float64   `toml:"switch_hop_us"`
		GradBytes       float64              `toml:"grad_bytes"`
		ParamBytes      float64              `toml:"param_bytes"`
		ActivationBytes float64              `toml:"activation_bytes"`
	} `toml:"collective"`
	Efficiency struct {
		InfiniBand   float64 `toml:"infiniband"`
		RoCEAdaptive float64 `toml:"roce_adaptive"`
		NVLink       float64 `toml:"nvlink"`
	} `toml:"efficiency"`
	TCP struct {
		LineRateFraction float64 `toml:"line_rate_fraction"`
		CapGBsPerNIC     float64 `toml:"cap_gbs_per_nic"`
		ExtraLatencyUS   float64 `toml:"extra_latency_us"`
	} `toml:"tcp"`
	ECMP struct {
		QueuePairs float64 `toml:"qps_per_connection"`
		// MaxActiveQueuePairs is the queue pairs of one connection carrying
		// data at once; more add no flows.
		MaxActiveQueuePairs float64 `toml:"max_active_qps"`
		// ChannelsPerPeer is NCCL's connections to each network peer.
		ChannelsPerPeer float64 `toml:"channels_per_peer"`
		// StagesPerTier is the hashed links a flow meets per tier it
		// crosses (up at the leaf, down at the spine).
		StagesPerTier float64 `toml:"stages_per_tier"`
		// Polarization is the share of a second hashed stage's links
		// its flows cannot reach because the first stage's hash
		// already fixed them (polarizedLinks).
		Polarization float64 `toml:"polarization"`
	} `toml:"ecmp"`
	Crossing  CrossingConstants  `toml:"crossing"`
	InNetwork InNetworkConstants `toml:"in_network"`
	RackScale struct {
		// NetChannels is the NICs of a rack-scale NVLink domain one
		// collective leaving it uses (NCCL channels crossing).
		NetChannels float64 `toml:"net_channels"`
	} `toml:"rack_scale"`
	Overlap struct {
		DP, PP, TP, EP, CP float64
		// BackwardPerForward is a backward pass's compute over the
		// forward's: it sizes the window the gradient reduce can hide
		// behind (overlapwindow.go).
		BackwardPerForward float64 `toml:"backward_per_forward"`
	} `toml:"overlap"`
	Compute struct {
		GEMMDimHalf      float64 `toml:"gemm_dim_half"`
		ElementwiseBytes float64 `toml:"elementwise_bytes"`
		// LowPrecisionCeiling is the share of a GPU's BF16 GEMM ceiling
		// (efficiency_max) its FP8 and FP4 GEMMs reach.
		LowPrecisionCeiling float64 `toml:"low_precision_ceiling"`
	} `toml:"compute"`
	// MoE holds the constants of a mixture-of-experts layer's parts
	// (compute.go moeLayer).
	MoE struct {
		// GroupedGEMMUS is the cost of one expert's GEMM that does not
		// shrink with its tokens on a stack that runs one GEMM per
		// expert, per product and pass, in microseconds.
		GroupedGEMMUS float64 `toml:"grouped_gemm_us"`
		// KernelLaunchUS is the cost of one kernel launch, charged once
		// per product and pass on a stack that runs a GPU's experts as
		// one grouped kernel, in microseconds (moeFixedSeconds).
		KernelLaunchUS float64 `toml:"kernel_launch_us"`
		// GroupedGEMMTokens are tokens per expert (a grouped GEMM's M),
		// rising, and GroupedGEMMEfficiency the grouped GEMM's
		// efficiency at each, as a fraction of a dense GEMM of the same
		// N x K at M = groupedRefTokens (groupedEfficiency).
		GroupedGEMMTokens     []float64 `toml:"grouped_gemm_tokens"`
		GroupedGEMMEfficiency []float64 `toml:"grouped_gemm_efficiency"`
		// CastReadBytes are the bytes read per element cast to FP8 or
		// FP4 (its BF16 source) and CastCopies the cast copies written
		// (quantizeSeconds).
		CastReadBytes float64 `toml:"cast_read_bytes"`
		CastCopies    float64 `toml:"cast_copies"`
	} `toml:"moe"`
	Memory MemoryConstants `toml:"memory"`
	// protocols are Collective.Protocols in protocolKeys' order.
	protocols []*Protocol
	// switchHops are Collective.SwitchHopUS of InfiniBand and Ethernet,
	// read once per step timed.
	switchHops [2]float64
	GPUs       map[string]*GPUSpec   `toml:"gpus"`
	Models     map[string]*ModelSpec `toml:"models"`
	// Frameworks are the training stacks a workload may name, and
	// Kernels the kernel classes they run (framework.go).
	Frameworks map[string]*FrameworkSpec `toml:"frameworks"`
	Kernels    map[string]*KernelClass   `toml:"kernels"`
}

// MemoryConstants are the memory model's bytes per parameter and per
// activation element (data/jct.toml [memory]).
type MemoryConstants struct {
	WeightBytes    float64 `toml:"weight_bytes"`
	GradBytes      float64 `toml:"grad_bytes"`
	OptimizerBytes float64 `toml:"optimizer_bytes"`
	// Activations of one layer in bytes per s·b·h/tp element.
	AttentionActivation float64 `toml:"attention_activation"`
	MLPActivation       float64 `toml:"mlp_activation"`
	RecomputeActivation float64 `toml:"recompute_activation"`
	// KVActivation is the share of AttentionActivation that is K and V:
	// grouped-query attention keeps kv_heads/heads of it.
	KVActivation float64 `toml:"kv_activation"`
	// TightMargin is the fraction over HBM a layout may need and still be
	// called tight rather than infeasible.
	TightMargin float64 `toml:"tight_margin"`
	LogitBytes  float64 `toml:"logit_bytes"`
	ReserveGB   float64 `toml:"reserve_gb"`
}

// GPUSpec is one GPU preset.
type GPUSpec struct {
	Key           string  `toml:"-"`
	Name          string  `toml:"name"`
	PeakTFLOPS    float64 `toml:"peak_tflops"` // dense BF16
	FP8TFLOPS     float64 `toml:"fp8_tflops"`  // dense FP8; 0: no FP8 tensor cores
	FP4TFLOPS     float64 `toml:"fp4_tflops"`  // dense FP4; 0: none
	MXFP8         bool    `toml:"mxfp8"`       // block-scaled FP8 (Blackwell)
	NVLinkDomain  int     `toml:"nvlink_domain"`
	NVLinkGBs     float64 `toml:"nvlink_gbs"`
	EfficiencyMax float64 `toml:"efficiency_max"`
	// ElementwiseBytes overrides [compute] elementwise_bytes for this GPU
	// (the software its published runs used fuses more); 0 keeps it.
	ElementwiseBytes float64 `toml:"elementwise_bytes"`
	HBMGB            float64 `toml:"hbm_gb"`  // memory per GPU, GB
	HBMTBs           float64 `toml:"hbm_tbs"` // memory bandwidth, TB/s
	// NVLSEfficiency is NCCL's NVLink SHARP efficiency for the GPU's
	// NVSwitch generation; 0: no NVLink SHARP.
	NVLSEfficiency float64 `toml:"nvls_efficiency"`
	// NVLSTreeChannelGBs is NCCL's NVLS tree ceiling per channel for the
	// generation, on 2 nodes and on more (GB/s, NCCL's graph units).
	NVLSTreeChannelGBs [2]float64 `toml:"nvls_tree_channel_gbs"`
	// PowerW is the GPU's power cap (board power), W, and BoostMHz its
	// boost clock, where the part's entry gives them (0: not given).
	// Shown with the part; its peaks already hold their effect.
	PowerW float64 `toml:"power_w"`
	// VariantOf is the GPU this part is a variant of (another memory,
	// power cap or NVLink in the same server): a workload that names
	// it is timed on it in that GPU's systems (planner.JobGPU).
	VariantOf string  `toml:"variant_of"`
	BoostMHz  float64 `toml:"boost_mhz"`
	// EfficiencyUnvalidated, where the entry gives it, says that no
	// published training run checks the GPU's efficiency_max (taken from
	// another GPU): the estimate's findings carry it, whole (issue #47,
	// buyer finding 12). Empty for a GPU the validation checks.
	EfficiencyUnvalidated string `toml:"efficiency_unvalidated"`
	Source                string `toml:"source"`
}

// ModelSpec is one model preset.
type ModelSpec struct {
	Key           string  `toml:"-"`
	Name          string  `toml:"name"`
	ParamsB       float64 `toml:"params_b"`
	ActiveParamsB float64 `toml:"active_params_b"`
	Layers        int     `toml:"layers"`
	Hidden        int     `toml:"hidden"`
	SeqLen        int     `toml:"seq_len"`
	Vocab         int     `toml:"vocab"`
	Experts       int     `toml:"experts"`
	TopK          int     `toml:"top_k"`
	Heads         int     `toml:"heads"`
	KVHeads       int     `toml:"kv_heads"`
	RouteNodes    int     `toml:"route_nodes"`
	Source        string  `toml:"source"`
}

// builtJCTData is data/jct.toml decoded when the program was built
// (built_jctdata.go, rewritten by go generate); nil without that file,
// when the JCT data is decoded from its TOML.
var builtJCTData *builtdoc.Doc[JCTData]

// ParseJCTData decodes and checks data/jct.toml: the shipped file's
// bytes come back decoded at build time, any other bytes are decoded.
//
//go:generate go test -run ^TestBuiltDocs$ . -args -write-built
func ParseJCTData(src []byte) (*JCTData, error) {
	d, err := builtdoc.Decode(builtJCTData, src, decodeJCTData)
	if err != nil {
		return nil, err
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	return d, nil
}

// decodeJCTData decodes a JCT data document without checking its
// figures.
func decodeJCTData(src []byte) (*JCTData, error) {
	var d JCTData
	md, err := toml.Decode(string(src), &d)
	if err != nil {
		return nil, fmt.Errorf("jct data: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("jct data: unknown key %q", und[0].String())
	}
	if d.Schema != 1 {
		return nil, fmt.Errorf("jct data: schema %d, want 1", d.Schema)
	}
	return &d, nil
}

// check runs the checks of every table of the JCT data, in file order,
// and returns the first problem.
func (d *JCTData) check() error {
	for _, c := range []func() error{d.checkGPUs, d.checkModels, d.checkMemory, d.checkCollective, d.checkRuntime, d.checkOverlap, d.checkFrameworks} {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// checkGPUs keys the [gpus] entries and checks their figures.
func (d *JCTData) checkGPUs() error {
	for k, g := range d.GPUs {
		g.Key = k
		if g.FP8TFLOPS < 0 || g.FP4TFLOPS < 0 || (g.MXFP8 && g.FP8TFLOPS == 0) {
			return fmt.Errorf("jct data: gpu %s: fp8_tflops and fp4_tflops must be 0 or more, and mxfp8 needs fp8_tflops", k)
		}
		if g.PeakTFLOPS <= 0 || g.NVLinkDomain < 1 || g.NVLinkGBs <= 0 || g.EfficiencyMax <= 0 || g.EfficiencyMax > 1 || g.HBMGB <= 0 || g.HBMTBs <= 0 {
			return fmt.Errorf("jct data: gpu %s: needs peak_tflops, nvlink_domain, nvlink_gbs, hbm_gb, hbm_tbs and efficiency_max in (0,1]", k)
		}
		if err := d.checkVariant(g); err != nil {
			return err
		}
	}
	return nil
}

// checkVariant checks that a variant's variant_of names a base GPU (not
// itself a variant) of the same NVLink domain.
func (d *JCTData) checkVariant(g *GPUSpec) error {
	if g.VariantOf == "" {
		return nil
	}
	if base, ok := d.GPUs[g.VariantOf]; !ok || base.VariantOf != "" || base.NVLinkDomain != g.NVLinkDomain {
		return fmt.Errorf("jct data: gpu %s: variant_of %q must name a base GPU of the same NVLink domain", g.Key, g.VariantOf)
	}
	return nil
}

// checkModels keys the [models] entries and checks their shapes.
func (d *JCTData) checkModels() error {
	for k, m := range d.Models {
		m.Key = k
		if m.ParamsB <= 0 || m.Layers <= 0 || m.Hidden <= 0 || m.SeqLen <= 0 {
			return fmt.Errorf("jct data: model %s: needs params_b, layers, hidden, seq_len", k)
		}
		if m.KVHeads < 0 || m.Heads < 0 || m.KVHeads > m.Heads || (m.KVHeads > 0 && m.Heads%m.KVHeads != 0) {
			return fmt.Errorf("jct data: model %s: kv_heads must divide heads", k)
		}
	}
	return nil
}

// checkMemory checks the [memory] bytes per weight, gradient and
// activation.
func (d *JCTData) checkMemory() error {
	if m := d.Memory; m.WeightBytes <= 0 || m.GradBytes <= 0 || m.OptimizerBytes < 0 || m.AttentionActivation <= 0 ||
		m.MLPActivation <= 0 || m.RecomputeActivation <= 0 || m.LogitBytes < 0 || m.ReserveGB < 0 ||
		m.KVActivation < 0 || m.KVActivation > m.AttentionActivation || m.TightMargin < 0 || m.TightMargin > 1 {
		return fmt.Errorf("jct data: [memory] needs positive bytes per weight, gradient and activation")
	}
	return nil
}

// checkCollective checks the collective protocols and lists them in
// protocol order.
func (d *JCTData) checkCollective() error {
	if err := checkProtocols(d.Collective.Protocols); err != nil {
		return err
	}
	for _, k := range protocolKeys {
		d.protocols = append(d.protocols, d.Collective.Protocols[k])
	}
	d.switchHops = [2]float64{d.Collective.SwitchHopUS[string(InfiniBand)], d.Collective.SwitchHopUS[string(Ethernet)]}
	return nil
}

// switchHopUS is one switch's latency on fabric f (data/jct.toml
// [collective.switch_hop_us]).
func (d *JCTData) switchHopUS(f Fabric) float64 {
	switch f {
	case InfiniBand:
		return d.switchHops[0]
	case Ethernet:
		return d.switchHops[1]
	}
	return d.Collective.SwitchHopUS[string(f)]
}

// checkRuntime checks the [ecmp], [rack_scale], in-network, [compute]
// and efficiency figures.
func (d *JCTData) checkRuntime() error {
	if e := d.ECMP; e.QueuePairs < 1 || e.MaxActiveQueuePairs < 1 || e.StagesPerTier < 1 || e.ChannelsPerPeer < 1 {
		return fmt.Errorf("jct data: [ecmp] qps_per_connection, max_active_qps, channels_per_peer and stages_per_tier must be 1 or more")
	}
	if c := d.RackScale.NetChannels; !inRange(c, 1, 1024) {
		return fmt.Errorf("jct data: [rack_scale] net_channels must be 1 to 1024")
	}
	if err := d.InNetwork.check(d.GPUs); err != nil {
		return err
	}
	if err := d.Crossing.check(d.ECMP.Polarization); err != nil {
		return err
	}
	if err := d.checkCompute(); err != nil {
		return err
	}
	e := d.Efficiency
	for _, v := range []float64{e.InfiniBand, e.RoCEAdaptive, e.NVLink, d.TCP.LineRateFraction} {
		if v <= 0 || v > 1 {
			return fmt.Errorf("jct data: efficiencies must be in (0,1]")
		}
	}
	return nil
}

// checkCompute checks [compute] and [moe].
func (d *JCTData) checkCompute() error {
	if c := d.Compute; c.GEMMDimHalf < 0 || c.ElementwiseBytes < 0 || c.LowPrecisionCeiling <= 0 || c.LowPrecisionCeiling > 1 {
		return fmt.Errorf("jct data: [compute] needs gemm_dim_half and elementwise_bytes of 0 or more and low_precision_ceiling in (0,1]")
	}
	if g := d.MoE.GroupedGEMMUS; !inRange(g, 0, 1000) {
		return fmt.Errorf("jct data: [moe] grouped_gemm_us must be 0 to 1000")
	}
	if l := d.MoE.KernelLaunchUS; !inRange(l, 0, 1000) {
		return fmt.Errorf("jct data: [moe] kernel_launch_us must be 0 to 1000")
	}
	if m := d.MoE; !inRange(m.CastReadBytes, 0, 4) || !inRange(m.CastCopies, 0, 4) {
		return fmt.Errorf("jct data: [moe] cast_read_bytes and cast_copies must be 0 to 4")
	}
	return d.checkGroupedCurve()
}

// checkGroupedCurve checks [moe] grouped_gemm_tokens and
// grouped_gemm_efficiency: as many of each, at least one, tokens
// rising from 1, efficiencies in (0,1].
func (d *JCTData) checkGroupedCurve() error {
	m, e := d.MoE.GroupedGEMMTokens, d.MoE.GroupedGEMMEfficiency
	if len(m) == 0 || len(m) != len(e) {
		return fmt.Errorf("jct data: [moe] grouped_gemm_tokens and grouped_gemm_efficiency need as many values each, at least one (%d and %d)", len(m), len(e))
	}
	for i := range m {
		if m[i] < 1 || (i > 0 && m[i] <= m[i-1]) {
			return fmt.Errorf("jct data: [moe] grouped_gemm_tokens must rise from 1 or more (%g at %d)", m[i], i)
		}
		if e[i] <= 0 || e[i] > 1 {
			return fmt.Errorf("jct data: [moe] grouped_gemm_efficiency must be in (0,1] (%g at %d)", e[i], i)
		}
	}
	return nil
}
