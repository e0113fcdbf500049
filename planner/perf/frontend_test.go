package perf

import "testing"

// TestFrontEndForgetsTheBackEndsShape: the job timed on the front end
// depends on the front end's ports, speed and leaves, never on how the
// back end was built. The same 24,576-GPU job on one front end (2 x 100G
// per server, 48 down and 16 up per leaf, two tiers), behind a plain
// rail-optimized back end and behind Meta's (2-server ToRs: 16 down and
// 16 up per leaf, spines at 7:1, 3,072-GPU pods, uplinks twice the port
// speed, rail-only), must step in the same time.
// Mutation caught: OnFrontEnd keeping the back end's leaf ports as
// built, spine ratio, pods, uplink speed or rails, or the job's uplinks
// counted on the back end's ports and ratio (the Meta scenario's front
// end ran its ring at 0.013 GB/s, a hundredth of its links).
func TestFrontEndForgetsTheBackEndsShape(t *testing.T) {
	d := testData(t)
	fe := FrontEnd{Ports: 2, Gbps: 100, Down: 48, Up: 16, Spines: 24}
	plain := testNetwork(24576)
	plain.Static = true
	meta := plain
	meta.Tiers, meta.LeafDown, meta.LeafUp = 3, 16, 16
	meta.SpineRatio, meta.ServersPerPod, meta.UpSpeedRatio = 7, 384, 2
	meta.RailOnly, meta.Rails = true, 8
	w := NewWorkload()
	w.Model, w.PP = "llama3-70b", 8
	j, err := Estimate(Job{Network: plain}, w, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	rw := WithComputeEfficiency(j.Workload, j.GPU, d)
	step := func(n Network) float64 {
		v := n.Place(j.Workload, d).OnFrontEnd(fe)
		return StepSeconds(rw, j.GPU, d, v, j.DP, j.Microbatches, TCP)
	}
	a, b := step(plain), step(meta)
	if a != b {
		t.Errorf("front-end step %g s behind a plain back end, %g s behind Meta's", a, b)
	}
	if back := StepSeconds(rw, j.GPU, d, plain.Place(j.Workload, d), j.DP, j.Microbatches, TCP); a < back {
		t.Errorf("2 x 100G front end %g s faster than the 8 x 400G back end %g s over TCP", a, back)
	}
}
