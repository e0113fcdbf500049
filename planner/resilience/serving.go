package resilience

// Serving is a serving (inference) cluster's pools as the what-if sees
// them: the GPUs of each and one instance's GPUs. A failure takes the
// instances that hold the lost GPUs out of their pool until the part is
// repaired; the others serve on, and nothing restarts from a checkpoint.
type Serving struct {
	PrefillGPUs, PrefillWidth int
	DecodeGPUs, DecodeWidth   int
}

// Serving pools, as FailureCase.Pool names them.
const (
	PoolPrefill = "prefill"
	PoolDecode  = "decode"
)

// ServesOn is what a serving cluster does after a failure: it keeps
// serving on the instances the failure leaves.
const ServesOn Behaviour = "serves on"

// srcServing is the source of the serving behaviour.
const srcServing = "a serving instance spans its GPUs (tensor or expert parallel): losing one takes the instance out; the other instances serve on, with no checkpoint to restart from (disaggregated serving: Splitwise ISCA'24, DistServe OSDI'24)"

// Serves says whether s is a serving cluster's pools.
func (s Serving) Serves() bool { return s.PrefillGPUs+s.DecodeGPUs > 0 }

// poolOut is the GPUs of a pool of gpus GPUs (instances of width GPUs) that lost GPUs
// in it take out of service: the whole instances that hold them.
func poolOut(lost, gpus, width int) int {
	if gpus <= 0 {
		return 0
	}
	return min(gpus, ceilDiv(lost, max(1, width))*max(1, width))
}

// serve turns the cases the job would restart after into what a serving
// cluster does: the lost repair units' GPUs take whole instances out of
// the worst-hit pool (GPUsIdle are those instances' GPUs, PoolLeft the
// share of the pool still serving), and the rest serve on.
func (a *analysis) serve(cases []FailureCase) {
	s := a.in.Serving
	for i := range cases {
		c := &cases[i]
		if c.Behaviour != Restarts {
			continue
		}
		c.Behaviour, c.Fatal, c.Source, c.StepS = ServesOn, false, srcServing, 0
		pre, dec := poolOut(c.unitGPUs, s.PrefillGPUs, s.PrefillWidth), poolOut(c.unitGPUs, s.DecodeGPUs, s.DecodeWidth)
		c.Pool, c.GPUsIdle, c.PoolLeft = PoolDecode, dec, 1-float64(dec)/float64(max(1, s.DecodeGPUs))
		if left := 1 - float64(pre)/float64(max(1, s.PrefillGPUs)); s.PrefillGPUs > 0 && (s.DecodeGPUs == 0 || left < c.PoolLeft) {
			c.Pool, c.GPUsIdle, c.PoolLeft = PoolPrefill, pre, left
		}
		width := s.DecodeWidth
		if c.Pool == PoolPrefill {
			width = s.PrefillWidth
		}
		c.InstancesOut = ceilDiv(c.GPUsIdle, max(1, width))
		// The lost GPUs are in either pool in proportion to its GPUs.
		all := float64(s.PrefillGPUs + s.DecodeGPUs)
		c.servingOut = (float64(pre)*float64(s.PrefillGPUs) + float64(dec)*float64(s.DecodeGPUs)) / all
	}
}
