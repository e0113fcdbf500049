package perf

import (
	"fmt"
	"slices"
	"strconv"

	"fabricplan/internal/textfmt"
)

// Effect is what one property of the fabric, or of the job's place on
// it, adds to the step time over RDMA: the step as planned minus the
// step with that property made ideal (negative: it saves time).
type Effect struct {
	Name   string  `json:"name"`
	Detail string  `json:"detail"`
	DeltaS float64 `json:"delta_s"`
}

// Effect names.
const (
	EffectBackEnd   = "back end, all effects"
	EffectOversub   = "oversubscribed tier"
	EffectECMP      = "static routing collisions"
	EffectBackdrop  = "background load"
	EffectInNetwork = "in-network reduction"
	EffectSpread    = "spread placement"
	EffectOtherJobs = "other jobs on shared uplinks"
	EffectExperts   = "expert all-to-all beyond NVLink"
	EffectNVLink    = "NVLink domain"
	EffectCritical  = "TP/EP on the pipeline's critical path"
	EffectRouter    = "MoE router"
	EffectPermute   = "MoE token permutation"
	EffectGrouped   = "MoE grouped GEMM per expert"
	EffectImbalance = "MoE load imbalance"
	EffectQuantize  = "MoE FP8/FP4 casts"
)

// fabricEffects breaks the planned step st down by fabric effect: each is
// timed again with that one effect removed. r is st's classes' reach
// (reachOf).
// out is room for them (nil: new room).
func fabricEffects(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int, st *StepTime, r stepReach, out []Effect) []Effect {
	leaves, crossing, experts := r.leaves, r.crossing, r.experts
	domain := nvlinkDomain(fv.nvlinkDomain, gpu, fv.gpusPerServer)
	if !leaves.any() && st.BubbleCommS == 0 && domain <= 8 {
		return nil
	}
	t := effectTimer{w: w, gpu: gpu, d: d, dp: dp, micro: micro, stepS: st.StepS,
		out: out[:0]}
	if fv.sharing() {
		solved := *fv
		solved.othersBusy = st.crossingS() / st.StepS // as solved for st
		if fv.aligned {
			solved.othersBusy = 1 // they cross whenever this job does
		}
		fv = &solved
	} else {
		// st was timed once on fv as it is here (stepTime), so a change
		// that cannot reach a class leaves it as st has it.
		t.planned = st
	}
	if out == nil {
		t.out = make([]Effect, 0, maxEffects)
	}
	if leaves.any() { // an ideal back end cannot reach a class inside the NVLink domain
		t.withoutIn(fv, EffectBackEnd, "against a back end as fast as NVLink, with no latency, oversubscription, collisions or sharing", leaves, idealBackEnd)
	}
	if crossing.any() {
		crossingEffects(&t, fv, crossing)
	}
	if detail := inNetworkDetail(st); detail != "" {
		t.withoutIn(fv, EffectInNetwork, detail, inNetworkReach(w), noInNetwork)
	}
	if experts {
		t.withoutIn(fv, EffectExperts, expertsDetail(w.EP, domain), expertsReach, expertsOnNVLink)
	}
	if domain > 8 {
		t.without(fv, EffectNVLink, "the "+strconv.Itoa(domain)+"-GPU domain against an 8-GPU server's (negative: time saved)", serverDomain)
	}
	if st.BubbleCommS > 0 {
		t.out = append(t.out, Effect{Name: EffectCritical, Detail: "collectives each pipeline stage waits for, repeated in the bubble", DeltaS: st.BubbleCommS})
	}
	return t.out
}

// The MoE effects' details: fixed text, so the breakdown of an MoE job
// formats nothing more (a dense JCT estimate with its breakdown stays
// under 5 µs, BenchmarkJCT; an MoE one near it).
const (
	routerDetail    = "the router's [tokens x hidden] x [hidden x experts] product per layer, at BF16 speed in every precision"
	permuteDetail   = "each token's top-k copies permuted to their experts and back, memory-bound at HBM bandwidth, BF16 in every precision"
	groupedDetail   = "grouped GEMM efficiency by tokens per expert (DeepGEMM's published curve) against dense GEMMs, plus [moe] kernel_launch_us per grouped kernel (one per product and pass, whatever the experts on the GPU; published launch cost)"
	imbalanceDetail = "the expert-parallel group waits for its most loaded GPU: max/mean load of uniform top-k routing (a lower bound)"
	quantizeDetail  = "each expert product's input and output gradient cast from BF16 to FP8 or FP4 (row- and column-wise), memory-bound at HBM bandwidth"
	// tokenDropDetail replaces imbalanceDetail with workload.token_drop.
	tokenDropDetail = "none: token_drop drops and pads each expert's tokens to its mean load (Megatron-Core capacity factor 1), so no GPU waits for a more loaded one"
	// oneExpertDetail replaces groupedDetail on a GPU holding one expert.
	oneExpertDetail = "one expert on the GPU: its products run as dense GEMMs of their shapes, no grouped curve; [moe] grouped_gemm_us per product and pass on a stack of one GEMM per expert (fitted on dev runs), else kernel_launch_us (published launch cost)"
	// perExpertDetail replaces groupedDetail on a stack that runs one
	// GEMM per expert ([frameworks] expert_gemm = "per_expert").
	perExpertDetail = "one GEMM per expert (the stack's expert_gemm, Transformer Engine's GroupedLinear): dense GEMMs of their shapes, no grouped curve; [moe] grouped_gemm_us per expert, product and pass (fitted on dev runs)"
)

// moeEffects appends to out what each part of an MoE layer adds to the
// planned step st: its share of the layer's compute seconds, of the
// step's compute and of the bubble's compute (the step without that
// part, the overlap windows held). None for a dense layer or a compute
// efficiency the workload gives.
func moeEffects(w *Workload, gpu *GPUSpec, d *JCTData, st *StepTime, out []Effect) []Effect {
	if w.ComputeEfficiency != 0 || expertWidth(w) <= 0 {
		return out
	}
	l := layerCompute(w, gpu, d)
	per := (st.ComputeS + st.BubbleS - st.BubbleCommS) / l.seconds // step seconds per layer second
	grouped, wait := groupedDetail, imbalanceDetail
	switch {
	case w.Experts <= max(w.EP, 1):
		grouped = oneExpertDetail
	case !d.groupedExperts(w):
		grouped = perExpertDetail
	}
	if w.TokenDrop {
		wait = tokenDropDetail
	}
	out = append(out,
		Effect{Name: EffectRouter, Detail: routerDetail, DeltaS: per * l.moe.router},
		Effect{Name: EffectPermute, Detail: permuteDetail, DeltaS: per * l.moe.permute},
		Effect{Name: EffectGrouped, Detail: grouped, DeltaS: per * l.moe.grouped},
		Effect{Name: EffectImbalance, Detail: wait, DeltaS: per * l.moe.imbalance},
	)
	if l.moe.quantize > 0 { // FP8 and FP4 only
		out = append(out, Effect{Name: EffectQuantize, Detail: quantizeDetail, DeltaS: per * l.moe.quantize})
	}
	return out
}

// viewChange is one property of the fabric, or of the job's place on
// it, made ideal: a value, not a function, so the view it changes stays
// on the stack (a view passed to a function value escapes).
type viewChange uint8

// The changes the breakdown times.
const (
	idealBackEnd    viewChange = iota // as fast as NVLink, no latency, oversubscription, collisions or sharing
	noOversub                         // 1:1 and no uplink lost
	noCrossingLoss                    // the balanced crossing at a full link
	adaptive                          // flows balanced, not hashed
	noBackdrop                        // no background load
	packed                            // not spread
	othersIdle                        // the other jobs never crossing
	noInNetwork                       // no SHARP, no NVLink SHARP, no forced algorithm
	expertsOnNVLink                   // expert traffic kept inside the NVLink domain
	serverDomain                      // an 8-GPU server's NVLink domain
)

// apply makes the change to v.
func (c viewChange) apply(v *fabricView) {
	switch c {
	case idealBackEnd:
		v.ideal = true
	case noOversub:
		v.oversub, v.upLost = 1, 0
	case noCrossingLoss:
		v.crossEff = 1
	case adaptive:
		v.static = false
	case noBackdrop:
		v.bgLeaf, v.bgSpine = 0, 0
	case packed:
		v.spread = false
	case othersIdle:
		v.othersBusy = 0
	case noInNetwork:
		v.sharp, v.noNVLS, v.algorithm = false, true, ""
	case expertsOnNVLink:
		v.epOnNVLink = true
	case serverDomain:
		v.nvlinkDomain = 8
	}
}

// on is v with the change made.
func (c viewChange) on(v fabricView) fabricView {
	c.apply(&v)
	return v
}

// inNetworkReach is the classes noInNetwork can change in a step of w:
// those that all-reduce (tensor parallelism; data parallelism without a
// sharded optimizer), the only collective that reads SHARP, NVLS or the
// forced algorithm. Groups, sends, all-to-alls and reduce-scatters do
// not read them.
func inNetworkReach(w *Workload) classSet {
	if w.zeroStage() <= 0 {
		return classBit(ClassTP) | classBit(ClassDP)
	}
	return classBit(ClassTP)
}

// expertsReach is the classes expertsOnNVLink can change: expert
// parallelism alone reads it.
var expertsReach = classBit(ClassEP)

// sharing says whether this job's step is solved for other jobs' time
// crossing the leaves it shares with them (spread, more than one job:
// stepTime).
func (fv *fabricView) sharing() bool { return fv.spread && fv.jobs > 1 }

// maxEffects is room for every effect one breakdown can hold: each
// named fabric effect once. An MoE layer's four (five in FP8 or FP4) go after them and may
// grow the list past it (room for them too would lift a JCT out of its
// size class, TestJCTSizeClass).
const maxEffects = 11

// effectTimer times a planned step again with one effect of its fabric
// removed at a time. It lives on its caller's stack: the steps it times
// keep their traffic classes in scratch, read by none. It reads the
// workload in place, never changing it: the estimate's resolution (a
// copy was a fiftieth of an estimate). The view as planned (the other
// jobs' crossing time as solved) each timing is given, and changes a
// copy of: held in the timer, the caller's view would leak to the heap
// with every pointer the timer holds (what a step's classes hold and
// the effects' list leak).
type effectTimer struct {
	w         *Workload
	gpu       *GPUSpec
	d         *JCTData
	dp, micro int
	stepS     float64 // the planned step
	out       []Effect
	scratch   [maxClasses]TrafficClass
	// planned is the planned step when it was timed once on fv (not
	// solved for sharing; else nil): withoutIn copies from it the
	// classes a change cannot reach.
	planned *StepTime
}

// without times the step again on fv (the view as planned, left as it
// is) with the view change makes and records the difference as the
// named effect, which it returns.
func (t *effectTimer) without(fv *fabricView, name, detail string, change viewChange) *Effect {
	return t.withoutIn(fv, name, detail, ^classSet(0), change)
}

// withoutIn is without for a change that can reach only the classes of
// reach: the planned step's others are copied, not timed again.
func (t *effectTimer) withoutIn(fv *fabricView, name, detail string, reach classSet, change viewChange) *Effect {
	v := *fv
	change.apply(&v)
	alt := StepTime{Classes: t.scratch[:0]}
	if t.planned != nil && reach != ^classSet(0) {
		stepInto(&alt, t.w, t.gpu, t.d, &v, t.dp, t.micro, RDMA, &stepReuse{from: t.planned, reach: reach})
	} else {
		stepTimeInto(&alt, t.w, t.gpu, t.d, &v, t.dp, t.micro, RDMA)
	}
	t.out = append(t.out, Effect{Name: name, Detail: detail, DeltaS: t.stepS - alt.StepS})
	return &t.out[len(t.out)-1]
}

// classSet is a set of traffic classes as bits of classBit, in the
// order the step builds them (so a list of names keeps that order).
type classSet uint8

// classOrder is the order a step builds its classes in.
var classOrder = [maxClasses]string{ClassTP, ClassDP, ClassPP, ClassCP, ClassEP}

func classBit(name string) classSet {
	if i := classIndex(name); i >= 0 {
		return 1 << i
	}
	return 0
}

// classIndex is name's place in classOrder (-1: none). A switch on the
// constants compares a word or two where a loop called the runtime's
// string compare for each (classBit is asked in every step).
func classIndex(name string) int {
	switch name {
	case ClassTP:
		return 0
	case ClassDP:
		return 1
	case ClassPP:
		return 2
	case ClassCP:
		return 3
	case ClassEP:
		return 4
	}
	return -1
}

func (s classSet) any() bool { return s != 0 }

// stepReach is classReach's answer for a step.
type stepReach struct {
	leaves, crossing classSet
	experts          bool
}

// reachOf is classReach of st, as one value (an estimate works it out
// once, for its baseline and its effects: placing its classes' names
// is a switch on strings each).
func reachOf(st *StepTime) (r stepReach) {
	r.leaves, r.crossing, r.experts = classReach(st)
	return r
}

// classReach reports the traffic classes of st that leave the NVLink
// domain (the only ones an ideal back end can change: a group inside
// one domain crosses no network), the classes crossing the tier above
// the leaves (the only ones a change of that tier can: its ratio, lost
// uplinks, crossing loss, hashing or background load reach a group's
// share only where it crosses, crossOversub, coreLoad and hashedShare),
// and whether expert traffic leaves the domain.
func classReach(st *StepTime) (leaves, crossing classSet, experts bool) {
	for i := range st.Classes {
		c := &st.Classes[i]
		if !c.CrossesFabric && !c.CrossesTier {
			continue
		}
		b := classBit(c.Name) // once: a switch on strings
		if c.CrossesFabric {
			leaves |= b
		}
		if c.CrossesTier {
			crossing |= b
		}
		experts = experts || (b == 1<<epAt && c.CrossesFabric)
	}
	return leaves, crossing, experts
}

// crossingEffects times the effects of the tier above the leaves:
// oversubscription, static hashing, background traffic, spreading over
// shared leaves and the other jobs on them.
func crossingEffects(t *effectTimer, fv *fabricView, crossing classSet) {
	if load := fv.crossOversub(); load > 1 {
		e := t.withoutIn(fv, EffectOversub, crossing.String()+" cross it at "+fmtG2(load)+":1 (the leaf's "+fmtG2(fv.oversub)+":1 x "+fmtF0(100*fv.crossLoad())+"% of its ports busy)",
			crossing, noOversub)
		if e.DeltaS == 0 { // what leaves the leaf groups fits their uplinks (a packed ring's one edge per group)
			t.out = t.out[:len(t.out)-1]
		}
	}
	if fv.crossingEfficiency() < 1 {
		t.withoutIn(fv, EffectCrossing, crossingDetail(crossing, fv.crossingEfficiency(), fv.spray), crossing, noCrossingLoss)
	}
	if fv.ecmp() {
		t.withoutIn(fv, EffectECMP, staticDetail(*fv), crossing, adaptive)
	}
	if fv.bgLeaf > 0 || fv.bgSpine > 0 {
		t.withoutIn(fv, EffectBackdrop, "other traffic holds "+fmtF0(100*fv.bgLeaf)+"% of the leaf uplinks and "+fmtF0(100*fv.bgSpine)+"% of the spine uplinks",
			crossing, noBackdrop)
	}
	if fv.spread {
		e := t.without(fv, EffectSpread, "every group leaving the NVLink domain crosses the tier above the leaves; packed, only groups wider than a leaf group would",
			packed)
		if e.DeltaS < 0 {
			e.Detail = "packed, this job fills its own leaves' uplinks; spread over leaves shared with " + strconv.Itoa(fv.jobs-1) +
				" other jobs (crossing " + fmtF0(100*fv.othersBusy) + "% of the time), it gets more of them"
		}
	}
	if fv.spread && fv.jobs > 1 {
		detail := strconv.Itoa(fv.jobs) + " jobs share the leaves, in phase: the others cross whenever this one does"
		if !fv.aligned {
			detail = strconv.Itoa(fv.jobs) + " jobs share the leaves; the others cross the tier " + fmtF0(100*fv.othersBusy) + "% of the time, in random phase"
		}
		t.without(fv, EffectOtherJobs, detail,
			othersIdle)
	}
}

// crossingDetail is the tier-crossing effect's detail for the classes
// crossing at efficiency eff, written into one buffer (%.0f by strconv):
// joined with + it was a string for the number and another for the
// whole. With spray the packets are sprayed over every path, and the
// detail says the figure is a sprayed fabric's measurement.
func crossingDetail(crossing classSet, eff float64, spray bool) string {
	const rest = "% of a link even balanced: flows from many leaves queue at each spine (under one leaf they would not)"
	const sprayRest = "% of a link, packets sprayed over every path (no hash collisions; Spectrum-X's measured effective bandwidth at scale): they still queue at each spine"
	var buf [256]byte // on the stack: the five classes' names, the number and rest fit
	b := append(buf[:0], crossing.String()...)
	b = append(b, " cross it at "...)
	b = strconv.AppendFloat(b, 100*eff, 'f', 0, 64)
	if spray {
		b = append(b, sprayRest...)
		return string(b)
	}
	b = append(b, rest...)
	return string(b)
}

// expertsDetail is the experts effect's detail for ep ranks over
// domain-GPU NVLink domains, written into one stack buffer (a + join of
// five parts cost twice the appends).
func expertsDetail(ep, domain int) string {
	var buf [96]byte
	b := append(buf[:0], "ep "...)
	b = strconv.AppendInt(b, int64(ep), 10)
	b = append(b, " spans more than one "...)
	b = strconv.AppendInt(b, int64(domain), 10)
	b = append(b, "-GPU NVLink domain"...)
	return string(b)
}

// fmtF0 and fmtG2 are fmt's %.0f and %.2g without its interface boxing
// and reflection: the breakdown's details are built for every shown
// estimate.
func fmtF0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
func fmtG2(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

// String names the classes in step order: "data parallel and pipeline
// parallel" (classSetNames).
func (s classSet) String() string {
	if int(s) < len(classSetNames) {
		return classSetNames[s]
	}
	return s.join()
}

// classSetNames is every set's String, joined once: the breakdown names
// the crossing classes in every shown estimate, and joining them was an
// allocation each time.
var classSetNames = func() (t [1 << maxClasses]string) {
	for s := range t {
		t[s] = classSet(s).join()
	}
	return t
}()

// join names the classes of s in step order.
func (s classSet) join() string {
	var names [maxClasses]string
	n := 0
	for i, name := range classOrder {
		if s&(1<<i) != 0 {
			names[n] = name
			n++
		}
	}
	return textfmt.JoinAnd(names[:n])
}

// BreakdownRow is one line of a step-time breakdown: a part of the step,
// or an effect the parts already contain.
type BreakdownRow struct {
	Part    string
	Seconds float64
	Effect  bool // an effect: a share of the rows above, signed
	Detail  string
}

// Breakdown is the planned RDMA step part by part (compute, bubble, each
// traffic class's exposed time, their sum), then the fabric effects
// contained in them.
func (j *JCT) Breakdown() []BreakdownRow {
	st := j.Planned
	rows := []BreakdownRow{
		{Part: "compute", Seconds: st.ComputeS, Detail: fmt.Sprintf("MFU %.1f%%; efficiency from the GEMM shapes on each GPU", 100*st.MFU)},
	}
	if e := j.Workload.ComputeEfficiency; e > 0 {
		rows[0].Detail = fmt.Sprintf("MFU %.1f%%; efficiency %.0f%% of peak, as the workload sets it", 100*st.MFU, 100*e)
	}
	if f := j.Workload.Framework; f != "" {
		rows[0].Detail += "; stack " + f + ": its kernels and the overlaps not set (data/jct.toml [frameworks])"
	}
	if st.BubbleS > 0 {
		rows = append(rows, BreakdownRow{Part: "pipeline bubble", Seconds: st.BubbleS,
			Detail: fmt.Sprintf("pp %d, %s, vpp %d%s", j.Workload.PP, textfmt.Plural(j.Microbatches, "micro-batch"), j.Workload.VPP, j.Workload.vppOrigin())})
	}
	for _, c := range st.Classes {
		where := "NVLink"
		switch {
		case c.CrossesTier:
			where = "across the tier above the leaves"
		case c.CrossesFabric:
			where = "back end"
		}
		hidden := "none hidden"
		if c.TimeS > c.ExposedS {
			hidden = fmt.Sprintf("%s of %s hidden", textfmt.Seconds(c.TimeS-c.ExposedS), textfmt.Seconds(c.TimeS))
		}
		hidden += j.Workload.windowNote(c) + j.Workload.overlapOrigin(c.Name)
		how := c.Protocol
		if c.Algorithm != "" {
			how = c.Algorithm + "/" + c.Protocol
		}
		rows = append(rows, BreakdownRow{Part: c.Name + " (exposed)", Seconds: c.ExposedS,
			Detail: fmt.Sprintf("%s; %d ranks at %.0f GB/s bus bandwidth (%s), %s", hidden, c.Ranks, c.BusBWGBs, how, where)})
	}
	rows = append(rows, BreakdownRow{Part: "step", Seconds: st.StepS, Detail: fmt.Sprintf("%s over TCP/IP on the same links", textfmt.Seconds(j.Baseline.StepS))})
	for _, e := range j.Effects {
		rows = append(rows, BreakdownRow{Part: e.Name, Seconds: e.DeltaS, Effect: true, Detail: e.Detail})
	}
	return rows
}

// Label is the row's part as shown under the breakdown's heading: an
// effect indented under the parts it is a share of.
func (r BreakdownRow) Label() string {
	if r.Effect {
		return "   effect: " + r.Part
	}
	return r.Part
}

// Time is the row's seconds as shown: signed for an effect.
func (r BreakdownRow) Time() string {
	if r.Effect {
		return textfmt.SignedSeconds(r.Seconds)
	}
	return textfmt.Seconds(r.Seconds)
}

// staticDetail says what static routing costs the crossing flows. It is
// written into one buffer (fmt's %.0f, %.3g and %.2g by fmtF0's
// strconv forms, the uplinks grouped as textfmt.Int groups them): with
// fmt it was a tenth of an estimate with every effect on.
func staticDetail(fv fabricView) string {
	f := fv.flowsPerPort()
	b := make([]byte, 0, 384)
	b = strconv.AppendFloat(b, f, 'f', 0, 64)
	b = append(b, " flows per port (queue pairs, up to "...)
	b = strconv.AppendFloat(b, fv.maxActiveQueuePairs, 'f', 0, 64)
	b = append(b, " at once) hashed onto "...)
	b = textfmt.AppendInt(b, int(fv.jobUplinks))
	b = append(b, " leaf uplinks"...)
	if fv.planes > 1 {
		b = append(b, " over "...)
		b = strconv.AppendInt(b, int64(fv.planes), 10)
		b = append(b, " planes"...)
	}
	if r := fv.upRatio(); r > 1 {
		b = append(b, " ("...)
		b = strconv.AppendFloat(b, fv.uplinkFlows(f), 'f', 0, 64)
		b = append(b, " flows each at full rate: uplinks "...)
		b = strconv.AppendFloat(b, r, 'g', 3, 64)
		b = append(b, "x the port's speed)"...)
	}
	b = append(b, ", "...)
	b = strconv.AppendFloat(b, fv.stages, 'f', 0, 64)
	b = append(b, " links met per tier: each collective runs at its most loaded link; adaptive routing balances them"...)
	if fv.tiers >= 3 && fv.polarization > 0 {
		b = append(b, "; the spines repeat the leaves' hash (polarization "...)
		b = strconv.AppendFloat(b, fv.polarization, 'g', 2, 64)
		b = append(b, "), so their flows reach fewer uplinks"...)
	}
	return string(b)
}

// inNetworkDetail is the in-network reduction effect's detail: the
// reductions the step's classes ran, in class order, each named once (""
// when none ran). One reduction, the usual case, is a string built once
// (inNetworkDetails).
func inNetworkDetail(st *StepTime) string {
	var ran [2 * maxClasses]string
	n, only := 0, ""
	for i := range st.Classes {
		name, detail := inNetworkName(&st.Classes[i])
		if name != "" && !slices.Contains(ran[:n], name) {
			ran[n], only = name, detail
			n++
		}
	}
	switch {
	case n == 0:
		return ""
	case n == 1 && only != "":
		return only
	}
	return textfmt.JoinAnd(ran[:n]) + inNetworkSaved
}

// inNetworkSaved ends the in-network reduction effect's detail.
const inNetworkSaved = " (negative: time saved against ring and tree alone)"

// inNetworkNames are the in-network reductions a class can run, by
// algorithm (NVLS, SHARP) and class (classOrder), and inNetworkDetails
// the detail of a step that ran that one alone: the breakdown of every
// shown estimate names one, and building it was an allocation each time.
var inNetworkNames, inNetworkDetails = func() (names, details [len(inNetworkAlgos)][maxClasses]string) {
	for a, algo := range inNetworkAlgos {
		for i, class := range classOrder {
			names[a][i] = inNetworkPhrase(algo, class)
			details[a][i] = names[a][i] + inNetworkSaved
		}
	}
	return names, details
}()

// inNetworkAlgos are the in-network reductions, in the order of
// inNetworkNames' rows.
var inNetworkAlgos = [...]string{AlgoNVLS, AlgoSHARP, AlgoNVLSTree}

// inNetworkPhrase names in-network reduction algo reducing class.
func inNetworkPhrase(algo, class string) string {
	switch algo {
	case AlgoNVLS:
		return "NVLink SHARP (NVLS) reduces " + class + " in the NVSwitches"
	case AlgoNVLSTree:
		return "NVLink SHARP reduces " + class + " in each domain's NVSwitches, a tree between the domains (NVLS tree)"
	}
	return "SHARP reduces " + class + " in the InfiniBand switches"
}

// inNetworkName names the in-network reduction class c ran ("" for
// none) and, for a class of classOrder, the detail of a step that ran it
// alone ("" otherwise).
func inNetworkName(c *TrafficClass) (name, detail string) {
	a := inNetworkAlgo(c.Algorithm)
	if a < 0 {
		return "", ""
	}
	if i := classIndex(c.Name); i >= 0 {
		return inNetworkNames[a][i], inNetworkDetails[a][i]
	}
	return inNetworkPhrase(c.Algorithm, c.Name), ""
}

// inNetworkAlgo is algo's place in inNetworkAlgos (-1: none), by a
// switch (see classIndex).
func inNetworkAlgo(algo string) int {
	switch algo {
	case AlgoNVLS:
		return 0
	case AlgoSHARP:
		return 1
	case AlgoNVLSTree:
		return 2
	}
	return -1
}
