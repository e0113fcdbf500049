package serve

import (
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestLayoutsAndPlacements: a colocated layout moves no KV and serves
// from every GPU; prefill and decode placed in one NVL72 domain move KV
// over NVLink, faster than RDMA between domains; a colocated RL sync
// stays off the fabric, and a scatter from few trainers is bound by
// what they send.
// Mutations caught: a colocated layout still charged a KV move; the
// same-domain placement ignored; a scatter's trainers sending for free.
func TestLayoutsAndPlacements(t *testing.T) {
	d, jd := testData(t)
	nvl := cluster(jd, 72, 18, 1)
	nvl.GPU = jd.GPUs["gb200"]
	base := Inference{InputTokens: 4000, OutputTokens: 500, KVLatent: 576, WeightPrecision: PrecisionFP8, DecodeEP: 32, DecodeBatch: 64}
	colo := base
	colo.Layout = LayoutColocated
	if r := Estimate(colo, deepseek, nvl, jd, d); r.KV.SPerRequest != 0 || r.PrefillGPUs != nvl.Net.GPUs {
		t.Errorf("colocated: KV %v s, prefill GPUs %d", r.KV.SPerRequest, r.PrefillGPUs)
	}
	same := base
	same.Placement = PlaceSameDomain
	apart := Estimate(base, deepseek, nvl, jd, d)
	inDomain := Estimate(same, deepseek, nvl, jd, d)
	if inDomain.KV.Via != "NVLink" || inDomain.KV.SPerRequest >= apart.KV.SPerRequest {
		t.Errorf("same domain: KV via %s in %v s, between domains %v s", inDomain.KV.Via, inDomain.KV.SPerRequest, apart.KV.SPerRequest)
	}
	r := RL{TrainerGPUs: 16, RolloutGPUs: 512, RolloutTP: 8}
	fast := *d
	fast.RL.ReloadGBsPerGPU = 1e9
	bc := EstimateRL(r, 405, nvl, jd, &fast)
	r.SyncMode = SyncScatter
	// 405B in BF16 is 810 GB: a rollout GPU receives 810 / 8 = 101.25
	// GB; each of 16 trainers sends 64 instances x 810 / 16 = 3,240 GB,
	// 32 times as much at the same per-GPU bandwidth.
	if sc := EstimateRL(r, 405, nvl, jd, &fast); math.Abs(sc.NetworkS/bc.NetworkS-32) > 1e-9 {
		t.Errorf("scatter from 16 trainers to 64 instances %v s, broadcast %v s: want 32x", sc.NetworkS, bc.NetworkS)
	}
	if c := EstimateRL(RL{Colocated: true}, 405, nvl, jd, &fast); c.Mode != "colocated" || c.TCPSyncS != 0 || c.NetworkS >= bc.NetworkS {
		t.Errorf("colocated sync: %+v", c)
	}
}

// TestInputsNameTheirFields: each bad input is one field error naming
// its key under the table. Mutations caught: a range check on the wrong
// field; a choice accepted whatever its spelling.
func TestInputsNameTheirFields(t *testing.T) {
	ok := Inference{InputTokens: 10, OutputTokens: 10}
	for _, tc := range []struct {
		name  string
		edit  func(*Inference)
		field string
	}{
		{"no input", func(in *Inference) { in.InputTokens = 0 }, "inference.input_tokens"},
		{"negative batch", func(in *Inference) { in.DecodeBatch = -1 }, "inference.decode_batch"},
		{"hit rate over one", func(in *Inference) { in.PrefixHitRate = 1.5 }, "inference.prefix_hit_rate"},
		{"KV in FP4", func(in *Inference) { in.KVPrecision = PrecisionFP4 }, "inference.kv_precision"},
		{"weights in int4", func(in *Inference) { in.WeightPrecision = "int4" }, "inference.weight_precision"},
		{"placement", func(in *Inference) { in.Placement = "near" }, "inference.placement"},
		{"negative TTFT", func(in *Inference) { in.TargetTTFTS = -1 }, "inference.target_ttft_s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ok
			tc.edit(&in)
			errs := in.Validate("inference")
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), tc.field+":") {
				t.Errorf("got %v, want one error on %s", errs, tc.field)
			}
		})
	}
	if errs := ok.Validate("inference"); len(errs) != 0 {
		t.Errorf("valid inputs: %v", errs)
	}
	for _, tc := range []struct {
		r     RL
		field string
	}{
		{RL{StepS: -1}, "rl.step_s"}, {RL{RolloutTP: -8}, "rl.rollout_tp"}, {RL{SyncPrecision: "fp4"}, "rl.sync_precision"},
		// Hostile case H48 'rl.step_s = 1e-300'. Caught: a floor of 0,
		// where the sync showed as 100.0% of the time between syncs.
		{RL{StepS: 1e-300}, "rl.step_s"}, {RL{StepS: 0.0009}, "rl.step_s"}, {RL{StepS: math.NaN()}, "rl.step_s"},
	} {
		errs := tc.r.Validate("rl")
		if len(errs) != 1 || len(fielderr.FieldErrors(errs[0])) != 1 || fielderr.FieldErrors(errs[0])[0].Field != tc.field {
			t.Errorf("%+v: got %v, want one error on %s", tc.r, errs, tc.field)
		}
	}
}

// TestParseDataRejectsBadConstants: data/inference.toml with a constant
// out of range, an unknown key or another schema is refused. Mutation
// caught: a share over 1 or a PUE under 1 accepted.
func TestParseDataRejectsBadConstants(t *testing.T) {
	for _, src := range []string{
		"schema = 2\n",
		"schema = 1\nbogus = 1\n",
		"schema = 1\n[prefill]\nmoe_efficiency = 1.5\n",
		"schema = 1\n[prefill]\nmoe_efficiency = 0.5\n[decode]\nhbm_efficiency = 0.8\ncompute_efficiency = 0.2\ndispatch_bytes = 1\ncombine_bytes = 2\n[kv_transfer]\ntcp_cap_gbs_per_node = 1\nrdma_cap_gbs_per_node = 1\n[rl]\nreload_gbs_per_gpu = 1\ndefault_step_s = 1\n[economics]\nlife_years = 5\npue = 0.9\n",
	} {
		if _, err := ParseData([]byte(src)); err == nil {
			t.Errorf("accepted:\n%s", src)
		}
	}
}
