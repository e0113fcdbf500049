package perf

import (
	"fmt"
	"reflect"
	"testing"
)

// TestStepIntoSetsEveryField: a step written into a step kept from
// before (every field of it set to something else) is the step timed
// afresh, field for field, on its own and while solving for other jobs
// sharing the leaves, for a pipelined job (a bubble), one with no
// pipeline (none: the old bubble must go) and one of a single
// data-parallel rank (no gradient exchange: no bus bandwidth).
// Mutations caught (each tried): a field stepInto leaves as it was (the
// bubble, its communication summed onto the last step's, the
// data-parallel bus bandwidth).
func TestStepIntoSetsEveryField(t *testing.T) {
	d := testData(t)
	job, shared := everyEffectJob(d)
	shared.Model, shared.EP, shared.PP = "llama3-70b", 1, 4
	flat := NewWorkload()
	flat.PP = 1
	for _, tc := range []struct {
		name string
		w    Workload
		n    Network
	}{{"llama3-70b pp 4", NewWorkload(), testNetwork(8192)}, {"pp 1", flat, testNetwork(8192)}, {"dp 1", NewWorkload(), testNetwork(32)},
		{"shared leaves", shared, job.Network}} {
		t.Run(tc.name, func(t *testing.T) {
			r := resolveOnce(tc.w, d)
			if r.err != nil {
				t.Fatal(r.err)
			}
			w := r.w
			dp := tc.n.GPUs / max(w.Jobs, 1) / w.modelParallel()
			micro := microbatches(&w, dp)
			fv := tc.n.jobView(&w, d)
			want := stepTime(&w, r.gpu, d, &fv, dp, micro, RDMA, nil)
			var room [maxClasses]TrafficClass
			st := StepTime{Classes: room[:0]}
			junk(reflect.ValueOf(&st).Elem())
			st.Classes = room[:2] // two junk classes
			junk(reflect.ValueOf(&room[0]).Elem())
			junk(reflect.ValueOf(&room[1]).Elem())
			stepTimeInto(&st, &w, r.gpu, d, &fv, dp, micro, RDMA)
			if got, want := fmt.Sprintf("%+v", st), fmt.Sprintf("%+v", want); got != want {
				t.Errorf("written over a step\n%s\nafresh\n%s", got, want)
			}
		})
	}
}

// junk sets every settable number, flag and string of v to a value no
// step has.
func junk(v reflect.Value) {
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Float64:
			f.SetFloat(-7)
		case reflect.Int:
			f.SetInt(77)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("junk")
		}
	}
}

// TestStepSecondsAllocatesNothing: timing a step for its seconds alone
// (a failure what-if per lost part) keeps its classes on the stack.
// Mutation caught: a step's classes grown by append through the step's
// pointer (addClass), which leaks every caller's buffer to the heap.
func TestStepSecondsAllocatesNothing(t *testing.T) {
	d := testData(t)
	w := NewWorkload()
	r := resolveOnce(w, d)
	n := testNetwork(8192)
	v := n.Place(r.w, d)
	dp := n.GPUs / r.w.modelParallel()
	micro := Microbatches(r.w, dp)
	if a := testing.AllocsPerRun(20, func() { StepSeconds(r.w, r.gpu, d, v, dp, micro, RDMA) }); a != 0 {
		t.Errorf("%.0f allocations a step, want none", a)
	}
}
