// Code generated from data/inference.toml by go generate ./planner/serve; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package serve

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtData = &builtdoc.Doc[Data]{
		SHA256: "98ce84fa3f41da3a06a47f0c8584bd4e46f25c272c3537a518be14f10a846b30",
		New: func() *Data {
			return &Data{
				Schema: 1,
				Prefill: struct {
					TokensHalf    float64 `toml:"tokens_half"`
					MoEEfficiency float64 `toml:"moe_efficiency"`
				}{
					TokensHalf:    1024,
					MoEEfficiency: 0.67,
				},
				Decode: struct {
					HBMEfficiency     float64 `toml:"hbm_efficiency"`
					ComputeEfficiency float64 `toml:"compute_efficiency"`
					EPOverlap         float64 `toml:"ep_overlap"`
					StepOverheadUS    float64 `toml:"step_overhead_us"`
					DispatchBytes     float64 `toml:"dispatch_bytes"`
					CombineBytes      float64 `toml:"combine_bytes"`
					TPAllReduceUS     float64 `toml:"tp_allreduce_us"`
				}{
					HBMEfficiency:     0.85,
					ComputeEfficiency: 0.19,
					EPOverlap:         0.5,
					StepOverheadUS:    2000,
					DispatchBytes:     1,
					CombineBytes:      2,
					TPAllReduceUS:     6,
				},
				KV: struct {
					AlphaUS           float64 `toml:"alpha_us"`
					TCPCapGBsPerNode  float64 `toml:"tcp_cap_gbs_per_node"`
					RDMACapGBsPerNode float64 `toml:"rdma_cap_gbs_per_node"`
				}{
					AlphaUS:           30,
					TCPCapGBsPerNode:  36,
					RDMACapGBsPerNode: 190,
				},
				RL: struct {
					SyncOverheadS   float64 `toml:"sync_overhead_s"`
					ReloadGBsPerGPU float64 `toml:"reload_gbs_per_gpu"`
					DefaultStepS    float64 `toml:"default_step_s"`
				}{
					SyncOverheadS:   1.9,
					ReloadGBsPerGPU: 3.3,
					DefaultStepS:    120,
				},
				Economics: struct {
					LifeYears float64 `toml:"life_years"`
					USDPerKWh float64 `toml:"usd_per_kwh"`
					PUE       float64 `toml:"pue"`
				}{
					LifeYears: 5,
					USDPerKWh: 0.081,
					PUE:       1.56,
				},
				Points: []Point{{
					Name:            "SGLang DeepSeek-V3 prefill, 96 H100 (2,000-token prompts)",
					Kind:            "prefill",
					GPU:             "h100",
					GPUsPerServer:   8,
					NVLinkDomain:    8,
					Model:           "deepseek-v3",
					InputTokens:     2000,
					WeightPrecision: "fp8",
					NICs:            8,
					NICGbps:         400,
					Value:           6537,
					Fitted:          true,
					Source:          "lmsys.org/blog/2025-05-05 (SGLang): 52.3k input tokens/s per node of 8 H100",
				}, {
					Name:            "SGLang DeepSeek-V3 decode, 96 H100 (~100 ms ITL)",
					Kind:            "decode",
					GPU:             "h100",
					GPUsPerServer:   8,
					NVLinkDomain:    8,
					Model:           "deepseek-v3",
					InputTokens:     2000,
					OutputTokens:    100,
					DecodeEP:        72,
					DecodeBatch:     279,
					WeightPrecision: "fp8",
					NICs:            8,
					NICGbps:         400,
					Value:           2787,
					Fitted:          true,
					Source:          "lmsys.org/blog/2025-05-05 (SGLang): 22.3k output tokens/s per node; batch per GPU = 2,787 tokens/s x 0.1 s ITL [derived]",
				}, {
					Name:            "DeepSeek online service decode, H800 (20-22 tokens/s per user)",
					Kind:            "decode",
					GPU:             "h100",
					GPUsPerServer:   8,
					NVLinkDomain:    8,
					Model:           "deepseek-v3",
					InputTokens:     2000,
					OutputTokens:    500,
					DecodeEP:        144,
					DecodeBatch:     88,
					WeightPrecision: "fp8",
					NICs:            8,
					NICGbps:         400,
					Value:           1850,
					Source:          "deepseek-ai/open-infra-index, Day 6 inference system overview (2025-03-01): 14.8k output tokens/s per H800 node; batch = 1,850 x 1/21 s [derived]; context length is our estimate",
				}, {
					Name:            "SGLang DeepSeek-V3 decode, GB200 NVL72 (BF16 attention, FP8 MoE)",
					Kind:            "decode",
					GPU:             "gb200",
					GPUsPerServer:   4,
					NVLinkDomain:    72,
					Model:           "deepseek-v3",
					InputTokens:     2000,
					OutputTokens:    100,
					DecodeEP:        48,
					DecodeBatch:     768,
					WeightPrecision: "fp8",
					NICs:            4,
					NICGbps:         800,
					Value:           9087,
					Source:          "lmsys.org/blog/2025-09-25-gb200-part-2 (SGLang): 9,087 output tokens/s per GPU; batch per GPU is our estimate from the blog's setup",
				}, {
					Name:          "Mooncake Transfer Engine RDMA, 4 x 200G RoCE",
					Kind:          "kv_rdma",
					GPUsPerServer: 8,
					NICs:          4,
					NICGbps:       200,
					Value:         87,
					Source:        "Mooncake (FAST'25), kvcache-ai/Mooncake transfer-engine benchmark: 87 GB/s",
				}, {
					Name:          "Mooncake Transfer Engine RDMA, 8 x 400G RoCE",
					Kind:          "kv_rdma",
					GPUsPerServer: 8,
					NICs:          8,
					NICGbps:       400,
					Value:         190,
					Fitted:        true,
					Source:        "Mooncake (FAST'25), kvcache-ai/Mooncake transfer-engine benchmark: 190 GB/s",
				}, {
					Name:          "Mooncake Transfer Engine TCP, 4 x 200G RoCE",
					Kind:          "kv_tcp",
					GPUsPerServer: 8,
					NICs:          4,
					NICGbps:       200,
					Value:         36,
					Fitted:        true,
					Source:        "Mooncake (FAST'25): RDMA 2.4x faster than TCP on 4 x 200G (87 / 2.4 = 36 GB/s) [derived]",
				}, {
					Name:          "Mooncake Transfer Engine TCP, 8 x 400G RoCE",
					Kind:          "kv_tcp",
					GPUsPerServer: 8,
					NICs:          8,
					NICGbps:       400,
					Value:         41,
					Source:        "Mooncake (FAST'25): RDMA 4.6x faster than TCP on 8 x 400G (190 / 4.6 = 41 GB/s) [derived]",
				}, {
					Name:          "checkpoint-engine broadcast, Kimi-K2 FP8, 256 H20 TP16",
					Kind:          "rl_sync",
					GPU:           "h100",
					GPUsPerServer: 8,
					NVLinkDomain:  8,
					NICs:          8,
					NICGbps:       400,
					ParamsB:       1040,
					SyncPrecision: "fp8",
					RolloutTP:     16,
					RolloutGPUs:   256,
					Value:         21.5,
					Fitted:        true,
					Source:        "MoonshotAI/checkpoint-engine README, benchmark table (vLLM v0.10.2rc1)",
				}, {
					Name:          "checkpoint-engine broadcast, DeepSeek-V3.1 FP8, 256 H20 TP16",
					Kind:          "rl_sync",
					GPU:           "h100",
					GPUsPerServer: 8,
					NVLinkDomain:  8,
					NICs:          8,
					NICGbps:       400,
					ParamsB:       671,
					SyncPrecision: "fp8",
					RolloutTP:     16,
					RolloutGPUs:   256,
					Value:         13.88,
					Source:        "MoonshotAI/checkpoint-engine README, benchmark table (vLLM v0.10.2rc1)",
				}, {
					Name:          "checkpoint-engine broadcast, Kimi-K2 FP8, 16 H20 TP16",
					Kind:          "rl_sync",
					GPU:           "h100",
					GPUsPerServer: 8,
					NVLinkDomain:  8,
					NICs:          8,
					NICGbps:       400,
					ParamsB:       1040,
					SyncPrecision: "fp8",
					RolloutTP:     16,
					RolloutGPUs:   16,
					Value:         15.45,
					Source:        "MoonshotAI/checkpoint-engine README, benchmark table (vLLM v0.10.2rc1)",
				}, {
					Name:          "checkpoint-engine broadcast, Qwen3-235B BF16, 8 H800 TP8",
					Kind:          "rl_sync",
					GPU:           "h100",
					GPUsPerServer: 8,
					NVLinkDomain:  8,
					NICs:          8,
					NICGbps:       400,
					ParamsB:       235,
					SyncPrecision: "bf16",
					RolloutTP:     8,
					RolloutGPUs:   8,
					Value:         6.75,
					Source:        "MoonshotAI/checkpoint-engine README, benchmark table (vLLM v0.10.2rc1)",
				}},
			}
		},
	}
}
