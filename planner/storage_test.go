package planner

import (
	"math"
	"regexp"
	"testing"

	"fabricplan/internal/fielderr"
)

// llama70StateGB is Llama 3 70B's checkpoint by hand: 70.6 billion
// parameters x (2 bytes of BF16 weights + 12 of FP32 master weights and
// two Adam moments) = 988.4 GB.
const llama70StateGB = 70.6 * 14

// The checkpoint write is bounded by the storage's own bandwidth, by
// hand: the DGX H100 default writes 0.488 GB/s read x 0.5 = 0.244 GB/s
// per GPU (SuperPOD RA Table 6), at most 2,000 GB/s (Llama 3's storage
// sustained 2 TB/s): 8,192 GPUs write 1,998.848 GB/s, 8,200 reach the
// ceiling, and so do the XDR example's 100,000 (custom servers, the same
// 0.244 GB/s a GPU: 24,400 GB/s of per-GPU guidance); a
// scenario's [storage] write_gbs replaces the default (300 GB/s below
// 1,016 GPUs' 460 GB/s network path), and a write_gbs above the network
// path leaves the network the bound. Write time = 988.4 GB / the bound:
// 0.4942 s at 2,000 GB/s, 1.9768 s at 500. The
// resilience model reads that time. Mutations caught: the ceiling left
// out (24,400 GB/s and 0.04 s at 100,000 GPUs, issue #45), write_gbs
// ignored, the storage bound taken over a slower network, the derived
// time not fed to the what-if.
func TestCheckpointStorageBound(t *testing.T) {
	cases := []struct {
		name     string
		gpus     int
		writeGBs float64 // [storage] write_gbs; 0: the default
		wantGBs  float64 // 0: the network path's
		bound    string
	}{
		{"8,192 GPUs below the ceiling", 8192, 0, 8192 * 0.244, BoundStorage},
		{"8,200 GPUs at the ceiling", 8200, 0, 2000, BoundStorage},
		{"100,000 GPUs at the ceiling", 100_000, 0, 2000, BoundStorage},
		{"write_gbs 500", 100_000, 500, 500, BoundStorage},
		{"1,016 GPUs, write_gbs 300", 1016, 300, 300, BoundStorage},
		{"write_gbs past the network", 1016, 900_000, 0, BoundNetwork},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(tc.gpus)
			s.Cluster.System = "dgx-h100"
			if tc.gpus > 65_536 { // past three tiers of 64-port NDR: the XDR example
				s = scenarioFile(t, "ib-xdr-100k")
			}
			if tc.writeGBs > 0 {
				s.Storage = &StorageInputs{WriteGBs: tc.writeGBs}
			}
			p := buildNets(t, s)
			c := p.Networks.Checkpoint
			if c == nil {
				t.Fatal("no checkpoint")
			}
			want := tc.wantGBs
			if want == 0 {
				want = c.NetworkGBs
				if c.NetworkGBs >= tc.writeGBs {
					t.Fatalf("network path %g GB/s: the case needs it below write_gbs %g", c.NetworkGBs, tc.writeGBs)
				}
			}
			if math.Abs(c.BandwidthGBs-want) > 1e-9*want || c.BoundBy != tc.bound {
				t.Errorf("checkpoint at %g GB/s bound by %s, want %g by %s", c.BandwidthGBs, c.BoundBy, want, tc.bound)
			}
			if math.Abs(c.StateGB-llama70StateGB) > 1e-9 {
				t.Fatalf("model state %g GB, want %g by hand", c.StateGB, llama70StateGB)
			}
			if w := llama70StateGB / want; math.Abs(c.WriteS-w) > 1e-9*w || p.Resilience.Inputs.Recovery.CheckpointWriteS != c.WriteS {
				t.Errorf("write %g s (what-if reads %g s), want %g s", c.WriteS, p.Resilience.Inputs.Recovery.CheckpointWriteS, w)
			}
		})
	}
}

// A [storage] write_gbs that is not a positive bandwidth up to 1,000,000
// GB/s names the field and the fix. Mutations caught: a negative or NaN
// bandwidth accepted (the write time would be negative or NaN), no upper
// bound (1e300 GB/s writes in no time).
func TestStorageValidation(t *testing.T) {
	cat := testCatalog(t)
	for _, v := range []float64{-1, 0.001, 0.099, math.NaN(), math.Inf(1), 2e6} { // 0.001: a write of 274 hours (caught: only the sign checked)
		s := ibScenario(512)
		s.Storage = &StorageInputs{WriteGBs: v}
		_, err := Build(s, cat)
		found := false
		for _, f := range fielderr.FieldErrors(err) {
			found = found || (f.Field == "storage.write_gbs" && f.Fix != "")
		}
		if !found {
			t.Errorf("write_gbs %g: err %v, want storage.write_gbs with a fix", v, err)
		}
	}
	for _, v := range []float64{0.1, 1e6} {
		s := ibScenario(512)
		s.Storage = &StorageInputs{WriteGBs: v}
		if _, err := Build(s, cat); err != nil {
			t.Errorf("write_gbs %g: %v", v, err)
		}
	}
}

// intervalRule is an interval as the views write it: a whole number of
// seconds or minutes, hours to one decimal, or milliseconds.
var intervalRule = regexp.MustCompile(`^checkpoints every ([1-9][0-9]* (s|min)|[0-9]+\.[0-9] (ms|hours)) \(optimum ([1-9][0-9]* (s|min)|[0-9]+\.[0-9] (ms|hours)), Young ([1-9][0-9]* (s|min)|[0-9]+\.[0-9] (ms|hours))\)$`)

// Every shipped scenario checkpoints at an interval above zero, written
// by the rule (textfmt.Interval): never "0 min". The 100,000-GPU
// example's is set by the 6.3 s each save stalls training, not by its
// 0.5 s background write: about 45 interruptions a day (one every 31.8
// min) give Young's sqrt(2 x 6.3 s x 1,908 s) = 155 s, so the interval
// is a few minutes, written in minutes. Mutations caught: the interval
// written "%.0f min" ("every 0 min", issue #45); the write taken as the
// stall (every 39 s, issue #45 finding 2).
func TestCheckpointIntervalShown(t *testing.T) {
	cat := testCatalog(t)
	for _, name := range []string{"ib-ndr-1k", "dgx-h100-superpod-4su", "eth-800g-16k", "meta-roce-24k", "gb200-nvl72-superpod", "gb300-nvl72-4k", "ib-xdr-100k", "alibaba-hpn-pod", "rail-only-512"} {
		p, err := Build(scenarioFile(t, name), cat)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g := p.Resilience.Goodput
		if text := g.CheckpointText(); g.IntervalMin <= 0 || !intervalRule.MatchString(text) {
			t.Errorf("%s: interval %g min shown as %q", name, g.IntervalMin, text)
		}
		if name == "ib-xdr-100k" && (g.IntervalMin < 1.5 || g.YoungMin < 2.4 || g.YoungMin > 2.8 || !regexp.MustCompile(`^checkpoints every [1-9] min `).MatchString(g.CheckpointText())) {
			t.Errorf("%s: %q (Young %.2f min), want Young 2.6 min and a few minutes", name, g.CheckpointText(), g.YoungMin)
		}
	}
}
