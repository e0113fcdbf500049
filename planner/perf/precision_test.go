package perf

import (
	"math"
	"testing"
)

// FP8 runs the linear layers' GEMMs at the FP8 peak x efficiency_max x
// low_precision_ceiling and leaves attention's score products in BF16.
// By hand, one H100 layer of hidden 4,096, sequence 1,024, tp 1, with the
// shape factor and element-wise work switched off: linear GEMM FLOPs
// 2 x 1,024 x 4,096 x (12,288 + 4,096 + 2 x 16,384) = 412,316,860,416,
// attention 2 x 1,024 x 1,024 x 4,096 x 2 = 17,179,869,184. With the
// test's own ceilings (efficiency_max 0.6, low-precision share 0.9) BF16
// runs all at 989 x 0.6, FP8 the linear part at 1,979 x 0.6 x 0.9.
// Mutations caught: FP8 ignored, attention run in FP8 too, the ceiling
// share left out.
func TestFP8ComputeByHand(t *testing.T) {
	d := *testData(t)
	d.Compute.GEMMDimHalf, d.Compute.ElementwiseBytes, d.Compute.LowPrecisionCeiling = 0, 0, 0.9
	h := *d.GPUs["h100"]
	h.EfficiencyMax, h.ElementwiseBytes = 0.6, 0
	gpu := &h
	w := Workload{ParamsB: 1, ActiveParamsB: 1, Layers: 1, Hidden: 4096, SeqLen: 1024, MicroBatch: 1, TP: 1}
	lin, att := 412316860416.0, 17179869184.0
	for _, c := range []struct {
		precision string
		want      float64
	}{
		{"", 0.6},
		{PrecisionBF16, 0.6},
		{PrecisionFP8, (lin + att) / (989e12 * (lin/(1979e12*0.6*0.9) + att/(989e12*0.6)))},
	} {
		w.Precision = c.precision
		if got := computeEfficiency(&w, gpu, &d); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%q: efficiency %.6f of the BF16 peak, want %.6f", c.precision, got, c.want)
		}
	}
}
