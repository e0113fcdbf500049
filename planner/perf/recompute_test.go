package perf

import (
	"math"
	"strings"
	"testing"
)

// Recomputing some layers (recompute_layers, Megatron-LM's block
// method) replays their share of the forward pass: the default job
// (Llama 3 70B, 80 layers) with 20 recomputing has 1 + (20/80)/3 times
// the compute of none; 80 recomputing is recompute = true to the last
// figure, step and memory alike. Memory mixes the two per layer: a
// stage's activations at share s are s·A1 + (1-s)·A0 + (1-s)·F, with A0
// and A1 the activations without and with full recomputation and F one
// layer's full activations, the rebuilt layer (derived here from s =
// 1/2, checked at s = 1/4). More layers than the model has are refused
// on workload.recompute_layers. Mutations caught: the share ignored in
// the compute (ratio 1) or taken whole (4/3), the memory left as none
// recompute or mixed without the rebuilt layer, the range check left
// out.
func TestPartialRecompute(t *testing.T) {
	d := testData(t)
	job := Job{Network: testNetwork(1024)}
	est := func(w Workload) *JCT {
		t.Helper()
		j, err := Estimate(job, w, d, Parts{})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	with := func(layers uint16, all bool) Workload {
		w := NewWorkload()
		w.RecomputeLayers, w.Recompute = layers, all
		return w
	}
	none, some, every, full := est(with(0, false)), est(with(20, false)), est(with(80, false)), est(with(0, true))
	if got, want := some.Planned.ComputeS/none.Planned.ComputeS, 1+0.25/3; math.Abs(got-want) > 1e-12 {
		t.Errorf("20 of 80 layers recomputing: compute x%.6f, want x%.6f", got, want)
	}
	if every.Planned.StepS != full.Planned.StepS || every.Memory != full.Memory {
		t.Errorf("80 of 80 layers: step %.6f s, memory %+v; recompute = true: %.6f s, %+v", every.Planned.StepS, every.Memory, full.Planned.StepS, full.Memory)
	}
	act := func(layers uint16) float64 {
		r := resolveOnce(with(layers, false), d)
		return memoryUse(r.w, r.gpu, d, 8).ActivationsGB
	}
	a0, a1 := act(0), act(80)
	f := 2 * (act(40) - a1/2 - a0/2)
	if !(f > 0) {
		t.Fatalf("one layer's activations %.4f GB from half the layers recomputing", f)
	}
	if got, want := act(20), a1/4+3*a0/4+3*f/4; math.Abs(got-want) > 1e-9 {
		t.Errorf("20 of 80 layers: activations %.4f GB, want %.4f", got, want)
	}
	_, err := Estimate(job, with(81, false), d, Parts{})
	if err == nil || !strings.Contains(err.Error(), "recompute_layers") {
		t.Errorf("81 of 80 layers: error %v", err)
	}
}
