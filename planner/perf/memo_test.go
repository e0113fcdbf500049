package perf

import (
	"reflect"
	"sync"
	"testing"
)

// testNetwork is a non-blocking 400G InfiniBand fabric of eight-GPU
// servers with gpus GPUs, two tiers up to 2,048 servers, three above.
func testNetwork(gpus int) Network {
	n := Network{GPUs: gpus, GPUsPerServer: 8, NICsPerServer: 8, ServerPorts: 8, NICGbps: 400, Fabric: InfiniBand,
		Oversub: 1, SpineRatio: 1, ServersPerUnit: 32, ServersPerPod: 2048, Tiers: 2, Planes: 1}
	if gpus > 8*2048 {
		n.Tiers = 3
	}
	return n
}

// TestWorkloadMemoSameAnswers: estimates that share a memo across sizes
// and workloads (as a sweep and the search do, from several goroutines)
// equal estimates without one, field for field, errors included, and a
// memo given other JCT data answers for that data. Mutations caught:
// memory remembered per workload alone (another size's dp: every
// estimate after the first is off), the memo keyed by model name only
// (mixtral's answers for llama), data other than the memo's served from
// it (the changed HBM ignored), the last workload's answer given to
// another workload (the fast path that skips hashing it: every
// workload after the first gets llama's step, or llama 3 8B gets
// llama 3 70B's memory at the same dp).
func TestWorkloadMemoSameAnswers(t *testing.T) {
	d := testData(t)
	other := *d
	other.GPUs = map[string]*GPUSpec{}
	for k, g := range d.GPUs {
		c := *g
		c.HBMGB /= 2 // half the memory: the verdicts change
		other.GPUs[k] = &c
	}
	llama, mixtral, fp8, unknown, small := NewWorkload(), NewWorkload(), NewWorkload(), NewWorkload(), NewWorkload()
	mixtral.Model, mixtral.EP, mixtral.PP = "mixtral-8x7b", 8, 2
	small.Model = "llama3-8b" // llama's dp at every size, less memory
	fp8.Precision = PrecisionFP8
	unknown.GPU = "no-such-gpu"
	type answer struct {
		j   *JCT
		err string
	}
	estimate := func(gpus int, w Workload, d *JCTData, memo *WorkloadMemo) answer {
		j, err := Estimate(Job{Network: testNetwork(gpus)}, w, d, Parts{Fix: true, Detail: true, Memo: memo})
		if err != nil {
			return answer{err: err.Error()}
		}
		return answer{j: j}
	}
	memo := new(WorkloadMemo)
	var wg sync.WaitGroup
	for _, gpus := range []int{96, 1000, 3072, 16384, 24576} {
		for _, c := range []struct {
			name string
			w    Workload
			d    *JCTData
		}{{"llama3-70b", llama, d}, {"mixtral", mixtral, d}, {"fp8", fp8, d}, {"unknown gpu", unknown, d}, {"llama3-8b", small, d}, {"llama3-70b, half the HBM", llama, &other}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, want := estimate(gpus, c.w, c.d, memo), estimate(gpus, c.w, c.d, nil)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%d GPUs, %s: with the memo %+v, without %+v", gpus, c.name, got, want)
				}
			}()
		}
	}
	wg.Wait()
}

// TestWorkloadMemoKeepsNoError: a workload that does not resolve gets a
// new error from the memo each time. Mutation caught: the memo handing
// out the error it stored, which a caller rewrites in place (the CLI
// puts the file's line in a field error), so the next point of a sweep
// or search would show the first one's rewrite.
func TestWorkloadMemoKeepsNoError(t *testing.T) {
	d := testData(t)
	bad := NewWorkload()
	bad.GPU = "no-such-gpu"
	memo := new(WorkloadMemo)
	first := memo.resolve(&bad, d)
	again := memo.resolve(&bad, d)
	if first.err == nil || again.err == nil {
		t.Fatalf("errors %v, %v: want both to name the unknown GPU", first.err, again.err)
	}
	if first.err == again.err {
		t.Error("the memo handed out the same error value twice")
	}
	llama := NewWorkload()
	good := memo.resolve(&llama, d)
	if good.err != nil || memo.resolve(&llama, d).m != good.m {
		t.Errorf("a workload that resolves: %v, want it resolved and remembered", good.err)
	}
}
