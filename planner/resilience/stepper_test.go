package resilience

import (
	"io/fs"
	"math"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner/perf"
)

// testJob is the default workload (llama 3 70B on H100s, tp 8 x pp 4)
// with a global batch of 4,096 sequences of 8,192 tokens (two per
// replica at 100,000 GPUs), estimated on a non-blocking 400G InfiniBand fabric of gpus GPUs in
// eight-GPU servers, as the facade hands it to the what-if.
func testJob(t testing.TB, gpus int) Job {
	t.Helper()
	src, err := fs.ReadFile(data.FS, "jct.toml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := perf.ParseJCTData(src)
	if err != nil {
		t.Fatal(err)
	}
	n := perf.Network{GPUs: gpus, GPUsPerServer: 8, NICsPerServer: 8, ServerPorts: 8, NICGbps: 400, Fabric: perf.InfiniBand,
		Oversub: 1, SpineRatio: 1, ServersPerUnit: 32, ServersPerPod: 2048, Tiers: 3, Planes: 1}
	w := perf.NewWorkload()
	w.GlobalBatchTokens = 4096 * 8192
	j, err := perf.Estimate(perf.Job{Network: n}, w, d, perf.Parts{})
	if err != nil {
		t.Fatal(err)
	}
	return Job{Network: n, Workload: j.Workload, GPU: j.GPU, Data: d, DP: j.DP, Microbatches: j.Microbatches,
		StepS: j.Planned.StepS, Days: j.Planned.Days}
}

// The what-if places the job on the fabric once and times each failure
// with its own losses: every step equals the step a fresh stepper times
// for that failure alone, and the losses move the step. Mutation
// caught: the placed view keeping the first failure's losses.
func TestStepperPlacesOnce(t *testing.T) {
	in := Input{GPUs: 4096, Job: testJob(t, 4096), HasJob: true}
	losses := []struct{ bw, up float64 }{{0.5, 0}, {0, 0.25}, {0.125, 0.5}, {0, 0}}
	st := newStepper(&in)
	seen := map[float64]bool{}
	for _, l := range losses {
		got := st.time(l.bw, l.up, 0)
		fresh := newStepper(&in)
		if want := fresh.time(l.bw, l.up, 0); got != want {
			t.Errorf("losses %v: step %g s, a fresh stepper's %g s", l, got, want)
		}
		seen[got] = true
	}
	if len(seen) < 3 {
		t.Errorf("the losses give %d steps: the table no longer tells them apart", len(seen))
	}
}

// The what-if times a step once for each set of losses and replicas: at
// 100,000 GPUs under tp 8 x pp 4 (32 GPUs a replica, 3,125 replicas), 8,
// 16 and 32 GPUs idle all leave 3,124 replicas and time one step; 40
// idle leave 3,123, another. Every step equals a fresh, unremembered
// timing. Mutations caught: the table keyed on the replicas but not the
// losses or the micro-batches, or answering for another replica count,
// or found by its losses without its idle GPUs (40 idle answered with
// 8's step).
func TestStepperSharesReplicas(t *testing.T) {
	in := Input{GPUs: 100_000, Job: testJob(t, 100_000), HasJob: true}
	if mp := in.Job.Workload.ModelParallel(); mp != 32 || in.Job.DP != 3125 {
		t.Fatalf("replica of %d GPUs, %d replicas: the hand count needs 32 and 3,125", mp, in.Job.DP)
	}
	st := newStepper(&in)
	calls := []struct {
		bw, up float64
		idle   int
	}{{0, 0, 8}, {0, 0, 16}, {0, 0, 32}, {0, 0, 40}, {0.5, 0, 8}, {0, 0.25, 16}, {0.5, 0, 0}, {0, 0, 8}}
	for _, c := range calls {
		got := st.step(c.bw, c.up, c.idle)
		fresh := newStepper(&in)
		if want := fresh.time(c.bw, c.up, c.idle); got != want {
			t.Errorf("losses %g, %g with %d idle: step %g s, timed alone %g s", c.bw, c.up, c.idle, got, want)
		}
	}
	if st.n != 5 { // 3,124 replicas unhurt; 3,123; 3,124 with each loss; 3,125 with the bandwidth loss
		t.Errorf("%d steps timed for %d failures, want 5", st.n, len(calls))
	}
	if st.step(0, 0, 8) == st.step(0, 0, 40) {
		t.Errorf("3,124 and 3,123 replicas time the same step: the table no longer tells replica counts apart")
	}
}

// Without the JCT constants no step is timed (0: not known), and a job
// left without a whole replica cannot train (+Inf): 64 GPUs with 40 idle
// keep 24, short of a 32-GPU replica. Mutations caught: a step timed
// with nil data, a replica count of 0 timed.
func TestStepperEdges(t *testing.T) {
	job := testJob(t, 64)
	noData := job
	noData.Data = nil
	in := Input{GPUs: 64, Job: noData, HasJob: true}
	if st := newStepper(&in); st.step(0.5, 0, 8) != 0 {
		t.Error("a step timed without the JCT constants")
	}
	in.Job = job
	st := newStepper(&in)
	if s := st.step(0, 0, 40); !math.IsInf(s, 1) {
		t.Errorf("40 of 64 GPUs idle: step %g s, want +Inf (no replica fits)", s)
	}
	if s := st.step(0, 0, 0); s != job.StepS {
		t.Errorf("nothing lost: step %g s, planned %g s", s, job.StepS)
	}
}

// The replicas a restart keeps, by hand, tp 8 x pp 4 (32 GPUs a
// replica): 100,000 GPUs hold 3,125; a server's 8 idle leave 3,124 and a
// leaf's 576 leave 3,107. 1,016 GPUs hold 31 with 24 left over, which
// take a server's place (31 kept) but not a replica's 32 (30). Two jobs
// on 4,096 GPUs hold 64 each; 8 idle GPUs are one job's and leave it 63.
// Mutation caught: the idle GPUs taken from the whole cluster when jobs
// share it (the job keeping its 64).
func TestStepperReplicasByHand(t *testing.T) {
	cases := []struct {
		name       string
		gpus, jobs int
		dp         int // the estimate's
		idle, want int
	}{
		{"100k, nothing idle", 100_000, 1, 3125, 0, 3125},
		{"100k, a server", 100_000, 1, 3125, 8, 3124},
		{"100k, a leaf", 100_000, 1, 3125, 576, 3107},
		{"1016, a server", 1016, 1, 31, 8, 31},
		{"1016, a replica", 1016, 1, 31, 32, 30},
		{"two jobs on 4096, a server", 4096, 2, 64, 8, 63},
		{"64, too few left", 64, 1, 2, 40, 0},
		// ep 8 x etp 8 (tp 8): a stage of tp 8 x dp GPUs holds whole
		// groups of 64 at dp a multiple of 8: 3,124 replicas left fold
		// to 3,120; 30 of 31 to 24.
		{"100k, a server, ep 8", 100_000, 1, 3125, 8, 3120},
		{"1016, a replica, ep 8", 1016, 1, 31, 32, 24},
	}
	job := testJob(t, 64)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := job
			if strings.HasSuffix(tc.name, "ep 8") {
				j.Workload.EP = 8 // Mutation caught: replicas left not folded to whole expert groups
			}
			j.DP, j.Workload.Jobs = tc.dp, tc.jobs
			in := Input{GPUs: tc.gpus, Job: j, HasJob: true}
			st := newStepper(&in)
			if got := st.replicas(tc.idle); got != tc.want {
				t.Errorf("%d GPUs, %d idle: %d replicas, want %d", tc.gpus, tc.idle, got, tc.want)
			}
		})
	}
}

// The micro-batches each replica left runs, by hand (micro_batch 1):
// 2,048 sequences on 32 replicas run 64 each; on 24 (a leaf's unit
// lost) 2,048 / 24 = 85.3, so 85 whole ones; on 31, 66. 3,125 on 3,124
// replicas stay at one (1.0003 holds one whole micro-batch), and 4,096
// on 3,124 keep the planned two (1.31 holds one). Mutations caught: the
// count rounded up (two for 3,125 on 3,124: half the bubble, issue
// #45), fewer micro-batches than planned.
func TestStepperMicrobatchesByHand(t *testing.T) {
	cases := []struct {
		seqs, dp0, micro0, dp, want int
	}{
		{2048, 32, 64, 24, 85},
		{2048, 32, 64, 31, 66},
		{2048, 32, 64, 32, 64},
		{3125, 3125, 1, 3124, 1},
		{4096, 3125, 2, 3124, 2},
	}
	job := testJob(t, 64)
	for _, tc := range cases {
		j := job
		j.Workload.GlobalBatchTokens, j.Workload.MicroBatch = tc.seqs*j.Workload.SeqLen, 1
		j.DP, j.Microbatches = tc.dp0, tc.micro0
		in := Input{GPUs: tc.dp0 * 32, Job: j, HasJob: true}
		st := newStepper(&in)
		if got := st.microbatches(tc.dp); got != tc.want {
			t.Errorf("%d sequences on %d replicas (planned %d x %d): %d micro-batches, want %d", tc.seqs, tc.dp, tc.dp0, tc.micro0, got, tc.want)
		}
	}
}
