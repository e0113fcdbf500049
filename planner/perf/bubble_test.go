package perf

import "testing"

// TestBubbleCriticalClasses: the pipeline bubble holds, besides its
// share of the compute, (pp-1)/(vpp·m) of the exposed tensor-, context-
// and expert-parallel communication (Narayanan et al. SC21, eq. 2), not
// the data-parallel gradient exchange nor the pipeline's own sends: a
// step with all five classes (mixtral-8x7b, tp 8, cp 2, ep 8, pp 2)
// sums them by name. Mutations caught: a class's place recorded for the
// data- or pipeline-parallel class, or not recorded for the context- or
// expert-parallel one.
func TestBubbleCriticalClasses(t *testing.T) {
	d := testData(t)
	n := testNetwork(8192)
	w := NewWorkload()
	w.Model, w.CP, w.EP, w.PP = "mixtral-8x7b", 2, 8, 2
	r := resolveOnce(w, d)
	if r.err != nil {
		t.Fatal(r.err)
	}
	w = r.w
	dp := n.GPUs / w.modelParallel()
	micro := microbatches(&w, dp)
	fv := n.jobView(&w, d)
	st := stepOnce(&w, r.gpu, d, &fv, dp, micro, RDMA, nil)
	if len(st.Classes) != maxClasses {
		t.Fatalf("%d classes, want all %d: %+v", len(st.Classes), maxClasses, st.Classes)
	}
	frac := float64(w.PP-1) / float64(w.VPP*micro)
	want := 0.0
	for _, c := range st.Classes {
		if c.Name == ClassTP || c.Name == ClassCP || c.Name == ClassEP {
			want += frac * c.ExposedS
		}
	}
	if st.BubbleCommS != want || want <= 0 {
		t.Errorf("bubble communication %g s, want %g s", st.BubbleCommS, want)
	}
}
