package serve

import (
	"math"
	"strings"
	"testing"

	"fabricplan/planner/perf"
)

// Models by their published shapes, written out here rather than read
// from data/jct.toml.
var (
	// Llama 3 70B: 80 layers, hidden 8192, 64 heads, 8 KV heads (The
	// Llama 3 Herd of Models, 2024, Table 3).
	llama70 = Model{Name: "llama3-70b", ParamsB: 70.6, ActiveParamsB: 70.6, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8}
	// DeepSeek-V3: 61 layers, hidden 7168, 256 experts top-8, 671B total
	// and 37B active (DeepSeek-V3 Technical Report, 2024).
	deepseek = Model{Name: "deepseek-v3", ParamsB: 671, ActiveParamsB: 37, Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, Experts: 256, TopK: 8}
)

// TestKVBytesPerTokenByHand: KV bytes per token against hand
// calculations. Mutations caught: K and V not doubled; the head width
// taken as hidden (not hidden / heads); an MLA latent counted per head
// or doubled; FP8 not halving the bytes.
func TestKVBytesPerTokenByHand(t *testing.T) {
	for _, tc := range []struct {
		name    string
		m       Model
		latent  int
		headDim int
		prec    string
		want    float64
	}{
		// 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680.
		{"Llama 3 70B GQA BF16", llama70, 0, 0, PrecisionBF16, 327_680},
		// the same in FP8: 163,840.
		{"Llama 3 70B GQA FP8", llama70, 0, 0, PrecisionFP8, 163_840},
		// 61 layers x (512 + 64) x 2 bytes = 70,272.
		{"DeepSeek-V3 MLA BF16", deepseek, 576, 0, PrecisionBF16, 70_272},
		// 61 x 576 x 1 = 35,136.
		{"DeepSeek-V3 MLA FP8", deepseek, 576, 0, PrecisionFP8, 35_136},
		// off the grid: 7 layers, 3 KV heads of 80: 2 x 7 x 3 x 80 x 1 = 3,360.
		{"odd custom FP8", Model{Layers: 7, Hidden: 400, Heads: 5, KVHeads: 3}, 0, 80, PrecisionFP8, 3_360},
		// head width from hidden / heads = 400 / 5 = 80, BF16: 6,720.
		{"odd custom derived head", Model{Layers: 7, Hidden: 400, Heads: 5, KVHeads: 3}, 0, 0, "", 6_720},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KVBytesPerToken(tc.m, tc.latent, tc.headDim, tc.prec); got != tc.want {
				t.Errorf("got %v bytes per token, want %v", got, tc.want)
			}
		})
	}
}

// TestKVTransferLatencyThenBandwidth: a KV move is latency-bound below
// alpha x bandwidth and bandwidth-bound above it, on every fabric and
// transport. Mutations caught: the fixed latency dropped (small moves
// free); the bytes not divided by the bandwidth (large moves constant).
func TestKVTransferLatencyThenBandwidth(t *testing.T) {
	d, jd := testData(t)
	for _, f := range []perf.Fabric{perf.InfiniBand, perf.Ethernet} {
		for _, via := range []Transport{RDMA, TCP} {
			for _, nics := range []int{1, 3, 8} {
				small1 := KVTime(1_000, nics, 400, f, via, jd, d)
				small2 := KVTime(2_000, nics, 400, f, via, jd, d)
				big1 := KVTime(10e9, nics, 400, f, via, jd, d)
				big2 := KVTime(20e9, nics, 400, f, via, jd, d)
				if r := small2 / small1; r > 1.01 {
					t.Errorf("%s via %d, %d NICs: doubling a 1 kB move takes %.3fx, want ~1 (latency-bound)", f, via, nics, r)
				}
				if r := big2 / big1; math.Abs(r-2) > 0.01 {
					t.Errorf("%s via %d, %d NICs: doubling a 10 GB move takes %.3fx, want ~2 (bandwidth-bound)", f, via, nics, r)
				}
			}
		}
	}
}

// TestRDMABeatsTCPByThePublishedFactor: a node's KV bandwidth over RDMA
// against TCP on the same links, beside Mooncake's published factors
// (FAST'25: 2.4x on 4 x 200G RoCE, 4.6x on 8 x 400G), within 25%.
// Mutations caught: TCP at line rate (factor 1); RDMA with no ceiling
// per node (8 x 400G: 10x); TCP capped per NIC rather than per node.
func TestRDMABeatsTCPByThePublishedFactor(t *testing.T) {
	d, jd := testData(t)
	const bytes = 40e9 // Mooncake's 40 GB payload
	for _, tc := range []struct {
		nics      int
		gbps      float64
		published float64
	}{{4, 200, 2.4}, {8, 400, 4.6}} {
		rdma := KVTime(bytes, tc.nics, tc.gbps, perf.Ethernet, RDMA, jd, d)
		tcp := KVTime(bytes, tc.nics, tc.gbps, perf.Ethernet, TCP, jd, d)
		if got := tcp / rdma; math.Abs(got-tc.published)/tc.published > 0.25 {
			t.Errorf("%d x %gG: RDMA %.2fx faster than TCP, published %.1fx", tc.nics, tc.gbps, got, tc.published)
		}
	}
}

// cluster is an n-GPU cluster of 8-GPU H100 servers with 8 x 400G NICs,
// an NVLink domain of domain GPUs, leaf groups of unit servers at ratio
// oversub.
func cluster(jd *perf.JCTData, domain, unit int, oversub float64) *Cluster {
	return &Cluster{Net: perf.Network{GPUs: 1024, GPUsPerServer: 8, NICsPerServer: 8, NICGbps: 400, Fabric: perf.InfiniBand,
		ServersPerUnit: unit, Oversub: oversub}, GPU: jd.GPUs["h100"], NVLinkDomain: domain}
}

// TestDecodeSlowerWhenEPLeavesNVLink: the same decode (DeepSeek-V3, EP
// 64, batch 128 per GPU) is slower when its EP group spans servers over
// the back end than when it stays in one NVLink domain, and slower
// still when the group crosses an oversubscribed leaf; the gap is of the
// size published comparisons report (GB200 NVL72 against H100 on 400G:
// 2.5-3.4x per GPU, lmsys.org/blog/2025-06-16, of which HBM and FLOPS
// explain part), so between 1.2x and 4x here with the same GPU.
// Mutations caught: the all-to-all always on NVLink; the leaf's ratio
// ignored; remote bytes divided by NVLink's bandwidth.
func TestDecodeSlowerWhenEPLeavesNVLink(t *testing.T) {
	d, jd := testData(t)
	in := Inference{InputTokens: 2000, OutputTokens: 200, KVLatent: 576, WeightPrecision: PrecisionFP8, DecodeEP: 64, DecodeBatch: 128}
	tpot := func(c *Cluster) float64 { return Estimate(in, deepseek, c, jd, d).Decode.TPOTS }
	inside := tpot(cluster(jd, 72, 4, 1))
	beyond := tpot(cluster(jd, 8, 32, 1))
	oversub := tpot(cluster(jd, 8, 4, 4))
	if r := beyond / inside; r < 1.2 || r > 4 {
		t.Errorf("TPOT beyond the NVLink domain %.1f ms, inside %.1f ms: %.2fx, want 1.2-4x", beyond*1e3, inside*1e3, r)
	}
	if oversub <= beyond {
		t.Errorf("TPOT across a 4:1 leaf %.1f ms, not slower than non-blocking %.1f ms", oversub*1e3, beyond*1e3)
	}
}

// TestDecodeBatchTradesSpeedForThroughput: a larger decode batch raises
// the GPU's tokens/s and lengthens each user's TPOT, for a dense and an
// MoE model. Mutation caught: the KV read or the GEMMs not scaling
// with the batch (TPOT flat); the weights read per request (throughput
// flat).
func TestDecodeBatchTradesSpeedForThroughput(t *testing.T) {
	d, jd := testData(t)
	c := cluster(jd, 8, 32, 1)
	for _, tc := range []struct {
		m  Model
		in Inference
	}{
		{llama70, Inference{InputTokens: 1500, OutputTokens: 300, DecodeTP: 8}},
		{deepseek, Inference{InputTokens: 3000, OutputTokens: 700, KVLatent: 576, WeightPrecision: PrecisionFP8, DecodeEP: 32}},
	} {
		prevTPS, prevTPOT := 0.0, 0.0
		for _, b := range []int{1, 7, 33, 129} {
			in := tc.in
			in.DecodeBatch = b
			r := Estimate(in, tc.m, c, jd, d)
			if r.Decode.TokensSPerGPU <= prevTPS || r.Decode.TPOTS <= prevTPOT {
				t.Errorf("%s batch %d: %.0f tokens/s (before %.0f), TPOT %.2f ms (before %.2f)", tc.m.Name, b,
					r.Decode.TokensSPerGPU, prevTPS, r.Decode.TPOTS*1e3, prevTPOT*1e3)
			}
			prevTPS, prevTPOT = r.Decode.TokensSPerGPU, r.Decode.TPOTS
		}
	}
}

// TestRLSyncScalesWithSizeAndBandwidth: with the reload from host
// memory out of the way, a weight sync's network time doubles with the
// model and halves with twice the NIC bandwidth, for broadcast and
// scatter; FP8 halves the bytes (1,040B parameters: 2,080 GB in BF16,
// 1,040 in FP8). Mutations caught: the bytes not scaled by the
// precision; the NICs' speed ignored; a scatter's senders not counted.
func TestRLSyncScalesWithSizeAndBandwidth(t *testing.T) {
	d, jd := testData(t)
	fast := *d
	fast.RL.ReloadGBsPerGPU = 1e9 // the network alone
	for _, mode := range []string{SyncBroadcast, SyncScatter} {
		r := RL{TrainerGPUs: 64, RolloutGPUs: 192, RolloutTP: 16, SyncMode: mode, SyncPrecision: PrecisionFP8}
		c400, c800 := cluster(jd, 8, 64, 1), cluster(jd, 8, 64, 1)
		c800.Net.NICGbps = 800
		base := EstimateRL(r, 1040, c400, jd, &fast)
		if base.SyncGB != 1040 {
			t.Errorf("%s: %v GB in FP8, want 1,040", mode, base.SyncGB)
		}
		if got := EstimateRL(r, 2080, c400, jd, &fast).NetworkS / base.NetworkS; math.Abs(got-2) > 1e-9 {
			t.Errorf("%s: twice the model takes %.3fx, want 2x", mode, got)
		}
		if got := EstimateRL(r, 1040, c800, jd, &fast).NetworkS / base.NetworkS; math.Abs(got-0.5) > 1e-9 {
			t.Errorf("%s: twice the bandwidth takes %.3fx, want 0.5x", mode, got)
		}
		bf := r
		bf.SyncPrecision = PrecisionBF16
		if got := EstimateRL(bf, 1040, c400, jd, &fast).SyncGB; got != 2080 {
			t.Errorf("%s: %v GB in BF16, want 2,080", mode, got)
		}
	}
}

// TestHeldOutAccuracy reports the model against the held-out published
// points and holds it to the 25% on KV-transfer bandwidth and
// decode throughput per GPU. (Weight syncs are reported, not held:
// the checkpoint-engine points are bound by host memory we do not
// model per GPU generation.) Mutation caught: any constant retuned so a
// held-out point drifts past 25%.
func TestHeldOutAccuracy(t *testing.T) {
	d, jd := testData(t)
	cs, err := CheckPoints(d, jd)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		t.Logf("%-64s %-7s fitted=%-5v published %9.2f model %9.2f %+6.1f%%", c.Name, c.Kind, c.Fitted, c.Value, c.Model, 100*c.Err)
		if c.Fitted && math.Abs(c.Err) > 0.02 {
			t.Errorf("%s: fitted point off by %+.1f%%", c.Name, 100*c.Err)
		}
		if !c.Fitted && c.Kind != PointRLSync && math.Abs(c.Err) > 0.25 {
			t.Errorf("%s: held out, off by %+.1f%% (over 25%%)", c.Name, 100*c.Err)
		}
	}
	for _, k := range []string{PointDecode, PointKVRDMA, PointKVTCP, PointRLSync} {
		e, n := HeldOutError(cs, k)
		t.Logf("held out %s: %d points, mean |error| %.1f%%", k, n, 100*e)
	}
}

// TestBaselineThatCannotFitServesNothing: DeepSeek-V3 in FP8 with its
// decode EP kept in an 8-GPU NVLink domain holds 671 GB / 8 = 84 GB of
// weights per H100, over its 80 GB of HBM before any KV cache (by hand),
// so that baseline serves no token: it is marked not fitting, with 0
// tokens/s and no gain, while the planned EP 64 (10.5 GB of weights a
// GPU) fits and has a rate. Mutation caught: a baseline timed as if it
// fit, printing a tokens/s figure and "the back end buys 33x" for a
// decode that cannot load its weights.
func TestBaselineThatCannotFitServesNothing(t *testing.T) {
	d, jd := testData(t)
	in := Inference{InputTokens: 2000, OutputTokens: 200, KVLatent: 576, WeightPrecision: PrecisionFP8, DecodeEP: 64, DecodeBatch: 32}
	r := Estimate(in, deepseek, cluster(jd, 8, 32, 1), jd, d)
	if r.TokensSPerGPU <= 0 {
		t.Fatalf("the planned EP 64 decode serves %.0f tokens/s per GPU, want a rate", r.TokensSPerGPU)
	}
	found := false
	for _, b := range r.Baselines {
		if b.Key != BaselineEPNVLink {
			continue
		}
		found = true
		if b.Fits || b.TokensSPerGPU != 0 || b.Gain != 0 || !strings.Contains(b.Note, "does not fit") {
			t.Errorf("EP kept in NVLink: fits %v, %.0f tokens/s, gain %.2f, note %q; want not fitting, 0, 0 and why",
				b.Fits, b.TokensSPerGPU, b.Gain, b.Note)
		}
	}
	if !found {
		t.Fatal("no EP-in-NVLink baseline for EP 64 on 8-GPU domains")
	}
}
