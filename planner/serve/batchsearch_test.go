package serve

import (
	"slices"
	"strings"
	"testing"
)

// Without a decode batch given, the decode runs the largest batch that
// meets the TPOT target and fits in memory: one request more misses the
// target or overflows the HBM. SLOMisses names nothing for it, and names
// the TPOT target a slower batch misses (and a TTFT target set at half
// the estimate), each with estimate and target. By the rule, not by
// number: Llama 3 70B is held by the 60 ms target, DeepSeek-V3 by
// memory. Mutations caught: the bisection stopping one short
// (b+1 meets the target too) or one over (b misses); the target
// ignored (the batch runs to memory); a miss not named, or named when
// met.
func TestDecodeBatchMeetsTheTarget(t *testing.T) {
	d, jd := testData(t)
	c := cluster(jd, 8, 32, 1)
	for _, tc := range []struct {
		m  Model
		in Inference
	}{
		{llama70, Inference{InputTokens: 1500, OutputTokens: 300, DecodeTP: 8, TargetTPOTS: 0.06}},
		{deepseek, Inference{InputTokens: 3000, OutputTokens: 700, KVLatent: 576, WeightPrecision: PrecisionFP8, DecodeEP: 32, TargetTPOTS: 0.06}},
	} {
		r := Estimate(tc.in, tc.m, c, jd, d)
		b := r.Decode.Batch
		if b < 2 || r.Decode.TPOTS > tc.in.TargetTPOTS {
			t.Fatalf("%s: batch %d at TPOT %.1f ms; want at least 2 within 60 ms", tc.m.Name, b, r.Decode.TPOTS*1e3)
		}
		if misses := tc.in.SLOMisses(r); len(misses) != 0 {
			t.Errorf("%s: the chosen batch misses %v", tc.m.Name, misses)
		}
		over := tc.in
		over.DecodeBatch = b + 1
		ro := Estimate(over, tc.m, c, jd, d)
		misses := over.SLOMisses(ro)
		named := slices.ContainsFunc(misses, func(m string) bool { return strings.HasPrefix(m, "TPOT ") && strings.HasSuffix(m, "> 0.060 s") })
		e := estimator{in: over.withDefaults(tc.m, c), m: tc.m, c: c, jd: jd, d: d}
		e.kvB = KVBytesPerToken(tc.m, e.in.KVLatent, e.in.HeadDim, e.in.KVPrecision)
		tooBig := e.memoryGB(b+1, ro.Decode.EP) > c.GPU.HBMGB-jd.Memory.ReserveGB // the search keeps the reserve free
		switch slow := ro.Decode.TPOTS > tc.in.TargetTPOTS; {
		case !slow && !tooBig:
			t.Errorf("%s: batch %d meets the target (TPOT %.2f ms) and fits: the search stopped short", tc.m.Name, b+1, ro.Decode.TPOTS*1e3)
		case slow != named:
			t.Errorf("%s: batch %d runs TPOT %.2f ms, misses named %v", tc.m.Name, b+1, ro.Decode.TPOTS*1e3, misses)
		}
		tight := tc.in
		tight.TargetTTFTS = r.TTFTS / 2
		if m := tight.SLOMisses(r); len(m) != 1 || !strings.HasPrefix(m[0], "TTFT ") {
			t.Errorf("%s: with a TTFT target of half the estimate, misses %v; want the TTFT alone", tc.m.Name, m)
		}
	}
	if def := NewInference(); def.InputTokens != DefaultInputTokens || def.OutputTokens != DefaultOutputTokens || def.DecodeBatch != 0 {
		t.Errorf("NewInference: %+v", def)
	}
}
