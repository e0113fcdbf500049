// Code generated from data/jct.toml by go generate ./planner/perf; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package perf

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtJCTData = &builtdoc.Doc[JCTData]{
		SHA256: "38188ec8a5033ff1dbc56e48256c6d30ce079bc9d1e7e03fadd35d1be1031ae6",
		New: func() *JCTData {
			return &JCTData{
				Schema: 1,
				Collective: struct {
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
				}{
					BaseLatencyUS:  8.4,
					NVLinkHopUS:    3.4,
					NetHopUS:       14,
					TreeBWFactor:   0.92,
					AllToAllPeerUS: 3.25,
					Protocols: map[string]*Protocol{
						"ll": {
							Name:            "LL",
							BWFraction:      0.5,
							RingBaseUS:      6.6,
							TreeBaseUS:      6.8,
							RingNVLinkHopUS: 0.6,
							TreeNVLinkHopUS: 0.6,
							RingNetHopUS:    2.7,
							TreeNetHopUS:    5,
						},
						"ll128": {
							Name:            "LL128",
							BWFraction:      0.92,
							RingBaseUS:      14,
							TreeBaseUS:      14,
							RingNVLinkHopUS: 1.9,
							TreeNVLinkHopUS: 1.25,
							RingNetHopUS:    4,
							TreeNetHopUS:    8.5,
						},
						"simple": {
							Name:            "Simple",
							BWFraction:      1,
							RingBaseUS:      8.4,
							TreeBaseUS:      8.4,
							RingNVLinkHopUS: 3.4,
							TreeNVLinkHopUS: 4,
							RingNetHopUS:    14,
							TreeNetHopUS:    14,
						},
					},
					SwitchHopUS: map[string]float64{
						"ethernet":   0.6,
						"infiniband": 0.13,
					},
					GradBytes:       2,
					ParamBytes:      2,
					ActivationBytes: 2,
				},
				Efficiency: struct {
					InfiniBand   float64 `toml:"infiniband"`
					RoCEAdaptive float64 `toml:"roce_adaptive"`
					NVLink       float64 `toml:"nvlink"`
				}{
					InfiniBand:   0.92,
					RoCEAdaptive: 0.92,
					NVLink:       0.8,
				},
				TCP: struct {
					LineRateFraction float64 `toml:"line_rate_fraction"`
					CapGBsPerNIC     float64 `toml:"cap_gbs_per_nic"`
					ExtraLatencyUS   float64 `toml:"extra_latency_us"`
				}{
					LineRateFraction: 0.45,
					CapGBsPerNIC:     5.5,
					ExtraLatencyUS:   9,
				},
				ECMP: struct {
					QueuePairs          float64 `toml:"qps_per_connection"`
					MaxActiveQueuePairs float64 `toml:"max_active_qps"`
					ChannelsPerPeer     float64 `toml:"channels_per_peer"`
					StagesPerTier       float64 `toml:"stages_per_tier"`
					Polarization        float64 `toml:"polarization"`
				}{
					QueuePairs:          1,
					MaxActiveQueuePairs: 4,
					ChannelsPerPeer:     2,
					StagesPerTier:       2,
					Polarization:        0.5,
				},
				Crossing: CrossingConstants{
					Efficiency: 0.95,
				},
				InNetwork: InNetworkConstants{
					NVLSAlgBWPerEfficiency: 0.719,
					NVLSHopUS:              25,
					NVLSTreeNetHopUS:       20.9,
					NCCLNICLineShare:       0.96,
					SHARPLineFraction:      0.8,
					SHARPHopUS:             31,
					SHARPSwitches:          []string{"qm8700", "qm9700", "q3400"},
				},
				RackScale: struct {
					NetChannels float64 `toml:"net_channels"`
				}{
					NetChannels: 8,
				},
				Overlap: struct {
					DP                 float64
					PP                 float64
					TP                 float64
					EP                 float64
					CP                 float64
					BackwardPerForward float64 `toml:"backward_per_forward"`
				}{
					DP:                 0.8,
					PP:                 0.5,
					TP:                 0.5,
					EP:                 0.9,
					CP:                 0.5,
					BackwardPerForward: 2,
				},
				Compute: struct {
					GEMMDimHalf         float64 `toml:"gemm_dim_half"`
					ElementwiseBytes    float64 `toml:"elementwise_bytes"`
					LowPrecisionCeiling float64 `toml:"low_precision_ceiling"`
				}{
					GEMMDimHalf:         128,
					ElementwiseBytes:    650,
					LowPrecisionCeiling: 1,
				},
				MoE: struct {
					GroupedGEMMUS         float64   `toml:"grouped_gemm_us"`
					KernelLaunchUS        float64   `toml:"kernel_launch_us"`
					GroupedGEMMTokens     []float64 `toml:"grouped_gemm_tokens"`
					GroupedGEMMEfficiency []float64 `toml:"grouped_gemm_efficiency"`
					CastReadBytes         float64   `toml:"cast_read_bytes"`
					CastCopies            float64   `toml:"cast_copies"`
				}{
					GroupedGEMMUS:         38,
					KernelLaunchUS:        5,
					GroupedGEMMTokens:     []float64{64, 128, 256, 512, 1024, 4096, 8192},
					GroupedGEMMEfficiency: []float64{0.228, 0.407, 0.679, 0.761, 0.833, 0.997, 0.997},
					CastReadBytes:         2,
					CastCopies:            2,
				},
				Memory: MemoryConstants{
					WeightBytes:         2,
					GradBytes:           4,
					OptimizerBytes:      12,
					AttentionActivation: 15,
					MLPActivation:       19,
					RecomputeActivation: 2,
					KVActivation:        4,
					TightMargin:         0.1,
					LogitBytes:          4,
					ReserveGB:           5,
				},
				GPUs: map[string]*GPUSpec{
					"a100": {
						Name:          "NVIDIA A100 SXM 80GB",
						PeakTFLOPS:    312,
						NVLinkDomain:  8,
						NVLinkGBs:     300,
						EfficiencyMax: 0.7,
						HBMGB:         80,
						HBMTBs:        2.039,
						Source:        "NVIDIA A100 datasheet: 312 TFLOPS BF16 dense, NVLink 600 GB/s [vendor spec]; efficiency_max (the GEMM ceiling) fitted with [compute] elementwise_bytes to Megatron-LM SC21 Table 1 rows 1.7B and 1T; memory 80 GB HBM2e per GPU [vendor spec]; HBM2e 2,039 GB/s [vendor spec]; no FP8 tensor cores [vendor spec]",
					},
					"a100-40gb": {
						Name:          "NVIDIA A100 SXM 40GB",
						PeakTFLOPS:    312,
						NVLinkDomain:  8,
						NVLinkGBs:     300,
						EfficiencyMax: 0.7,
						HBMGB:         40,
						HBMTBs:        1.555,
						PowerW:        400,
						VariantOf:     "a100",
						BoostMHz:      1410,
						Source:        "NVIDIA A100 Tensor Core GPU datasheet (2021), A100 40GB SXM column: 312 TFLOPS BF16 dense, 40 GB HBM2 at 1,555 GB/s, NVLink 600 GB/s (300 one way), max TDP 400 W; boost clock 1,410 MHz (NVIDIA A100 whitepaper, Table 1) [vendor spec]; efficiency_max as the A100 80GB's [fitted there]",
					},
					"b200": {
						Name:               "NVIDIA B200 (HGX)",
						PeakTFLOPS:         2250,
						FP8TFLOPS:          4500,
						FP4TFLOPS:          9000,
						MXFP8:              true,
						NVLinkDomain:       8,
						NVLinkGBs:          900,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              180,
						HBMTBs:             8,
						NVLSEfficiency:     0.74,
						NVLSTreeChannelGBs: [2]float64{96, 80},
						Source:             "NVIDIA HGX B200: 4.5 PFLOPS BF16 sparse per GPU = 2.25 dense, NVLink 5 1.8 TB/s [vendor spec]; efficiency as H100 [estimate]; memory DGX B200: 1,440 GB GPU memory for 8 GPUs = 180 GB [vendor spec]; HBM3e 8 TB/s per GPU (DGX B200: 64 TB/s for 8) [vendor spec]; HGX B200: 72 PFLOPS FP8 and 144 PFLOPS FP4 sparse for 8 GPUs = 4.5 and 9 dense each; block-scaled MXFP8 [vendor spec]",
					},
					"b300": {
						Name:               "NVIDIA B300 (HGX)",
						PeakTFLOPS:         2250,
						FP8TFLOPS:          4500,
						FP4TFLOPS:          13500,
						MXFP8:              true,
						NVLinkDomain:       8,
						NVLinkGBs:          900,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              288,
						HBMTBs:             8,
						NVLSEfficiency:     0.74,
						NVLSTreeChannelGBs: [2]float64{96, 80},
						Source:             "NVIDIA Blackwell Ultra: BF16 dense as B200, NVLink 5 1.8 TB/s [vendor spec, grade C]; efficiency as H100 [estimate]; memory HGX B300: 2.3 TB HBM3e for 8 GPUs = 288 GB [vendor spec, grade C]; HBM3e 8 TB/s per GPU [vendor spec, grade C]; HGX B300: FP8 as B200, FP4 108 PFLOPS dense for 8 GPUs = 13.5 each [vendor spec, grade C]",
					},
					"gb200": {
						Name:               "NVIDIA GB200 NVL72",
						PeakTFLOPS:         2500,
						FP8TFLOPS:          5000,
						FP4TFLOPS:          10000,
						MXFP8:              true,
						NVLinkDomain:       72,
						NVLinkGBs:          900,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              186,
						HBMTBs:             8,
						NVLSEfficiency:     0.74,
						NVLSTreeChannelGBs: [2]float64{96, 80},
						Source:             "NVIDIA GB200 NVL72: 180 PFLOPS BF16 dense per 72 GPUs, NVLink 5 1.8 TB/s in a 72-GPU domain [vendor spec]; efficiency as H100 [estimate]; memory GB200 NVL72: up to 13.4 TB HBM3e for 72 GPUs = 186 GB [vendor spec]; HBM3e 576 TB/s for 72 GPUs = 8 TB/s [vendor spec]; GB200 NVL72: FP8 720 PFLOPS sparse = 5 dense per GPU, FP4 1,440 sparse = 10 dense per GPU [vendor spec]",
					},
					"gb300": {
						Name:               "NVIDIA GB300 NVL72 (Blackwell Ultra)",
						PeakTFLOPS:         2500,
						FP8TFLOPS:          5000,
						FP4TFLOPS:          15000,
						MXFP8:              true,
						NVLinkDomain:       72,
						NVLinkGBs:          900,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              288,
						HBMTBs:             8,
						NVLSEfficiency:     0.74,
						NVLSTreeChannelGBs: [2]float64{96, 80},
						Source:             "NVIDIA GB300 NVL72: 360 PFLOPS FP16/BF16 sparse = 2.5 dense per GPU, FP8 720 sparse = 5 dense per GPU, FP4 1,080 PFLOPS dense = 15 per GPU, NVLink 5 1.8 TB/s in a 72-GPU domain, up to 21 TB HBM3e for 72 GPUs = 288 GB, 576 TB/s = 8 TB/s per GPU [vendor spec, grade C]; efficiency as H100 [estimate]",
					},
					"h100": {
						Name:               "NVIDIA H100 SXM",
						PeakTFLOPS:         989,
						FP8TFLOPS:          1979,
						NVLinkDomain:       8,
						NVLinkGBs:          450,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              80,
						HBMTBs:             3.35,
						NVLSEfficiency:     0.85,
						NVLSTreeChannelGBs: [2]float64{57.7, 45.5},
						Source:             "NVIDIA H100 datasheet: 989 TFLOPS BF16 dense (1,979 sparse), NVLink 900 GB/s [vendor spec]; efficiency_max (the GEMM ceiling) fitted to Llama 3 405B on 8,192 H100 (43% MFU, Llama 3 paper Table 4) and elementwise_bytes (fused kernels of Transformer Engine-era stacks, against 650 for 2021 Megatron-LM on A100) with [compute] low_precision_ceiling to NeMo's Llama 3 70B on 64 H100 in FP8 (Megatron-Bridge performance summary, 25.09) [fitted]; memory 80 GB HBM3 [vendor spec]; HBM3 3.35 TB/s [vendor spec]; FP8 3,958 TFLOPS sparse = 1,979 dense, no FP4 [vendor spec]",
					},
					"h100-96gb": {
						Name:               "NVIDIA H100 SXM 96GB, 500 W cap (hyperscale part)",
						PeakTFLOPS:         890,
						FP8TFLOPS:          1780,
						NVLinkDomain:       8,
						NVLinkGBs:          450,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              96,
						HBMTBs:             2.4,
						NVLSEfficiency:     0.85,
						NVLSTreeChannelGBs: [2]float64{57.7, 45.5},
						PowerW:             500,
						VariantOf:          "h100",
						BoostMHz:           1780,
						Source:             "No public NVIDIA datasheet for this part: an H100 SXM5 with all six HBM stacks enabled (6 x 16 GB = 96 GB, against 5 of 6 on the 80 GB part) as some hyperscalers deploy it, capped at 500 W. Memory: '96GB HBM2e with 2.4 TB/sec peak memory bandwidth', 'the default 500W power limit' (pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Hardware, Meta Grand Teton, 2024-12; read 2026-11-29) [published by the operator; until 2026-11-29 the 80 GB part's 3.35 TB/s was kept, an estimate]; BF16 and FP8 peaks scaled from the H100 SXM's 989 and 1,979 TFLOPS at its 1,980 MHz boost by a 1,780 MHz sustained clock under a 500 W cap, 0.9 of 700 W's [estimate]; NVLink 900 GB/s as H100 SXM [vendor spec]",
					},
					"h20": {
						Name:               "NVIDIA H20",
						PeakTFLOPS:         148,
						FP8TFLOPS:          296,
						NVLinkDomain:       8,
						NVLinkGBs:          450,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              96,
						HBMTBs:             4,
						NVLSEfficiency:     0.85,
						NVLSTreeChannelGBs: [2]float64{57.7, 45.5},
						PowerW:             400,
						VariantOf:          "h100",
						Source:             "NVIDIA HGX H20 product brief (2023-11, as tabled by SemiAnalysis and others) [vendor spec, grade C]: 148 TFLOPS BF16 dense, 296 FP8 dense, 96 GB HBM3 at 4.0 TB/s, NVLink 900 GB/s (450 one way), 400 W; efficiency as H100 [estimate]: with a sixth of H100's tensor cores its GEMMs are further from memory-bound, so the ceiling is if anything higher",
					},
					"h200": {
						Name:               "NVIDIA H200 SXM",
						PeakTFLOPS:         989,
						FP8TFLOPS:          1979,
						NVLinkDomain:       8,
						NVLinkGBs:          450,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              141,
						HBMTBs:             4.8,
						NVLSEfficiency:     0.85,
						NVLSTreeChannelGBs: [2]float64{57.7, 45.5},
						Source:             "NVIDIA H200 datasheet: same Hopper tensor cores and NVLink as H100 [vendor spec]; efficiency as H100 [estimate]; memory 141 GB HBM3e [vendor spec]; HBM3e 4.8 TB/s [vendor spec]; FP8 as H100 [vendor spec]",
					},
					"h800": {
						Name:               "NVIDIA H800 SXM",
						PeakTFLOPS:         989,
						FP8TFLOPS:          1979,
						NVLinkDomain:       8,
						NVLinkGBs:          200,
						EfficiencyMax:      0.565,
						ElementwiseBytes:   150,
						HBMGB:              80,
						HBMTBs:             3.35,
						NVLSEfficiency:     0.85,
						NVLSTreeChannelGBs: [2]float64{57.7, 45.5},
						PowerW:             700,
						VariantOf:          "h100",
						BoostMHz:           1980,
						Source:             "NVIDIA H800 SXM5 (the export variant of H100 SXM): the H100 SXM's tensor cores, 80 GB HBM3 at 3.35 TB/s and 700 W, NVLink cut to 400 GB/s bidirectional = 200 GB/s one way (DeepSeek-V3 Technical Report 2024, section 3.2.1: 'NVLink ... 160 GB/s' achieved of the H800's 400 GB/s; NVIDIA H800 product brief) [vendor spec, grade B]; efficiency as H100 [estimate]",
					},
					"mi300x": {
						Name:                  "AMD Instinct MI300X",
						PeakTFLOPS:            1307,
						FP8TFLOPS:             2615,
						NVLinkDomain:          8,
						NVLinkGBs:             448,
						EfficiencyMax:         0.565,
						ElementwiseBytes:      150,
						HBMGB:                 192,
						HBMTBs:                5.3,
						EfficiencyUnvalidated: "AMD Instinct MI300X: efficiency_max is the H100's, copied [estimate, unvalidated]: no published training run on this GPU is in the validation (fabricplan validate), so its step time, JCT gain and any ranking against NVIDIA systems are unchecked; give workload.compute_efficiency from a measured run to replace it",
						Source:                "AMD MI300X spec sheet as tabled in github.com/alpharomercoma/MI300X-vs-H200 REPORT.md: 1,307.4 TFLOPS BF16 dense, 2,614.9 FP8 dense [vendor spec, grade C]; Infinity Fabric 128 GB/s bidirectional a link (emergentmind MI300X summary, grade C), 7 links = 448 GB/s one way [derived]; efficiency as H100 [estimate]; memory 192 GB HBM3 (MLCommons v4.1 AMD system, grade B); 5.3 TB/s (aiwiki, grade C); no FP4 [vendor spec]",
					},
					"mi325x": {
						Name:                  "AMD Instinct MI325X",
						PeakTFLOPS:            1307,
						FP8TFLOPS:             2615,
						NVLinkDomain:          8,
						NVLinkGBs:             448,
						EfficiencyMax:         0.565,
						ElementwiseBytes:      150,
						HBMGB:                 256,
						HBMTBs:                6,
						EfficiencyUnvalidated: "AMD Instinct MI325X: efficiency_max is the H100's, copied [estimate, unvalidated]: no published training run on this GPU is in the validation (fabricplan validate), so its step time, JCT gain and any ranking against NVIDIA systems are unchecked; give workload.compute_efficiency from a measured run to replace it",
						Source:                "AMD MI325X: the MI300X's CDNA 3 compute on a UBB 2.0 drop-in board, so its BF16 and FP8 [estimate]; 7 Infinity Fabric links a GPU as MI300X (grade C); efficiency as H100 [estimate]; memory 256 GB HBM3E, 6 TB/s (wiaix.com, yobitel KB, grade C)",
					},
					"mi355x": {
						Name:                  "AMD Instinct MI355X",
						PeakTFLOPS:            2500,
						FP8TFLOPS:             5000,
						FP4TFLOPS:             10000,
						MXFP8:                 true,
						NVLinkDomain:          8,
						NVLinkGBs:             448,
						EfficiencyMax:         0.565,
						ElementwiseBytes:      150,
						HBMGB:                 288,
						HBMTBs:                8,
						EfficiencyUnvalidated: "AMD Instinct MI355X: efficiency_max is the H100's, copied [estimate, unvalidated for dense training]: one published run on this GPU is in the validation, an MoE one (AMD Primus, DeepSeek-V3 FP8 on 256 MI355X; fabricplan validate), none dense, so its step time, JCT gain and any ranking against NVIDIA systems are barely checked; give workload.compute_efficiency from a measured run to replace it",
						Source:                "AMD MI355X at ISSCC 2026 (world-today-news report, grade C): FP8 1.9x MI300X, 5 PFLOPS; The Register (2025-06-12, grade C): 10 PFLOPS FP4, 288 GB HBM3E, 8 TB/s; BF16 dense half of FP8 [derived]; OCP MX formats (yobitel KB, grade C); Infinity Fabric as MI300X, 7 links [estimate: per-link rate of the 4th generation not found]; efficiency as H100 [estimate]",
					},
				},
				Models: map[string]*ModelSpec{
					"deepseek-v3": {
						Name:          "DeepSeek-V3 (MoE)",
						ParamsB:       671,
						ActiveParamsB: 37,
						Layers:        61,
						Hidden:        7168,
						SeqLen:        4096,
						Vocab:         129280,
						Experts:       256,
						TopK:          8,
						Heads:         128,
						KVHeads:       128,
						RouteNodes:    4,
						Source:        "DeepSeek-V3 Technical Report (2024): 671B total, 37B active, 61 layers, hidden 7168, 256 routed experts, top-8, 4K pre-training sequence; node-limited routing: each token to at most 4 nodes (section 2.1.2); 128 heads; multi-head latent attention expands K and V per head in training, so kv_heads = heads",
					},
					"gpt3-175b": {
						Name:    "GPT-3 175B",
						ParamsB: 175,
						Layers:  96,
						Hidden:  12288,
						SeqLen:  2048,
						Vocab:   50257,
						Heads:   96,
						KVHeads: 96,
						Source:  "Brown et al., Language Models are Few-Shot Learners (2020), Table 2.1; 96 heads, full multi-head attention",
					},
					"llama3-405b": {
						Name:    "Llama 3.1 405B",
						ParamsB: 405,
						Layers:  126,
						Hidden:  16384,
						SeqLen:  8192,
						Vocab:   128256,
						Heads:   128,
						KVHeads: 8,
						Source:  "The Llama 3 Herd of Models (2024), Table 3; 128 heads, 8 KV heads",
					},
					"llama3-70b": {
						Name:    "Llama 3 70B",
						ParamsB: 70.6,
						Layers:  80,
						Hidden:  8192,
						SeqLen:  8192,
						Vocab:   128256,
						Heads:   64,
						KVHeads: 8,
						Source:  "Meta Llama 3 model card and paper (2024); 64 heads, 8 KV heads (Table 3)",
					},
					"llama3-8b": {
						Name:    "Llama 3 8B",
						ParamsB: 8.03,
						Layers:  32,
						Hidden:  4096,
						SeqLen:  8192,
						Vocab:   128256,
						Heads:   32,
						KVHeads: 8,
						Source:  "Meta Llama 3 model card and paper (The Llama 3 Herd of Models, 2024); 32 heads, 8 KV heads (Table 3)",
					},
					"mixtral-8x7b": {
						Name:          "Mixtral 8x7B (MoE)",
						ParamsB:       46.7,
						ActiveParamsB: 12.9,
						Layers:        32,
						Hidden:        4096,
						SeqLen:        4096,
						Vocab:         32000,
						Experts:       8,
						TopK:          2,
						Heads:         32,
						KVHeads:       8,
						Source:        "Jiang et al., Mixtral of Experts (2024): 46.7B total, 12.9B active, 8 experts, top-2; training sequence length is our estimate; 32 heads, 8 KV heads (Table 1)",
					},
				},
				Frameworks: map[string]*FrameworkSpec{
					"automodel": {
						Name:      "NeMo AutoModel (PyTorch FSDP2 with Transformer Engine kernels, DeepEP)",
						OverlapDP: 0.8,
						OverlapEP: 0.9,
						Kernels:   "fused",
						Source:    "NVIDIA-NeMo/Automodel docs/performance-summary.md and recipes: FSDP2 sharding (as fsdp2) with Transformer Engine layers and DeepEP's all-to-all, which overlaps as Megatron-Core's does ([overlap] ep) [estimate from those docs]",
					},
					"composer": {
						Name:      "MosaicML Composer with llm-foundry (PyTorch FSDP)",
						OverlapDP: 0.8,
						Kernels:   "fused",
						Source:    "mosaicml/llm-foundry scripts/train/benchmarking/README.md: FSDP FULL_SHARD with FlashAttention and Composer's defaults (forward_prefetch, BACKWARD_PRE): as fsdp [estimate]",
					},
					"deepspeed": {
						Name:      "DeepSpeed (ZeRO; Megatron-DeepSpeed for tensor and pipeline parallelism)",
						OverlapDP: 0.8,
						Kernels:   "legacy",
						Source:    "DeepSpeed configuration docs (deepspeed.ai/docs/config-json, zero_optimization.overlap_comm: 'Attempts to overlap the reduction of the gradients with backward computation'), as [overlap] dp [estimate]; Megatron-DeepSpeed's tensor parallelism is the 2021 Megatron-LM's (synchronous all-reduces, its kernels), its pipeline engine sends between steps of its schedule, and DeepSpeed-MoE documents no all-to-all overlap [estimate from the docs' silence]",
					},
					"fsdp": {
						Name:      "PyTorch FSDP (FSDP1, FULL_SHARD)",
						OverlapDP: 0.8,
						Kernels:   "fused",
						Source:    "PyTorch FSDP docs (pytorch.org/docs/stable/fsdp.html): backward_prefetch = BACKWARD_PRE and forward_prefetch overlap the next all-gather with the current compute, the reduce-scatter runs on its own stream beside the backward pass: [overlap] dp [estimate]; no tensor, pipeline or expert parallelism of its own, so nothing overlaps there [published practice]",
					},
					"fsdp2": {
						Name:      "PyTorch FSDP2 (fully_shard)",
						OverlapDP: 0.8,
						Kernels:   "fused",
						Source:    "PyTorch FSDP2 docs (torch.distributed.fsdp.fully_shard): implicit prefetching overlaps the next all-gather and the reduce-scatter with compute as FSDP1 does [estimate: as fsdp]; tensor parallelism from torch.distributed.tensor.parallel runs its collectives synchronously unless async TP is asked for [published practice]",
					},
					"megatron-legacy": {
						Name:    "Megatron-LM 2021-22 (before Megatron-Core), A100",
						Kernels: "legacy",
						Source:  "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (SC21): the tensor-parallel all-reduces sit on the critical path between the layer's GEMMs (section 2.3), the gradient all-reduce runs after the backward pass (no --overlap-grad-reduce before Megatron-LM's 2023 distributed optimizer) and the 1F1B sends are blocking; data/validation.toml's SC21 points set all three to 0 [published practice]",
					},
					"megatron-te": {
						Name:       "Megatron-LM / NeMo (Megatron-Core) with Transformer Engine",
						OverlapDP:  0.8,
						OverlapPP:  0.5,
						OverlapTP:  0.5,
						OverlapEP:  0.9,
						Kernels:    "fused",
						ExpertGEMM: "per_expert",
						Source:     "Megatron-Core arguments --overlap-grad-reduce, --overlap-param-gather and --tp-comm-overlap (Transformer Engine userbuffers), on in NeMo's performance recipes, and its MoE all-to-all overlap (Megatron-Core MoE, arXiv 2603.07685): the [overlap] defaults, which were set from this practice [estimate from that practice]; expert_gemm per_expert: Megatron-Core's grouped experts (--moe-grouped-gemm, TEGroupedMLP) run Transformer Engine's GroupedLinear, whose default path reads the per-expert token counts on the host, quantizes per expert and launches one cuBLAS GEMM per expert on a pool of CUDA streams (Transformer Engine MoE documentation, 'Grouped GEMM', per-expert path; nvte_multi_tensor_gemm in transformer_engine/common/gemm/cublaslt_gemm.cu calls multi_stream_cublas_gemm unless NVTE_USE_CUTLASS_GROUPED_GEMM=1, BF16 on Hopper only; read 2026-11-29) [published]",
					},
					"torchtitan": {
						Name:      "torchtitan (FSDP2, optional TP, PP and EP)",
						OverlapDP: 0.8,
						Kernels:   "fused",
						Source:    "pytorch/torchtitan docs: FSDP2 prefetching as fsdp2 [estimate]; parallelism.enable_async_tensor_parallel (off by default) is the only TP overlap, so 0; its MoE all-to-all runs between the expert GEMMs without overlap, so 0 [published practice, torchtitan torchtitan/config/job_config.py defaults]",
					},
					"torchtitan-eager": {
						Name:      "torchtitan without torch.compile (eager element-wise ops)",
						OverlapDP: 0.8,
						Kernels:   "eager",
						Source:    "As torchtitan for the overlaps [published practice, as there]; with compile off (training.compile = false, its default at the end of 2024) its norms, RoPE and SwiGLU run as eager PyTorch ops, not fused [published practice, torchtitan torchtitan/config/job_config.py]",
					},
				},
				Kernels: map[string]*KernelClass{
					"eager": {
						Name:             "eager PyTorch element-wise ops (no torch.compile) beside FlashAttention",
						ElementwiseBytes: 430,
						Source:           "Counted for a Llama block run eagerly (torchtitan without torch.compile), per element of s·b·h per layer in BF16: two RMSNorms cast to FP32 and back (~28 bytes each), RoPE on q and k in FP32 (1.25 h, ~30), SwiGLU's silu and product on the 3.5 h-wide gate and up (~35), two residual adds (~12), the copies SDPA's layout needs for q, k, v and its output (~10): ~143 forward; backward about twice the forward (each op reads its inputs and the output's gradient and writes its input's): ~430 [estimate, counted 2026-11-29; against 150 fused and 650 for 2021 Megatron-LM]",
					},
					"fused": {
						Name:             "fused kernels (Transformer Engine or FlashAttention-era PyTorch)",
						ElementwiseBytes: 150,
						Source:           "The H100's elementwise_bytes, fitted with its efficiency_max on Transformer Engine stacks (see [gpus.h100]) [fitted]; PyTorch-native stacks with FlashAttention and fused optimizers take the same figure [estimate: the model has no separate measurement of them]",
					},
					"legacy": {
						Name:             "2021-22 Megatron-LM kernels (fused softmax and bias-GeLU only)",
						ElementwiseBytes: 650,
						Source:           "[compute] elementwise_bytes, fitted with the A100's efficiency_max to Megatron-LM SC21 Table 1 rows 1.7B and 1T [fitted]",
					},
				},
			}
		},
	}
}
