package validation

import (
	"fmt"
	"io/fs"
	"math"

	"fabricplan/internal/datadoc"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// Point is one published measurement or run the JCT model is
// checked against (data/validation.toml).
type Point struct {
	Name      string  `toml:"name"`
	Kind      string  `toml:"kind"`
	Metric    string  `toml:"metric"`
	Published float64 `toml:"published"`
	Unit      string  `toml:"unit"`
	// Fitted names the constants the point was used to choose; empty
	// when it only tests the model.
	Fitted string `toml:"fitted"`
	// Series is the source table or measurement series the point comes
	// from: a point that was not fitted is a neighbour when a fitted
	// point (or a constant, [fitted_series]) shares its series.
	Series string `toml:"series"`
	Source string `toml:"source"`
	// Gap says what the model leaves out that the point shows: a finding
	// shown beside a miss, never a wider tolerance.
	Gap string `toml:"gap"`
	// Class is fitted, neighbour or independent, worked out by Parse.
	Class string `toml:"-"`
	// Scenario is a scenario file's text, for whole runs.
	Scenario string `toml:"scenario"`

	// A single collective's setting.
	GPUsPerServer int            `toml:"gpus_per_server"`
	NICsPerServer int            `toml:"nics_per_server"`
	NICGbps       float64        `toml:"nic_gbps"`
	Fabric        planner.Fabric `toml:"fabric"`
	GPU           string         `toml:"gpu"`
	Ranks         int            `toml:"ranks"`
	Stride        int            `toml:"stride"`
	Transport     string         `toml:"transport"`
	EP            int            `toml:"ep"`
	Bytes         float64        `toml:"bytes"`
	// NVLinkDomain is the GPUs of one NVLink domain (0: the GPU's).
	NVLinkDomain int `toml:"nvlink_domain"`
	// Algorithm forces the all-reduce algorithm ("ring" for a ring-only
	// measurement); "" lets the model pick.
	Algorithm string `toml:"algorithm"`
	// NVLSOff measures with NVLink SHARP disabled (NCCL_NVLS_ENABLE=0):
	// the fastest algorithm without NVLS or the NVLS tree.
	NVLSOff bool `toml:"nvls_off"`
	// QueuePairs is the queue pairs per connection of a routing gain
	// point (0: one).
	QueuePairs float64 `toml:"qps"`
	// LeafDown is a bisection point's servers per leaf switch, a
	// co-location point's server ports per leaf.
	LeafDown int `toml:"leaf_down"`
	// LeafUp, Jobs, Channels and Routing are a co-location point's
	// uplinks per leaf, jobs looping at once, NCCL channels (0: the
	// data's) and "static" (ECMP) or "adaptive" routing.
	LeafUp   int    `toml:"leaf_up"`
	Jobs     int    `toml:"jobs"`
	Channels int    `toml:"channels"`
	Routing  string `toml:"routing"`
}

// Validation point kinds.
const (
	KindStep            = "step"
	KindAllReduceBusBW  = "allreduce_busbw"
	KindAllToAllRDMA    = "alltoall_rdma"
	KindAllToAllLatency = "alltoall_latency"
	KindECMPGain        = "ecmp_gain"
	KindStaticShare     = "static_share"
	KindRoCEOverIB      = "roce_over_ib"
)

// Tolerances, fixed by kind and never per point (issue #47): a whole
// training run within 10% of what was published, a collective or a
// fabric effect within 25%. A point outside is a miss, shown as one.
const (
	RunTolerance        = 0.10
	CollectiveTolerance = 0.25
)

// Tolerance is the relative error a point of kind may have and still
// count as within: RunTolerance for a whole run (step), else
// CollectiveTolerance.
func Tolerance(kind string) float64 {
	if kind == KindStep {
		return RunTolerance
	}
	return CollectiveTolerance
}

// Point classes: what a point's agreement says about the model.
const (
	// ClassFitted: a constant was chosen to meet the point.
	ClassFitted = "fitted"
	// ClassNeighbour: not fitted, but from the same source table or
	// series as a fitted point or constant.
	ClassNeighbour = "neighbour"
	// ClassIndependent: nothing was fitted to its series.
	ClassIndependent = "independent"
)

// Classes lists the point classes in the order validate reports them.
var Classes = []string{ClassFitted, ClassNeighbour, ClassIndependent}

// Result is a point with the model's answer.
type Result struct {
	Point Point
	Model float64
	Err   error // the model could not be run for the point
}

// Error is the model's relative error against the published value.
func (r Result) Error() float64 {
	return (r.Model - r.Point.Published) / r.Point.Published
}

// Within says whether the model is within the tolerance of the point's
// kind.
func (r Result) Within() bool {
	return r.Err == nil && math.Abs(r.Error()) <= Tolerance(r.Point.Kind)
}

// Drifted says whether a point not used to fit any constant is off by
// more than its tolerance (or could not be run). It no longer fails
// validate on its own: the ratchet (data/validation-ratchet.toml) does
// when an error grows.
func (r Result) Drifted() bool { return r.Point.Fitted == "" && !r.Within() }

// Load reads data/validation.toml from fsys.
func Load(fsys fs.FS) ([]Point, error) {
	src, err := fs.ReadFile(fsys, "validation.toml")
	if err != nil {
		return nil, fmt.Errorf("read validation points: %w", err)
	}
	return Parse(src)
}

// Parse decodes and checks the validation points.
func Parse(src []byte) ([]Point, error) {
	var doc struct {
		Schema int `toml:"schema"`
		// FittedSeries names series a constant was fitted to from rows
		// that are not points, with the constant.
		FittedSeries map[string]string `toml:"fitted_series"`
		Point        []Point           `toml:"point"`
	}
	if err := datadoc.Decode("validation points", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	fitted := map[string]bool{}
	for s := range doc.FittedSeries {
		fitted[s] = true
	}
	names := map[string]bool{}
	for i, p := range doc.Point {
		if err := p.check(i); err != nil {
			return nil, err
		}
		if names[p.Name] {
			return nil, fmt.Errorf("validation point %q: named twice", p.Name)
		}
		names[p.Name] = true
		if p.Fitted != "" {
			fitted[p.Series] = true
		}
	}
	for i := range doc.Point {
		p := &doc.Point[i]
		switch {
		case p.Fitted != "":
			p.Class = ClassFitted
		case fitted[p.Series]:
			p.Class = ClassNeighbour
		default:
			p.Class = ClassIndependent
		}
	}
	return doc.Point, nil
}

// Run times every point on the model with cat's constants.
func Run(points []Point, cat *planner.Catalog) []Result {
	out := make([]Result, len(points))
	for i, p := range points {
		v, err := p.model(cat)
		out[i] = Result{Point: p, Model: v, Err: err}
	}
	return out
}

// model is the model's answer for the point.
func (p Point) model(cat *planner.Catalog) (float64, error) {
	d := cat.JCT
	switch p.Kind {
	case KindStep:
		return p.stepMetric(cat)
	case KindRoCEOverIB:
		roce, err := p.stepOn(cat, planner.Ethernet, "tomahawk5")
		if err != nil {
			return 0, err
		}
		ib, err := p.stepOn(cat, planner.InfiniBand, "qm9700")
		if err != nil {
			return 0, err
		}
		return roce.Planned.StepS / ib.Planned.StepS, nil
	case KindAllReduceBusBW:
		gpu := d.GPUs[p.GPU]
		if gpu == nil {
			return 0, fmt.Errorf("unknown GPU %q", p.GPU)
		}
		tr := perf.RDMA
		if p.Transport == "tcp" {
			tr = perf.TCP
		}
		return perf.AllReduceBusBW(d, perf.AllReduceProbe{GPU: gpu, Transport: tr, GPUsPerServer: p.GPUsPerServer, NICsPerServer: p.NICsPerServer,
			NICGbps: p.NICGbps, Fabric: perf.Fabric(p.Fabric), Algorithm: p.Algorithm, NVLinkDomain: p.NVLinkDomain,
			NVLSOff: p.NVLSOff, Ranks: p.Ranks, Stride: p.Stride, Bytes: p.Bytes}), nil
	case KindAllToAllRDMA:
		return perf.AllToAllBusBW(d, p.EP), nil
	case KindAllToAllLatency:
		return perf.AllToAllLatencyUS(d, p.EP, p.Bytes), nil
	case KindECMPGain:
		static := perf.CrossAllReduceBusBW(d, true, 1, p.Ranks)
		if p.Metric == "qp_scaling" { // static routing with every queue pair the connection keeps busy
			return perf.CrossAllReduceBusBW(d, true, d.ECMP.MaxActiveQueuePairs, p.Ranks) / static, nil
		}
		return perf.CrossAllReduceBusBW(d, false, 1, p.Ranks) / static, nil
	case KindStaticShare:
		return perf.CrossAllReduceBusBW(d, true, 1, p.Ranks) / perf.CrossAllReduceBusBW(d, false, 1, p.Ranks), nil
	}
	return p.sharingModel(cat)
}

// sharingModel is the model's answer for the kinds of routing and sharing
// points model does not handle.
func (p Point) sharingModel(cat *planner.Catalog) (float64, error) {
	switch p.Kind {
	case KindRoutingGain:
		return p.routingGain(cat.JCT)
	case KindBisectionShare:
		return p.bisectionShare(cat.JCT), nil
	case KindColocationSlowdown:
		return p.colocationSlowdown(cat)
	case KindColocationBusBW:
		return p.colocationBusBW(cat.JCT)
	}
	return 0, fmt.Errorf("unknown kind %q", p.Kind)
}

// stepOn builds the point's scenario on fabric f with switch sw ("" keeps
// the scenario's) and returns its JCT.
func (p Point) stepOn(cat *planner.Catalog, f planner.Fabric, sw string) (*perf.JCT, error) {
	s, err := planner.ScenarioFromData([]byte(p.Scenario))
	if err == nil {
		err = s.Validate(cat)
	}
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	s = s.WithSystem(cat)
	if f != "" {
		s.Network.Fabric, s.Network.Switch = f, sw
	}
	pl, err := planner.Build(s, cat)
	if err != nil {
		return nil, err
	}
	if pl.JCT == nil {
		return nil, fmt.Errorf("no JCT estimate")
	}
	return pl.JCT, nil
}

// stepMetric is the point's metric of a whole run.
func (p Point) stepMetric(cat *planner.Catalog) (float64, error) {
	j, err := p.stepOn(cat, "", "")
	if err != nil {
		return 0, err
	}
	switch p.Metric {
	case "step_s":
		return j.Planned.StepS, nil
	case "mfu":
		return j.Planned.MFU, nil
	case "tokens_per_s_per_gpu":
		return j.Planned.TokensPerS / float64(j.DP*j.Workload.ModelParallel()), nil
	case "megatron_tflops":
		// Narayanan et al. (SC21) eq. 3: F = 96 B s l h^2 (1 + s/6h +
		// V/16lh), with recomputation, over the step and the GPUs.
		w := j.Workload
		B := float64(w.GlobalBatchTokens) / float64(w.SeqLen)
		s, l, h, v := float64(w.SeqLen), float64(w.Layers), float64(w.Hidden), float64(w.Vocab)
		f := 96 * B * s * l * h * h * (1 + s/(6*h) + v/(16*l*h))
		return f / (j.Planned.StepS * float64(j.DP*w.ModelParallel())) / 1e12, nil
	}
	return 0, fmt.Errorf("unknown metric %q", p.Metric)
}

// Status is the point's verdict as people read it: ok (within the
// tolerance of its kind), MISS (outside it: a known limit of the model,
// kept visible), or why it could not be run.
func (r Result) Status() string {
	switch {
	case r.Err != nil:
		return "cannot run: " + r.Err.Error()
	case !r.Within():
		return StatusMiss
	}
	return "ok"
}

// StatusMiss is the status of a point outside the tolerance of its
// kind.
const StatusMiss = "MISS"

// FittedText is "no", or "yes: " and the constants the point fitted.
func (p Point) FittedText() string {
	if p.Fitted == "" {
		return "no"
	}
	return "yes: " + p.Fitted
}

// check says what point i (from 0) of data/validation.toml lacks.
func (p *Point) check(i int) error {
	if p.Name == "" || p.Source == "" || p.Series == "" || !(p.Published > 0) || math.IsInf(p.Published, 0) {
		return fmt.Errorf("validation point %d (%q): needs a name, a source, a series and a published value above 0", i+1, p.Name)
	}
	ok, known := p.complete()
	if !known {
		return fmt.Errorf("validation point %q: unknown kind %q", p.Name, p.Kind)
	}
	if !ok {
		return fmt.Errorf("validation point %q: %s", p.Name, needs[p.Kind])
	}
	return nil
}

// complete says whether the point has what its kind needs (needs),
// and whether the kind is known.
func (p *Point) complete() (ok, known bool) {
	switch p.Kind {
	case KindStep, KindRoCEOverIB:
		return p.Scenario != "", true
	case KindColocationSlowdown:
		return p.Scenario != "" && (p.Metric == "" || p.Metric == "added"), true
	case KindAllReduceBusBW:
		return p.busBWComplete(), true
	case KindAllToAllRDMA, KindAllToAllLatency:
		return p.EP >= 2 && p.EP <= 1<<20 && p.Bytes >= 0 && !math.IsInf(p.Bytes, 0), true
	case KindECMPGain, KindStaticShare:
		return true, true
	case KindRoutingGain:
		return p.routingGainComplete(), true
	case KindBisectionShare:
		return p.bisectionComplete(), true
	case KindColocationBusBW:
		return p.colocationBusBWComplete(), true
	}
	return false, false
}

// busBWComplete says whether an all-reduce bus bandwidth point has its
// ranks, stride, server, NIC, NVLink domain and bytes in range.
func (p *Point) busBWComplete() bool {
	return p.Ranks >= 2 && p.Ranks <= 1<<20 && p.Stride >= 0 && p.Stride <= 1<<20 &&
		inRange(float64(p.GPUsPerServer), 1, 1024) && inRange(float64(p.NICsPerServer), 1, 1024) && p.NICGbps > 0 && p.NICGbps <= 1e5 &&
		p.NVLinkDomain >= 0 && p.NVLinkDomain <= 1<<20 && inRange(p.Bytes, 0, 1<<40)
}

// needs says what a point of each kind needs besides a name,
// a source, a series and a published value.
var needs = map[string]string{
	KindStep:               "a " + KindStep + " point needs a scenario",
	KindRoCEOverIB:         "a " + KindRoCEOverIB + " point needs a scenario",
	KindColocationSlowdown: "a " + KindColocationSlowdown + " point needs a scenario, and metric \"added\" or none",
	KindAllReduceBusBW:     "needs ranks of 2 or more, gpus_per_server, nics_per_server and nic_gbps",
	KindAllToAllRDMA:       "needs ep of 2 or more and bytes of 0 or more",
	KindAllToAllLatency:    "needs ep of 2 or more and bytes of 0 or more",
	KindRoutingGain:        "needs gpu, ranks of 2 or more, gpus_per_server, nics_per_server, nic_gbps and qps of 0 to 1024",
	KindBisectionShare:     "needs ranks (servers) of 2 or more, nic_gbps and leaf_down of 2 to 1024",
	KindColocationBusBW:    "needs gpu, jobs of 2 or more, ranks of 2 or more, gpus_per_server, nics_per_server, nic_gbps, leaf_down of 2 to 1024, leaf_up, and routing \"static\", \"adaptive\" or none",
}

// inRange says whether v is in [lo, hi] (false for NaN).
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }
