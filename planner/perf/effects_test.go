package perf

import (
	"math"
	"testing"
)

// TestComputeEfficiencyShapes: larger micro-batches and hidden sizes
// raise the efficiency, wider tensor parallelism lowers it (narrower
// matrices). One shape is worked by hand.
func TestComputeEfficiencyShapes(t *testing.T) {
	d := testData(t)
	base := Workload{Hidden: 4096, SeqLen: 2048, MicroBatch: 1, TP: 1, Layers: 32, ParamsB: 7, ActiveParamsB: 7}
	gpu := d.GPUs["a100"]
	eff := func(change func(*Workload)) float64 {
		w := base
		change(&w)
		return computeEfficiency(&w, gpu, d)
	}
	b1 := eff(func(*Workload) {})
	if b4 := eff(func(w *Workload) { w.MicroBatch = 4 }); b4 <= b1 {
		t.Errorf("micro-batch 4: %.4f not above micro-batch 1's %.4f", b4, b1)
	}
	if t8 := eff(func(w *Workload) { w.TP = 8 }); t8 >= b1 {
		t.Errorf("tp 8: %.4f not below tp 1's %.4f", t8, b1)
	}
	if h := eff(func(w *Workload) { w.Hidden = 16384 }); h <= b1 {
		t.Errorf("hidden 16384: %.4f not above hidden 4096's %.4f", h, b1)
	}
	// By hand, h 4096, s 2048, b 1, tp 1 on A100 (312 TFLOP/s, ceiling
	// 0.70, 2.039 TB/s, half-dimension 128, 650 bytes per element):
	// products (m, n, k, times): (2048, 12288, 4096, 1), (2048, 4096,
	// 4096, 1), (2048, 2048, 4096, 2), (2048, 16384, 4096, 1),
	// (2048, 4096, 16384, 1). Shape factors (d/(d+128) per dimension)
	// 0.9032, 0.8850, 0.8590, 0.9056, 0.9056; FLOPs 206.2, 68.7, 68.7,
	// 274.9, 274.9 G (893.4 G). Each at 218.4 TFLOP/s x its factor,
	// times 3 for forward and backward: 13.64 ms; element-wise 650 x
	// 2048 x 4096 B / 2.039 TB/s = 2.67 ms; efficiency 3 x 893.4 G /
	// (312 T x 16.31 ms) = 0.5265. Mutations: the shape factor left out
	// (0.58), the element-wise term left out (0.62).
	if math.Abs(b1-0.5265) > 0.001 {
		t.Errorf("efficiency %.4f, by hand 0.5265", b1)
	}
}
