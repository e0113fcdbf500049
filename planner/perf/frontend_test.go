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

// TestThreeTierFrontEndPodUnknown: a front end of three tiers, whose pods
// sidenet does not size, charges a packed data-parallel ring at its core
// what leaves its leaf groups (the upper bound used before pods were
// read), so the ring keeps more than the spread pipeline sends beside it,
// which cross every port. By hand, Meta's front end (2 x 100G per server,
// 3,072 servers, leaves of 48 down: 24 servers a leaf group) and a ring of
// 768 ranks one per server: 768/24 = 32 edges of 768 leave a group, 1/24
// of its traffic, far under the leaf's 3:1 (48 down, 16 up), so the ring
// crosses at the crossing's own efficiency while a pipeline send at 3:1
// keeps a third at most.
// Mutation caught: a pod of unknown size taken as one server (every ring
// edge charged at the core: the ring at the pipeline's 0.032 GB/s, the
// Meta scenario's front-end step 292 s instead of about 33 s).
func TestThreeTierFrontEndPodUnknown(t *testing.T) {
	d := testData(t)
	fe := FrontEnd{Ports: 2, Gbps: 100, Down: 48, Up: 16, Spines: 64, Cores: 16}
	n := testNetwork(24576)
	n.Static = true
	w := NewWorkload()
	w.Model, w.PP = "llama3-70b", 4
	j, err := Estimate(Job{Network: n}, w, d, Parts{})
	if err != nil {
		t.Fatal(err)
	}
	rw := WithComputeEfficiency(j.Workload, j.GPU, d)
	v := n.Place(j.Workload, d).OnFrontEnd(fe)
	st := TimeStep(rw, j.GPU, d, v, j.DP, j.Microbatches, TCP)
	var dp, pp TrafficClass
	for _, c := range st.Classes {
		switch c.Name {
		case "data parallel":
			dp = c
		case "pipeline parallel":
			pp = c
		}
	}
	if dp.BusBWGBs <= 3*pp.BusBWGBs {
		t.Errorf("front end of 3 tiers: data-parallel ring %.3f GB/s, pipeline sends %.3f: want the packed ring well above the spread sends", dp.BusBWGBs, pp.BusBWGBs)
	}
	two := fe
	two.Cores = 0
	st2 := TimeStep(rw, j.GPU, d, n.Place(j.Workload, d).OnFrontEnd(two), j.DP, j.Microbatches, TCP)
	if st.StepS < st2.StepS {
		t.Errorf("a third tier made the front end faster: %g s against %g s on two", st.StepS, st2.StepS)
	}
}
